/**
 * A rules test rig: a small fleet, the engine, and readings built as real MQTT payloads and
 * passed through the real decoders before the engine sees them (as the pipeline does).
 */
import { decodeBeaconScan, decodeGatewayHeartbeat, decodeGpsReport, isReject, type DecodeContext } from '../../src/decoders';
import type { Effect } from '../../src/state/effects';
import { Fleet, type CarrierInfo, type DeviceInfo, type FleetSnapshot, type RouteInfo, type WarehouseInfo } from '../../src/state/fleet';
import { StateEngine } from '../../src/state/state-engine';
import { deviceSlots } from '../../src/directory/device-slots';

export const ORG = 7;
export const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
export const MIN = 60_000;

export const GW_IN_A = 'AC233FC0A001';
export const GW_GATE_A = 'AC233FC0A002';
export const GW_IN_B = 'AC233FC0B001';
export const GW_GATE_B = 'AC233FC0B002';
export const GW_GATE_C = 'AC233FC0C002';
export const GW_TRUCK = 'AC233FC0F060';
export const BEACON = 'E2C56DB5DF01';
export const GPS_SN = 'GT-0001';

export function warehouse(id: number, over: Partial<WarehouseInfo> = {}): WarehouseInfo {
  return {
    id,
    orgId: ORG,
    name: `WH${id}`,
    longitude: 10 + id,
    latitude: 50,
    radius: 500,
    idleCheckTime: 120,
    bleInbound: true,
    bleOutbound: true,
    bleDeDup: true,
    gpsInbound: true,
    gpsOutbound: true,
    ...over,
  };
}

export function snapshot(over: Partial<FleetSnapshot> = {}): FleetSnapshot {
  const gw = (id: number, key: string, warehouseId: number | null, purpose: number, kind: DeviceInfo['kind'] = 'slave-gateway'): DeviceInfo => ({
    id,
    orgId: ORG,
    kind,
    key,
    sn: `GW-${id}`,
    modelId: 2,
    carrierId: null,
    warehouseId,
    purpose,
  });
  const routes: RouteInfo[] = [
    { id: 1, orgId: ORG, from: 1, to: 2, transportTime: 180 },
    { id: 2, orgId: ORG, from: 2, to: 1, transportTime: 180 },
  ];
  const carriers: CarrierInfo[] = [
    { id: 100, orgId: ORG, sn: 'C-100', name: 'Box 100', carrierCodeId: 5, beaconId: 11, gpsId: 21, warehouseId: 1, transportStatus: 10 },
  ];
  return {
    models: [
      { id: 1, batteryThreshold: 20, offlineCheckTime: 30 },
      { id: 2, batteryThreshold: null, offlineCheckTime: 10 },
    ],
    devices: [
      { id: 11, orgId: ORG, kind: 'beacon', key: BEACON, sn: 'B-11', modelId: 1, carrierId: 100 },
      {
        id: 21,
        orgId: ORG,
        kind: 'gps',
        key: GPS_SN,
        sn: GPS_SN,
        modelId: 1,
        carrierId: 100,
        highTemp: 8,
        lowTemp: 2,
        shake: 2,
        highHumidity: 90,
        lowHumidity: 10,
        fences: [],
      },
      gw(31, GW_IN_A, 1, 10),
      gw(32, GW_GATE_A, 1, 20),
      gw(33, GW_IN_B, 2, 10),
      gw(34, GW_GATE_B, 2, 20),
      gw(35, GW_GATE_C, 3, 20),
      gw(36, GW_TRUCK, null, 60),
      gw(41, 'AC233FC0M001', 1, 10, 'master-gateway'),
    ],
    warehouses: [warehouse(1), warehouse(2), warehouse(3)],
    routes,
    carriers,
    ...over,
  };
}

const dctx = (source: string, at: number): DecodeContext => ({ org: ORG, source, receivedAt: at, maxBytes: 65536, maxReadings: 1000 });

export class Rig {
  effects: Effect[] = [];
  readonly engine: StateEngine;
  clock = T0;
  /** the registered beacons' slots, as the intake's directory hands them to the decoder (null: decode without) */
  private readonly beaconSlots: Map<string, number> | null;

  constructor(snap: FleetSnapshot = snapshot(), opts: { slots?: boolean } = {}) {
    this.engine = new StateEngine({ onEffect: (e) => this.effects.push(e), now: () => this.clock });
    this.engine.setFleet(new Fleet(snap));
    this.beaconSlots =
      opts.slots === false ? null : new Map(snap.devices.filter((d) => d.kind === 'beacon').map((d) => [d.key, deviceSlots.slot('beacon', d.orgId, d.key)]));
  }

  /** one beacon scan frame from a gateway at clock + offset */
  scan(gateway: string, readings: Array<Record<string, unknown>>, at = this.clock): void {
    const payload = JSON.stringify({ gatewayMac: gateway, time: at, readings: readings.map((r) => ({ mac: BEACON, rssi: -60, time: at, ...r })) });
    const slots = this.beaconSlots;
    const f = decodeBeaconScan(Buffer.from(payload), slots ? { ...dctx(gateway, at), slot: (k) => slots.get(k) } : dctx(gateway, at));
    if (isReject(f)) throw new Error(`scan rejected: ${f.reject} ${f.detail ?? ''}`);
    this.engine.applyBatch([f.slots ? { series: f.series, rows: f.rows, slots: f.slots } : { series: f.series, rows: f.rows }]);
  }

  gps(reports: Array<Record<string, unknown>>, at = this.clock): void {
    const payload = JSON.stringify({ sn: GPS_SN, reports: reports.map((r) => ({ ts: at, ...r })) });
    const f = decodeGpsReport(Buffer.from(payload), dctx(GPS_SN, at));
    if (isReject(f)) throw new Error(`gps rejected: ${f.reject} ${f.detail ?? ''}`);
    this.engine.applyBatch([{ series: f.series, rows: f.rows }]);
  }

  heartbeat(gateway: string, body: Record<string, unknown> = {}, kind: 'heartbeat' | 'state' = 'heartbeat', at = this.clock): void {
    const f = decodeGatewayHeartbeat(Buffer.from(JSON.stringify({ time: at, ...body })), dctx(gateway, at), kind);
    if (isReject(f)) throw new Error(`heartbeat rejected: ${f.reject} ${f.detail ?? ''}`);
    this.engine.applyBatch([{ series: f.series, rows: f.rows }]);
  }

  advance(ms: number): void {
    this.clock += ms;
    this.engine.tick(this.clock);
  }

  of<T extends Effect['type']>(type: T): Array<Extract<Effect, { type: T }>> {
    return this.effects.filter((e) => e.type === type) as Array<Extract<Effect, { type: T }>>;
  }

  alerts(kind?: string): Array<Extract<Effect, { type: 'alert' }>> {
    return this.of('alert').filter((a) => !kind || a.kind === kind);
  }

  cleared(kind?: string): Array<Extract<Effect, { type: 'alert-cleared' }>> {
    return this.of('alert-cleared').filter((a) => !kind || a.kind === kind);
  }
}
