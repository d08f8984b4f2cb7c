/**
 * The ship-order monitor's calls (SPEC §7 list4map, listship4map, get4map, listlegend4map):
 * orders in transit with both ends' coordinates (warehouse → location), their due time from
 * the route's transport time, whether they are late, and where they were last seen (truck GPS,
 * trackers on board, or the gateway that last heard their beacons — `orderFixes`). Read
 * through the scoped repositories.
 */
import { Enums } from '@rti/metadata';
import { invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { Op } from 'sequelize';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
const Order = Enums.shipOrderStatus;
const MAX_ORDERS = 2000;
/** the monitor's colour of late orders: unlike any status colour (SPEC §4 delivered is error red) */
export const LATE_COLOR = 'magenta';

/** shipped lines looked at for device fixes, all orders of one answer together */
const MAX_LINES_LOOKED = 50_000;
const CHUNK = 5000;
/**
 * A gate pass shortly before the release stamp is the departure itself (the truck went through
 * the gate, the clerk released after); anything older shows where the carriers were before
 * this trip and is not the order's position.
 */
const DEPARTURE_SLACK_MS = 30 * 60_000;

/** Where an order in transit was last seen, and by what. */
export interface OrderFix {
  longitude: number;
  latitude: number;
  /** the fix's time (ISO) */
  time: string;
  /**
   * truck: the GPS of the vehicle carrier named by the order's conveyance number; tracker: a GPS
   * tracker on one of its carriers; gateway: the last gateway that heard one of its carriers'
   * beacons (at its warehouse)
   */
  source: 'truck' | 'tracker' | 'gateway';
  /** the device: GPS serial, or the gateway's serial */
  sn: string | null;
  /** gateway fixes: the warehouse the gateway stands in */
  warehouse?: { id: number; name: string } | null;
}

const RANK = { truck: 0, tracker: 1, gateway: 2 } as const;
const newer = (a: OrderFix | undefined, b: OrderFix): boolean => !a || b.time > a.time || (b.time === a.time && RANK[b.source] < RANK[a.source]);
const chunks = <T>(xs: T[]): T[][] => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Current positions of orders in transit from the telemetry plugin's derived state (no
 * telemetry, no positions): the newest fix since departure among the truck's GPS, GPS
 * trackers on the order's shipped carriers and the gateways that last heard their beacons.
 * Everything is read through the caller's scoped repositories: a device or warehouse out of
 * the caller's scope gives no fix.
 */
export async function orderFixes(
  ctx: PluginServerContext,
  call: RequestContext,
  orders: Row[],
  whereAt: (warehouseIds: number[]) => Promise<Map<number, { id: number; name: string; longitude: number | null; latitude: number | null }>>,
): Promise<Map<number, OrderFix>> {
  const out = new Map<number, OrderFix>();
  const positions = ctx.tryUse('telemetry')?.positions;
  const moving = orders.filter((o) => orderGroup('inTransit').includes(Number(o.status)));
  if (!positions || !moving.length) return out;
  const since = new Map(moving.map((o) => [Number(o.id), o.atd ? new Date(o.atd as string).getTime() - DEPARTURE_SLACK_MS : -Infinity]));
  const offer = (orderId: number, fix: OrderFix) => {
    if (Date.parse(fix.time) < (since.get(orderId) ?? Infinity)) return;
    if (newer(out.get(orderId), fix)) out.set(orderId, fix);
  };
  const gpsFix = (gpsId: number) => {
    const s = positions.device('gps', gpsId);
    return s && s.longitude !== null && s.latitude !== null && s.lastSeen > 0
      ? { longitude: s.longitude, latitude: s.latitude, time: new Date(s.lastSeen).toISOString() }
      : null;
  };

  // the truck: the vehicle carrier whose serial is the order's conveyance number, by its GPS
  const trucks = [...new Set(moving.map((o) => o.conveyanceNo).filter((x): x is string => typeof x === 'string' && !!x))];
  if (trucks.length) {
    const vehicles = await ctx.repo('carrier', call).rows({ sn: { [Op.in]: trucks }, gpsId: { [Op.ne]: null } }, { attributes: ['sn', 'gpsId'] });
    const gpsIds = [...new Set(vehicles.map((v) => Number(v.gpsId)))];
    const gpsSn = new Map(
      (gpsIds.length ? await ctx.repo('device-gps', call).rows({ id: { [Op.in]: gpsIds } }, { attributes: ['id', 'sn'] }) : []).map((d) => [
        Number(d.id),
        String(d.sn),
      ]),
    );
    const bySn = new Map(vehicles.map((v) => [String(v.sn), Number(v.gpsId)]));
    for (const o of moving) {
      const gpsId = o.conveyanceNo ? bySn.get(String(o.conveyanceNo)) : undefined;
      const fix = gpsId && gpsSn.has(gpsId) ? gpsFix(gpsId) : null;
      if (fix) offer(Number(o.id), { ...fix, source: 'truck', sn: gpsSn.get(gpsId!) ?? null });
    }
  }

  // the carriers on board: their own GPS trackers and the gateways that last heard their beacons
  const lines = await ctx
    .repo('ship-order-detail', call)
    .rows(
      { shipOrderId: { [Op.in]: moving.map((o) => Number(o.id)) }, status: Enums.shipOrderLineStatus.shipped },
      { attributes: ['shipOrderId', 'carrierId'], limit: MAX_LINES_LOOKED },
    );
  if (!lines.length) return out;
  const orderOf = new Map(lines.map((l) => [Number(l.carrierId), Number(l.shipOrderId)]));
  const equipped: Row[] = [];
  for (const ids of chunks([...orderOf.keys()])) {
    equipped.push(
      ...(await ctx
        .repo('carrier', call)
        .rows({ id: { [Op.in]: ids }, [Op.or]: [{ gpsId: { [Op.ne]: null } }, { beaconId: { [Op.ne]: null } }] }, { attributes: ['id', 'gpsId', 'beaconId'] })),
    );
  }
  if (!equipped.length) return out;
  const trackerIds = [...new Set(equipped.filter((c) => c.gpsId).map((c) => Number(c.gpsId)))];
  const trackerSn = new Map<number, string>();
  for (const ids of chunks(trackerIds))
    for (const d of await ctx.repo('device-gps', call).rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'sn'] })) trackerSn.set(Number(d.id), String(d.sn));
  // the newest beacon sighting per order: its gateway, resolved to a warehouse below
  const heard = new Map<number, { mac: string; time: number }>();
  for (const c of equipped) {
    const orderId = orderOf.get(Number(c.id))!;
    if (c.gpsId && trackerSn.has(Number(c.gpsId))) {
      const fix = gpsFix(Number(c.gpsId));
      if (fix) offer(orderId, { ...fix, source: 'tracker', sn: trackerSn.get(Number(c.gpsId)) ?? null });
    }
    if (c.beaconId) {
      const b = positions.device('beacon', Number(c.beaconId));
      if (b?.gatewayMac && b.lastSeen > 0 && (!heard.has(orderId) || b.lastSeen > heard.get(orderId)!.time))
        heard.set(orderId, { mac: b.gatewayMac, time: b.lastSeen });
    }
  }
  if (!heard.size) return out;
  const macs = [...new Set([...heard.values()].map((h) => h.mac))];
  const gateways = new Map<string, { sn: string; warehouseId: number | null }>();
  for (const resource of ['device-slave-gateway', 'device-master-gateway']) {
    for (const g of await ctx.repo(resource, call).rows({ mac: { [Op.in]: macs } }, { attributes: ['mac', 'sn', 'warehouseId'] })) {
      if (!gateways.has(String(g.mac))) gateways.set(String(g.mac), { sn: String(g.sn), warehouseId: g.warehouseId ? Number(g.warehouseId) : null });
    }
  }
  const sites = await whereAt([...new Set([...gateways.values()].map((g) => g.warehouseId).filter((x): x is number => x !== null))]);
  for (const [orderId, h] of heard) {
    const g = gateways.get(h.mac);
    const site = g?.warehouseId ? sites.get(g.warehouseId) : undefined;
    if (!g || !site || site.longitude === null || site.latitude === null) continue;
    offer(orderId, {
      longitude: site.longitude,
      latitude: site.latitude,
      time: new Date(h.time).toISOString(),
      source: 'gateway',
      sn: g.sn,
      warehouse: { id: site.id, name: site.name },
    });
  }
  return out;
}

/** Warehouses with their location's coordinates, in the caller's scope. */
async function warehouseEnds(ctx: PluginServerContext, call: RequestContext, whIds: number[]) {
  const whs = whIds.length
    ? ((await ctx
        .repo('warehouse', call)
        .findAll({ where: { id: { [Op.in]: whIds } }, attributes: ['id', 'name', 'locationId'], raw: true })) as unknown as Row[])
    : [];
  const locIds = [
    ...new Set(
      whs
        .map((w) => w.locationId)
        .filter(Boolean)
        .map(Number),
    ),
  ];
  const locs = locIds.length
    ? ((await ctx
        .repo('location', call)
        .findAll({ where: { id: { [Op.in]: locIds } }, attributes: ['id', 'longitude', 'latitude'], raw: true })) as unknown as Row[])
    : [];
  const loc = new Map(locs.map((l) => [Number(l.id), l]));
  return new Map(
    whs.map((w) => {
      const l = w.locationId ? loc.get(Number(w.locationId)) : undefined;
      const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
      return [Number(w.id), { id: Number(w.id), name: String(w.name), longitude: l ? num(l.longitude) : null, latitude: l ? num(l.latitude) : null }];
    }),
  );
}

type End = { id: number; name: string; longitude: number | null; latitude: number | null };
/** an order's end: the warehouse with its position, else at least the order row's own label */
function endOf(ends: Map<number, End>, o: Row, side: 'shipperWarehouse' | 'receiverWarehouse'): End | null {
  const id = Number(o[`${side}Id`]);
  if (!id) return null;
  return ends.get(id) ?? { id, name: String(o[`${side}IdLabel`] ?? id), longitude: null, latitude: null };
}

async function mapRows(ctx: PluginServerContext, call: RequestContext, where: Row, withFixes = true): Promise<Row[]> {
  const repo = ctx.repo('ship-order', call);
  const orders = await repo.serialize(await repo.findAll({ where, order: [['id', 'DESC']], limit: MAX_ORDERS }));
  const whIds = [
    ...new Set(
      orders
        .flatMap((o) => [o.shipperWarehouseId, o.receiverWarehouseId])
        .filter(Boolean)
        .map(Number),
    ),
  ];
  const inScope = await warehouseEnds(ctx, call, whIds);
  // An order the caller sees answers both its ends: a warehouse-restricted caller gets the name
  // and position of an order's other end (outside their warehouses) and nothing else of it.
  const outside = whIds.filter((id) => !inScope.has(id));
  const end = new Map([...inScope, ...(outside.length && call.orgId !== null ? await warehouseEnds(ctx, ctx.systemContext(call.orgId), outside) : [])]);
  // gateway fixes: only gateways and warehouses in the caller's own scope
  const fixes = !withFixes
    ? new Map<number, OrderFix>()
    : await orderFixes(ctx, call, orders, async (ids) => {
        const known = ids.filter((id) => inScope.has(id));
        const more = await warehouseEnds(
          ctx,
          call,
          ids.filter((id) => !inScope.has(id)),
        );
        return new Map([...known.map((id) => [id, inScope.get(id)!] as const), ...more]);
      });
  const now = Date.now();
  return orders.map((o) => ({
    id: o.id,
    orderNo: o.orderNo,
    status: o.status,
    type: o.type,
    transportType: o.transportType,
    conveyanceNo: o.conveyanceNo,
    totalAmount: o.totalAmount,
    atd: o.atd,
    eta: o.eta,
    dueAt: o.dueAt,
    late: orderGroup('inTransit').includes(Number(o.status)) && !!o.dueAt && new Date(o.dueAt as string).getTime() < now,
    from: endOf(end, o, 'shipperWarehouse'),
    to: endOf(end, o, 'receiverWarehouse'),
    // the newest device fix since departure; null: the monitor estimates along the route
    position: fixes.get(Number(o.id)) ?? null,
  }));
}

export function registerMapCalls(ctx: PluginServerContext): void {
  ctx.addCall({
    path: '/ship-order/list4map',
    resource: 'ship-order',
    handler: ({ ctx: call }) => mapRows(ctx, call, { status: { [Op.in]: orderGroup('inTransit') } }),
  });
  // sea shipments: the vessel's voyage is what the monitor follows
  ctx.addCall({
    path: '/ship-order/listship4map',
    resource: 'ship-order',
    handler: ({ ctx: call }) => mapRows(ctx, call, { status: { [Op.in]: orderGroup('inTransit') }, transportType: Enums.transportType.sea }),
  });
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
      const rows = await mapRows(ctx, call, { status: { [Op.in]: orderGroup('inTransit') } }, false);
      const enums = ctx.metadata.enums.shipOrderStatus;
      const legend = orderGroup('inTransit').map((s) => {
        const e = enums.find((x) => x.value === s)!;
        return {
          key: String(s),
          status: s,
          label: ctx.t(call.language, e.label),
          color: e.color ?? null,
          count: rows.filter((r) => r.status === s && !r.late).length,
        };
      });
      // late has its own colour: delivered is SPEC §4's red ("error")
      legend.push({
        key: 'late',
        status: null as never,
        label: ctx.t(call.language, 'shipping.late'),
        color: LATE_COLOR,
        count: rows.filter((r) => r.late).length,
      });
      return legend;
    },
  });
}
