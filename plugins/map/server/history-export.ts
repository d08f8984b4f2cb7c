/**
 * History exports as report definitions (SPEC "Map": exports as blobs for mix, temperature,
 * humidity, shock, pressure): the points of a history (or mix history) with their source, the
 * sensor readings and the events, a sheet each; and one sensor series per workbook. Same
 * subject, range, scope and limits as the history call; times printed in the caller's offset
 * (`utcOffset`, minutes east of UTC). Written by the server's one xlsx writer.
 */
import {
  ApiError,
  ErrorCode,
  formatTime,
  tKey,
  timeRange,
  type PluginServerContext,
  type ReportParameter,
  type ReportQuery,
  type TimeRange,
} from '@rti/server/plugin-api';
import { history, MAX_RANGE_DAYS, type HistoryAnswer } from './history';

/** the four sensor series of a history, by the export call's name */
export const SENSOR_EXPORTS = { temperature: 'temp', humidity: 'hum', shock: 'shock', pressure: 'pres' } as const;
export type SensorExport = keyof typeof SENSOR_EXPORTS;

interface Params {
  time: TimeRange;
  carrierId?: number;
  gpsId?: number;
  sn?: string;
  utcOffset?: number;
}

const L = 'map.report';

export const HISTORY_PARAMETERS: readonly ReportParameter[] = [
  timeRange({ defaultDays: 10, maxDays: MAX_RANGE_DAYS }),
  { name: 'carrierId', type: 'ref', label: 'fields.carrier', ref: { resource: 'carrier', label: 'sn' } },
  { name: 'gpsId', type: 'ref', label: 'fields.gps', ref: { resource: 'device-gps', label: 'sn' } },
  { name: 'sn', type: 'string', maxLength: 100 },
  { name: 'utcOffset', type: 'int', min: -840, max: 840, hidden: true },
];

/** "UTC+08:00" for an offset in minutes */
export const offsetText = (m: number) =>
  `UTC${m < 0 ? '-' : '+'}${String(Math.trunc(Math.abs(m) / 60)).padStart(2, '0')}:${String(Math.abs(m) % 60).padStart(2, '0')}`;

type HistoryRow =
  | { kind: 'track'; t: number; lng: number; lat: number; speed: number | null; source: string }
  | { kind: 'sensor'; t: number; temp: number | null; hum: number | null; shock: number | null; pres: number | null }
  | { kind: 'event'; t: number; code: string; value: string | null; lng: number | null; lat: number | null };

export function defineHistoryExports(ctx: PluginServerContext, history$: (q: ReportQuery<Params>, mix: boolean) => Promise<HistoryAnswer>): void {
  const timeColumn = { key: 't', label: `${L}.time`, type: 'datetime' as const, width: 22, unitText: (q: ReportQuery) => offsetText(Number(q.zone) || 0) };

  for (const mix of [false, true]) {
    // the history of one export, read once for its three sheets
    const answers = new WeakMap<object, Promise<HistoryAnswer>>();
    const once = (q: ReportQuery<Params>) => {
      let h = answers.get(q);
      if (!h) answers.set(q, (h = history$(q, mix)));
      return h;
    };
    // the points, sensors and events of one history
    ctx.reports.define<Params, HistoryRow>({
      name: mix ? 'map.history-mix' : 'map.history',
      title: `${L}.title`,
      calls: {
        list: false,
        export: mix
          ? [
              '/map/history/mix/export',
              '/map/history/mix/admin/export',
              '/map/history/mix/all/export',
              '/map/history/export/mix',
              '/map/history/admin/export/mix',
            ]
          : ['/map/history/export', '/map/history/admin/export'],
      },
      parameters: HISTORY_PARAMETERS,
      zone: (p) => p.utcOffset ?? 0,
      columns: [timeColumn],
      // a sheet each for the points, the sensor readings and the events, written one after another
      sheets: [
        {
          name: `${L}.track`,
          columns: [
            timeColumn,
            { key: 'lng', label: `${L}.longitude`, type: 'decimal' },
            { key: 'lat', label: `${L}.latitude`, type: 'decimal' },
            { key: 'speed', label: `${L}.speed`, type: 'decimal' },
            { key: 'source', label: `${L}.source` },
          ],
          async *scan(q) {
            const h = await once(q);
            const source = { 1: q.t(`${L}.gps`), 2: q.t(`${L}.beacon`) } as Record<number, string>;
            const tr = h.track;
            yield tr.t.map((t, i) => ({ kind: 'track' as const, t, lng: tr.lng[i], lat: tr.lat[i], speed: tr.speed[i], source: source[tr.src[i]] ?? '' }));
          },
        },
        {
          name: `${L}.sensors`,
          columns: [
            timeColumn,
            { key: 'temp', label: `${L}.temperature`, type: 'decimal' },
            { key: 'hum', label: `${L}.humidity`, type: 'decimal' },
            { key: 'shock', label: `${L}.shock`, type: 'decimal' },
            { key: 'pres', label: `${L}.pressure`, type: 'decimal' },
          ],
          async *scan(q) {
            const s = (await once(q)).sensors;
            yield s.t.map((t, i) => ({ kind: 'sensor' as const, t, temp: s.temp[i], hum: s.hum[i], shock: s.shock[i], pres: s.pres[i] }));
          },
        },
        {
          name: `${L}.events`,
          columns: [
            timeColumn,
            { key: 'code', label: `${L}.code` },
            { key: 'value', label: `${L}.value` },
            { key: 'lng', label: `${L}.longitude`, type: 'decimal' },
            { key: 'lat', label: `${L}.latitude`, type: 'decimal' },
          ],
          async *scan(q) {
            yield (await once(q)).events.map((e) => ({ kind: 'event' as const, ...e }));
          },
        },
      ],
      maxRows: 1_000_000,
      fileName: (q) => `${mix ? 'history-mix' : 'history'}-${formatTime(q.params.time.from).slice(0, 10)}-${formatTime(q.params.time.to).slice(0, 10)}`,
    });

    // one sensor series per workbook
    for (const sensor of Object.keys(SENSOR_EXPORTS) as SensorExport[]) {
      const key = SENSOR_EXPORTS[sensor];
      const paths = mix ? ['/map/history/mix', '/map/history/mix/admin', '/map/history/mix/all'] : ['/map/history', '/map/history/admin'];
      ctx.reports.define<Params, { t: number; v: number }>({
        name: `map.history${mix ? '-mix' : ''}-${sensor}`,
        title: `${L}.${sensor}`,
        calls: { list: false, export: paths.map((p) => `${p}/export/${sensor}`) },
        parameters: HISTORY_PARAMETERS,
        zone: (p) => p.utcOffset ?? 0,
        columns: [timeColumn, { key: 'v', label: `${L}.${sensor}`, type: 'decimal', width: 18 }],
        async *scan(q) {
          const s = (await history$(q, mix)).sensors;
          const v = s[key];
          const out: Array<{ t: number; v: number }> = [];
          for (let i = 0; i < s.t.length; i++) if (v[i] !== null) out.push({ t: s.t[i], v: v[i]! });
          yield out;
        },
        fileName: (q) => `${sensor}-${formatTime(q.params.time.from).slice(0, 10)}-${formatTime(q.params.time.to).slice(0, 10)}`,
      });
    }
  }
}

/** The history of a report query: a subject (carrier, tracker or serial) is required. */
export function historyOf(ctx: PluginServerContext, store: () => Parameters<typeof history>[1]) {
  return (q: ReportQuery<Params>, mix: boolean): Promise<HistoryAnswer> => {
    const { carrierId, gpsId, sn, time } = q.params;
    if (carrierId === undefined && gpsId === undefined && !sn)
      throw new ApiError(ErrorCode.validation, 'server.validation.required', { field: tKey('fields.sn') });
    return history(ctx, store(), q.ctx, { carrierId, gpsId, sn, from: time.from, to: time.to, mix });
  };
}
