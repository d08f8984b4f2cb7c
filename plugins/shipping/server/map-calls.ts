/**
 * The ship-order monitor's calls (SPEC §7 list4map, listship4map, get4map, listlegend4map):
 * orders in transit with both ends' coordinates (warehouse → location), their due time from
 * the route's transport time, and whether they are late. Read through the scoped repositories.
 */
import { Enums } from '@rti/metadata';
import { invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';

type Row = Record<string, any>;
const Order = Enums.shipOrderStatus;
const IN_TRANSIT: number[] = [Order.released, Order.delivered];
const MAX_ORDERS = 2000;

async function mapRows(ctx: PluginServerContext, call: RequestContext, where: Row): Promise<Row[]> {
  const repo = ctx.repo('ship-order', call);
  const orders = await repo.serialize(await repo.findAll({ where, order: [['id', 'DESC']], limit: MAX_ORDERS }));
  const whIds = [...new Set(orders.flatMap((o) => [o.shipperWarehouseId, o.receiverWarehouseId]).filter(Boolean).map(Number))];
  // ends outside a warehouse-restricted caller's scope are shown without coordinates
  const whs = whIds.length ? ((await ctx.repo('warehouse', call).findAll({ where: { id: { [Op.in]: whIds } }, attributes: ['id', 'name', 'locationId'], raw: true })) as unknown as Row[]) : [];
  const locIds = [...new Set(whs.map((w) => w.locationId).filter(Boolean).map(Number))];
  const locs = locIds.length ? ((await ctx.repo('location', call).findAll({ where: { id: { [Op.in]: locIds } }, attributes: ['id', 'longitude', 'latitude'], raw: true })) as unknown as Row[]) : [];
  const loc = new Map(locs.map((l) => [Number(l.id), l]));
  const end = new Map(whs.map((w) => {
    const l = w.locationId ? loc.get(Number(w.locationId)) : undefined;
    return [Number(w.id), { id: Number(w.id), name: w.name, longitude: l ? Number(l.longitude) : null, latitude: l ? Number(l.latitude) : null }];
  }));
  const now = Date.now();
  return orders.map((o) => ({
    id: o.id, orderNo: o.orderNo, status: o.status, type: o.type, transportType: o.transportType, conveyanceNo: o.conveyanceNo, totalAmount: o.totalAmount,
    atd: o.atd, eta: o.eta, dueAt: o.dueAt,
    late: IN_TRANSIT.includes(Number(o.status)) && !!o.dueAt && new Date(o.dueAt as string).getTime() < now,
    from: end.get(Number(o.shipperWarehouseId)) ?? null,
    to: end.get(Number(o.receiverWarehouseId)) ?? null,
  }));
}

export function registerMapCalls(ctx: PluginServerContext): void {
  ctx.addCall({ path: '/ship-order/list4map', resource: 'ship-order', handler: ({ ctx: call }) => mapRows(ctx, call, { status: { [Op.in]: IN_TRANSIT } }) });
  // sea shipments: the vessel's voyage is what the monitor follows
  ctx.addCall({ path: '/ship-order/listship4map', resource: 'ship-order', handler: ({ ctx: call }) => mapRows(ctx, call, { status: { [Op.in]: IN_TRANSIT }, transportType: Enums.transportType.sea }) });
  ctx.addCall({
    path: '/ship-order/get4map',
    resource: 'ship-order',
    async handler({ body, ctx: call }) {
      const id = body.id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) throw invalid('required', 'id');
      await ctx.repo('ship-order', call).find(id);
      const [row] = await mapRows(ctx, call, { id });
      const lines = (await ctx.repo('ship-order-detail', call).findAll({ where: { shipOrderId: id }, attributes: ['status'], raw: true })) as unknown as Row[];
      const byStatus: Record<string, number> = {};
      for (const l of lines) byStatus[l.status] = (byStatus[l.status] ?? 0) + 1;
      return { ...row, lines: byStatus };
    },
  });
  ctx.addCall({
    path: '/ship-order/listlegend4map',
    resource: 'ship-order',
    async handler({ ctx: call }) {
      const rows = await mapRows(ctx, call, { status: { [Op.in]: IN_TRANSIT } });
      const enums = ctx.metadata.enums.shipOrderStatus;
      const legend = IN_TRANSIT.map((s) => {
        const e = enums.find((x) => x.value === s)!;
        return { key: String(s), status: s, label: ctx.t(call.language, e.label), color: e.color ?? null, count: rows.filter((r) => r.status === s && !r.late).length };
      });
      legend.push({ key: 'late', status: null as never, label: ctx.t(call.language, 'shipping.late'), color: 'error', count: rows.filter((r) => r.late).length });
      return legend;
    },
  });
}
