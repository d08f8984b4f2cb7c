/**
 * Shipping: the domain side effects of the ship-order, delivery and receipt documents
 * (plugins/shipping/metadata). The documents, their numbers, lines, frozen states and
 * status steps are metadata; this plugin only adds what carriers do when a step runs
 * (movement.ts), the rules over lines, and SPEC's extra calls (calls.ts).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, definePlugin, tKey, type PluginServerContext, type TransitionEvent } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { Op } from 'sequelize';
import { registerCalls } from './calls';
import { shippingListImport } from './import';
import { registerLineCalls } from './line-calls';
import { registerMapCalls } from './map-calls';
import { registerInfo } from './info';
import { registerPrint } from './print';
import { registerShipPlan } from './ship-plan';
import { registerTrucks } from './trucks';
import { installMaritime } from './maritime';
import { followInTelemetry, installTelemetryAgreement } from './telemetry-agreement';
import { clearTimeoutAlerts, installTransportClock } from './transport-clock';
import { IN_STOCK, markMissing, noticeMissing, notInWarehouse, receiveCarriers, shipLines, snList, type MoveOptions } from './movement';
import { orderGroup, readOrderGroups } from './statuses';

const Order = Enums.shipOrderStatus;
const Line = Enums.shipOrderLineStatus;
const RLine = Enums.receiptLineStatus;
/** carrier statuses that may be shipped */
const USABLE: number[] = [Enums.carrierStatus.new, Enums.carrierStatus.inUse, Enums.carrierStatus.standby];

type Row = Record<string, any>;
/** who a stamp names: the user's real name, else the login (the stamp columns hold 50) */
const operatorOf = (call: TransitionEvent['ctx']): string => (call.user?.realName || call.user?.username || 'system').slice(0, 50);

export default definePlugin({
  id: 'shipping',
  optionalDependsOn: ['telemetry'],
  server(ctx) {
    readOrderGroups(ctx.metadata);
    const dialect = ctx.database.dialect;
    // dated by the step's time: now, or when the clerk says it happened (recorded after the fact)
    const move = (e: TransitionEvent, order: Row): MoveOptions => ({ repo: e.repo, ctx: e.ctx, order, now: e.at, dialect });
    // The derived-state engine re-reads carriers once the move is committed and follows the
    // carriers moved, so its warehouse and transport state agree with the documents (else the
    // next gateway pass would undo them) and the gate pass still to come confirms the move.
    const refreshTelemetry = (e: TransitionEvent, orderIds: number[], direction: 'out' | 'in') => e.afterCommit(() => followInTelemetry(ctx, e.ctx, orderIds, direction));

    // ---- ship order steps ------------------------------------------------------------------
    ctx.transitions.on('ship-order', 'release', async (e) => {
      // run from code (a delivery, chosen lines), the caller ships its own lines
      if (!e.cause) for (const order of e.rows) await shipLines(move(e, order));
      refreshTelemetry(e, e.rows.map((o) => Number(o.id)), 'out');
    });
    ctx.transitions.on('ship-order', 'receive', async (e) => {
      // run from code (a receipt closing), its lines were received or marked missing already
      if (!e.cause) for (const order of e.rows) await receiveCarriers(move(e, order));
      // received without a "delivered" step: it arrived when it was received
      await e.repo('ship-order').updateWhere({ ata: e.at }, { id: { [Op.in]: e.rows.map((o) => Number(o.id)) }, ata: null });
      await clearTimeoutAlerts(e.repo, e.rows.map((o) => Number(o.id)));
      refreshTelemetry(e, e.rows.map((o) => Number(o.id)), 'in');
    });
    ctx.transitions.on('ship-order', 'close', async (e) => {
      for (const order of e.rows) await markMissing(e.repo, order);
    });

    // ---- delivery: ships its lines of the linked order ---------------------------------------
    ctx.transitions.on('delivery', 'release', async (e) => {
      for (const delivery of e.rows) {
        const order = await linkedOrder(e, delivery, orderGroup('shippable'), 'delivery');
        const carrierIds = (await e.repo('delivery-detail').rows({ deliveryId: delivery.id }, { attributes: ['carrierId'] })).map((r) => Number(r.carrierId));
        if (!carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToShip', { title: String(delivery.deliveryNo) });
        const lines = await e.repo('ship-order-detail').rows({ shipOrderId: order.id, carrierId: { [Op.in]: carrierIds }, status: Line.pending }, { attributes: ['id'] });
        if (lines.length !== carrierIds.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.notPending', { title: String(order.orderNo) });
        await shipLines(move(e, order), lines.map((l) => Number(l.id)), String(delivery.deliveryNo));
        // the first delivery releases its order: the order's own step, stamped when the delivery left
        if (order.status === Order.new) await e.run('ship-order', 'release', [Number(order.id)], { atd: e.at.toISOString() });
      }
      refreshTelemetry(e, e.rows.map((d) => Number(d.shipOrderId)), 'out');
    });

    // ---- receipt: lines received one scan at a time, the rest missing when it closes --------
    // "Receive" on the receipt itself receives every line still expected (all at once).
    ctx.transitions.on('receipt', 'receive', async (e) => {
      if (e.cause) return; // moved by its first received line
      const expected = await e.repo('receipt-detail').rows({ receiptId: { [Op.in]: e.ids }, status: RLine.expected }, { attributes: ['id'] });
      if (!expected.length) {
        const empty = await e.repo('receipt-detail').count({ receiptId: { [Op.in]: e.ids } });
        if (!empty) throw new ApiError(ErrorCode.statusForbidden, 'shipping.nothingToReceive', { title: e.rows.map((r) => String(r.receiptNo)).join(', ') });
        return;
      }
      await e.run('receipt-detail', 'receive', expected.map((l) => Number(l.id)));
    });
    ctx.transitions.on('receipt-detail', 'receive', async (e) => {
      const byReceipt = new Map<number, Row[]>();
      for (const l of e.rows) byReceipt.set(Number(l.receiptId), [...(byReceipt.get(Number(l.receiptId)) ?? []), l]);
      const orderIds: number[] = [];
      for (const [receiptId, lines] of byReceipt) {
        const [receipt] = await e.repo('receipt').rows({ id: receiptId }, { attributes: ['id', 'receiptNo', 'shipOrderId'] });
        const order = await linkedOrder(e, receipt, orderGroup('inTransit'), 'receipt');
        await receiveCarriers(move(e, order), lines.map((l) => Number(l.carrierId)), new Map<number, string | null>(lines.map((l) => [Number(l.carrierId), (l.containerNo as string | null) ?? null])));
        orderIds.push(Number(order.id));
      }
      refreshTelemetry(e, orderIds, 'in');
    });
    ctx.transitions.on('receipt', 'close', async (e) => {
      for (const receipt of e.rows) {
        const order = await linkedOrder(e, receipt, orderGroup('arrived'), 'receipt');
        // Receiving is done: what was shipped and not received is missing (the step marked the
        // receipt's expected lines; the order's shipped lines follow), and the shipper is told.
        const missing = await markMissing(e.repo, order);
        if (missing) await noticeMissing(e, order, receipt);
        // the order is received by whoever closes its receipt, through the order's own step
        if (order.status !== Order.received) await e.run('ship-order', 'receive', [Number(order.id)], { tor: e.at.toISOString() });
        // arrival is when receiving began (the receipt's real date)
        if (receipt.realDate) await e.repo('ship-order').updateWhere({ ata: new Date(receipt.realDate as string) }, { id: order.id, ata: { [Op.gt]: new Date(receipt.realDate as string) } });
        await clearTimeoutAlerts(e.repo, [Number(order.id)]);
      }
    });

    // ---- rules over lines ----------------------------------------------------------------------
    ctx.documents.onLines('ship-order', async (e) => {
      if (!e.added.length && !e.changed.some((c) => 'carrierId' in c.values)) return;
      const incoming = [...e.added, ...e.changed.filter((c) => 'carrierId' in c.values).map((c) => c.values)];
      const ids = [...new Set(incoming.map((l) => Number(l.carrierId)))];
      // The carrier rows are the lock two writers adding one carrier to two orders both take:
      // the second waits here until the first commits, then its locking read below sees the
      // first's line (one open order per carrier holds under concurrency, not just in sequence).
      const carriers = await e.repo('carrier').rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'sn', 'carrierCodeId', 'warehouseId', 'transportStatus', 'status'], lock: 'update' });
      const byId = new Map(carriers.map((c) => [Number(c.id), c]));
      const shipper = Number(e.header.shipperWarehouseId);
      const away = carriers.filter((c) => Number(c.warehouseId) !== shipper || !IN_STOCK.includes(Number(c.transportStatus)));
      if (away.length) {
        const [wh] = await e.repo('warehouse').rows({ id: shipper }, { attributes: ['name'] });
        // importCode: the reason a shipping-list import row redone alone is reported with
        throw withReason(notInWarehouse(away, { shipperWarehouseIdLabel: wh?.name ?? shipper }, 'shipperWarehouse'), Enums.sharedImportError.carrierNotInWarehouse);
      }
      const unusable = carriers.filter((c) => c.status !== null && c.status !== undefined && !USABLE.includes(Number(c.status)));
      if (unusable.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.carrierUnavailable', { sns: snList(unusable.map((c) => String(c.sn))), importCode: Enums.sharedImportError.carrierUnavailable });
      // one open order per carrier and the serial/code snapshots are the metadata's (exclusive, snapshot)
    });
    // a delivery ships lines of its order: its carriers must be pending there
    ctx.documents.onLines('delivery', async (e) => {
      const incoming = [...e.added, ...e.changed.filter((c) => 'carrierId' in c.values).map((c) => c.values)];
      if (!incoming.length) return;
      const ids = [...new Set(incoming.map((l) => Number(l.carrierId)))];
      const pending = new Set((await e.repo('ship-order-detail').rows({ shipOrderId: e.header.shipOrderId, carrierId: { [Op.in]: ids }, status: Line.pending }, { attributes: ['carrierId'] })).map((r) => Number(r.carrierId)));
      const foreign = incoming.filter((l) => !pending.has(Number(l.carrierId)));
      if (foreign.length) throw new ApiError(ErrorCode.statusForbidden, 'shipping.notOnOrder', { sns: snList(foreign.map((l) => String(l.carrierSn ?? l.carrierId))), importCode: Enums.sharedImportError.carrierUnavailable });
    });

    // shipping-list import: per-row SPEC §8 reasons a chunk at a time (import.ts)
    ctx.imports.validator('ship-order-detail', shippingListImport(ctx));

    registerCalls(ctx);
    registerLineCalls(ctx);
    registerMapCalls(ctx);
    registerShipPlan(ctx);
    // trucks report, the public order page and the printed delivery note with its code
    registerTrucks(ctx);
    registerInfo(ctx);
    registerPrint(ctx);
    // gate passes confirm the shipping lists; the transport clock; vessels (maritime)
    installTelemetryAgreement(ctx);
    installTransportClock(ctx);
    installMaritime(ctx);
  },
});

/** The ship order a delivery/receipt points at, locked; its status must allow the step. */
async function linkedOrder(e: TransitionEvent, doc: Row, allowed: readonly number[], kind: 'delivery' | 'receipt'): Promise<Row> {
  if (!doc.shipOrderId) throw new ApiError(ErrorCode.statusForbidden, 'shipping.noShipOrder');
  const [found] = await e.repo('ship-order').rows({ id: doc.shipOrderId }, { lock: 'update' });
  if (!found) throw new ApiError(ErrorCode.statusForbidden, 'shipping.noShipOrder');
  const [order] = await e.repo('ship-order').list({ id: doc.shipOrderId });
  checkOrderStatus(order, allowed, kind);
  return order;
}

function checkOrderStatus(order: Row, allowed: readonly number[], kind: string): void {
  if (allowed.includes(Number(order.status))) return;
  const key = Object.entries(Enums.shipOrderStatus).find(([, n]) => n === Number(order.status))?.[0];
  const label = () => (key ? tKey(`enums.shipOrderStatus.${key}`) : String(order.status));
  throw new ApiError(ErrorCode.statusForbidden, 'shipping.orderNotOpen', {
    title: String(order.orderNo),
    status: label(),
    doc: tKey(`resources.${kind}`),
  });
}

function withReason(err: ApiError, importCode: number): ApiError {
  err.params.importCode = importCode;
  return err;
}
