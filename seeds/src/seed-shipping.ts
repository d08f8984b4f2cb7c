/**
 * The shipping demo: per organisation a dozen ship orders (SO…) from the hub to depots in
 * every city and back, with deliveries (DN…) and receipts (RC…), together in every status —
 * ship order new / released / delivered / received / closed / cancelled, delivery new /
 * delivering / released / closed, receipt new / receiving / closed — including a partial
 * receipt, a missing and an extra carrier.
 *
 * Unlike the master data (bulk rows), documents are made by the server's own registered calls
 * (`/ship-order/save`, `/ship-order/release`, `/delivery/updatestatus`, …) run in-process as
 * the platform administrator: the steps' side effects (carriers out of the shipper and in
 * transit, in/out rows, carrier logs, received at the receiver with a cycle counted, missing
 * and extra lines, the transport clock) are exactly what a clerk's clicks would leave, and
 * inventory per warehouse agrees with the in/out rows.
 *
 * Idempotent: a plan's order is found by its `sourcePlanNo` (`<ORG>-SP01` …), its delivery
 * and receipt by the order; a plan cut short is carried on from the status it reached.
 */
import { Enums } from '@rti/metadata';
import type { Sequelize } from 'sequelize';
import { Op } from 'sequelize';
import type { DemoOrg } from './demo-data';
import type { ScaleName } from './scale';

type Row = Record<string, any>;

/** Runs a registered call of the server in-process, in `orgId`, as the platform administrator. */
export type CallRunner = (path: string, body: Record<string, unknown>, orgId: number) => Promise<any>;

const Order = Enums.shipOrderStatus;
const Delivery = Enums.deliveryStatus;
const Receipt = Enums.receiptStatus;
const Line = Enums.shipOrderLineStatus;
/** carrier statuses a ship order may take (plugins/shipping: USABLE) */
const USABLE: number[] = [Enums.carrierStatus.new, Enums.carrierStatus.inUse, Enums.carrierStatus.standby];
/** transport statuses of a carrier standing in its warehouse (plugins/shipping: IN_STOCK) */
const IN_STOCK: number[] = [Enums.transportStatus.unknown, Enums.transportStatus.inWarehouse, Enums.transportStatus.idle];

export interface ShipPlan {
  /** sourcePlanNo suffix: SP01 … */
  key: string;
  /** lines at full scale */
  lines: number;
  /** lines at small scale (default 1) */
  small?: number;
  /** only at full scale: more trips on the road */
  fullOnly?: boolean;
  /** hub → depot (out) or depot → hub (back) */
  way: 'out' | 'back';
  /** the ship order's own steps, in order */
  steps: Array<'release' | 'deliver' | 'receive' | 'close' | 'cancel'>;
  /** a delivery of all lines, moved to this status (its release ships them) */
  delivery?: number;
  /** a receipt at the receiver, moved to this status; `part` of the shipped lines, an `extra` carrier */
  receipt?: { status: number; part?: 'half' | 'allButOne'; extra?: boolean };
}

/**
 * The plans, in the order they run. Statuses each plan ends in (order / delivery / receipt):
 * SP01 new; SP02 new + DN new; SP03 new + DN delivering; SP04, SP13–SP16 released (in transit,
 * the monitor's trips); SP05 released + DN released; SP06 released + DN closed; SP07 delivered
 * + RC new; SP08 released + RC receiving (half received); SP09 received + RC closed (one
 * missing, one extra); SP10 received; SP11 closed; SP12 cancelled.
 */
export const SHIP_PLANS: ShipPlan[] = [
  { key: 'SP01', lines: 24, way: 'out', steps: [] },
  { key: 'SP02', lines: 12, way: 'out', steps: [], delivery: Delivery.new },
  { key: 'SP03', lines: 16, way: 'back', steps: [], delivery: Delivery.delivering },
  { key: 'SP04', lines: 40, way: 'out', steps: ['release'] },
  { key: 'SP05', lines: 20, way: 'out', steps: [], delivery: Delivery.released },
  { key: 'SP06', lines: 18, way: 'back', steps: [], delivery: Delivery.closed },
  { key: 'SP07', lines: 30, way: 'out', steps: ['release', 'deliver'], receipt: { status: Receipt.new } },
  { key: 'SP08', lines: 24, small: 2, way: 'out', steps: ['release'], receipt: { status: Receipt.receiving, part: 'half' } },
  { key: 'SP09', lines: 20, small: 2, way: 'back', steps: ['release'], receipt: { status: Receipt.closed, part: 'allButOne', extra: true } },
  { key: 'SP10', lines: 36, way: 'out', steps: ['release', 'receive'] },
  { key: 'SP11', lines: 28, way: 'back', steps: ['release', 'receive', 'close'] },
  { key: 'SP12', lines: 10, way: 'out', steps: ['cancel'] },
  // more trips on the road for the monitor and the simulator
  { key: 'SP13', lines: 30, way: 'out', steps: ['release'], fullOnly: true },
  { key: 'SP14', lines: 16, way: 'back', steps: ['release'], fullOnly: true },
  { key: 'SP15', lines: 24, way: 'out', steps: ['release'], fullOnly: true },
  { key: 'SP16', lines: 12, way: 'out', steps: ['release', 'deliver'], fullOnly: true },
];

/** The plans seeded at a scale (small: the twelve that make every status, with a line or two). */
export const shipPlans = (scale: ScaleName): ShipPlan[] => SHIP_PLANS.filter((p) => scale === 'full' || !p.fullOnly);

export interface ShippingResult {
  /** documents created and steps run (0 on a second run) */
  created: number;
  orders: number;
}

interface Ctx {
  sequelize: Sequelize;
  call: CallRunner;
  orgId: number;
  org: DemoOrg;
  scale: ScaleName;
  /** warehouse ids in code order: [0] is the hub */
  whIds: number[];
}

/** Ship orders, deliveries and receipts of one organisation, through the server's calls. */
export async function seedShipping(sequelize: Sequelize, call: CallRunner, org: DemoOrg, orgId: number, whIds: number[], scale: ScaleName): Promise<ShippingResult> {
  const c: Ctx = { sequelize, call, orgId, org, scale, whIds };
  const result: ShippingResult = { created: 0, orders: 0 };
  if (whIds.length < 2) return result;
  const routes = (await model(c, 'route').findAll({ where: { orgId }, attributes: ['id', 'fromWarehouseId', 'toWarehouseId', 'transportType'], order: [['id', 'ASC']], raw: true })) as unknown as Row[];
  const routeOf = (from: number, to: number) => routes.find((r) => Number(r.fromWarehouseId) === from && Number(r.toWarehouseId) === to);
  // trucks with a tracker carry the land trips (the trucks report and the monitor follow their GPS)
  const trucks = ((await model(c, 'carrier').findAll({ where: { orgId, type: Enums.carrierType.truck, gpsId: { [Op.ne]: null } }, attributes: ['sn'], order: [['id', 'ASC']], raw: true })) as unknown as Row[]).map((t) => String(t.sn));
  const existing = new Map(((await model(c, 'ship-order').findAll({ where: { orgId, sourcePlanNo: { [Op.like]: `${org.code}-SP%` } }, attributes: ['id', 'sourcePlanNo'], raw: true })) as unknown as Row[]).map((o) => [String(o.sourcePlanNo), Number(o.id)]));

  let turn = 0;
  let land = 0;
  for (const plan of shipPlans(scale)) {
    const sourcePlanNo = `${org.code}-${plan.key}`;
    let orderId = existing.get(sourcePlanNo);
    // depots in turn (their cities in turn): every city gets orders both ways
    const depots = whIds.slice(1).map((_, k, all) => all[(turn + k) % all.length]);
    turn++;
    if (orderId === undefined) {
      const want = scale === 'full' ? plan.lines : (plan.small ?? 1);
      // the depot in turn, else the next one with the carriers the plan needs, else the other
      // way round (small demos are thin: the hub may have shipped all it had)
      let pick: { from: number; to: number; carriers: number[] } | null = null;
      const ways = plan.way === 'out' ? [true, false] : [false, true];
      search: for (const out of ways) {
        for (const d of depots) {
          const [from, to] = out ? [whIds[0], d] : [d, whIds[0]];
          const carriers = await stock(c, from, want);
          if (!pick || carriers.length > pick.carriers.length) pick = { from, to, carriers };
          if (carriers.length >= want) break search;
        }
      }
      if (!pick?.carriers.length) continue;
      const { from, to, carriers } = pick;
      const route = routeOf(from, to);
      const landTrip = Number(route?.transportType) === Enums.transportType.land;
      const saved = await call('/ship-order/save', {
        type: Enums.shipOrderType.standard,
        shipperWarehouseId: from,
        receiverWarehouseId: to,
        routeId: route ? Number(route.id) : null,
        sourcePlanNo,
        transportType: route ? Number(route.transportType) : null,
        conveyanceNo: landTrip && trucks.length ? trucks[land++ % trucks.length] : null,
        remark: `Demo ${plan.key}`,
        lines: carriers.map((id) => ({ carrierId: id })),
      }, orgId);
      orderId = Number(saved.id);
      result.created++;
    }
    result.created += await carryOn(c, plan, orderId);
    result.orders++;
  }
  return result;
}

/** Runs what is left of a plan from where its documents stand; answers the steps run. */
async function carryOn(c: Ctx, plan: ShipPlan, orderId: number): Promise<number> {
  let ran = 0;
  const order = async (): Promise<Row> => {
    const row = await one(c, 'ship-order', { id: orderId });
    if (!row) throw new Error(`seed: ship order #${orderId} of plan ${plan.key} is gone`);
    return row;
  };
  let o = await order();

  if (plan.delivery !== undefined) {
    let dn = await one(c, 'delivery', { shipOrderId: orderId });
    if (!dn && o.status === Order.new) {
      const lines = await lineRows(c, orderId, [Line.pending]);
      dn = await c.call('/delivery/save', { shipOrderId: orderId, type: o.type, warehouseId: o.shipperWarehouseId, receiverWarehouseId: o.receiverWarehouseId, transportType: o.transportType, lines: lines.map((l) => ({ carrierId: l.carrierId })) }, c.orgId);
      ran++;
    }
    // load (10 → 20), release (→ 30: ships its lines and releases the order), close (→ 40)
    for (const next of [Delivery.delivering, Delivery.released, Delivery.closed]) {
      if (!dn || next > plan.delivery || Number(dn.status) >= next) continue;
      dn = await c.call('/delivery/updatestatus', { id: Number(dn.id), status: next }, c.orgId);
      ran++;
    }
    o = await order();
  }

  const from: Record<ShipPlan['steps'][number], number[]> = { release: [Order.new], deliver: [Order.released], receive: [Order.released, Order.delivered], close: [Order.received], cancel: [Order.new] };
  for (const step of plan.steps) {
    if (!from[step].includes(Number(o.status))) continue;
    await c.call(`/ship-order/${step}`, step === 'cancel' ? { id: orderId, remark: 'Cancelled by the customer (demo)' } : { id: orderId }, c.orgId);
    ran++;
    o = await order();
  }

  if (plan.receipt) {
    let rc = await one(c, 'receipt', { shipOrderId: orderId });
    if (!rc && (o.status === Order.released || o.status === Order.delivered)) {
      const shipped = (await lineRows(c, orderId, [Line.shipped])).map((l) => Number(l.carrierId));
      const part = plan.receipt.part === 'half' ? shipped.slice(0, Math.max(1, Math.ceil(shipped.length / 2))) : plan.receipt.part === 'allButOne' && shipped.length > 1 ? shipped.slice(0, -1) : shipped;
      // an extra carrier: one more box from the shipper's stock (else the hub's) came along, not on the list
      let extra: number[] = [];
      for (const w of plan.receipt.extra ? [Number(o.shipperWarehouseId), ...c.whIds] : []) if (!extra.length) extra = await stock(c, w, 1);
      rc = await c.call('/receipt/save', { shipOrderId: orderId, type: o.type, warehouseId: o.receiverWarehouseId, shipperWarehouseId: o.shipperWarehouseId, transportType: o.transportType, lines: [...part, ...extra].map((carrierId) => ({ carrierId })) }, c.orgId);
      ran++;
    }
    // receive (10 → 20: its lines come in at the receiver), close (→ 30: the rest is missing)
    for (const next of [Receipt.receiving, Receipt.closed]) {
      if (!rc || next > plan.receipt.status || Number(rc.status) >= next) continue;
      rc = await c.call('/receipt/updatestatus', { id: Number(rc.id), status: next }, c.orgId);
      ran++;
    }
  }
  return ran;
}

const model = (c: Ctx, resource: string) => {
  const m = c.sequelize.models[resource];
  if (!m) throw new Error(`seed: resource "${resource}" is not in the metadata`);
  return m;
};

async function one(c: Ctx, resource: string, where: Row): Promise<Row | null> {
  return (await model(c, resource).findOne({ where: { orgId: c.orgId, ...where }, order: [['id', 'ASC']], raw: true })) as Row | null;
}

async function lineRows(c: Ctx, orderId: number, statuses: number[]): Promise<Row[]> {
  return (await model(c, 'ship-order-detail').findAll({ where: { orgId: c.orgId, shipOrderId: orderId, status: { [Op.in]: statuses } }, attributes: ['carrierId'], order: [['id', 'ASC']], raw: true })) as unknown as Row[];
}

/**
 * Up to n carriers a clerk could ship from the warehouse: standing there, usable, not a truck,
 * and never on a ship order yet (so each demo carrier tells one story), lowest ids first.
 */
async function stock(c: Ctx, warehouseId: number, n: number): Promise<number[]> {
  const listed = ((await model(c, 'ship-order-detail').findAll({ where: { orgId: c.orgId }, attributes: ['carrierId'], raw: true })) as unknown as Row[]).map((l) => Number(l.carrierId));
  const taken = new Set(listed);
  const rows = (await model(c, 'carrier').findAll({
    where: { orgId: c.orgId, warehouseId, status: { [Op.in]: USABLE }, transportStatus: { [Op.in]: IN_STOCK }, type: { [Op.ne]: Enums.carrierType.truck } },
    attributes: ['id'],
    order: [['id', 'ASC']],
    limit: n + taken.size,
    raw: true,
  })) as unknown as Row[];
  return rows.map((r) => Number(r.id)).filter((id) => !taken.has(id)).slice(0, n);
}
