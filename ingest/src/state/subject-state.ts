/**
 * Derived state per device and per carrier, kept in memory and flushed periodically. `open`
 * holds the alert conditions currently raised (key → since): an alert is opened once when
 * its condition starts and cleared when it ends, never once per reading.
 */
import type { DeviceKind } from './fleet';

export interface DeviceState {
  kind: DeviceKind;
  id: number;
  orgId: number;
  /** newest reading time (device clock, epoch ms) */
  lastSeen: number;
  status: number;
  battery: number | null;
  longitude: number | null;
  latitude: number | null;
  altitude: number | null;
  /** gateways: 10 connected, 20 disconnected */
  connection: number | null;
  /** beacons: the gateway that saw it last, and when */
  gatewayMac: string | null;
  /** GPS: fences currently inside (by name) */
  inside: string[] | null;
  open: Record<string, number>;
}

export interface CarrierState {
  id: number;
  orgId: number;
  warehouseId: number | null;
  transportStatus: number;
  /** when the carrier last changed place (idle timer) */
  placedAt: number;
  /** departure of the current trip */
  departedFrom: number | null;
  departedAt: number | null;
  inboundWarehouseId: number | null;
  inboundTime: number | null;
  outboundWarehouseId: number | null;
  outboundTime: number | null;
  longitude: number | null;
  latitude: number | null;
  /** gate passes: warehouse id → last sighting time at its gate */
  gateSeen: Record<string, number>;
  /** warehouse id → time of the last in/out event there (BLE de-duplication) */
  lastInOut: Record<string, number>;
  open: Record<string, number>;
  /**
   * A move a document booked before the devices saw it (placeCarriers): the next gate pass or
   * GPS fence crossing at that warehouse is that move (an in/out row in its direction), not a
   * move the other way. Absent in states saved before it existed.
   */
  expectedPass?: { warehouseId: number; direction: number } | null;
}

export function newDeviceState(kind: DeviceKind, id: number, orgId: number): DeviceState {
  return {
    kind,
    id,
    orgId,
    lastSeen: 0,
    status: 0,
    battery: null,
    longitude: null,
    latitude: null,
    altitude: null,
    connection: null,
    gatewayMac: null,
    inside: null,
    open: {},
  };
}

export function newCarrierState(id: number, orgId: number, warehouseId: number | null, transportStatus: number | null, now: number): CarrierState {
  return {
    id,
    orgId,
    warehouseId,
    transportStatus: transportStatus ?? 0,
    placedAt: now,
    departedFrom: null,
    departedAt: null,
    inboundWarehouseId: null,
    inboundTime: null,
    outboundWarehouseId: null,
    outboundTime: null,
    longitude: null,
    latitude: null,
    gateSeen: {},
    lastInOut: {},
    open: {},
  };
}

/** true when the condition was not raised before (the caller then emits the alert). */
export function raise(s: { open: Record<string, number> }, key: string, time: number): boolean {
  if (s.open[key] !== undefined) return false;
  s.open[key] = time;
  return true;
}

/** true when the condition was raised (the caller then emits the clearing). */
export function clear(s: { open: Record<string, number> }, key: string): boolean {
  if (s.open[key] === undefined) return false;
  delete s.open[key];
  return true;
}
