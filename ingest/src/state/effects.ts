/**
 * What the rules decide, as plain records. The engine emits them; a sink (plugins/telemetry)
 * writes alerts, logs and in/out rows, coalesces device and carrier columns into periodic
 * flushes and pushes live events. Codes follow SPEC §4/§9 (docs/TELEMETRY.md, "Derived state
 * and rules").
 */
import type { DeviceKind } from './fleet';

export type AlertKind = 'carrier' | DeviceKind;

/**
 * What an alert says, as a message id and its values: the server renders it in each reader's
 * language (telemetry's catalogue `telemetry.alerts.<id>`); `message` is the same in English
 * for readers without the catalogue. A parameter `{ $t: key }` is itself an i18n key.
 */
export interface AlertText {
  id: string;
  params?: Record<string, string | number | { $t: string }>;
}

export interface AlertEffect {
  type: 'alert';
  orgId: number;
  kind: AlertKind;
  subjectId: number;
  sn: string;
  /** SPEC §4 reason (carrier, beacon, gateway alerts) */
  reason?: number;
  /** GPS alert code (docs/TELEMETRY.md) */
  code?: string;
  warehouseId: number | null;
  message: string;
  text?: AlertText;
  time: number;
  raw?: unknown;
}

export interface AlertClearedEffect {
  type: 'alert-cleared';
  orgId: number;
  kind: AlertKind;
  subjectId: number;
  reason?: number;
  code?: string;
  time: number;
}

export interface LogEffect {
  type: 'log';
  orgId: number;
  kind: 'carrier' | 'beacon' | 'gps';
  subjectId: number;
  /** carrierLogEvent / deviceLogEvent */
  event: number;
  oldValue?: string | null;
  newValue?: string | null;
  carrierId?: number | null;
  time: number;
  /** English, for readers without the catalogue (and what a search of the column finds) */
  remark?: string;
  /** what the remark says as a message id and values: rendered in each reader's language (metadata textFrom) */
  text?: AlertText;
}

export interface InOutEffect {
  type: 'inout';
  orgId: number;
  carrierId: number;
  sn: string;
  name: string | null;
  carrierCodeId: number | null;
  /** 10 inbound, 20 outbound */
  direction: number;
  warehouseId: number;
  time: number;
  /** what saw the pass: a gate gateway (beacon) or a GPS tracker crossing the warehouse fence */
  via?: InOutVia;
}

export type InOutVia = 'gate' | 'gps';

export interface DeviceEffect {
  type: 'device';
  orgId: number;
  kind: DeviceKind;
  id: number;
  sn: string;
  status: number;
  battery: number | null;
  lastReportTime: number;
  longitude: number | null;
  latitude: number | null;
  warehouseId: number | null;
}

export interface CarrierEffect {
  type: 'carrier';
  orgId: number;
  id: number;
  sn: string;
  warehouseId: number | null;
  transportStatus: number;
  longitude: number | null;
  latitude: number | null;
  inboundWarehouseId?: number | null;
  inboundTime?: number | null;
  outboundWarehouseId?: number | null;
  outboundTime?: number | null;
  time: number;
}

export interface FenceEffect {
  type: 'fence';
  orgId: number;
  fenceId: number;
  /** SPEC deviceType: GPS 20 */
  deviceType: number;
  deviceSn: string;
  /** fenceAction: enter 10, leave 20 */
  action: number;
  time: number;
}

export type Effect = FenceEffect | AlertEffect | AlertClearedEffect | LogEffect | InOutEffect | DeviceEffect | CarrierEffect;

/** SPEC §4 / §9 values the rules use. */
export const DEVICE_STATUS = { online: 10, offline: 20 } as const;
export const TRANSPORT = { unknown: 0, inWarehouse: 10, inTransit: 20, idle: 30, abnormal: 40 } as const;
export const DIRECTION = { inbound: 10, outbound: 20 } as const;
export const CARRIER_REASON = { invalidRoute: 10, transportTimeout: 20, idle: 30 } as const;
export const BEACON_REASON = { battery: 10, temperature: 20, humidity: 40, clientOffline: 70 } as const;
export const GATEWAY_REASON = { connection: 10, offline: 20 } as const;
export const CARRIER_LOG = { transportStatusChange: 70, abnormal: 80, longIdle: 90 } as const;
export const DEVICE_LOG = { statusChange: 40, abnormal: 60 } as const;

/**
 * GPS alert codes raised by the rules (SPEC §8 names the catalogue but not the meanings).
 * Vendor event reports (dataType 20) keep their own code.
 */
export const GPS_CODE = {
  highTemperature: '036',
  lowTemperature: '037',
  highHumidity: '038',
  lowHumidity: '039',
  shake: '046',
  altitudeChange: '047',
  lowBattery: '048',
  dataMissing: '084',
  fenceEnter: 'Y',
  fenceLeave: 'N',
} as const;
