/**
 * Rebalancing suggestions (issue 18 item 4): from the per-warehouse configuration of each carrier
 * code (min, max), what stands and what is in transit (figures.ts) and each warehouse's outbound
 * rate of the last `rateDays` days, which surplus warehouse should send how many of which code to
 * which deficit warehouse — deficits ranked by urgency (days until the warehouse falls below its
 * minimum at that rate, already below first), sources by route distance (no route last).
 *
 *   need  = min + rate × coverDays − (available + in transit to it), capped at max − the same
 *   spare = available − max (warehouses holding more than their maximum), else nothing
 *
 * `/inventory/suggestion` (paged, + export) and `/inventory/suggestion/ship-order` turning one
 * into a draft ship order through the ship order's own create and line writes (its rules apply:
 * carriers in the shipper warehouse, one open order per carrier, numbering, warehouse scope).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, type PluginServerContext, type ReportQuery, type RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { IN_STOCK, heldCarriers } from './adjustment';
import { IN_MAINTENANCE, OFF_BOOKS, figuresReader } from './figures';

type Row = Record<string, any>;
const DAY_MS = 86_400_000;
/** the top of a time range that has none (a bounded range is what makes the planner read the time index) */
const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

interface Params {
  carrierCodeId?: number;
  coverDays?: number;
  rateDays?: number;
}

export interface Suggestion {
  key: string;
  carrierCodeId: number;
  carrierCode: string;
  fromWarehouseId: number;
  fromWarehouse: string;
  toWarehouseId: number;
  toWarehouse: string;
  quantity: number;
  distanceKm: number | null;
  transportMinutes: number | null;
  /** days until the receiver falls below its minimum at its outbound rate (0: already below; null: no outbound) */
  daysLeft: number | null;
  need: number;
}

export function installRebalance(ctx: PluginServerContext): void {
  const figures = figuresReader(ctx);

  async function suggestions(call: RequestContext, p: Params, t: (k: string) => string): Promise<Suggestion[]> {
    const coverDays = p.coverDays ?? 7;
    const rateDays = p.rateDays ?? 14;
    const { rows } = await figures.byCode(call, { carrierCodeId: p.carrierCodeId, stockOnly: true }, t);
    const configured = rows.filter((r) => r.carrierCodeId !== null && (r.min !== null || r.max !== null));
    if (!configured.length) return [];
    // outbound rate per warehouse and code: in/out rows of the last rateDays days
    const since = new Date(Date.now() - rateDays * DAY_MS);
    // one bounded range over the in/out rows' time, read from the index that covers it: a direction or warehouse filter, or a
    // range open at the top, steers SQLite's plan to reading all 20,000,000 rows (69 s at pool scale; 0.5 s this way)
    const outs = await ctx
      .repo('carrier-inout', call)
      .countWhen(
        ['warehouseId', 'carrierCodeId'],
        { out: { direction: Enums.inoutDirection.outbound } },
        { confirmTime: { [Op.gte]: since, [Op.lte]: END_OF_TIME } },
      );
    const rate = new Map(outs.map((o) => [`${o.warehouseId}:${o.carrierCodeId ?? ''}`, o.out / rateDays]));
    const deficits: Array<{ r: (typeof rows)[number]; need: number; daysLeft: number | null }> = [];
    const spares: Array<{ r: (typeof rows)[number]; spare: number }> = [];
    for (const r of configured) {
      const perDay = rate.get(r.key) ?? 0;
      const have = r.available + r.inTransitIn;
      const floor = r.min ?? 0;
      let need = Math.max(0, Math.ceil(floor + perDay * coverDays - have));
      if (r.max !== null) need = Math.min(need, Math.max(0, r.max - have));
      const daysLeft = have <= floor ? 0 : perDay > 0 ? Math.round(((have - floor) / perDay) * 10) / 10 : null;
      if (need > 0) deficits.push({ r, need, daysLeft });
      else if (r.max !== null && r.available > r.max) spares.push({ r, spare: r.available - r.max });
    }
    if (!deficits.length || !spares.length) return [];
    const routes = await ctx.repo('route', call).rows(
      {
        fromWarehouseId: { [Op.in]: [...new Set(spares.map((s) => s.r.warehouseId))] },
        toWarehouseId: { [Op.in]: [...new Set(deficits.map((d) => d.r.warehouseId))] },
      },
      { attributes: ['fromWarehouseId', 'toWarehouseId', 'distance', 'transportTime'] },
    );
    const route = new Map(routes.map((x) => [`${x.fromWarehouseId}>${x.toWarehouseId}`, x]));
    deficits.sort((a, b) => (a.daysLeft ?? Infinity) - (b.daysLeft ?? Infinity) || b.need - a.need || a.r.warehouseCode.localeCompare(b.r.warehouseCode));
    // the surplus of each code, in the order found (a deficit looks at its own code's only: not every surplus per deficit)
    const sparesOf = new Map<number | null, typeof spares>();
    for (const s of spares) {
      const list = sparesOf.get(s.r.carrierCodeId);
      if (list) list.push(s);
      else sparesOf.set(s.r.carrierCodeId, [s]);
    }
    const out: Suggestion[] = [];
    for (const d of deficits) {
      const sources = (sparesOf.get(d.r.carrierCodeId) ?? [])
        .filter((s) => s.spare > 0 && s.r.warehouseId !== d.r.warehouseId)
        .map((s) => ({ s, way: route.get(`${s.r.warehouseId}>${d.r.warehouseId}`) }))
        .sort(
          (a, b) => (a.way ? Number(a.way.distance ?? Infinity) : Infinity) - (b.way ? Number(b.way.distance ?? Infinity) : Infinity) || b.s.spare - a.s.spare,
        );
      let need = d.need;
      for (const { s, way } of sources) {
        if (need <= 0) break;
        const quantity = Math.min(need, s.spare);
        s.spare -= quantity;
        need -= quantity;
        out.push({
          key: `${d.r.carrierCodeId}:${s.r.warehouseId}>${d.r.warehouseId}`,
          carrierCodeId: d.r.carrierCodeId!,
          carrierCode: d.r.carrierCode,
          fromWarehouseId: s.r.warehouseId,
          fromWarehouse: s.r.warehouseName,
          toWarehouseId: d.r.warehouseId,
          toWarehouse: d.r.warehouseName,
          quantity,
          distanceKm: way?.distance === null || way?.distance === undefined ? null : Number(way.distance),
          transportMinutes: way?.transportTime === null || way?.transportTime === undefined ? null : Number(way.transportTime),
          daysLeft: d.daysLeft,
          need: d.need,
        });
      }
    }
    return out;
  }

  ctx.reports.define<Params, Suggestion>({
    name: 'inventory.suggestion',
    title: 'inventory.title.suggestion',
    calls: { list: '/inventory/suggestion', export: '/inventory/suggestion/export' },
    parameters: [
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
      { name: 'coverDays', type: 'int', label: 'inventory.col.coverDays', min: 0, max: 365 },
      { name: 'rateDays', type: 'int', label: 'inventory.col.rateDays', min: 1, max: 365 },
    ],
    columns: [
      { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
      { key: 'fromWarehouse', label: 'inventory.col.from', width: 18 },
      { key: 'toWarehouse', label: 'inventory.col.to', width: 18 },
      { key: 'quantity', label: 'inventory.col.quantity', type: 'int', width: 10 },
      { key: 'daysLeft', label: 'inventory.col.daysLeft', type: 'decimal', width: 12 },
      { key: 'distanceKm', label: 'inventory.col.distance', unit: 'km', type: 'decimal', width: 12 },
      { key: 'need', label: 'inventory.col.need', type: 'int', width: 10 },
    ],
    rowKey: 'key',
    // the planner turns a row into a draft ship order and lands on it (the call below)
    actions: [
      {
        name: 'shipOrder',
        label: 'inventory.action.shipOrder',
        call: '/inventory/suggestion/ship-order',
        body: { carrierCodeId: '{carrierCodeId}', fromWarehouseId: '{fromWarehouseId}', toWarehouseId: '{toWarehouseId}', quantity: '{quantity}' },
        confirm: 'inventory.action.shipOrderConfirm',
        done: 'inventory.action.shipOrderDone',
        open: '/ship-order-manage/ship-order/detail/{id}',
      },
    ],
    async rows(q: ReportQuery<Params>, w) {
      const all = await suggestions(q.ctx, q.params, q.t);
      return { list: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    async *scan(q: ReportQuery<Params>) {
      yield await suggestions(q.ctx, q.params, q.t);
    },
  });

  /** a suggestion as a draft ship order: free, usable carriers of the code in the shipper warehouse */
  ctx.addCall({
    path: '/inventory/suggestion/ship-order',
    input: {
      carrierCodeId: { type: 'ref', required: true, label: 'fields.carrierCode' },
      fromWarehouseId: { type: 'ref', required: true, label: 'fields.shipperWarehouse' },
      toWarehouseId: { type: 'ref', required: true, label: 'fields.receiverWarehouse' },
      quantity: { type: 'int', required: true, min: 1, max: 1000, label: 'inventory.col.quantity' },
    },
    async handler({ input, ctx: call }) {
      const held = await heldCarriers(ctx, call);
      const where: Record<string | symbol, unknown> = {
        carrierCodeId: input.carrierCodeId,
        warehouseId: input.fromWarehouseId,
        transportStatus: { [Op.in]: IN_STOCK },
        status: { [Op.or]: [{ [Op.notIn]: [...OFF_BOOKS, ...IN_MAINTENANCE] }, { [Op.is]: null }] },
        ...(held.size ? { id: { [Op.notIn]: [...held] } } : {}),
      };
      const free = await ctx.repo('carrier', call).rows(where, {
        attributes: ['id', 'sn'],
        order: [
          ['inboundTime', 'ASC'],
          ['id', 'ASC'],
        ],
        limit: input.quantity,
      });
      if (free.length < input.quantity) throw new ApiError(ErrorCode.statusForbidden, 'inventory.notEnoughFree', { wanted: input.quantity, free: free.length });
      return ctx.transaction(call, async (repo) => {
        // the ship order's own create and line writes: its number, warehouse scope and line rules
        const order = await repo('ship-order').create({
          type: Enums.shipOrderType.standard,
          shipperWarehouseId: input.fromWarehouseId,
          receiverWarehouseId: input.toWarehouseId,
        });
        const lines = repo('ship-order-detail');
        // a line the ship order's rules refuse refuses the whole draft, naming the carrier
        for (const c of free) await lines.create({ shipOrderId: order.id, carrierId: c.id });
        return repo('ship-order').get(order.id);
      });
    },
  });
}
