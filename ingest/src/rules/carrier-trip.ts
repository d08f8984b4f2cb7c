/**
 * A carrier's place and trip: arrival at and departure from a warehouse (through a gate, a
 * warehouse gateway or a GPS fence), the in/out rows they write, and the transport status
 * with its log. Misuse / invalid route (carrier alert 10) is raised on arriving at a warehouse
 * no route leads to from the departure warehouse (cleared when the carrier leaves again), and
 * when a carrier leaves a warehouse while scrapped, in maintenance or damaged (cleared when it
 * is back in a warehouse).
 */
import { CARRIER_LOG, CARRIER_REASON, DIRECTION, TRANSPORT, type AlertText, type InOutVia } from '../state/effects';
import type { CarrierInfo, WarehouseInfo } from '../state/fleet';
import { clear, raise, type CarrierState } from '../state/subject-state';
import type { RuleContext } from './context';

/** carrier statuses (SPEC §4) in which leaving a warehouse is misuse (carrier alert 10) */
const MUST_NOT_TRAVEL: Record<number, string> = { 30: 'scrapped', 50: 'in maintenance', 60: 'damaged' };
/** the carrier status enum's label of the statuses above (the alert text names the status in the reader's language) */
const STATUS_LABEL: Record<number, string> = { 30: 'enums.carrierStatus.scrapped', 50: 'enums.carrierStatus.maintenance', 60: 'enums.carrierStatus.damaged' };

export function setTransport(ctx: RuleContext, c: CarrierInfo, s: CarrierState, status: number, time: number): void {
  if (s.transportStatus === status) return;
  ctx.emit({
    type: 'log',
    orgId: c.orgId,
    kind: 'carrier',
    subjectId: c.id,
    event: CARRIER_LOG.transportStatusChange,
    oldValue: String(s.transportStatus),
    newValue: String(status),
    time,
  });
  s.transportStatus = status;
  ctx.touchCarrier(c, s);
}

export function openCarrierAlert(
  ctx: RuleContext,
  c: CarrierInfo,
  s: CarrierState,
  reason: number,
  time: number,
  message: string,
  warehouseId: number | null,
  text?: AlertText,
): void {
  ctx.emit({ type: 'alert', orgId: c.orgId, kind: 'carrier', subjectId: c.id, sn: c.sn, reason, warehouseId, message, text, time });
  ctx.emit({
    type: 'log',
    orgId: c.orgId,
    kind: 'carrier',
    subjectId: c.id,
    event: reason === CARRIER_REASON.idle ? CARRIER_LOG.longIdle : CARRIER_LOG.abnormal,
    newValue: String(reason),
    time,
    remark: message,
    text,
  });
}

export function closeCarrierAlert(ctx: RuleContext, c: CarrierInfo, s: CarrierState, key: string, reason: number, time: number): void {
  if (clear(s, key)) ctx.emit({ type: 'alert-cleared', orgId: c.orgId, kind: 'carrier', subjectId: c.id, reason, time });
}

function inout(ctx: RuleContext, c: CarrierInfo, direction: number, warehouseId: number, time: number, via: InOutVia): void {
  ctx.emit({ type: 'inout', orgId: c.orgId, carrierId: c.id, sn: c.sn, name: c.name, carrierCodeId: c.carrierCodeId, direction, warehouseId, time, via });
}

/**
 * The pass a document booked (state `expectedPass`) seen by a device at its warehouse: the
 * in/out pass in the booked direction (it confirms the document's row), the state already
 * being where the document put it.
 * False when the pass is not the expected one (the caller goes on with the usual rules).
 */
export function confirmExpected(ctx: RuleContext, c: CarrierInfo, s: CarrierState, w: WarehouseInfo, time: number, via: InOutVia): boolean {
  const e = s.expectedPass;
  if (!e || e.warehouseId !== w.id) return false;
  s.expectedPass = null;
  inout(ctx, c, e.direction, w.id, time, via);
  // the carrier's outbound/inbound time stays the document's (placeCarriers): the pass confirms
  // the document's in/out row (the state sink marks it confirmed by the device), it adds no move
  if (e.direction === DIRECTION.outbound) s.departedAt = time;
  ctx.touchCarrier(c, s);
  return true;
}

/** `record`: the pass writes an in/out row, seen by a gate gateway or a GPS fence; false only places the carrier */
export function arrive(ctx: RuleContext, c: CarrierInfo, s: CarrierState, w: WarehouseInfo, time: number, record: false | InOutVia): void {
  const from = s.departedFrom ?? (s.warehouseId !== null && s.warehouseId !== w.id ? s.warehouseId : null);
  if (record) {
    inout(ctx, c, DIRECTION.inbound, w.id, time, record);
    s.inboundWarehouseId = w.id;
    s.inboundTime = time;
  }
  s.warehouseId = w.id;
  s.placedAt = time;
  s.departedFrom = null;
  s.departedAt = null;
  if (w.longitude !== null && w.latitude !== null) {
    s.longitude = w.longitude;
    s.latitude = w.latitude;
  }
  closeCarrierAlert(ctx, c, s, 'timeout', CARRIER_REASON.transportTimeout, time);
  closeCarrierAlert(ctx, c, s, 'idle', CARRIER_REASON.idle, time);
  closeCarrierAlert(ctx, c, s, 'misuse', CARRIER_REASON.invalidRoute, time);
  let status: number = TRANSPORT.inWarehouse;
  if (from !== null && from !== w.id && ctx.fleet.routesFromWarehouse(from).length > 0 && !ctx.fleet.route(from, w.id) && raise(s, 'route', time)) {
    const fromName = ctx.fleet.warehouses.get(from)?.name ?? String(from);
    openCarrierAlert(ctx, c, s, CARRIER_REASON.invalidRoute, time, `arrived at ${w.name} from ${fromName}: no route between them`, w.id, {
      id: 'noRoute',
      params: { warehouse: w.name, from: fromName },
    });
  }
  if (s.open.route !== undefined) status = TRANSPORT.abnormal;
  setTransport(ctx, c, s, status, time);
  ctx.touchCarrier(c, s);
}

/** `record`: the pass writes an in/out row, seen by a gate gateway or a GPS fence; false only places the carrier */
export function depart(ctx: RuleContext, c: CarrierInfo, s: CarrierState, w: WarehouseInfo, time: number, record: false | InOutVia): void {
  if (record) {
    inout(ctx, c, DIRECTION.outbound, w.id, time, record);
    s.outboundWarehouseId = w.id;
    s.outboundTime = time;
  }
  s.warehouseId = null;
  s.placedAt = time;
  s.departedFrom = w.id;
  s.departedAt = time;
  closeCarrierAlert(ctx, c, s, 'route', CARRIER_REASON.invalidRoute, time);
  closeCarrierAlert(ctx, c, s, 'idle', CARRIER_REASON.idle, time);
  const forbidden = c.status != null ? MUST_NOT_TRAVEL[c.status] : undefined;
  if (forbidden && raise(s, 'misuse', time)) {
    openCarrierAlert(ctx, c, s, CARRIER_REASON.invalidRoute, time, `left ${w.name} while ${forbidden}`, w.id, {
      id: 'leftWhile',
      params: { warehouse: w.name, status: { $t: STATUS_LABEL[c.status!] } },
    });
    setTransport(ctx, c, s, TRANSPORT.abnormal, time);
  } else setTransport(ctx, c, s, TRANSPORT.inTransit, time);
  ctx.touchCarrier(c, s);
}
