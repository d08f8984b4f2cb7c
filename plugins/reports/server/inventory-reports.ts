/**
 * The daily and weekly inventory reports (SPEC report group /report/inventory/report/list and
 * /week, calls /inventory-report/…, SPEC §9 task names 2, 3 and 5), read from inventory's daily
 * closing snapshots; a day not closed yet (today) is inventory's live figures.
 *
 *   /inventory-report/list         per warehouse at a day's close (default yesterday)        mail: tasks 2, 3
 *   /inventory-report/detail       per warehouse and carrier code at a day's close          page /inventory-report
 *   /inventory-report/batch        per day, warehouse and code for a run of days (≤ 31)     ("a batch of daily details")
 *   /inventory-report/week         per warehouse over a range (default the last 7 days):    mail: task 5
 *                                  opening and closing stock, lowest, highest, average, in/out
 *   /inventory-report/week/detail  per day and warehouse over the range                     page /inventory/report/week/detail
 *
 * Each has its streamed export at `<list call>/export` (the daily list's is /inventory-report/export).
 */
import {
  dayOf,
  lastFullDays,
  repositoryPage,
  repositoryScan,
  timeRange,
  type PluginServerContext,
  type ReportColumn,
  type ReportQuery,
  type ScheduledRun,
  type TimeRange,
} from '@rti/server/plugin-api';
import { figuresReader, levelOf, type Level } from '@rti/plugin-inventory/figures';
import {
  K,
  addDays,
  closedFigures,
  closedSums,
  codeColumns,
  codeNames,
  dayParam,
  figureColumns,
  moveColumns,
  notFuture,
  num,
  page,
  snapshotWhere,
  today,
  warehouseColumns,
  warehouseParam,
  codeParam,
  yesterday,
  type Row,
} from './shared';
import { weeklyPictures } from './weekly-pictures';

interface Params {
  day?: string;
  warehouseId?: number;
  carrierCodeId?: number;
  time?: TimeRange;
}

/** longest run of days one batch answer covers (per day, warehouse and code: 31 × 25,000 rows at pool scale, paged) */
export const MAX_BATCH_DAYS = 31;
/** longest weekly range */
export const MAX_WEEK_DAYS = 93;

const levelColumns: ReportColumn[] = [
  { key: 'min', label: 'fields.minInventory', type: 'int', width: 10 },
  { key: 'max', label: 'fields.maxInventory', type: 'int', width: 10 },
  { key: 'theory', label: 'fields.theoryInventory', type: 'int', width: 10 },
  { key: 'gap', label: `${K}.col.gap`, type: 'int', width: 10 },
  { key: 'level', label: `${K}.col.level`, width: 14 },
];

export function defineInventoryReports(ctx: PluginServerContext): void {
  const figures = figuresReader(ctx);
  const levelText = (q: { t: ReportQuery['t'] }, k: Level) => q.t(`inventory.level.${k}`);

  /** the warehouse's levels against a count */
  const graded = (q: ReportQuery, w: Row, inStock: number) => {
    const [min, max, theory] = [num(w.minInventory), num(w.maxInventory), num(w.theoryInventory)];
    const levelKey = levelOf(inStock, min, max);
    return { min, max, theory, gap: theory === null ? null : inStock - theory, levelKey, level: levelText(q, levelKey) };
  };
  const warehouseOf = (w: Row) => ({ id: Number(w.id), warehouseId: Number(w.id), warehouseCode: String(w.code ?? ''), warehouseName: String(w.name ?? '') });

  /** true when the day has a closing snapshot the caller can see (else today reads live figures) */
  const isClosed = async (q: ReportQuery<Params>, day: string) => (await ctx.repo('inventory-snapshot', q.ctx).count(snapshotWhere(day, day, q.params))) > 0;

  // ---- daily: per warehouse --------------------------------------------------------------------
  async function dailyRows(q: ReportQuery<Params>): Promise<Row[]> {
    const day = q.params.day ?? yesterday(q.zone);
    notFuture(day, q.zone);
    const warehouses = await figures.warehousesOf(q.ctx, { warehouseId: q.params.warehouseId });
    if (day === today(q.zone) && !(await isClosed(q, day))) {
      const live = new Map((await figures.byWarehouse(q.ctx, { warehouseId: q.params.warehouseId }, q.t)).map((r) => [r.warehouseId, r]));
      return warehouses.map((w) => {
        const r = live.get(Number(w.id));
        const f = closedFigures(r);
        return { ...warehouseOf(w), day, closed: false, ...f, inbound: null, outbound: null, ...graded(q, w, f.inStock) };
      });
    }
    const sums = new Map((await closedSums(ctx, q, snapshotWhere(day, day, q.params), ['warehouseId'])).map((s) => [Number(s.warehouseId), s]));
    // a past day nobody closed (before the plugin ran, or the closing job has not reached it): no figures, not zeros
    if (!sums.size) return warehouses.map((w) => ({ ...warehouseOf(w), day, closed: false, levelKey: 'none', level: levelText(q, 'none') }));
    return warehouses.map((w) => {
      const f = closedFigures(sums.get(Number(w.id)));
      return { ...warehouseOf(w), day, closed: true, ...f, ...graded(q, w, f.inStock) };
    });
  }

  // ---- daily: per warehouse and code (one day) ---------------------------------------------------
  async function dayDetailRows(q: ReportQuery<Params>): Promise<Row[]> {
    const day = q.params.day ?? yesterday(q.zone);
    notFuture(day, q.zone);
    const warehouses = new Map((await figures.warehousesOf(q.ctx, { warehouseId: q.params.warehouseId })).map((w, i) => [Number(w.id), { w, i }]));
    let cells: Row[];
    if (day === today(q.zone) && !(await isClosed(q, day))) {
      cells = (await figures.byCode(q.ctx, { warehouseId: q.params.warehouseId, carrierCodeId: q.params.carrierCodeId }, q.t)).rows.map((r) => ({
        ...r,
        inbound: null,
        outbound: null,
      }));
    } else {
      cells = (await closedSums(ctx, q, snapshotWhere(day, day, q.params), ['warehouseId', 'carrierCodeId'])).map((s) => ({
        warehouseId: Number(s.warehouseId),
        carrierCodeId: num(s.carrierCodeId),
        ...closedFigures(s),
      }));
    }
    const codes = await codeNames(
      ctx,
      q,
      cells.map((c) => c.carrierCodeId),
    );
    return cells
      .filter((c) => warehouses.has(Number(c.warehouseId)))
      .map((c) => {
        const { w } = warehouses.get(Number(c.warehouseId))!;
        const code = codes.get(Number(c.carrierCodeId));
        return {
          ...c,
          ...closedFigures(c),
          inbound: c.inbound,
          outbound: c.outbound,
          key: `${c.warehouseId}:${c.carrierCodeId ?? ''}`,
          day,
          warehouseId: Number(c.warehouseId),
          warehouseCode: String(w.code ?? ''),
          warehouseName: String(w.name ?? ''),
          carrierCode: String(code?.code ?? ''),
          carrierCodeName: String(code?.name ?? ''),
        };
      })
      .sort((a, b) => warehouses.get(a.warehouseId)!.i - warehouses.get(b.warehouseId)!.i || a.carrierCode.localeCompare(b.carrierCode));
  }

  const detailColumns: ReportColumn[] = [{ key: 'day', label: 'fields.day', width: 12 }, ...warehouseColumns, ...codeColumns, ...figureColumns, ...moveColumns];
  const dailyColumns: ReportColumn[] = [
    { key: 'warehouseCode', label: `${K}.col.warehouseCode`, width: 12 },
    // a warehouse opens its codes on the daily detail page, for the same day
    { key: 'warehouseName', label: 'fields.warehouse', width: 20, link: '/inventory-report?day={day}&warehouseId={warehouseId}' },
    ...figureColumns,
    ...moveColumns,
    ...levelColumns,
  ];
  const summary = (run: ScheduledRun, r: { rows: number; params: Params; counts: Record<string, number> }) =>
    run.t(`${K}.daily.text`, { count: r.rows, date: r.params.day ?? '', below: r.counts.below ?? 0, above: r.counts.above ?? 0 });

  ctx.reports.define<Params, Row>({
    name: `${K}.inventory-daily`,
    title: `${K}.title.daily`,
    calls: { list: '/inventory-report/list', export: '/inventory-report/export' },
    parameters: [dayParam, warehouseParam],
    columns: dailyColumns,
    // the mail's workbook: the warehouses, then their codes
    sheets: [
      {
        name: `${K}.title.daily`,
        columns: dailyColumns,
        scan: async function* (q) {
          yield await dailyRows(q);
        },
      },
      {
        name: `${K}.sheet.byCode`,
        columns: detailColumns,
        scan: async function* (q) {
          yield await dayDetailRows(q);
        },
      },
    ],
    rowKey: 'warehouseId',
    chart: { type: 'bar', x: 'warehouseName', y: ['inStock', 'min', 'max'] },
    async rows(q, w) {
      return page(await dailyRows(q), w);
    },
    fileName: (q) => `daily-inventory-${q.params.day ?? yesterday(q.zone)}`,
    schedule: {
      taskName: ['dailyInventoryReport', 'dailyInventoryReportMail'],
      // the day that closed last
      parameters: ({ now, timezone }) => ({ day: yesterday(timezone, now.getTime()) }),
      tally: (row: Row) => row.levelKey,
      summary,
      empty: (run) => run.t(`${K}.daily.empty`),
    },
  });

  ctx.reports.define<Params, Row>({
    name: `${K}.inventory-daily-detail`,
    title: `${K}.title.dailyDetail`,
    calls: { list: '/inventory-report/detail', export: '/inventory-report/detail/export' },
    parameters: [dayParam, warehouseParam, codeParam],
    columns: detailColumns,
    rowKey: 'key',
    async rows(q, w) {
      return page(await dayDetailRows(q), w);
    },
    async *scan(q) {
      yield await dayDetailRows(q);
    },
    fileName: (q) => `daily-inventory-detail-${q.params.day ?? yesterday(q.zone)}`,
  });

  // ---- a batch of daily details: per day, warehouse and code, paged in the database ----------------
  const batchWhere = (q: ReportQuery<Params>) => snapshotWhere(dayOf(q.params.time!.from, q.zone), dayOf(q.params.time!.to, q.zone), q.params);
  const batchOrder: Array<[string, 'ASC']> = [
    ['day', 'ASC'],
    ['warehouseId', 'ASC'],
    ['carrierCodeId', 'ASC'],
  ];
  const withAvailable = (r: Row) => ({ ...r, day: String(r.day).slice(0, 10), available: Number(r.inStock) - Number(r.maintenance) });
  ctx.reports.define<Params, Row>({
    name: `${K}.inventory-batch`,
    title: `${K}.title.batch`,
    calls: { list: '/inventory-report/batch', export: '/inventory-report/batch/export' },
    parameters: [timeRange({ defaultDays: 7, maxDays: MAX_BATCH_DAYS }), warehouseParam, codeParam],
    columns: [
      { key: 'day', label: 'fields.day', width: 12 },
      { key: 'warehouseIdLabel', label: 'fields.warehouse', width: 20 },
      { key: 'carrierCodeIdLabel', label: 'fields.carrierCode', width: 14 },
      ...figureColumns,
      ...moveColumns,
    ],
    rowKey: 'id',
    async rows(q, w) {
      const p = await repositoryPage(ctx.repo('inventory-snapshot', q.ctx), { where: batchWhere(q), order: batchOrder, serialize: true }, w);
      return { list: p.list.map(withAvailable), total: p.total };
    },
    async *scan(q) {
      for await (const batch of repositoryScan(ctx.repo('inventory-snapshot', q.ctx), { where: batchWhere(q), order: batchOrder, serialize: true }, 1000))
        yield batch.map(withAvailable);
    },
    maxRows: 1_000_000,
    fileName: (q) => `inventory-batch-${dayOf(q.params.time!.from, q.zone)}-${dayOf(q.params.time!.to, q.zone)}`,
  });

  // ---- weekly ------------------------------------------------------------------------------------
  const rangeDays = (q: ReportQuery<Params>) => {
    const from = dayOf(q.params.time!.from, q.zone);
    const to = dayOf(Math.min(q.params.time!.to, Date.now()), q.zone);
    return { from, to };
  };
  /** per warehouse and day: the closed figures of the range and of the day before it (the opening stock) */
  async function weekSums(q: ReportQuery<Params>): Promise<{ warehouses: Row[]; byWarehouse: Map<number, Row[]>; from: string; to: string }> {
    const { from, to } = rangeDays(q);
    const warehouses = await figures.warehousesOf(q.ctx, { warehouseId: q.params.warehouseId });
    const byWarehouse = new Map<number, Row[]>();
    for (const s of await closedSums(ctx, q, snapshotWhere(addDays(from, -1), to, q.params), ['day', 'warehouseId'])) {
      const list = byWarehouse.get(Number(s.warehouseId)) ?? [];
      list.push(s);
      byWarehouse.set(Number(s.warehouseId), list);
    }
    for (const list of byWarehouse.values()) list.sort((a, b) => a.day.localeCompare(b.day));
    return { warehouses, byWarehouse, from, to };
  }

  async function weekRows(q: ReportQuery<Params>): Promise<Row[]> {
    const { warehouses, byWarehouse, from, to } = await weekSums(q);
    return warehouses.map((w) => {
      const days = byWarehouse.get(Number(w.id)) ?? [];
      const opening = days.find((d) => d.day < from);
      const inRange = days.filter((d) => d.day >= from);
      const stock = inRange.map((d) => Number(d.inStock));
      const last = inRange[inRange.length - 1];
      const closing = last ? Number(last.inStock) : null;
      const sum = (k: string) => inRange.reduce((s, d) => s + Number(d[k] ?? 0), 0);
      const average = stock.length ? Math.round((stock.reduce((a, b) => a + b, 0) / stock.length) * 10) / 10 : null;
      return {
        ...warehouseOf(w),
        from,
        to,
        opening: opening ? Number(opening.inStock) : null,
        closing,
        change: closing !== null && opening ? closing - Number(opening.inStock) : null,
        lowest: stock.length ? Math.min(...stock) : null,
        highest: stock.length ? Math.max(...stock) : null,
        average,
        inbound: sum('inbound'),
        outbound: sum('outbound'),
        daysClosed: inRange.length,
        ...graded(q, w, closing ?? 0),
        ...(closing === null ? { levelKey: 'none', level: levelText(q, 'none') } : {}),
      };
    });
  }

  const weekColumns: ReportColumn[] = [
    { key: 'warehouseCode', label: `${K}.col.warehouseCode`, width: 12 },
    // a warehouse opens its days on the weekly detail page, for the same range
    { key: 'warehouseName', label: 'fields.warehouse', width: 20, link: '/inventory/report/week/detail?warehouseId={warehouseId}' },
    { key: 'opening', label: `${K}.col.opening`, type: 'int', width: 10 },
    { key: 'closing', label: `${K}.col.closing`, type: 'int', width: 10 },
    { key: 'change', label: `${K}.col.change`, type: 'int', width: 10 },
    { key: 'lowest', label: `${K}.col.lowest`, type: 'int', width: 10 },
    { key: 'highest', label: `${K}.col.highest`, type: 'int', width: 10 },
    { key: 'average', label: `${K}.col.average`, type: 'decimal', width: 10 },
    ...moveColumns,
    ...levelColumns,
  ];
  async function weekDetailRows(q: ReportQuery<Params>): Promise<Row[]> {
    const { warehouses, byWarehouse, from } = await weekSums(q);
    const out: Row[] = [];
    for (const w of warehouses) {
      for (const d of byWarehouse.get(Number(w.id)) ?? []) {
        if (d.day < from) continue;
        const f = closedFigures(d);
        out.push({ ...warehouseOf(w), key: `${d.day}:${w.id}`, day: d.day, ...f, ...graded(q, w, f.inStock) });
      }
    }
    return out;
  }

  ctx.reports.define<Params, Row>({
    name: `${K}.inventory-weekly`,
    title: `${K}.title.weekly`,
    calls: { list: '/inventory-report/week', export: '/inventory-report/week/export' },
    parameters: [timeRange({ defaultDays: 7, maxDays: MAX_WEEK_DAYS }), warehouseParam],
    columns: weekColumns,
    sheets: [
      {
        name: `${K}.title.weekly`,
        columns: weekColumns,
        scan: async function* (q) {
          yield await weekRows(q);
        },
      },
      {
        name: `${K}.sheet.byDay`,
        columns: [{ key: 'day', label: 'fields.day', width: 12 }, ...warehouseColumns, ...figureColumns, ...moveColumns, ...levelColumns],
        scan: async function* (q) {
          yield await weekDetailRows(q);
        },
      },
    ],
    rowKey: 'warehouseId',
    chart: { type: 'bar', x: 'warehouseName', y: ['opening', 'closing', 'inbound', 'outbound'] },
    async rows(q, w) {
      return page(await weekRows(q), w);
    },
    fileName: (q) => `weekly-inventory-${dayOf(q.params.time!.to, q.zone)}`,
    schedule: {
      taskName: 'weeklyInventoryReport',
      // the seven closed days before the run
      parameters: ({ now, timezone }) => {
        const week = lastFullDays(now.getTime(), 7, timezone);
        return { time: [week.from, week.to] };
      },
      tally: (row: Row) => row.levelKey,
      summary: (run, r) =>
        run.t(`${K}.weekly.text`, {
          count: r.rows,
          from: dayOf(r.params.time!.from, run.timezone),
          to: dayOf(r.params.time!.to, run.timezone),
          below: r.counts.below ?? 0,
          above: r.counts.above ?? 0,
        }),
      empty: (run) => run.t(`${K}.daily.empty`),
      // the weekly screenshot map and marker pages as PNGs beside the workbook (weekly-pictures.ts)
      extras: weeklyPictures(ctx),
    },
  });

  ctx.reports.define<Params, Row>({
    name: `${K}.inventory-weekly-detail`,
    title: `${K}.title.weeklyDetail`,
    calls: { list: '/inventory-report/week/detail', export: '/inventory-report/week/detail/export' },
    parameters: [timeRange({ defaultDays: 7, maxDays: MAX_WEEK_DAYS }), warehouseParam],
    columns: [{ key: 'day', label: 'fields.day', width: 12 }, ...warehouseColumns, ...figureColumns, ...moveColumns, ...levelColumns],
    rowKey: 'key',
    chart: { type: 'line', x: 'day', y: ['inStock', 'inbound', 'outbound'] },
    async rows(q, w) {
      return page(await weekDetailRows(q), w);
    },
    async *scan(q) {
      yield await weekDetailRows(q);
    },
    fileName: (q) => `weekly-inventory-detail-${dayOf(q.params.time!.to, q.zone)}`,
  });
}
