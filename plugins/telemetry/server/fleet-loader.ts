/**
 * Reads the master data the rules need (every organisation) from the business database into
 * a Fleet snapshot. Disabled devices (use status 30) are left out: their readings are refused
 * by ingest anyway.
 */
import type { Database } from '@rti/server';
import { Fleet, type DeviceInfo, type FenceInfo, type FleetSnapshot, type WarehouseInfo } from '@rti/ingest/state/fleet';
import { Enums } from '@rti/metadata';

type Row = Record<string, any>;
const DISABLED = Enums.deviceUseStatus.disabled;

export function canonicalMac(v: unknown): string {
  return typeof v === 'string' ? v.replace(/[^0-9a-fA-F]/g, '').toUpperCase() : '';
}

const n = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

async function rows(db: Database, resource: string, attributes: string[]): Promise<Row[]> {
  // eslint-disable-next-line rti/no-raw-models -- the ingest engine's fleet spans every organisation
  const model = db.models[resource];
  if (!model) return [];
  return (await model.findAll({ attributes, raw: true })) as unknown as Row[];
}

export async function loadFleet(db: Database): Promise<Fleet> {
  const [models, beacons, gps, slaves, masters, warehouses, locations, routes, carriers] = await Promise.all([
    rows(db, 'device-model', ['id', 'batteryThreshold', 'offlineCheckTime']),
    rows(db, 'device-beacon', ['id', 'orgId', 'sn', 'mac', 'deviceModelId', 'carrierId', 'useStatus']),
    rows(db, 'device-gps', [
      'id',
      'orgId',
      'sn',
      'deviceModelId',
      'carrierId',
      'useStatus',
      'highTempThreshold',
      'lowTempThreshold',
      'shakeThreshold',
      'highHumidityThreshold',
      'lowHumidityThreshold',
      'fences',
    ]),
    rows(db, 'device-slave-gateway', ['id', 'orgId', 'sn', 'mac', 'deviceModelId', 'warehouseId', 'purpose', 'useStatus']),
    rows(db, 'device-master-gateway', ['id', 'orgId', 'sn', 'mac', 'deviceModelId', 'warehouseId', 'purpose', 'useStatus']),
    rows(db, 'warehouse', [
      'id',
      'orgId',
      'name',
      'locationId',
      'idleCheckTime',
      'bleInboundEnabled',
      'bleOutboundEnabled',
      'bleDeDup',
      'gpsInboundEnabled',
      'gpsOutboundEnabled',
    ]),
    rows(db, 'location', ['id', 'longitude', 'latitude', 'fenceRadius']),
    rows(db, 'route', ['id', 'orgId', 'fromWarehouseId', 'toWarehouseId', 'transportTime']),
    rows(db, 'carrier', ['id', 'orgId', 'sn', 'name', 'carrierCodeId', 'beaconId', 'gpsId', 'warehouseId', 'transportStatus', 'status']),
  ]);
  const fenceRows = await rows(db, 'fence', ['id', 'orgId', 'name', 'longitude', 'latitude', 'radius', 'warehouseId']);
  const loc = new Map(locations.map((l) => [Number(l.id), l]));
  const whs: WarehouseInfo[] = warehouses.map((w) => {
    const l = w.locationId ? loc.get(Number(w.locationId)) : undefined;
    return {
      id: w.id,
      orgId: w.orgId,
      name: w.name,
      longitude: n(l?.longitude),
      latitude: n(l?.latitude),
      radius: n(l?.fenceRadius) ?? 200,
      idleCheckTime: n(w.idleCheckTime),
      bleInbound: w.bleInboundEnabled !== false,
      bleOutbound: w.bleOutboundEnabled !== false,
      bleDeDup: !!w.bleDeDup,
      gpsInbound: w.gpsInboundEnabled !== false,
      gpsOutbound: w.gpsOutboundEnabled !== false,
    };
  });
  const byWarehouse = new Map(whs.map((w) => [w.id, w]));
  const devices: DeviceInfo[] = [];
  const base = (r: Row, kind: DeviceInfo['kind'], key: string): DeviceInfo => ({
    id: r.id,
    orgId: r.orgId,
    kind,
    key,
    sn: r.sn,
    modelId: n(r.deviceModelId),
    carrierId: n(r.carrierId),
  });
  for (const r of beacons) if (r.useStatus !== DISABLED && r.mac) devices.push(base(r, 'beacon', canonicalMac(r.mac)));
  for (const r of gps) {
    if (r.useStatus === DISABLED) continue;
    devices.push({
      ...base(r, 'gps', r.sn),
      highTemp: n(r.highTempThreshold),
      lowTemp: n(r.lowTempThreshold),
      shake: n(r.shakeThreshold),
      highHumidity: n(r.highHumidityThreshold),
      lowHumidity: n(r.lowHumidityThreshold),
      fences: fencesOf(r.fences, byWarehouse),
    });
  }
  for (const [list, kind] of [
    [slaves, 'slave-gateway'],
    [masters, 'master-gateway'],
  ] as const) {
    for (const r of list)
      if (r.useStatus !== DISABLED && r.mac) devices.push({ ...base(r, kind, canonicalMac(r.mac)), warehouseId: n(r.warehouseId), purpose: n(r.purpose) });
  }
  const snapshot: FleetSnapshot = {
    models: models.map((m) => ({ id: m.id, batteryThreshold: n(m.batteryThreshold), offlineCheckTime: n(m.offlineCheckTime) })),
    devices,
    warehouses: whs,
    routes: routes
      .filter((r) => r.fromWarehouseId && r.toWarehouseId)
      .map((r) => ({ id: r.id, orgId: r.orgId, from: r.fromWarehouseId, to: r.toWarehouseId, transportTime: n(r.transportTime) })),
    fences: fenceRows
      .filter((f) => n(f.longitude) !== null && n(f.latitude) !== null)
      .map((f) => ({
        id: f.id,
        orgId: f.orgId,
        name: f.name,
        longitude: n(f.longitude)!,
        latitude: n(f.latitude)!,
        radius: n(f.radius) ?? 200,
        warehouseId: n(f.warehouseId),
      })),
    carriers: carriers.map((c) => ({
      id: c.id,
      orgId: c.orgId,
      sn: c.sn,
      name: c.name ?? null,
      carrierCodeId: n(c.carrierCodeId),
      beaconId: n(c.beaconId),
      gpsId: n(c.gpsId),
      warehouseId: n(c.warehouseId),
      transportStatus: n(c.transportStatus),
      status: n(c.status),
    })),
  };
  return new Fleet(snapshot);
}

/** GPS fence list entries: { name, radius, warehouseId | warehouse, longitude?, latitude? }. */
function fencesOf(raw: unknown, warehouses: Map<number, WarehouseInfo>): FenceInfo[] {
  let list = raw;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  const out: FenceInfo[] = [];
  for (const f of list as Row[]) {
    if (!f || typeof f !== 'object') continue;
    const wid = n(f.warehouseId ?? f.warehouse);
    const w = wid !== null ? warehouses.get(wid) : undefined;
    const lng = n(f.longitude) ?? w?.longitude ?? null;
    const lat = n(f.latitude) ?? w?.latitude ?? null;
    if (lng === null || lat === null) continue;
    out.push({
      name: String(f.name ?? w?.name ?? `fence ${out.length + 1}`),
      longitude: lng,
      latitude: lat,
      radius: n(f.radius) ?? w?.radius ?? 200,
      warehouseId: w ? w.id : null,
    });
  }
  return out;
}
