/**
 * GPS report, declared once as a report definition: /gps/report/list (trackers of the
 * caller's scope, a page of them, each with its days and totals), /gps/report/export (a sheet
 * per day and a sheet per device) and the scheduler's "GPS report mail" task type (SPEC §9
 * taskName 60), which mails the same workbook for the last full days of the scheduler's zone.
 * Days are cut at midnights of the caller's zone: `zone` (IANA, daylight saving included) or
 * `tz` (minutes east of UTC, what the browser sends). Figures: shared/report.ts.
 */
import { Op, type WhereOptions } from 'sequelize';
import {
  dayOf,
  lastFullDays,
  timeRange,
  zoneOffset,
  type PluginServerContext,
  type ReportColumn,
  type ReportQuery,
  type TimeRange,
} from '@rti/server/plugin-api';
import { dailyReport, totalOf } from '../shared/report';
import type { GpsReportRow } from '../shared/vehicle-answer';
import { carrierSnByTracker, trackerScope } from './carriers-of';
import { gpsRows, storeOf, toPoint } from './telemetry';

export const MAX_REPORT_DAYS = 31;
/** trackers in one export at most */
const MAX_EXPORT = 2000;
const K = 'vehicle.report';

interface Params {
  time: TimeRange;
  sn?: string;
  gpsId?: number;
  carrierId?: number;
  tz?: number;
  zone?: string;
}

const likeOf = (s: string) => ({ [Op.like]: `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%` });

function trackerWhere(p: Params): WhereOptions {
  const where: WhereOptions[] = [];
  if (p.gpsId !== undefined) where.push({ id: p.gpsId });
  if (p.carrierId !== undefined) where.push({ carrierId: p.carrierId });
  if (p.sn?.trim()) where.push({ [Op.or]: [{ sn: likeOf(p.sn.trim()) }, { name: likeOf(p.sn.trim()) }] });
  return { [Op.and]: where };
}

/** the figures of a day or of a device's total, with their units */
const FIGURES: ReportColumn[] = [
  { key: 'distanceKm', label: `${K}.columns.distanceKm`, unit: `${K}.units.km`, type: 'decimal' },
  { key: 'mileageKm', label: `${K}.columns.mileageKm`, unit: `${K}.units.km`, type: 'decimal' },
  { key: 'runningMs', label: `${K}.columns.running`, unit: 'hours', type: 'duration' },
  { key: 'stoppingMs', label: `${K}.columns.stopping`, unit: 'hours', type: 'duration' },
  { key: 'silentMs', label: `${K}.columns.silent`, unit: 'hours', type: 'duration' },
  { key: 'maxSpeed', label: `${K}.columns.maxSpeed`, unit: `${K}.units.kmh`, type: 'decimal' },
  { key: 'alarms', label: `${K}.columns.alarms`, type: 'int' },
  { key: 'tempMin', label: `${K}.columns.tempMin`, unit: 'celsius', type: 'decimal' },
  { key: 'tempMax', label: `${K}.columns.tempMax`, unit: 'celsius', type: 'decimal' },
  { key: 'points', label: `${K}.columns.points`, type: 'int' },
];
const SUBJECT: ReportColumn[] = [
  { key: 'sn', label: `${K}.columns.sn`, width: 18 },
  { key: 'name', label: `${K}.columns.name`, width: 18 },
  { key: 'carrierSn', label: `${K}.columns.carrier` },
];
const totals = (cols: ReportColumn[]) => cols.map((c) => ({ ...c, key: `total.${c.key}` }));

export function defineGpsReport(ctx: PluginServerContext): void {
  async function reportRows(q: ReportQuery<Params>, trackers: Array<Record<string, any>>): Promise<GpsReportRow[]> {
    const { from, to } = q.params.time;
    const store = storeOf(ctx);
    const offsetAt = zoneOffset(q.zone);
    const carrierSn = await carrierSnByTracker(ctx, q.ctx, trackers);
    const out: GpsReportRow[] = [];
    for (const g of trackers) {
      const days = dailyReport((await gpsRows(store, q.ctx.orgId!, String(g.sn), from, to)).map(toPoint), { offsetAt });
      out.push({
        gpsId: Number(g.id),
        sn: String(g.sn),
        name: (g.name as string) ?? null,
        carrierSn: carrierSn.get(Number(g.id)) ?? null,
        days,
        total: totalOf(days),
      });
    }
    return out;
  }

  ctx.reports.define<Params, GpsReportRow>({
    name: 'vehicle.gps-report',
    title: `${K}.title`,
    path: '/gps/report',
    parameters: [
      timeRange({ defaultDays: 7, maxDays: MAX_REPORT_DAYS }),
      { name: 'sn', type: 'string', label: 'fields.sn', maxLength: 100 },
      { name: 'gpsId', type: 'ref', label: 'fields.gps', ref: { resource: 'device-gps', label: 'sn' }, hidden: true },
      { name: 'carrierId', type: 'ref', label: 'fields.carrier', ref: { resource: 'carrier', label: 'sn' }, hidden: true },
      { name: 'tz', type: 'int', min: -840, max: 840, hidden: true },
      { name: 'zone', type: 'string', maxLength: 64, hidden: true },
    ],
    zone: (p) => p.zone ?? p.tz ?? 0,
    columns: [...SUBJECT, { key: 'total.days', label: `${K}.columns.days`, type: 'int' }, ...totals(FIGURES)],
    sheets: [
      {
        name: `${K}.sheets.perDay`,
        columns: [...SUBJECT, { key: 'day', label: `${K}.columns.day`, width: 12 }, ...FIGURES],
        rows: (r: GpsReportRow) => r.days.map((d) => ({ ...r, ...d })),
      },
      { name: `${K}.sheets.perDevice`, columns: [...SUBJECT, { key: 'total.days', label: `${K}.columns.days`, type: 'int' }, ...totals(FIGURES)] },
    ],
    rowKey: 'gpsId',
    async rows(q, w) {
      const repo = ctx.repo('device-gps', q.ctx);
      const where = { [Op.and]: [trackerWhere(q.params), ...(await trackerScope(ctx, q.ctx))] };
      const [rows, total] = await Promise.all([
        repo.findAll({
          where,
          order: [
            ['sn', 'ASC'],
            ['id', 'ASC'],
          ],
          limit: w.limit,
          offset: w.offset,
        }),
        repo.count(where),
      ]);
      return { list: await reportRows(q, await repo.serialize(rows)), total };
    },
    pageSize: 50,
    maxRows: MAX_EXPORT,
    fileName: (q) => `gps-report-${dayOf(q.params.time.from, q.zone)}-${dayOf(q.params.time.to, q.zone)}`,
    schedule: {
      taskName: 'gpsReportMail',
      skip: (run) => (ctx.use('telemetry').store ? undefined : run.t(`${K}.noTelemetry`)),
      // the last full days (validity period, default 1) of the scheduler's zone
      parameters: ({ task, now, timezone }) => {
        const r = lastFullDays(now.getTime(), Number(task.validityPeriod) > 0 ? Number(task.validityPeriod) : 1, timezone);
        return { time: [r.from, r.to], zone: timezone };
      },
      tally: () => 'trackers',
      summary: (run, r) =>
        run.t(`${K}.mail.text`, {
          count: r.counts.trackers ?? 0,
          lines: r.rows,
          from: dayOf(r.params.time.from, run.timezone),
          to: dayOf(r.params.time.to, run.timezone),
        }),
      empty: (run, p) => run.t(`${K}.mail.empty`, { from: dayOf(p.time.from, run.timezone), to: dayOf(p.time.to, run.timezone) }),
      fileName: (run, p) => `gps-report-${dayOf(p.time.to, run.timezone)}`,
    },
  });
}
