/**
 * SPEC §7 data-points calls over the TelemetryStore of the caller's organisation. The list and
 * base calls of beacons and GPS trackers are ingest's own CallDefs (`dataPointCalls`,
 * docs/TELEMETRY.md §11); this file adds what they lack:
 *   /data-points/{beacon|gps|gateway}/export  { mac | sn | beaconId | gpsId, time: [from, to] } → xlsx (≤ EXPORT_MAX rows),
 *                                             a report definition written by the server's one xlsx writer
 *   /data-points/gateway/list                 { mac | gatewayId, time, page, limit }: a gateway's heartbeat/connection log
 *   /data-points/gateway                      { mac }: its newest heartbeat
 * Newest first; times as ISO strings (`ts` for GPS, as SPEC §3 names it).
 */
import { beaconSeries, dataPointCalls, gatewaySeries, gpsSeries, type SeriesSchema, type TelemetryStore, type SeriesRow } from '@rti/ingest';
import {
  ApiError,
  ErrorCode,
  invalid,
  parseOpenTimeRange,
  timeRange,
  type PluginServerContext,
  type RequestContext,
  type TimeRange,
} from '@rti/server/plugin-api';
import { canonicalMac } from './fleet-loader';

const EXPORT_MAX = 100_000;
const KINDS: Array<{ kind: string; schema: SeriesSchema; device: string; idField: string }> = [
  { kind: 'beacon', schema: beaconSeries, device: 'device-beacon', idField: 'beaconId' },
  { kind: 'gps', schema: gpsSeries, device: 'device-gps', idField: 'gpsId' },
  { kind: 'gateway', schema: gatewaySeries, device: 'device-slave-gateway', idField: 'gatewayId' },
];

function present(k: (typeof KINDS)[number], r: SeriesRow): Record<string, unknown> {
  const { org: _org, time: t, ...rest } = r;
  const iso = new Date(t).toISOString();
  return k.kind === 'gps' ? { ...rest, ts: iso } : { ...rest, time: iso };
}

export function installDataPointCalls(ctx: PluginServerContext, store: () => TelemetryStore | undefined): void {
  const storeOrFail = (): TelemetryStore => {
    const s = store();
    if (!s) throw new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
    return s;
  };

  async function keyOf(k: (typeof KINDS)[number], body: Record<string, unknown>, call: RequestContext): Promise<string | undefined> {
    const idKey = k.schema.key;
    const raw = body[idKey] ?? (idKey === 'mac' ? undefined : body.sn);
    if (typeof raw === 'string' && raw) return idKey === 'mac' ? canonicalMac(raw) : raw;
    const id = body[k.idField];
    if (id !== undefined && id !== null && id !== '') {
      const row = await ctx.repo(k.device, call).get({ id });
      return idKey === 'mac' ? canonicalMac(row.mac) : String(row.sn);
    }
    if (idKey === 'mac' && typeof body.sn === 'string' && body.sn) {
      const found = await ctx.repo(k.device, call).list({ sn: body.sn, page: 1, limit: 1 });
      const row = found.list.find((r) => r.sn === body.sn);
      return row ? canonicalMac(row.mac) : '-';
    }
    return undefined;
  }

  /** the server's one time-range parameter, open at either end (`ts` is SPEC §3's name for GPS) */
  const range = (body: Record<string, unknown>): Partial<TimeRange> => parseOpenTimeRange({ ...body, time: body.time ?? body.ts });

  // ingest's list/base calls, over the store the runtime opens once the server is ready
  const lazyStore = {
    engine: 'lazy',
    query: (q) => storeOrFail().query(q),
    latest: (series, org, keys) => storeOrFail().latest(series, org, keys),
  } as Pick<TelemetryStore, 'engine' | 'query' | 'latest'> as TelemetryStore;
  for (const def of dataPointCalls(lazyStore)) ctx.addCall(def);

  for (const k of KINDS) {
    const base = `/data-points/${k.kind}`;
    if (k.kind === 'gateway') {
      ctx.addCall({
        path: `${base}/list`,
        // page and limit bounded like the generated lists (page 1e300, 2.5 or −1 is a 10001)
        paging: true,
        async handler({ body, input, ctx: call }) {
          const page = await storeOrFail().query({
            series: k.schema.name,
            org: call.orgId!,
            key: await keyOf(k, body, call),
            ...range(body),
            page: input.page,
            limit: input.limit,
          });
          return { list: page.list.map((r) => present(k, r)), total: page.total };
        },
      });
      ctx.addCall({
        path: base,
        async handler({ body, ctx: call }) {
          const key = await keyOf(k, body, call);
          if (!key) throw invalid('required', 'mac');
          const [row] = await storeOrFail().latest(k.schema.name, call.orgId!, [key]);
          if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
          return present(k, row);
        },
      });
    }
    // the export: a report definition over the store (export only: the list is ingest's call)
    const columns = [k.kind === 'gps' ? 'ts' : 'time', k.schema.key, ...k.schema.columns.map((c) => c.name).filter((c) => c !== k.schema.key)];
    // a column with a field label is headed by it in the caller's language, else by its name
    const labelOf = (c: string) => (ctx.t('en-US', `fields.${c}`) === `fields.${c}` ? c : `fields.${c}`);
    const cols = columns.map((c) => ({ key: c, label: labelOf(c), width: 18 }));
    ctx.reports.define<Record<string, unknown> & { time: Partial<TimeRange> }, Record<string, unknown>>({
      name: `telemetry.data-points-${k.kind}`,
      title: k.kind === 'gps' ? 'menu.dataPointsGps' : k.kind === 'beacon' ? 'menu.dataPointsBeacon' : `resources.${k.device}`,
      calls: { list: false, export: `${base}/export` },
      parameters: [
        timeRange({ open: true }),
        ...[...new Set([k.schema.key, 'sn'])].map((name) => ({ name, type: 'string' as const, maxLength: 100 })),
        { name: k.idField, type: 'ref', ref: { resource: k.device, label: 'sn' } },
      ],
      columns: cols,
      sheets: [{ name: `data-points-${k.kind}`, columns: cols }],
      async *scan(q) {
        const s = storeOrFail();
        const query = { series: k.schema.name, org: q.ctx.orgId!, key: await keyOf(k, q.params, q.ctx), ...q.params.time };
        for (let page = 1; ; page++) {
          const got = await s.query({ ...query, page, limit: 1000 });
          yield got.list.map((r) => present(k, r));
          if (got.list.length < 1000) return;
        }
      },
      maxRows: EXPORT_MAX,
      fileName: () => `data-points-${k.kind}-${new Date().toISOString().slice(0, 10)}`,
    });
  }
}
