/**
 * The two maintenance reports (SPEC §2 `/maintenance/maintenance-record-top` and
 * `/maintenance/maintenance-record-report`, calls `/carrier-asset-maintenance-record/top` and
 * `/report`), declared once with `ctx.reports.define`: list, xlsx export, permission codes,
 * console page and a scheduled mail each.
 *
 * - Top 10: the carriers and the carrier codes repaired most in the period (default the last
 *   31 days): repair records not rejected, by apply time — one grouped count each.
 * - Repair data: per month, the records, audited and rejected ones, hours and cost; the
 *   workbook adds the same figures by area, department, category and root cause.
 */
import { Enums } from '@rti/metadata';
import { dayOf, dayStart, timeRange, type PluginServerContext, type ReportQuery, type ScheduledRun } from '@rti/server/plugin-api';
import { col, fn, literal, Op, type WhereOptions } from 'sequelize';
import { RECORD, type Row } from './common';

const M = Enums.maintenanceStatus;
const K = 'maintenance.reports';

interface TopParams {
  time: { from: number; to: number };
  carrierCodeId?: number;
  areaId?: number;
}
export interface TopRow {
  rank: number;
  carrier: string | null;
  carrierRepairs: number | null;
  carrierCode: string | null;
  carrierCodeRepairs: number | null;
  /** mean days between repairs of a carrier of that code in the period: carriers × days / repairs */
  carrierCodeMtbf: number | null;
}
interface DataParams {
  time: { from: number; to: number };
  type?: number;
  carrierCodeId?: number;
  areaId?: number;
  departmentId?: number;
}
export interface DataRow {
  key: string | null;
  records: number;
  audited: number;
  rejected: number;
  hours: number;
  cost: number;
}

/**
 * Whole calendar months before the current one in the scheduler's zone (`months` of them): the
 * period a scheduled mail reports. A mail sent on the 1st covers the month that just closed.
 */
export function lastFullMonths(now: number, months: number, zone: ScheduledRun['timezone']): { from: number; to: number } {
  const [y, m] = dayOf(now, zone).split('-').map(Number);
  const first = (year: number, month0: number) => {
    const d = new Date(Date.UTC(year, month0, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
  };
  return { from: dayStart(first(y, m - 1 - months), zone), to: dayStart(first(y, m - 1), zone) - 1 };
}
const periodOf = (run: ScheduledRun, p: { time: { from: number; to: number } }) => ({
  from: dayOf(p.time.from, run.timezone),
  to: dayOf(p.time.to, run.timezone),
});

const dictionaryRef = (category: number) => ({ resource: 'dictionary', label: 'name', filter: { category } });

export function registerReports(ctx: PluginServerContext): void {
  const topWhere = (p: TopParams): WhereOptions => {
    const w: Row = {
      type: Enums.maintenanceType.repair,
      status: { [Op.ne]: M.rejected },
      applyTime: { [Op.gte]: new Date(p.time.from), [Op.lte]: new Date(p.time.to) },
    };
    if (p.carrierCodeId) w.carrierCodeId = p.carrierCodeId;
    if (p.areaId) w.areaId = p.areaId;
    return w;
  };

  /** The ten ids counted most, with their counts. */
  const topTen = (counts: Map<number | string | null, number>) =>
    [...counts]
      .filter(([id]) => id !== null)
      .sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]))
      .slice(0, 10)
      .map(([id, n]) => ({ id: Number(id), n }));

  async function top(q: ReportQuery<TopParams>): Promise<TopRow[]> {
    const repo = ctx.repo(RECORD, q.ctx);
    const where = topWhere(q.params);
    const [byCarrier, byCode] = await Promise.all([repo.countBy('carrierId', where), repo.countBy('carrierCodeId', where)]);
    const carriers = topTen(byCarrier);
    const codes = topTen(byCode);
    // the serials as the records kept them (a carrier may be gone), the codes as they are now
    const sns = new Map(
      (
        await repo.rows(
          { carrierId: { [Op.in]: carriers.map((c) => c.id) } },
          { attributes: ['carrierId', [fn('MAX', col(repo.column('carrierSn'))), 'sn']], group: ['carrierId'] },
        )
      ).map((r) => [Number(r.carrierId), String(r.sn)]),
    );
    const codeNames = new Map(
      (await ctx.repo('carrier-code', q.ctx).rows({ id: { [Op.in]: codes.map((c) => c.id) } }, { attributes: ['id', 'code'] })).map((r) => [
        Number(r.id),
        String(r.code),
      ]),
    );
    const fleet = await ctx.repo('carrier', q.ctx).countBy('carrierCodeId', { carrierCodeId: { [Op.in]: codes.map((c) => c.id) } });
    const days = (q.params.time.to - q.params.time.from) / 86_400_000;
    const mtbf = (id: number, repairs: number) => Math.round((((fleet.get(id) ?? 0) * days) / repairs) * 10) / 10;
    return Array.from({ length: Math.max(carriers.length, codes.length) }, (_, i) => ({
      rank: i + 1,
      carrier: carriers[i] ? (sns.get(carriers[i].id) ?? `#${carriers[i].id}`) : null,
      carrierRepairs: carriers[i]?.n ?? null,
      carrierCode: codes[i] ? (codeNames.get(codes[i].id) ?? null) : null,
      carrierCodeRepairs: codes[i]?.n ?? null,
      carrierCodeMtbf: codes[i] ? mtbf(codes[i].id, codes[i].n) : null,
    }));
  }

  ctx.reports.define<TopParams, TopRow>({
    name: 'maintenance.top',
    title: `${K}.top.title`,
    calls: { list: '/carrier-asset-maintenance-record/top', export: '/carrier-asset-maintenance-record/top/export' },
    parameters: [
      timeRange({ label: 'fields.applyTime', defaultDays: 31, maxDays: 366 }),
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
      { name: 'areaId', type: 'ref', label: 'fields.assetArea', ref: dictionaryRef(Enums.dictionaryCategory.area) },
    ],
    columns: [
      { key: 'rank', label: `${K}.top.rank`, type: 'int', width: 8 },
      { key: 'carrier', label: 'fields.carrier', width: 20 },
      { key: 'carrierRepairs', label: `${K}.repairs`, type: 'int', width: 10 },
      { key: 'carrierCode', label: 'fields.carrierCode', width: 18 },
      { key: 'carrierCodeRepairs', label: `${K}.repairs`, type: 'int', width: 10 },
      { key: 'carrierCodeMtbf', label: `${K}.mtbf`, unit: 'days', type: 'decimal', width: 12 },
    ],
    rowKey: 'rank',
    chart: { type: 'bar', x: 'carrier', y: ['carrierRepairs'] },
    async rows(q, w) {
      const all = await top(q);
      return { list: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    async *scan(q) {
      yield await top(q);
    },
    fileName: () => `maintenance-top-${new Date().toISOString().slice(0, 10)}`,
    // task maintenanceTopReportMail: the month that closed last, mailed as the workbook
    schedule: {
      taskName: 'maintenanceTopReportMail',
      parameters: (run) => {
        const r = lastFullMonths(run.now.getTime(), 1, run.timezone);
        return { time: [r.from, r.to] };
      },
      summary: (run, r) => run.t(`${K}.top.mail`, { count: r.rows, ...periodOf(run, r.params) }),
      empty: (run, p) => run.t(`${K}.top.empty`, periodOf(run, p)),
      fileName: (run, p) => `maintenance-top-${periodOf(run, p).from.slice(0, 7)}`,
    },
  });

  // ---- repair data -----------------------------------------------------------------------
  const dataWhere = (p: DataParams): WhereOptions => {
    const w: Row = { applyTime: { [Op.gte]: new Date(p.time.from), [Op.lte]: new Date(p.time.to) } };
    for (const f of ['type', 'carrierCodeId', 'areaId', 'departmentId'] as const) if (p[f] !== undefined && p[f] !== null) w[f] = p[f];
    return w;
  };

  async function figures(q: ReportQuery<DataParams>, by: 'month' | 'areaId' | 'departmentId' | 'categoryId' | 'rootCauseId'): Promise<DataRow[]> {
    const repo = ctx.repo(RECORD, q.ctx);
    const key = by === 'month' ? repo.calendarKey('applyTime', 'month') : col(repo.column(by));
    // one scan: counts per status as SUM(CASE …) beside the totals
    const status = repo.quoted('status');
    const countOf = (s: number) => fn('SUM', literal(`CASE WHEN ${status} = ${Number(s)} THEN 1 ELSE 0 END`));
    const rows = await repo.rows(dataWhere(q.params), {
      attributes: [
        [key, 'k'],
        [fn('COUNT', col(repo.column('id'))), 'records'],
        [fn('SUM', col(repo.column('hours'))), 'hours'],
        [fn('SUM', col(repo.column('cost'))), 'cost'],
        [countOf(M.audited), 'audited'],
        [countOf(M.rejected), 'rejected'],
      ],
      group: ['k'],
    });
    let labels = new Map<string, string>();
    if (by !== 'month') {
      const ids = rows.map((r) => Number(r.k)).filter((n) => n > 0);
      labels = new Map(
        (await ctx.repo('dictionary', q.ctx).rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'name'] })).map((d) => [String(d.id), String(d.name)]),
      );
    }
    return rows
      .map((r) => ({
        key: r.k === null || r.k === undefined ? null : by === 'month' ? String(r.k) : (labels.get(String(r.k)) ?? null),
        records: Number(r.records) || 0,
        audited: Number(r.audited) || 0,
        rejected: Number(r.rejected) || 0,
        hours: Math.round((Number(r.hours) || 0) * 100) / 100,
        cost: Math.round((Number(r.cost) || 0) * 100) / 100,
      }))
      .sort((a, b) => (by === 'month' ? String(a.key).localeCompare(String(b.key)) : b.records - a.records));
  }

  const figureColumns = (keyLabel: string) => [
    { key: 'key', label: keyLabel, width: 18 },
    { key: 'records', label: `${K}.records`, type: 'int' as const, width: 10 },
    { key: 'audited', label: `${K}.audited`, type: 'int' as const, width: 10 },
    { key: 'rejected', label: `${K}.rejected`, type: 'int' as const, width: 10 },
    { key: 'hours', label: 'fields.maintenanceHours', unit: 'hours', type: 'decimal' as const, width: 10 },
    { key: 'cost', label: 'fields.maintenanceCost', type: 'decimal' as const, width: 12 },
  ];
  const sheet = (name: string, keyLabel: string, by: 'month' | 'areaId' | 'departmentId' | 'categoryId' | 'rootCauseId') => ({
    name,
    columns: figureColumns(keyLabel),
    async *scan(q: ReportQuery<DataParams>) {
      yield await figures(q, by);
    },
  });

  ctx.reports.define<DataParams, DataRow>({
    name: 'maintenance.report',
    title: `${K}.data.title`,
    calls: { list: '/carrier-asset-maintenance-record/report', export: '/carrier-asset-maintenance-record/report/export' },
    parameters: [
      timeRange({ label: 'fields.applyTime', defaultDays: 365, maxDays: 1100 }),
      { name: 'type', type: 'enum', enum: 'maintenanceType', label: 'fields.maintenanceType' },
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
      { name: 'areaId', type: 'ref', label: 'fields.assetArea', ref: dictionaryRef(Enums.dictionaryCategory.area) },
      { name: 'departmentId', type: 'ref', label: 'fields.assetDepartment', ref: dictionaryRef(Enums.dictionaryCategory.department) },
    ],
    columns: figureColumns(`${K}.month`),
    sheets: [
      sheet(`${K}.byMonth`, `${K}.month`, 'month'),
      sheet(`${K}.byArea`, 'fields.assetArea', 'areaId'),
      sheet(`${K}.byDepartment`, 'fields.assetDepartment', 'departmentId'),
      sheet(`${K}.byCategory`, 'fields.maintenanceCategory', 'categoryId'),
      sheet(`${K}.byRootCause`, 'fields.rootCause', 'rootCauseId'),
    ],
    rowKey: 'key',
    chart: { type: 'line', x: 'key', y: ['records', 'hours', 'cost'] },
    async rows(q, w) {
      const all = await figures(q, 'month');
      return { list: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    fileName: () => `maintenance-report-${new Date().toISOString().slice(0, 10)}`,
    // task maintenanceRepairReportMail: the last twelve closed months, every sheet
    schedule: {
      taskName: 'maintenanceRepairReportMail',
      parameters: (run) => {
        const r = lastFullMonths(run.now.getTime(), 12, run.timezone);
        return { time: [r.from, r.to] };
      },
      summary: (run, r) => run.t(`${K}.data.mail`, { count: r.rows, ...periodOf(run, r.params) }),
      empty: (run, p) => run.t(`${K}.data.empty`, periodOf(run, p)),
      fileName: (run, p) => `maintenance-report-${periodOf(run, p).to.slice(0, 7)}`,
    },
  });
}
