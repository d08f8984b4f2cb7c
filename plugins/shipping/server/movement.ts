/**
 * Carriers moving between warehouses with the documents: outbound when a ship order (or a
 * delivery of it) is released, inbound when it (or a receipt of it) is received. Everything is
 * set-based and runs in the step's transaction through the transaction-bound scoped
 * repositories: a handful of statements for 5,000 carriers, and a refusal anywhere rolls the
 * status change and every row written back, so a carrier is never half-moved.
 *
 * Carrier rows move with conditional UPDATEs (`… WHERE id IN (…) AND warehouse = shipper AND
 * transport status in stock`): when two releases race for one carrier, the second UPDATE
 * matches fewer rows than it expects and the whole step is refused.
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, tKey, type BoundRepository, type RequestContext } from '@rti/server/plugin-api';
import { Op, literal } from 'sequelize';
import { adoptDeviceRows } from './inout-rows';

type Repo = (resource: string) => BoundRepository;
type Row = Record<string, any>;

const Line = Enums.shipOrderLineStatus;
const Transport = Enums.transportStatus;
/** transport statuses of a carrier standing in a warehouse (unknown: registered there, never seen moving) */
export const IN_STOCK: number[] = [Transport.unknown, Transport.inWarehouse, Transport.idle];
const MOVING: number[] = [Transport.inTransit, Transport.abnormal];
/** Serials named in a refusal at most (the rest are counted). */
const NAMED = 10;
const DAY_MS = 86_400_000;

export const snList = (sns: string[]): string => (sns.length > NAMED ? `${sns.slice(0, NAMED).join(', ')} … (+${sns.length - NAMED})` : sns.join(', '));

const operatorOf = (ctx: RequestContext) => (ctx.user?.realName || ctx.user?.username || 'system').slice(0, 50);

export interface MoveOptions {
  repo: Repo;
  ctx: RequestContext;
  order: Row;
  now: Date;
  /** dialect of the database, for the per-row turnover expression */
  dialect: string;
}

/**
 * Ships the given pending lines of an order (all of them when `lineIds` is omitted): carriers
 * out of the shipper warehouse, in transit, an outbound in/out row and a carrier log each, the
 * lines stamped shipped, and the order's due time set from its route's transport time.
 */
export async function shipLines(o: MoveOptions, lineIds?: number[], deliveryNo?: string): Promise<number> {
  const { repo, ctx, order, now } = o;
  const shipper = Number(order.shipperWarehouseId);
  const lineWhere: Row = { shipOrderId: order.id, status: Line.pending, ...(lineIds ? { id: { [Op.in]: lineIds } } : {}) };
  const lines = await repo('ship-order-detail').rows(lineWhere, { attributes: ['id', 'carrierId', 'carrierSn', 'containerNo'], lock: 'update' });
  if (!lines.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToShip', { title: String(order.orderNo) });
  const ids = lines.map((l) => Number(l.carrierId));
  const carriers = await repo('carrier').rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'sn', 'name', 'carrierCodeId', 'warehouseId', 'transportStatus'], lock: 'update' });
  // A carrier gone out of the caller's scope (deleted, another warehouse) is simply not found.
  if (carriers.length !== new Set(ids).size) throw new ApiError(ErrorCode.notFound, 'shipping.carriersNotFound', { sns: snList(lines.filter((l) => !carriers.some((c) => c.id === l.carrierId)).map((l) => String(l.carrierSn ?? l.carrierId))) });
  const away = carriers.filter((c) => Number(c.warehouseId) !== shipper || !IN_STOCK.includes(Number(c.transportStatus)));
  if (away.length) throw notInWarehouse(away, order, 'shipperWarehouse');

  const moved = await repo('carrier').updateWhere(
    { warehouseId: null, transportStatus: Transport.inTransit, outboundWarehouseId: shipper, outboundTime: now },
    { id: { [Op.in]: ids }, warehouseId: shipper, transportStatus: { [Op.in]: IN_STOCK } },
  );
  if (moved !== ids.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.movedMeanwhile', { title: String(order.orderNo) });

  const container = new Map<number, string | null>(lines.map((l) => [Number(l.carrierId), (l.containerNo as string | null) ?? null]));
  await writeTrail(o, carriers, Enums.inoutDirection.outbound, shipper, container, (c) => String(c.transportStatus ?? ''), Transport.inTransit);
  // departure confirmed by hand until a gate pass confirms it by beacon (telemetry-agreement.ts)
  await repo('ship-order-detail').updateWhere({ status: Line.shipped, deliveryBy: operatorOf(ctx), deliveryTime: now, departureConfirmedBy: Enums.confirmSource.hand, departureConfirmedTime: now, ...(deliveryNo ? { deliveryNo } : {}) }, { id: { [Op.in]: lines.map((l) => Number(l.id)) } });

  // The route's transport-time clock: the order is due this long after it left.
  const minutes = await routeMinutes(repo, order);
  if (minutes > 0 && !order.dueAt) await repo('ship-order').updateWhere({ dueAt: new Date(now.getTime() + minutes * 60_000) }, { id: order.id });
  return ids.length;
}

/**
 * Receives carriers of an order at its receiver warehouse. `carrierIds` omitted: every shipped
 * line. Carriers received that were not shipped on the order are extra: they come in too (they
 * are physically here) and are kept as `extra` lines of the order.
 */
export async function receiveCarriers(o: MoveOptions, carrierIds?: number[], container?: Map<number, string | null>): Promise<{ received: number; extra: number }> {
  const { repo, ctx, order, now } = o;
  const receiver = Number(order.receiverWarehouseId);
  // only the lines of the carriers received now (a scan of 100 does not read a 5,000-line order)
  const lines = await repo('ship-order-detail').rows(
    { shipOrderId: order.id, ...(carrierIds ? { carrierId: { [Op.in]: carrierIds } } : {}) },
    { attributes: ['id', 'carrierId', 'carrierSn', 'status', 'containerNo'], lock: 'update' },
  );
  const lineOf = new Map(lines.map((l) => [Number(l.carrierId), l]));
  const wanted = carrierIds ?? lines.filter((l) => l.status === Line.shipped).map((l) => Number(l.carrierId));
  if (!wanted.length) return { received: 0, extra: 0 };
  const onOrder = wanted.filter((id) => lineOf.get(id)?.status === Line.shipped);
  const already = wanted.filter((id) => lineOf.get(id)?.status === Line.received);
  if (already.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.alreadyReceived', { sns: snList(already.map((id) => String(lineOf.get(id)!.carrierSn))), title: String(order.orderNo) });
  const extra = wanted.filter((id) => !onOrder.includes(id));

  const carriers = await repo('carrier').rows({ id: { [Op.in]: wanted } }, { attributes: ['id', 'sn', 'name', 'carrierCodeId', 'warehouseId', 'transportStatus', 'inboundTime'], lock: 'update' });
  if (carriers.length !== wanted.length) throw new ApiError(ErrorCode.notFound, 'shipping.carriersNotFound', { sns: snList(wanted.filter((id) => !carriers.some((c) => Number(c.id) === id)).map(String)) });
  // a carrier not on the order that already stands here did not arrive with it
  const here = carriers.filter((c) => extra.includes(Number(c.id)) && Number(c.warehouseId) === receiver && IN_STOCK.includes(Number(c.transportStatus)));
  if (here.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.alreadyHere', { sns: snList(here.map((c) => String(c.sn))), warehouse: String(order.receiverWarehouseIdLabel ?? receiver) });
  const shippedHere = new Set(onOrder);
  // a carrier a gate already saw arriving at the receiver stands there: it is received like one in transit
  const notMoving = carriers.filter((c) => shippedHere.has(Number(c.id)) && !MOVING.includes(Number(c.transportStatus)) && Number(c.warehouseId) !== receiver);
  if (notMoving.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.notInTransit', { sns: snList(notMoving.map((c) => String(c.sn))), title: String(order.orderNo) });

  const values = {
    warehouseId: receiver,
    transportStatus: Transport.inWarehouse,
    inboundWarehouseId: receiver,
    inboundTime: now,
    cycleCount: literal('COALESCE(cycle_count, 0) + 1'),
    // days since the carrier last came in somewhere: one full turn of the loop
    turnoverDays: literal(turnoverExpr(o.dialect, now)),
  };
  if (onOrder.length) {
    const moved = await repo('carrier').updateWhere(values, { id: { [Op.in]: onOrder }, [Op.or]: [{ transportStatus: { [Op.in]: MOVING } }, { warehouseId: receiver }] });
    if (moved !== onOrder.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.movedMeanwhile', { title: String(order.orderNo) });
  }
  if (extra.length) await repo('carrier').updateWhere(values, { id: { [Op.in]: extra } });

  const containers = new Map<number, string | null>(lines.map((l) => [Number(l.carrierId), (l.containerNo as string | null) ?? null]));
  for (const [k, v] of container ?? []) if (v) containers.set(k, v);
  await writeTrail(o, carriers, Enums.inoutDirection.inbound, receiver, containers, (c) => String(c.transportStatus ?? ''), Transport.inWarehouse);

  const stamp = { receiptBy: operatorOf(ctx), receiptTime: now };
  if (onOrder.length) await repo('ship-order-detail').updateWhere({ status: Line.received, ...stamp }, { shipOrderId: order.id, carrierId: { [Op.in]: onOrder } });
  // arrival confirmed by hand where no gate or GPS fence confirmed it first
  await repo('ship-order-detail').updateWhere({ arrivalConfirmedBy: Enums.confirmSource.hand, arrivalConfirmedTime: now }, { shipOrderId: order.id, carrierId: { [Op.in]: wanted }, arrivalConfirmedBy: null });
  if (extra.length) {
    // an extra carrier already listed (pending or missing) changes its line; others get a new line
    const listed = extra.filter((id) => lineOf.has(id));
    if (listed.length) await repo('ship-order-detail').updateWhere({ status: Line.extra, ...stamp }, { shipOrderId: order.id, carrierId: { [Op.in]: listed } });
    const byId = new Map(carriers.map((c) => [Number(c.id), c]));
    await repo('ship-order-detail').insertMany(
      extra
        .filter((id) => !lineOf.has(id))
        .map((id) => ({
          shipOrderId: order.id,
          carrierId: id,
          carrierSn: byId.get(id)!.sn,
          carrierCodeId: byId.get(id)!.carrierCodeId ?? null,
          containerNo: containers.get(id) ?? null,
          status: Line.extra,
          ...stamp,
          arrivalConfirmedBy: Enums.confirmSource.hand,
          arrivalConfirmedTime: now,
        })),
    );
  }
  await recount(repo, order.id);
  return { received: onOrder.length, extra: extra.length };
}

/** Shipped lines nobody received: kept as missing (the difference shown on the order). */
export async function markMissing(repo: Repo, order: Row): Promise<number> {
  const n = await repo('ship-order-detail').updateWhere({ status: Line.missing }, { shipOrderId: order.id, status: Line.shipped });
  await recount(repo, order.id);
  return n;
}

/**
 * What follows a carrier missing on arrival: it is abnormal (not in transit for ever, found by
 * a count or written off), and its log says where and with which documents it went missing —
 * which the shipper warehouse reads on the carrier and on the order's missing lines.
 */
export async function noticeMissing(e: { repo: Repo; ctx: RequestContext; at: Date }, order: Row, receipt: Row): Promise<number> {
  const lines = await e.repo('ship-order-detail').rows({ shipOrderId: order.id, status: Line.missing }, { attributes: ['carrierId'] });
  const ids = lines.map((l) => Number(l.carrierId));
  if (!ids.length) return 0;
  const carriers = await e.repo('carrier').rows({ id: { [Op.in]: ids }, transportStatus: { [Op.in]: MOVING } }, { attributes: ['id', 'transportStatus'] });
  if (!carriers.length) return 0;
  await e.repo('carrier').updateWhere({ transportStatus: Transport.abnormal }, { id: { [Op.in]: carriers.map((c) => Number(c.id)) } });
  const params = { order: String(order.orderNo), receipt: String(receipt.receiptNo), warehouse: String(order.receiverWarehouseIdLabel ?? order.receiverWarehouseId) };
  await e.repo('carrier-log').insertMany(
    carriers.map((c) => ({ carrierId: c.id, event: Enums.carrierLogEvent.transportStatusChange, oldValue: String(c.transportStatus ?? ''), newValue: String(Transport.abnormal), operator: operatorOf(e.ctx), time: e.at, remark: `Missing on arrival at ${params.warehouse}: ship order ${params.order}, receipt ${params.receipt}`, remarkKey: { key: 'shipping.logs.missing', params } })),
  );
  return carriers.length;
}

/** received / missing / extra counts of the order, from its lines. */
export async function recount(repo: Repo, orderId: number): Promise<void> {
  const lines = repo('ship-order-detail');
  const [receivedAmount, missingAmount, extraAmount] = await Promise.all([
    lines.count({ shipOrderId: orderId, status: Line.received }),
    lines.count({ shipOrderId: orderId, status: Line.missing }),
    lines.count({ shipOrderId: orderId, status: Line.extra }),
  ]);
  await repo('ship-order').updateWhere({ receivedAmount, missingAmount, extraAmount }, { id: orderId });
}

/** In/out rows and carrier logs of one move: two multi-row INSERTs. */
async function writeTrail(o: MoveOptions, carriers: Row[], direction: number, warehouseId: number, container: Map<number, string | null>, oldValue: (c: Row) => string, to: number): Promise<void> {
  const { repo, ctx, order, now } = o;
  // an arrival a gate reported first is taken over, not written twice (inout-rows.ts)
  const taken = direction === Enums.inoutDirection.inbound ? await adoptDeviceRows({ repo, order, now, direction, warehouseId, container }, carriers.map((c) => Number(c.id))) : new Set<number>();
  await repo('carrier-inout').insertMany(
    carriers
      .filter((c) => !taken.has(Number(c.id)))
      .map((c) => ({
        carrierId: c.id,
        sn: c.sn,
        name: c.name ?? null,
        carrierCodeId: c.carrierCodeId ?? null,
        direction,
        warehouseId,
        confirmTime: now,
        shipOrderNo: order.orderNo,
        containerNo: container.get(Number(c.id)) ?? null,
      })),
  );
  const operator = operatorOf(ctx);
  // the remark as a key and values, rendered in the reader's language (metadata textFrom); the text for searches
  const shipped = direction === Enums.inoutDirection.outbound;
  const remark = `${shipped ? 'Shipped' : 'Received'} with ship order ${order.orderNo}`;
  const remarkKey = { key: shipped ? 'shipping.logs.shipped' : 'shipping.logs.received', params: { order: String(order.orderNo) } };
  await repo('carrier-log').insertMany(
    carriers.map((c) => ({ carrierId: c.id, event: Enums.carrierLogEvent.transportStatusChange, oldValue: oldValue(c), newValue: String(to), operator, time: now, remark, remarkKey })),
  );
}

async function routeMinutes(repo: Repo, order: Row): Promise<number> {
  const where = order.routeId ? { id: order.routeId } : { fromWarehouseId: order.shipperWarehouseId, toWarehouseId: order.receiverWarehouseId };
  const [route] = await repo('route').rows(where, { attributes: ['id', 'transportTime'], order: [['id', 'ASC']], limit: 1 });
  return Number(route?.transportTime ?? 0) || 0;
}

function turnoverExpr(dialect: string, now: Date): string {
  const ms = now.getTime();
  if (dialect === 'sqlite') {
    // inbound_time is stored as text 'YYYY-MM-DD HH:MM:SS.SSS +00:00'
    return `CASE WHEN inbound_time IS NULL THEN turnover_days ELSE ROUND((${ms / DAY_MS + 2440587.5} - julianday(substr(inbound_time, 1, 23))), 2) END`;
  }
  return `CASE WHEN inbound_time IS NULL THEN turnover_days ELSE ROUND(TIMESTAMPDIFF(SECOND, inbound_time, FROM_UNIXTIME(${Math.floor(ms / 1000)})) / 86400, 2) END`;
}

/** SPEC §8 reason 80: carriers not in the warehouse the document moves them from/to. */
export function notInWarehouse(carriers: Row[], order: Row, side: 'shipperWarehouse' | 'receiverWarehouse'): ApiError {
  return new ApiError(ErrorCode.statusForbidden, 'shipping.notInWarehouse', {
    count: carriers.length,
    sns: snList(carriers.map((c) => String(c.sn))),
    warehouse: String(order[`${side}IdLabel`] ?? order[`${side}Id`] ?? ''),
    reason: tKey('enums.sharedImportError.carrierNotInWarehouse'),
  });
}
