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
  /** release and receive recorded after the fact, this many hours ago (a late trip, a past week) */
  hoursAgo?: { release?: number; receive?: number };
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
 * missing, one extra); SP10 received; SP11 closed; SP12 cancelled. SP04 left 30 hours ago and
 * SP15 12 hours ago (recorded after the fact: the monitor's late trips), SP10 and SP11 travelled
 * last week.
 */
export const SHIP_PLANS: ShipPlan[] = [
  { key: 'SP01', lines: 24, way: 'out', steps: [] },
  { key: 'SP02', lines: 12, way: 'out', steps: [], delivery: Delivery.new },
  { key: 'SP03', lines: 16, way: 'back', steps: [], delivery: Delivery.delivering },
  { key: 'SP04', lines: 40, way: 'out', steps: ['release'], hoursAgo: { release: 30 } },
  { key: 'SP05', lines: 20, way: 'out', steps: [], delivery: Delivery.released },
  { key: 'SP06', lines: 18, way: 'back', steps: [], delivery: Delivery.closed },
  { key: 'SP07', lines: 30, way: 'out', steps: ['release', 'deliver'], receipt: { status: Receipt.new } },
  { key: 'SP08', lines: 24, small: 2, way: 'out', steps: ['release'], receipt: { status: Receipt.receiving, part: 'half' } },
  { key: 'SP09', lines: 20, small: 2, way: 'back', steps: ['release'], receipt: { status: Receipt.closed, part: 'allButOne', extra: true } },
  { key: 'SP10', lines: 36, way: 'out', steps: ['release', 'receive'], hoursAgo: { release: 72, receive: 50 } },
  { key: 'SP11', lines: 28, way: 'back', steps: ['release', 'receive', 'close'], hoursAgo: { release: 140, receive: 120 } },
  { key: 'SP12', lines: 10, way: 'out', steps: ['cancel'] },
  // more trips on the road for the monitor and the simulator
  { key: 'SP13', lines: 30, way: 'out', steps: ['release'], fullOnly: true },
  { key: 'SP14', lines: 16, way: 'back', steps: ['release'], fullOnly: true },
  { key: 'SP15', lines: 24, way: 'out', steps: ['release'], fullOnly: true, hoursAgo: { release: 12 } },
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
export async function seedShipping(
  sequelize: Sequelize,
  call: CallRunner,
  org: DemoOrg,
  orgId: number,
  whIds: number[],
  scale: ScaleName,
): Promise<ShippingResult> {
  const c: Ctx = { sequelize, call, orgId, org, scale, whIds };
  const result: ShippingResult = { created: 0, orders: 0 };
  if (whIds.length < 2) return result;
  const routes = (await model(c, 'route').findAll({
    where: { orgId },
    attributes: ['id', 'fromWarehouseId', 'toWarehouseId', 'transportType'],
    order: [['id', 'ASC']],
    raw: true,
  })) as unknown as Row[];
  const routeOf = (from: number, to: number) => routes.find((r) => Number(r.fromWarehouseId) === from && Number(r.toWarehouseId) === to);
  // trucks with a tracker carry the land trips (the trucks report and the monitor follow their GPS)
  const trucks = (
    (await model(c, 'carrier').findAll({
      where: { orgId, type: Enums.carrierType.truck, gpsId: { [Op.ne]: null } },
      attributes: ['sn'],
      order: [['id', 'ASC']],
      raw: true,
    })) as unknown as Row[]
  ).map((t) => String(t.sn));
  const existing = new Map(
    (
      (await model(c, 'ship-order').findAll({
        where: { orgId, sourcePlanNo: { [Op.like]: `${org.code}-SP%` } },
        attributes: ['id', 'sourcePlanNo'],
        raw: true,
      })) as unknown as Row[]
    ).map((o) => [String(o.sourcePlanNo), Number(o.id)]),
  );

  let turn = 0;
  let land = 0;
  const todo: Array<{ plan: ShipPlan; orderId: number }> = [];
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
      const saved = await call(
        '/ship-order/save',
        {
          type: Enums.shipOrderType.standard,
          shipperWarehouseId: from,
          receiverWarehouseId: to,
          routeId: route ? Number(route.id) : null,
          sourcePlanNo,
          transportType: route ? Number(route.transportType) : null,
          conveyanceNo: landTrip && trucks.length ? trucks[land++ % trucks.length] : null,
          remark: `Demo ${plan.key}`,
          lines: carriers.map((id) => ({ carrierId: id })),
        },
        orgId,
      );
      orderId = Number(saved.id);
      result.created++;
    }
    todo.push({ plan, orderId });
  }
  result.created += await carryOn(c, todo);
  result.orders = todo.length;
  return result;
}

/**
 * Runs what is left of the plans from where their documents stand, a step for all of them at
 * once (`{ ids }`: one call and one transaction per step, not per order); answers the calls run.
 */
async function carryOn(c: Ctx, todo: Array<{ plan: ShipPlan; orderId: number }>): Promise<number> {
  let ran = 0;
  const orderIds = todo.map((t) => t.orderId);
  const byOrder = async (resource: string, key: string) =>
    new Map(
      (
        (await model(c, resource).findAll({ where: { orgId: c.orgId, [key]: { [Op.in]: orderIds } }, order: [['id', 'ASC']], raw: true })) as unknown as Row[]
      ).map((r) => [Number(r[key]), r]),
    );
  const orders = () => byOrder('ship-order', 'id');
  const step = async (path: string, ids: number[], extra: Row = {}) => {
    if (!ids.length) return;
    await c.call(path, { ids, ...extra }, c.orgId);
    ran++;
  };

  // Deliveries of all lines: load (10 → 20), release (→ 30: ships its lines, releases the order), close (→ 40).
  let o = await orders();
  let dn = await byOrder('delivery', 'shipOrderId');
  for (const { plan, orderId } of todo) {
    const order = o.get(orderId)!;
    if (plan.delivery === undefined || dn.has(orderId) || order.status !== Order.new) continue;
    const lines = await lineRows(c, orderId, [Line.pending]);
    await c.call(
      '/delivery/save',
      {
        shipOrderId: orderId,
        type: order.type,
        warehouseId: order.shipperWarehouseId,
        receiverWarehouseId: order.receiverWarehouseId,
        transportType: order.transportType,
        lines: lines.map((l) => ({ carrierId: l.carrierId })),
      },
      c.orgId,
    );
    ran++;
  }
  const DN_STEPS = [Delivery.new, Delivery.delivering, Delivery.released, Delivery.closed];
  for (let k = 1; k < DN_STEPS.length; k++) {
    dn = await byOrder('delivery', 'shipOrderId');
    const ids = todo
      .filter((t) => t.plan.delivery !== undefined && t.plan.delivery >= DN_STEPS[k] && dn.get(t.orderId)?.status === DN_STEPS[k - 1])
      .map((t) => Number(dn.get(t.orderId)!.id));
    await step('/delivery/updatestatus', ids, { status: DN_STEPS[k] });
  }

  // The orders' own steps, in the order every plan lists them.
  const from: Record<ShipPlan['steps'][number], number[]> = {
    release: [Order.new],
    deliver: [Order.released],
    receive: [Order.released, Order.delivered],
    close: [Order.received],
    cancel: [Order.new],
  };
  for (const name of ['release', 'deliver', 'receive', 'close', 'cancel'] as const) {
    o = await orders();
    const due = todo.filter((t) => t.plan.steps.includes(name) && from[name].includes(Number(o.get(t.orderId)?.status)));
    if (name === 'cancel') {
      await step(
        `/ship-order/${name}`,
        due.map((t) => t.orderId),
        { remark: 'Cancelled by the customer (demo)' },
      );
      continue;
    }
    // one call per time: steps recorded after the fact carry their stamp (atd, tor)
    const stamp = name === 'release' ? 'atd' : name === 'receive' ? 'tor' : null;
    const hoursOf = (t: (typeof due)[number]) => (name === 'release' || name === 'receive' ? t.plan.hoursAgo?.[name] : undefined);
    for (const hours of new Set(due.map(hoursOf))) {
      const ids = due.filter((t) => hoursOf(t) === hours).map((t) => t.orderId);
      await step(`/ship-order/${name}`, ids, hours !== undefined && stamp ? { [stamp]: new Date(Date.now() - hours * 3_600_000).toISOString() } : {});
    }
  }

  // Receipts at the receiver: receive (10 → 20: its lines come in), close (→ 30: the rest is missing).
  o = await orders();
  let rc = await byOrder('receipt', 'shipOrderId');
  for (const { plan, orderId } of todo) {
    const order = o.get(orderId)!;
    if (!plan.receipt || rc.has(orderId) || (order.status !== Order.released && order.status !== Order.delivered)) continue;
    const shipped = (await lineRows(c, orderId, [Line.shipped])).map((l) => Number(l.carrierId));
    const part =
      plan.receipt.part === 'half'
        ? shipped.slice(0, Math.max(1, Math.ceil(shipped.length / 2)))
        : plan.receipt.part === 'allButOne' && shipped.length > 1
          ? shipped.slice(0, -1)
          : shipped;
    // an extra carrier: one more box from the shipper's stock (else another warehouse's) came along, not on the list
    let extra: number[] = [];
    // (never one standing at the receiver already: that one did not arrive with the order)
    for (const w of plan.receipt.extra ? [Number(order.shipperWarehouseId), ...c.whIds.filter((x) => x !== Number(order.receiverWarehouseId))] : [])
      if (!extra.length) extra = await stock(c, w, 1);
    // the receipt starts with what was shipped (its header from the order); the receiver scans what came
    const receipt: Row = await c.call('/receipt/create', { shipOrderId: orderId }, c.orgId);
    if (plan.receipt.status >= Receipt.receiving) {
      const sns = (
        (await model(c, 'carrier').findAll({
          where: { orgId: c.orgId, id: { [Op.in]: [...part, ...extra] } },
          attributes: ['sn'],
          raw: true,
        })) as unknown as Row[]
      ).map((r) => String(r.sn));
      await c.call('/receipt-detail/scan', { receiptId: receipt.id, keys: sns }, c.orgId);
    }
    ran++;
  }
  const RC_STEPS = [Receipt.new, Receipt.receiving, Receipt.closed];
  for (let k = 1; k < RC_STEPS.length; k++) {
    rc = await byOrder('receipt', 'shipOrderId');
    const ids = todo
      .filter((t) => t.plan.receipt && t.plan.receipt.status >= RC_STEPS[k] && rc.get(t.orderId)?.status === RC_STEPS[k - 1])
      .map((t) => Number(rc.get(t.orderId)!.id));
    await step('/receipt/updatestatus', ids, { status: RC_STEPS[k] });
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
  return (await model(c, 'ship-order-detail').findAll({
    where: { orgId: c.orgId, shipOrderId: orderId, status: { [Op.in]: statuses } },
    attributes: ['carrierId'],
    order: [['id', 'ASC']],
    raw: true,
  })) as unknown as Row[];
}

/**
 * Up to n carriers a clerk could ship from the warehouse: standing there, usable, not a truck,
 * and never on a ship order yet (so each demo carrier tells one story), lowest ids first.
 */
async function stock(c: Ctx, warehouseId: number, n: number): Promise<number[]> {
  const listed = ((await model(c, 'ship-order-detail').findAll({ where: { orgId: c.orgId }, attributes: ['carrierId'], raw: true })) as unknown as Row[]).map(
    (l) => Number(l.carrierId),
  );
  const taken = new Set(listed);
  const rows = (await model(c, 'carrier').findAll({
    where: { orgId: c.orgId, warehouseId, status: { [Op.in]: USABLE }, transportStatus: { [Op.in]: IN_STOCK }, type: { [Op.ne]: Enums.carrierType.truck } },
    attributes: ['id'],
    order: [['id', 'ASC']],
    limit: n + taken.size,
    raw: true,
  })) as unknown as Row[];
  return rows
    .map((r) => Number(r.id))
    .filter((id) => !taken.has(id))
    .slice(0, n);
}
