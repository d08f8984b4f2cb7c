/**
 * SPEC §7 Inventory calls, each a report (list + streamed xlsx export + console description,
 * docs/PLUGINS.md "Reports"), all through the caller's scoped repository:
 *
 *   /inventory/realtime        per warehouse and carrier code, now        export /inventory/real/detail/all/export
 *   /inventory/query           per warehouse, now or at a day's close     export /inventory/export
 *   /inventory/real/detail     the carriers behind a figure (drill-down)  export /inventory/real/detail/export
 *   /inventory/detail          per warehouse and code at a day's close    export /inventory/detail/export
 *   /inventory/transport       in transit to and from each warehouse      export /inventory/transport/export
 *                              (carriers in transit)                      export /inventory/transport/detail/all/export
 *   /inventory/maintain        under maintenance per warehouse and code   export /inventory/maintain/export
 *                              (carriers under maintenance)               export /inventory/maintain/detail/all/export
 *   /inventory/history         closed days per warehouse (or code)        export /inventory/history/export
 */
import { Enums, statusGroup } from '@rti/metadata';
import {
  ApiError,
  ErrorCode,
  repositoryPage,
  repositoryScan,
  timeRange,
  type PluginServerContext,
  type ReportColumn,
  type ReportQuery,
  type RowWindow,
  type TimeRange,
} from '@rti/server/plugin-api';
import { Op, col, fn, type WhereOptions } from 'sequelize';
import { IN_STOCK } from './adjustment';
import { IN_MAINTENANCE, OFF_BOOKS, figuresReader, levelOf, type CodeRow, type WarehouseRow } from './figures';
import { dayString, snapshots } from './snapshots';

type Row = Record<string, any>;
const K = 'inventory';
type View = 'stock' | 'maintain' | 'idle' | 'empty' | 'full';

interface Params {
  warehouseId?: number;
  carrierCodeId?: number;
  day?: string;
  view?: View;
  sn?: string;
  time?: TimeRange;
}

const warehouseParam = { name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } } as const;
const codeParam = { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } } as const;
const dayParam = { name: 'day', type: 'date', label: 'fields.day' } as const;

const page = <R>(rows: R[], w: RowWindow) => ({ list: rows.slice(w.offset, w.offset + w.limit), total: rows.length });

/** the carriers behind a figure of one warehouse and code: the drill-down page, filtered by the link */
const DETAIL_PAGE = '/inventory-manage/inventory/realtime/detail';
const drill = (view: string, byCode: boolean) => `${DETAIL_PAGE}?warehouseId={warehouseId}${byCode ? '&carrierCodeId={carrierCodeId}' : ''}&view=${view}`;
const figureColumns = (links?: 'code' | 'warehouse'): ReportColumn[] => {
  const link = (view: string) => (links ? { link: drill(view, links === 'code') } : {});
  return [
    { key: 'inStock', label: 'fields.inStock', type: 'int', width: 10, ...link('stock') },
    { key: 'available', label: `${K}.col.available`, type: 'int', width: 10 },
    { key: 'maintenance', label: 'fields.maintenance', type: 'int', width: 10, ...link('maintain') },
    { key: 'idle', label: 'fields.idle', type: 'int', width: 10, ...link('idle') },
    { key: 'empty', label: 'fields.empty', type: 'int', width: 10, ...link('empty') },
    { key: 'full', label: 'fields.full', type: 'int', width: 10, ...link('full') },
    { key: 'inTransitIn', label: 'fields.inTransitIn', type: 'int', width: 12 },
    { key: 'inTransitOut', label: 'fields.inTransitOut', type: 'int', width: 12 },
  ];
};
const warehouseColumns: ReportColumn[] = [
  { key: 'warehouseCode', label: `${K}.col.warehouseCode`, width: 12 },
  { key: 'warehouseName', label: 'fields.warehouse', width: 20 },
];
const codeColumns: ReportColumn[] = [
  { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
  { key: 'carrierCodeName', label: `${K}.col.carrierCodeName`, width: 18 },
];

export function installViews(ctx: PluginServerContext): ReturnType<typeof snapshots> {
  const figures = figuresReader(ctx);
  const closing = snapshots(ctx, figures);
  const inTransit = ctx.metadata.resources['ship-order'] ? statusGroup(ctx.metadata.resources['ship-order'], 'inTransit').map(Number) : [];
  const filter = (q: ReportQuery<Params>) => ({ warehouseId: q.params.warehouseId, carrierCodeId: q.params.carrierCodeId });

  // ---- figures now -----------------------------------------------------------------------------
  ctx.reports.define<Params, CodeRow>({
    name: `${K}.realtime`,
    title: `${K}.title.realtime`,
    calls: { list: '/inventory/realtime', export: '/inventory/real/detail/all/export' },
    parameters: [warehouseParam, codeParam],
    columns: [
      ...warehouseColumns,
      ...codeColumns,
      ...figureColumns('code'),
      { key: 'min', label: 'fields.minInventory', type: 'int', width: 10 },
      { key: 'max', label: 'fields.maxInventory', type: 'int', width: 10 },
      { key: 'level', label: `${K}.col.level`, width: 12 },
    ],
    rowKey: 'key',
    async rows(q, w) {
      // only the page's rows are decorated (labels, levels)
      const { rows, total } = await figures.byCode(q.ctx, { ...filter(q), window: w }, q.t);
      return { list: rows, total };
    },
    async *scan(q) {
      yield (await figures.byCode(q.ctx, filter(q), q.t)).rows;
    },
    fileName: () => `inventory-realtime-${dayString(Date.now())}`,
  });

  ctx.reports.define<Params, WarehouseRow | Row>({
    name: `${K}.query`,
    title: `${K}.title.query`,
    calls: { list: '/inventory/query', export: '/inventory/export' },
    parameters: [warehouseParam, dayParam],
    columns: [
      { key: 'warehouseCode', label: `${K}.col.warehouseCode`, width: 12 },
      // a warehouse opens its codes in the real-time view
      { key: 'warehouseName', label: 'fields.warehouse', width: 20, link: '/inventory-manage/inventory/realtime?warehouseId={warehouseId}' },
      ...figureColumns('warehouse'),
      { key: 'min', label: 'fields.minInventory', type: 'int', width: 10 },
      { key: 'max', label: 'fields.maxInventory', type: 'int', width: 10 },
      { key: 'theory', label: 'fields.theoryInventory', type: 'int', width: 10 },
      { key: 'gap', label: `${K}.col.gap`, type: 'int', width: 10 },
      { key: 'level', label: `${K}.col.level`, width: 12 },
    ],
    rowKey: 'warehouseId',
    chart: { type: 'bar', x: 'warehouseName', y: ['inStock', 'min', 'max'] },
    async rows(q, w) {
      return page(await queryRows(q), w);
    },
    async *scan(q) {
      yield await queryRows(q);
    },
    fileName: (q) => `inventory-${q.params.day ?? dayString(Date.now())}`,
  });

  /** now, or the day's closing snapshot summed per warehouse */
  async function queryRows(q: ReportQuery<Params>): Promise<Array<WarehouseRow | Row>> {
    if (!q.params.day) return figures.byWarehouse(q.ctx, filter(q), q.t);
    const warehouses = await figures.warehousesOf(q.ctx, filter(q));
    const sums = await closedSums(q, { day: q.params.day }, ['warehouseId']);
    return warehouses.map((wh) => {
      const s = sums.get(`${wh.id}`) ?? {};
      const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      const inStock = Number(s.inStock ?? 0);
      const [min, max, theory] = [num(wh.minInventory), num(wh.maxInventory), num(wh.theoryInventory)];
      const levelKey = levelOf(inStock, min, max);
      return {
        id: Number(wh.id),
        warehouseId: Number(wh.id),
        warehouseCode: wh.code,
        warehouseName: wh.name,
        ...snapshotFigures(s),
        min,
        max,
        theory,
        gap: theory === null ? null : inStock - theory,
        levelKey,
        level: q.t(`${K}.level.${levelKey}`),
      };
    });
  }

  const SUMMED = ['inStock', 'maintenance', 'idle', 'empty', 'full', 'inTransitIn', 'inTransitOut', 'inbound', 'outbound'];
  const snapshotFigures = (s: Row) => {
    const f = Object.fromEntries(SUMMED.map((k) => [k, Number(s[k] ?? 0)]));
    return { ...f, available: f.inStock - f.maintenance };
  };
  /** closed figures summed by the given fields, keyed by their values joined with ":" */
  async function closedSums(q: ReportQuery<Params>, where: WhereOptions, by: string[]): Promise<Map<string, Row>> {
    const repo = ctx.repo('inventory-snapshot', q.ctx);
    const cond: Record<string, unknown> = { ...(where as Record<string, unknown>) };
    if (q.params.warehouseId) cond.warehouseId = q.params.warehouseId;
    if (q.params.carrierCodeId) cond.carrierCodeId = q.params.carrierCodeId;
    const rows = await repo.rows(cond, {
      attributes: [...by, ...SUMMED.map((k) => [fn('SUM', col(repo.column(k))), k] as [ReturnType<typeof fn>, string])],
      group: by,
    });
    return new Map(rows.map((r) => [by.map((b) => String(r[b] ?? '')).join(':'), r]));
  }

  // ---- the carriers behind a figure -------------------------------------------------------------
  const carrierColumns: ReportColumn[] = [
    { key: 'sn', label: 'fields.sn', width: 18 },
    { key: 'carrierCodeIdLabel', label: 'fields.carrierCode', width: 14 },
    { key: 'warehouseIdLabel', label: 'fields.warehouse', width: 18 },
    { key: 'status', label: 'fields.status', type: 'enum', enum: 'carrierStatus', width: 12 },
    { key: 'transportStatus', label: 'fields.transportStatus', type: 'enum', enum: 'transportStatus', width: 12 },
    { key: 'loadingStatus', label: 'fields.loadingStatus', type: 'enum', enum: 'loadingStatus', width: 12 },
    { key: 'inboundTime', label: 'fields.inboundTime', type: 'datetime', width: 18 },
  ];
  async function carrierWhere(q: ReportQuery<Params>): Promise<WhereOptions> {
    const view = q.params.view ?? 'stock';
    const and: WhereOptions[] = [
      { warehouseId: q.params.warehouseId ?? { [Op.ne]: null } },
      { transportStatus: { [Op.in]: IN_STOCK } },
      { [Op.or]: [{ status: { [Op.notIn]: OFF_BOOKS } }, { status: null }] },
    ];
    if (q.params.carrierCodeId) and.push({ carrierCodeId: q.params.carrierCodeId });
    if (q.params.sn) and.push({ sn: { [Op.startsWith]: q.params.sn } });
    if (view === 'maintain') and.push({ status: { [Op.in]: IN_MAINTENANCE } });
    if (view === 'empty') and.push({ loadingStatus: Enums.loadingStatus.empty });
    if (view === 'full') and.push({ loadingStatus: Enums.loadingStatus.full });
    if (view === 'idle') {
      // the idle check time of the code in the warehouse, else the warehouse's (one warehouse: its own; all: marked idle only)
      let minutes: number | null = null;
      if (q.params.warehouseId) {
        const [cfg] = q.params.carrierCodeId
          ? await ctx
              .repo('carrier-code-warehouse', q.ctx)
              .rows({ warehouseId: q.params.warehouseId, carrierCodeId: q.params.carrierCodeId }, { attributes: ['idleCheckTime'] })
          : [];
        const [wh] = await ctx.repo('warehouse', q.ctx).rows({ id: q.params.warehouseId }, { attributes: ['idleCheckTime'] });
        minutes = Number(cfg?.idleCheckTime ?? wh?.idleCheckTime ?? 0) || null;
      }
      const idle: WhereOptions[] = [{ transportStatus: Enums.transportStatus.idle }];
      if (minutes) idle.push({ inboundTime: { [Op.lt]: new Date(Date.now() - minutes * 60_000) } });
      and.push({ [Op.or]: idle });
    }
    return { [Op.and]: and };
  }
  const detailParams = [
    warehouseParam,
    codeParam,
    { name: 'view', type: 'enum', label: `${K}.col.view`, enum: 'inventoryCarrierView' },
    { name: 'sn', type: 'string', label: 'fields.sn', maxLength: 64 },
  ] as const;
  ctx.reports.define<Params, Row>({
    name: `${K}.real-detail`,
    title: `${K}.title.realDetail`,
    calls: { list: '/inventory/real/detail', export: '/inventory/real/detail/export' },
    parameters: detailParams,
    columns: carrierColumns,
    rowKey: 'id',
    async rows(q, w) {
      return repositoryPage(ctx.repo('carrier', q.ctx), { where: await carrierWhere(q), order: [['sn', 'ASC']], serialize: true }, w);
    },
    async *scan(q) {
      yield* repositoryScan(ctx.repo('carrier', q.ctx), { where: await carrierWhere(q), order: [['sn', 'ASC']], serialize: true }, 500);
    },
  });

  ctx.reports.define<Params, Row>({
    name: `${K}.maintain-detail`,
    title: `${K}.title.maintainDetail`,
    calls: { list: false, export: '/inventory/maintain/detail/all/export' },
    parameters: [warehouseParam, codeParam],
    columns: carrierColumns,
    async *scan(q) {
      const where = await carrierWhere({ ...q, params: { ...q.params, view: 'maintain' } });
      yield* repositoryScan(ctx.repo('carrier', q.ctx), { where, order: [['sn', 'ASC']], serialize: true }, 500);
    },
  });

  // ---- per code at a day's close -----------------------------------------------------------------
  ctx.reports.define<Params, Row>({
    name: `${K}.detail`,
    title: `${K}.title.detail`,
    calls: { list: '/inventory/detail', export: '/inventory/detail/export' },
    parameters: [warehouseParam, codeParam, { ...dayParam, required: true }],
    columns: [
      { key: 'day', label: 'fields.day', width: 12 },
      { key: 'warehouseIdLabel', label: 'fields.warehouse', width: 18 },
      { key: 'carrierCodeIdLabel', label: 'fields.carrierCode', width: 14 },
      ...figureColumns(),
      { key: 'inbound', label: 'fields.inbound', type: 'int', width: 10 },
      { key: 'outbound', label: 'fields.outbound', type: 'int', width: 10 },
    ],
    rowKey: 'id',
    async rows(q, w) {
      const p = await repositoryPage(
        ctx.repo('inventory-snapshot', q.ctx),
        {
          where: snapshotWhere(q),
          order: [
            ['warehouseId', 'ASC'],
            ['carrierCodeId', 'ASC'],
          ],
          serialize: true,
        },
        w,
      );
      return { list: p.list.map((r) => ({ ...r, available: Number(r.inStock) - Number(r.maintenance) })), total: p.total };
    },
    async *scan(q) {
      for await (const batch of repositoryScan(
        ctx.repo('inventory-snapshot', q.ctx),
        {
          where: snapshotWhere(q),
          order: [
            ['warehouseId', 'ASC'],
            ['carrierCodeId', 'ASC'],
          ],
          serialize: true,
        },
        500,
      )) {
        yield batch.map((r) => ({ ...r, available: Number(r.inStock) - Number(r.maintenance) }));
      }
    },
  });
  const snapshotWhere = (q: ReportQuery<Params>): WhereOptions => ({
    day: q.params.day,
    ...(q.params.warehouseId ? { warehouseId: q.params.warehouseId } : {}),
    ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
  });

  // ---- in transit and under maintenance, per warehouse and code -----------------------------------
  for (const [kind, keep] of [
    ['transport', (r: CodeRow) => r.inTransitIn > 0 || r.inTransitOut > 0],
    ['maintain', (r: CodeRow) => r.maintenance > 0],
  ] as const) {
    const rowsOf = async (q: ReportQuery<Params>) => (await figures.byCode(q.ctx, filter(q), q.t)).rows.filter(keep);
    ctx.reports.define<Params, CodeRow>({
      name: `${K}.${kind}`,
      title: `${K}.title.${kind}`,
      calls: { list: `/inventory/${kind}`, export: `/inventory/${kind}/export` },
      parameters: [warehouseParam, codeParam],
      columns: [
        ...warehouseColumns,
        ...codeColumns,
        ...(kind === 'transport'
          ? ([
              { key: 'inTransitIn', label: 'fields.inTransitIn', type: 'int', width: 12 },
              { key: 'inTransitOut', label: 'fields.inTransitOut', type: 'int', width: 12 },
              { key: 'inStock', label: 'fields.inStock', type: 'int', width: 10 },
            ] as ReportColumn[])
          : ([
              { key: 'maintenance', label: 'fields.maintenance', type: 'int', width: 12 },
              { key: 'inStock', label: 'fields.inStock', type: 'int', width: 10 },
              { key: 'available', label: `${K}.col.available`, type: 'int', width: 10 },
            ] as ReportColumn[])),
      ],
      rowKey: 'key',
      async rows(q, w) {
        return page(await rowsOf(q), w);
      },
      async *scan(q) {
        yield await rowsOf(q);
      },
    });
  }

  // carriers in transit: the shipped lines of ship orders in transit to or from the caller's warehouses
  ctx.reports.define<Params, Row>({
    name: `${K}.transport-detail`,
    title: `${K}.title.transportDetail`,
    calls: { list: false, export: '/inventory/transport/detail/all/export' },
    parameters: [warehouseParam, codeParam],
    columns: [
      { key: 'orderNo', label: 'fields.orderNo', width: 18 },
      { key: 'carrierSn', label: 'fields.sn', width: 18 },
      { key: 'carrierCodeIdLabel', label: 'fields.carrierCode', width: 14 },
      { key: 'shipper', label: 'fields.shipperWarehouse', width: 18 },
      { key: 'receiver', label: 'fields.receiverWarehouse', width: 18 },
      { key: 'atd', label: 'fields.atd', type: 'datetime', width: 18 },
      { key: 'eta', label: 'fields.eta', type: 'datetime', width: 18 },
    ],
    async *scan(q) {
      if (!inTransit.length) return;
      const w = q.params.warehouseId;
      const repo = ctx.repo('ship-order', q.ctx);
      const where0 = { status: { [Op.in]: inTransit }, ...(w ? { [Op.or]: [{ shipperWarehouseId: w }, { receiverWarehouseId: w }] } : {}) };
      const orders = { list: await repo.serialize(await repo.findAll({ where: where0, order: [['id', 'ASC']], limit: 5000 })) };
      const chosen = orders.list.filter((o) => !w || Number(o.shipperWarehouseId) === w || Number(o.receiverWarehouseId) === w);
      const byId = new Map(chosen.map((o) => [Number(o.id), o]));
      if (!byId.size) return;
      const where = {
        shipOrderId: { [Op.in]: [...byId.keys()] },
        status: Enums.shipOrderLineStatus.shipped,
        ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
      };
      for await (const batch of repositoryScan(ctx.repo('ship-order-detail', q.ctx), { where, order: [['shipOrderId', 'ASC']], serialize: true }, 500)) {
        yield batch.map((l) => {
          const o = byId.get(Number(l.shipOrderId))!;
          return { ...l, orderNo: o.orderNo, shipper: o.shipperWarehouseIdLabel, receiver: o.receiverWarehouseIdLabel, atd: o.atd, eta: o.eta };
        });
      }
    },
  });

  // ---- history: closed days ----------------------------------------------------------------------
  ctx.reports.define<Params, Row>({
    name: `${K}.history`,
    title: `${K}.title.history`,
    calls: { list: '/inventory/history', export: '/inventory/history/export' },
    parameters: [warehouseParam, codeParam, timeRange({ defaultDays: 30, maxDays: 366 })],
    columns: [
      { key: 'day', label: 'fields.day', width: 12 },
      ...warehouseColumns,
      ...figureColumns(),
      { key: 'inbound', label: 'fields.inbound', type: 'int', width: 10 },
      { key: 'outbound', label: 'fields.outbound', type: 'int', width: 10 },
    ],
    rowKey: 'key',
    chart: { type: 'line', x: 'day', y: ['inStock', 'inbound', 'outbound'] },
    async rows(q, w) {
      return page(await historyRows(q), w);
    },
    async *scan(q) {
      yield await historyRows(q);
    },
  });
  async function historyRows(q: ReportQuery<Params>): Promise<Row[]> {
    const { from, to } = q.params.time!;
    const days = { day: { [Op.gte]: dayString(from), [Op.lte]: dayString(to) } };
    const sums = await closedSums(q, days, ['day', 'warehouseId']);
    const warehouses = new Map((await figures.warehousesOf(q.ctx, filter(q))).map((w) => [String(w.id), w]));
    const out: Row[] = [];
    for (const [key, s] of sums) {
      const wh = warehouses.get(String(s.warehouseId));
      if (!wh) continue;
      out.push({
        key,
        day: String(s.day).slice(0, 10),
        warehouseId: Number(s.warehouseId),
        warehouseCode: wh.code,
        warehouseName: wh.name,
        ...snapshotFigures(s),
      });
    }
    return out.sort((a, b) => a.day.localeCompare(b.day) || String(a.warehouseCode).localeCompare(String(b.warehouseCode)));
  }

  // ---- closing a day by hand ---------------------------------------------------------------------
  ctx.addCall({
    path: '/inventory/snapshot/close',
    async handler({ ctx: call }) {
      if (call.orgId === null) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      const day = dayString(Date.now());
      await closing.close(call, day);
      return { day };
    },
  });
  closing.install();
  return closing;
}
