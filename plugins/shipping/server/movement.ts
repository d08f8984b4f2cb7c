/**
 * Carriers moving between warehouses with the documents. The shipping list's line statuses are
 * declared steps (ship-order-detail: ship, receive, receiveExtra, miss); the documents' steps
 * run them from code (`e.run`), and what the carriers do is the line steps' effect here:
 *
 * - `ship` (pending → shipped, moving a new order to released): out of the shipper warehouse,
 *   in transit, an outbound in/out row and a carrier log each, departure confirmed by hand, the
 *   order's due time from its route;
 * - `receive` (shipped → received) and `receiveExtra` (pending/missing → extra, or a carrier not
 *   on the order at all): into the receiver warehouse, cycle count + 1, turnover days, inbound
 *   rows (a gate's arrival row taken over), logs, arrival confirmed by hand.
 *
 * Everything is set-based in the step's transaction: a handful of statements for 5,000
 * carriers, and a refusal anywhere rolls back every status and row. Carrier rows move with
 * conditional UPDATEs: of two releases racing for one carrier, the second matches fewer rows
 * than it expects and is refused whole.
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, tKey, type PluginServerContext, type ScopedRepository, type TransitionEvent } from '@rti/server/plugin-api';
import { Op, literal } from 'sequelize';
import { adoptDeviceRows } from './inout-rows';
import { followInTelemetry } from './telemetry-agreement';
import { clearTimeoutAlerts } from './transport-clock';

type Row = Record<string, any>;
type Event = Pick<TransitionEvent, 'repo' | 'ctx' | 'at'>;

const Line = Enums.shipOrderLineStatus;
const Transport = Enums.transportStatus;
/** transport statuses of a carrier standing in a warehouse (unknown: registered there, never seen moving) */
export const IN_STOCK: number[] = [Transport.unknown, Transport.inWarehouse, Transport.idle];
const MOVING: number[] = [Transport.inTransit, Transport.abnormal];
/** Serials named in a refusal at most (the rest are counted). */
const NAMED = 10;
const ids = (rows: Row[], field = 'id') => rows.map((r) => Number(r[field]));

/** The `ship` line step's inputs at a time: stamped then, departure confirmed by hand until a gate pass confirms it (telemetry-agreement.ts). */
export const shipInput = (at: Date) => ({
  deliveryTime: at.toISOString(),
  departureConfirmedBy: Enums.confirmSource.hand,
  departureConfirmedTime: at.toISOString(),
});

export const snList = (sns: string[]): string => (sns.length > NAMED ? `${sns.slice(0, NAMED).join(', ')} … (+${sns.length - NAMED})` : sns.join(', '));

const operatorOf = (e: Event) => (e.ctx.user?.realName || e.ctx.user?.username || 'system').slice(0, 50);

/** rows grouped by a field (lines by their document) */
export function groupBy(rows: Row[], field: string): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const r of rows) out.set(Number(r[field]), [...(out.get(Number(r[field])) ?? []), r]);
  return out;
}

export function installMovement(ctx: PluginServerContext): void {
  // After the commit the telemetry engine re-reads the carriers moved, so its warehouse and
  // transport state agree with the documents and the gate pass still to come confirms the move.
  const follow = (e: TransitionEvent, direction: 'out' | 'in') =>
    e.afterCommit(() => followInTelemetry(ctx, e.ctx, [...groupBy(e.rows, 'shipOrderId').keys()], direction));
  const orderOf = async (e: Event, id: number) => (await e.repo('ship-order').list({ id }))[0];

  ctx.transitions.on('ship-order-detail', 'ship', async (e) => {
    for (const [orderId, lines] of groupBy(e.rows, 'shipOrderId')) await shipCarriers(e, await orderOf(e, orderId), lines);
    follow(e, 'out');
  });
  ctx.transitions.on('ship-order-detail', 'receive', async (e) => {
    for (const [orderId, lines] of groupBy(e.rows, 'shipOrderId')) await arrive(e, await orderOf(e, orderId), lines, false);
    follow(e, 'in');
  });
  ctx.transitions.on('ship-order-detail', 'receiveExtra', async (e) => {
    for (const [orderId, lines] of groupBy(e.rows, 'shipOrderId')) await arrive(e, await orderOf(e, orderId), lines, true);
    follow(e, 'in');
  });

  // ---- the order's own steps ships / receives all its lines (run from a line, the line moved already)
  ctx.transitions.on('ship-order', 'release', async (e) => {
    if (e.cause) return;
    const pending = await e.repo('ship-order-detail').rows({ shipOrderId: { [Op.in]: e.ids }, status: Line.pending }, { attributes: ['id', 'shipOrderId'] });
    const empty = e.rows.find((o) => !pending.some((l) => Number(l.shipOrderId) === Number(o.id)));
    if (empty) throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToShip', { title: String(empty.orderNo) });
    await e.run('ship-order-detail', 'ship', ids(pending), shipInput(e.at));
  });
  ctx.transitions.on('ship-order', 'receive', async (e) => {
    // run from a receipt closing: its lines were received or marked missing already
    if (!e.cause) {
      const shipped = await e.repo('ship-order-detail').rows({ shipOrderId: { [Op.in]: e.ids }, status: Line.shipped }, { attributes: ['id'] });
      await e.run('ship-order-detail', 'receive', ids(shipped), { receiptTime: e.at.toISOString() });
    }
    // received without a "delivered" step: it arrived when it was received
    await e.repo('ship-order').updateWhere({ ata: e.at }, { id: { [Op.in]: e.ids }, ata: null });
    await clearTimeoutAlerts(e.repo, e.ids);
  });

  // ---- a delivery ships its lines of the order (the first one releases the order: the line step's header)
  ctx.transitions.on('delivery', 'release', async (e) => {
    for (const delivery of e.rows) {
      const order = await e.repo('delivery').source(delivery);
      const carrierIds = ids(await e.repo('delivery-detail').rows({ deliveryId: delivery.id }, { attributes: ['carrierId'] }), 'carrierId');
      if (!carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToShip', { title: String(delivery.deliveryNo) });
      const lines = await e.repo('ship-order-detail').rows({ shipOrderId: order.id, carrierId: { [Op.in]: carrierIds } }, { attributes: ['id'] });
      if (lines.length !== carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.notPending', { title: String(order.orderNo) });
      await e.run('ship-order-detail', 'ship', ids(lines), { ...shipInput(e.at), deliveryNo: delivery.deliveryNo });
    }
  });

  // ---- receipt: lines received one scan at a time, the rest missing when it closes
  // "Receive" on the receipt itself receives every line still expected (all at once).
  ctx.transitions.on('receipt', 'receive', async (e) => {
    if (e.cause) return; // moved by its first received line
    const expected = await e.repo('receipt-detail').rows({ receiptId: { [Op.in]: e.ids }, status: Enums.receiptLineStatus.expected }, { attributes: ['id'] });
    if (!expected.length && !(await e.repo('receipt-detail').count({ receiptId: { [Op.in]: e.ids } }))) {
      throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToReceive', { title: e.rows.map((r) => String(r.receiptNo)).join(', ') });
    }
    await e.run('receipt-detail', 'receive', ids(expected));
  });
  ctx.transitions.on('receipt-detail', 'receive', async (e) => {
    for (const [receiptId, lines] of groupBy(e.rows, 'receiptId')) {
      const [receipt] = await e.repo('receipt').rows({ id: receiptId }, { attributes: ['id', 'shipOrderId'] });
      await receiveOnOrder(e, await e.repo('receipt').source(receipt), lines);
    }
  });
  ctx.transitions.on('receipt', 'close', async (e) => {
    for (const receipt of e.rows) {
      const order = await e.repo('receipt').source(receipt, { from: 'arrived' });
      // Receiving is done: what was shipped and not received is missing (the step marked the
      // receipt's expected lines; the order's shipped lines follow), and the shipper is told.
      const shipped = await e.repo('ship-order-detail').rows({ shipOrderId: order.id, status: Line.shipped }, { attributes: ['id'] });
      if (shipped.length) {
        await e.run('ship-order-detail', 'miss', ids(shipped));
        await noticeMissing(e, order, receipt);
      }
      // the order is received by whoever closes its receipt, through the order's own step
      if (order.status !== Enums.shipOrderStatus.received) await e.run('ship-order', 'receive', [Number(order.id)], { tor: e.at.toISOString() });
      // arrival is when receiving began (the receipt's real date)
      if (receipt.realDate)
        await e
          .repo('ship-order')
          .updateWhere({ ata: new Date(receipt.realDate as string) }, { id: order.id, ata: { [Op.gt]: new Date(receipt.realDate as string) } });
      await clearTimeoutAlerts(e.repo, [Number(order.id)]);
    }
  });
}

/**
 * Receipt lines received: the order's shipped lines of their carriers are received; a carrier
 * shipped on no line of the order came too and is kept as an extra line (a new one, or its
 * pending/missing line). A carrier already received on the order is refused by name.
 */
async function receiveOnOrder(e: TransitionEvent, order: Row, received: Row[]): Promise<void> {
  const carrierIds = ids(received, 'carrierId');
  const lines = await e
    .repo('ship-order-detail')
    .rows({ shipOrderId: order.id, carrierId: { [Op.in]: carrierIds } }, { attributes: ['id', 'carrierId', 'carrierSn', 'status'], lock: 'update' });
  const lineOf = new Map(lines.map((l) => [Number(l.carrierId), l]));
  const already = lines.filter((l) => l.status === Line.received);
  if (already.length)
    throw new ApiError(ErrorCode.statusForbidden, 'shipping.alreadyReceived', {
      sns: snList(already.map((l) => String(l.carrierSn))),
      title: String(order.orderNo),
    });
  const receiptTime = e.at.toISOString();
  await e.run('ship-order-detail', 'receive', ids(lines.filter((l) => l.status === Line.shipped)), { receiptTime });
  // extra carriers without a line get one (it goes through the step like a listed one)
  const unlisted = received.filter((r) => !lineOf.has(Number(r.carrierId)));
  const carriers = new Map(
    (await e.repo('carrier').rows({ id: { [Op.in]: ids(unlisted, 'carrierId') } }, { attributes: ['id', 'carrierCodeId'] })).map((c) => [Number(c.id), c]),
  );
  await e.repo('ship-order-detail').insertMany(
    unlisted.map((r) => {
      const carrierCodeId = carriers.get(Number(r.carrierId))?.carrierCodeId ?? null;
      return { shipOrderId: order.id, carrierId: r.carrierId, carrierSn: r.carrierSn, carrierCodeId, containerNo: r.containerNo ?? null, status: Line.pending };
    }),
  );
  const extra = await e
    .repo('ship-order-detail')
    .rows({ shipOrderId: order.id, carrierId: { [Op.in]: carrierIds }, status: { [Op.ne]: Line.received } }, { attributes: ['id'] });
  await e.run('ship-order-detail', 'receiveExtra', ids(extra), { receiptTime });
}

/** The `ship` line step's effect: the lines' carriers leave the shipper warehouse. */
async function shipCarriers(e: Event, order: Row, lines: Row[]): Promise<void> {
  const shipper = Number(order.shipperWarehouseId);
  const carrierIds = ids(lines, 'carrierId');
  const carriers = await e
    .repo('carrier')
    .rows({ id: { [Op.in]: carrierIds } }, { attributes: ['id', 'sn', 'name', 'carrierCodeId', 'warehouseId', 'transportStatus'], lock: 'update' });
  // A carrier gone out of the caller's scope (deleted, another warehouse) is simply not found.
  if (carriers.length !== new Set(carrierIds).size)
    throw new ApiError(ErrorCode.notFound, 'shipping.carriersNotFound', {
      sns: snList(lines.filter((l) => !carriers.some((c) => c.id === l.carrierId)).map((l) => String(l.carrierSn ?? l.carrierId))),
    });
  const away = carriers.filter((c) => Number(c.warehouseId) !== shipper || !IN_STOCK.includes(Number(c.transportStatus)));
  if (away.length) throw notInWarehouse(away, order, 'shipperWarehouse');
  const moved = await e
    .repo('carrier')
    .updateWhere(
      { warehouseId: null, transportStatus: Transport.inTransit, outboundWarehouseId: shipper, outboundTime: e.at },
      { id: { [Op.in]: carrierIds }, warehouseId: shipper, transportStatus: { [Op.in]: IN_STOCK } },
    );
  if (moved !== carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.movedMeanwhile', { title: String(order.orderNo) });
  await writeTrail(e, order, carriers, lines, Enums.inoutDirection.outbound, shipper, Transport.inTransit);
  // The route's transport-time clock: the order is due this long after it left.
  const minutes = await routeMinutes(e, order);
  if (minutes > 0 && !order.dueAt) await e.repo('ship-order').updateWhere({ dueAt: new Date(e.at.getTime() + minutes * 60_000) }, { id: order.id });
}

/** The `receive` / `receiveExtra` line steps' effect: the lines' carriers come in at the receiver. */
async function arrive(e: Event, order: Row, lines: Row[], extra: boolean): Promise<void> {
  const receiver = Number(order.receiverWarehouseId);
  const carrierIds = ids(lines, 'carrierId');
  const carriers = await e
    .repo('carrier')
    .rows(
      { id: { [Op.in]: carrierIds } },
      { attributes: ['id', 'sn', 'name', 'carrierCodeId', 'warehouseId', 'transportStatus', 'inboundTime'], lock: 'update' },
    );
  if (carriers.length !== carrierIds.length)
    throw new ApiError(ErrorCode.notFound, 'shipping.carriersNotFound', {
      sns: snList(lines.filter((l) => !carriers.some((c) => Number(c.id) === Number(l.carrierId))).map((l) => String(l.carrierSn))),
    });
  const atReceiver = (c: Row) => Number(c.warehouseId) === receiver;
  // a carrier not shipped on the order that already stands here did not arrive with it; a shipped
  // one a gate already saw arriving stands here and is received like one in transit
  const wrong = extra
    ? carriers.filter((c) => atReceiver(c) && IN_STOCK.includes(Number(c.transportStatus)))
    : carriers.filter((c) => !MOVING.includes(Number(c.transportStatus)) && !atReceiver(c));
  if (wrong.length && extra)
    throw new ApiError(ErrorCode.statusForbidden, 'shipping.alreadyHere', {
      sns: snList(wrong.map((c) => String(c.sn))),
      warehouse: String(order.receiverWarehouseIdLabel ?? receiver),
    });
  if (wrong.length)
    throw new ApiError(ErrorCode.statusForbidden, 'shipping.notInTransit', { sns: snList(wrong.map((c) => String(c.sn))), title: String(order.orderNo) });
  const carrierRepo = e.repo('carrier');
  const moved = await carrierRepo.updateWhere(
    {
      warehouseId: receiver,
      transportStatus: Transport.inWarehouse,
      inboundWarehouseId: receiver,
      inboundTime: e.at,
      cycleCount: literal('COALESCE(cycle_count, 0) + 1'),
      // days since the carrier last came in somewhere: one full turn of the loop
      turnoverDays: literal(turnoverExpr(carrierRepo, e.at)),
    },
    { id: { [Op.in]: carrierIds }, ...(extra ? {} : { [Op.or]: [{ transportStatus: { [Op.in]: MOVING } }, { warehouseId: receiver }] }) },
  );
  if (moved !== carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.movedMeanwhile', { title: String(order.orderNo) });
  await writeTrail(e, order, carriers, lines, Enums.inoutDirection.inbound, receiver, Transport.inWarehouse);
  // arrival confirmed by hand where no gate or GPS fence confirmed it first
  await e
    .repo('ship-order-detail')
    .updateWhere({ arrivalConfirmedBy: Enums.confirmSource.hand, arrivalConfirmedTime: e.at }, { id: { [Op.in]: ids(lines) }, arrivalConfirmedBy: null });
}

/**
 * What follows a carrier missing on arrival: it is abnormal (not in transit for ever, found by
 * a count or written off), and its log says where and with which documents it went missing —
 * which the shipper warehouse reads on the carrier and on the order's missing lines.
 */
async function noticeMissing(e: Event, order: Row, receipt: Row): Promise<void> {
  const lines = await e.repo('ship-order-detail').rows({ shipOrderId: order.id, status: Line.missing }, { attributes: ['carrierId'] });
  const carriers = lines.length
    ? await e
        .repo('carrier')
        .rows({ id: { [Op.in]: ids(lines, 'carrierId') }, transportStatus: { [Op.in]: MOVING } }, { attributes: ['id', 'transportStatus'] })
    : [];
  if (!carriers.length) return;
  await e.repo('carrier').updateWhere({ transportStatus: Transport.abnormal }, { id: { [Op.in]: ids(carriers) } });
  const params = {
    order: String(order.orderNo),
    receipt: String(receipt.receiptNo),
    warehouse: String(order.receiverWarehouseIdLabel ?? order.receiverWarehouseId),
  };
  await e.repo('carrier-log').insertMany(
    carriers.map((c) => ({
      carrierId: c.id,
      event: Enums.carrierLogEvent.transportStatusChange,
      oldValue: String(c.transportStatus ?? ''),
      newValue: String(Transport.abnormal),
      operator: operatorOf(e),
      time: e.at,
      remark: `Missing on arrival at ${params.warehouse}: ship order ${params.order}, receipt ${params.receipt}`,
      remarkKey: { key: 'shipping.logs.missing', params },
    })),
  );
}

/** In/out rows and carrier logs of one move: two multi-row INSERTs. */
async function writeTrail(e: Event, order: Row, carriers: Row[], lines: Row[], direction: number, warehouseId: number, to: number): Promise<void> {
  const container = new Map<number, string | null>(lines.map((l) => [Number(l.carrierId), (l.containerNo as string | null) ?? null]));
  const trip = (c: Row) => ({ shipOrderNo: order.orderNo, containerNo: container.get(Number(c.id)) ?? null });
  // an arrival a gate reported first is taken over, not written twice (inout-rows.ts)
  const shipped = direction === Enums.inoutDirection.outbound;
  const taken = shipped ? new Set<number>() : await adoptDeviceRows({ repo: e.repo, order, now: e.at, direction, warehouseId, container }, ids(carriers));
  await e.repo('carrier-inout').insertMany(
    carriers
      .filter((c) => !taken.has(Number(c.id)))
      .map((c) => ({
        carrierId: c.id,
        sn: c.sn,
        name: c.name ?? null,
        carrierCodeId: c.carrierCodeId ?? null,
        direction,
        warehouseId,
        confirmTime: e.at,
        ...trip(c),
      })),
  );
  // the remark as a key and values, rendered in the reader's language (metadata textFrom); the text for searches
  const remark = `${shipped ? 'Shipped' : 'Received'} with ship order ${order.orderNo}`;
  const remarkKey = { key: shipped ? 'shipping.logs.shipped' : 'shipping.logs.received', params: { order: String(order.orderNo) } };
  const operator = operatorOf(e);
  await e.repo('carrier-log').insertMany(
    carriers.map((c) => ({
      carrierId: c.id,
      event: Enums.carrierLogEvent.transportStatusChange,
      oldValue: String(c.transportStatus ?? ''),
      newValue: String(to),
      operator,
      time: e.at,
      remark,
      remarkKey,
    })),
  );
}

async function routeMinutes(e: Event, order: Row): Promise<number> {
  const where = order.routeId ? { id: order.routeId } : { fromWarehouseId: order.shipperWarehouseId, toWarehouseId: order.receiverWarehouseId };
  const [route] = await e.repo('route').rows(where, { attributes: ['id', 'transportTime'], order: [['id', 'ASC']], limit: 1 });
  return Number(route?.transportTime ?? 0) || 0;
}

function turnoverExpr(carriers: Pick<ScopedRepository, 'quoted' | 'daysSince'>, now: Date): string {
  const inbound = carriers.quoted('inboundTime');
  return `CASE WHEN ${inbound} IS NULL THEN ${carriers.quoted('turnoverDays')} ELSE ROUND(${carriers.daysSince('inboundTime', now)}, 2) END`;
}

/** SPEC §8 reason 80 (`importCode`: an import row, a scan or batch/add reports it): carriers not in the warehouse the document moves them from/to. */
export function notInWarehouse(carriers: Row[], order: Row, side: 'shipperWarehouse' | 'receiverWarehouse'): ApiError {
  return new ApiError(ErrorCode.statusForbidden, 'shipping.notInWarehouse', {
    count: carriers.length,
    sns: snList(carriers.map((c) => String(c.sn))),
    warehouse: String(order[`${side}IdLabel`] ?? order[`${side}Id`] ?? ''),
    reason: tKey('enums.sharedImportError.carrierNotInWarehouse'),
    importCode: Enums.sharedImportError.carrierNotInWarehouse,
  });
}
