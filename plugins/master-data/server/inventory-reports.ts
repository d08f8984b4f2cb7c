/**
 * Inventory reports (SPEC report group "/inventory/report/list" daily and ".../week" weekly,
 * calls /inventory-report/list and /inventory-report/week, and SPEC §9 task names 2, 3 and 5):
 * per warehouse of the caller's scope, the carriers now in it against its minimum, maximum and
 * theoretical inventory, the difference to theory and the level; the weekly report adds the
 * inbound and outbound carrier movements of the range (default the last 7 days).
 */
import { Enums } from '@rti/metadata';
import { Op } from 'sequelize';
import { dayOf, formatTime, timeRange, type PluginServerContext, type ReportColumn, type ReportQuery, type ScheduledRun, type TimeRange } from '@rti/server/plugin-api';

export type InventoryLevel = 'below' | 'above' | 'normal';

export function levelOf(count: number, min: number | null, max: number | null): InventoryLevel {
  if (min !== null && count < min) return 'below';
  if (max !== null && count > max) return 'above';
  return 'normal';
}

const n = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
const K = 'master-data.inventory';

interface Params {
  code?: string;
  time?: TimeRange;
}

interface InventoryRow {
  id: number;
  code: string;
  name: string;
  count: number;
  min: number | null;
  max: number | null;
  theory: number | null;
  gap: number | null;
  levelKey: InventoryLevel;
  level: string;
  inbound?: number;
  outbound?: number;
}

export function defineInventoryReports(ctx: PluginServerContext): void {
  const { inbound: INBOUND, outbound: OUTBOUND } = Enums.inoutDirection;

  const warehouseWhere = (q: ReportQuery<Params>) => (q.params.code ? { [Op.or]: [{ code: { [Op.like]: `%${q.params.code}%` } }, { name: { [Op.like]: `%${q.params.code}%` } }] } : undefined);

  async function figures(q: ReportQuery<Params>, warehouses: Array<Record<string, any>>, weekly: boolean): Promise<InventoryRow[]> {
    const carriers = ctx.repo('carrier', q.ctx);
    const moves = ctx.repo('carrier-inout', q.ctx);
    const out: InventoryRow[] = [];
    for (const w of warehouses) {
      const count = await carriers.count({ warehouseId: w.id });
      const [min, max, theory] = [n(w.minInventory), n(w.maxInventory), n(w.theoryInventory)];
      const levelKey = levelOf(count, min, max);
      const row: InventoryRow = { id: Number(w.id), code: w.code, name: w.name, count, min, max, theory, gap: theory === null ? null : count - theory, levelKey, level: q.t(`${K}.level.${levelKey}`) };
      if (weekly && q.params.time) {
        const window = { warehouseId: w.id, confirmTime: { [Op.gte]: new Date(q.params.time.from), [Op.lte]: new Date(q.params.time.to) } };
        row.inbound = await moves.count({ ...window, direction: INBOUND });
        row.outbound = await moves.count({ ...window, direction: OUTBOUND });
      }
      out.push(row);
    }
    return out;
  }

  const columns = (weekly: boolean): ReportColumn<InventoryRow>[] => [
    { key: 'code', label: `${K}.col.warehouseCode`, width: 14 },
    { key: 'name', label: `${K}.col.warehouse`, width: 22 },
    { key: 'count', label: `${K}.col.carriers`, type: 'int', width: 12 },
    { key: 'min', label: `${K}.col.minInventory`, type: 'int', width: 12 },
    { key: 'max', label: `${K}.col.maxInventory`, type: 'int', width: 12 },
    { key: 'theory', label: `${K}.col.theoryInventory`, type: 'int', width: 12 },
    { key: 'gap', label: `${K}.col.gap`, type: 'int', width: 12 },
    { key: 'level', label: `${K}.col.level`, width: 14 },
    ...(weekly
      ? ([
          { key: 'inbound', label: `${K}.col.inbound`, type: 'int', width: 12 },
          { key: 'outbound', label: `${K}.col.outbound`, type: 'int', width: 12 },
        ] as ReportColumn<InventoryRow>[])
      : []),
  ];

  const summary = (run: ScheduledRun, r: { rows: number; counts: Record<string, number> }) =>
    run.t(`${K}.text`, { count: r.rows, date: formatTime(run.now, run.timezone).slice(0, 10), below: r.counts.below ?? 0, above: r.counts.above ?? 0 });

  for (const weekly of [false, true]) {
    ctx.reports.define<Params, InventoryRow>({
      name: weekly ? 'master-data.inventory-weekly' : 'master-data.inventory-daily',
      title: weekly ? `${K}.weekly` : `${K}.daily`,
      calls: weekly ? { list: '/inventory-report/week', export: '/inventory-report/week/export' } : { list: '/inventory-report/list', export: '/inventory-report/export' },
      parameters: [{ name: 'code', type: 'string', label: 'fields.warehouse', maxLength: 100 }, ...(weekly ? [timeRange({ defaultDays: 7, maxDays: 93 })] : [])],
      columns: columns(weekly),
      rowKey: 'id',
      async rows(q, w) {
        const repo = ctx.repo('warehouse', q.ctx);
        const where = warehouseWhere(q);
        const [found, total] = await Promise.all([repo.findAll({ where, order: [['code', 'ASC'], ['id', 'ASC']], limit: w.limit, offset: w.offset, raw: true }), repo.count(where)]);
        return { list: await figures(q, found as unknown as Array<Record<string, any>>, weekly), total };
      },
      pageSize: 100,
      fileName: (q) => `${weekly ? 'weekly' : 'daily'}-inventory-${dayOf(q.params.time?.to ?? Date.now(), q.zone)}`,
      chart: { type: 'bar', x: 'code', y: ['count', 'min', 'max'] },
      schedule: {
        taskName: weekly ? 'weeklyInventoryReport' : ['dailyInventoryReport', 'dailyInventoryReportMail'],
        // the weekly report's movements: the seven days up to the run
        parameters: ({ now }) => (weekly ? { time: [now.getTime() - 7 * 86_400_000, now.getTime()] } : {}),
        tally: (row: InventoryRow) => row.levelKey,
        summary,
        empty: (run) => run.t(`${K}.empty`),
      },
    });
  }
}
