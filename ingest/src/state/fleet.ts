/**
 * The master data the rules read: devices, their models and thresholds, warehouses with
 * their in/out flags, routes and carriers. A plain snapshot loaded from the business
 * database (plugins/telemetry) and replaced on refresh; lookups are map hits per reading.
 */
import { deviceSlots } from '../directory/device-slots';

export type DeviceKind = 'beacon' | 'gps' | 'slave-gateway' | 'master-gateway';

export interface ModelInfo {
  id: number;
  /** percent; null = no battery rule */
  batteryThreshold: number | null;
  /** minutes; null = 60 */
  offlineCheckTime: number | null;
}

export interface FenceInfo {
  /** a row of the fence resource (its enter/leave events are written to the fence log) */
  id?: number;
  name: string;
  longitude: number;
  latitude: number;
  /** metres */
  radius: number;
  warehouseId: number | null;
}

export interface DeviceInfo {
  /** `<kind>/<id>`, set by Fleet (one string per device, not one per reading) */
  uid?: string;
  id: number;
  orgId: number;
  kind: DeviceKind;
  /** canonical mac (beacons, gateways) or sn (GPS) — the telemetry key */
  key: string;
  sn: string;
  modelId: number | null;
  carrierId: number | null;
  /** gateways */
  warehouseId?: number | null;
  purpose?: number | null;
  /** GPS thresholds */
  highTemp?: number | null;
  lowTemp?: number | null;
  shake?: number | null;
  highHumidity?: number | null;
  lowHumidity?: number | null;
  fences?: FenceInfo[];
}

/**
 * Per-reading shortcuts hung on a DeviceInfo (non-enumerable: never serialised or spread):
 * its carrier and model in the Fleet that built it, and the state engine's slot for its state — one
 * property read on an object the reading touches anyway, instead of a string-keyed map lookup
 * and another object per reading. Each cache names its owner (cacheFleet, cacheEngine),
 * so a DeviceInfo shared by two fleets or engines (tests) falls back to the maps.
 */
export interface DeviceCaches {
  cacheFleet?: Fleet;
  cacheCarrier?: CarrierInfo;
  cacheModel?: ModelInfo;
  cacheEngine?: object;
  cacheState?: unknown;
  cacheDirty?: number;
}

const CACHE_KEYS = ['cacheFleet', 'cacheCarrier', 'cacheModel', 'cacheEngine', 'cacheState', 'cacheDirty'] as const;

export function cachesOf(d: DeviceInfo): DeviceCaches {
  return d as DeviceInfo & DeviceCaches;
}

/** Sets cache fields; the first time defines all of them, non-enumerable, in one order (one hidden class). */
export function setCache(d: DeviceInfo, values: DeviceCaches): void {
  const c = cachesOf(d);
  if (!Object.prototype.hasOwnProperty.call(c, 'cacheFleet'))
    for (const k of CACHE_KEYS) Object.defineProperty(c, k, { value: undefined, writable: true, enumerable: false, configurable: true });
  Object.assign(c, values);
}

export interface WarehouseInfo {
  id: number;
  orgId: number;
  name: string;
  longitude: number | null;
  latitude: number | null;
  /** metres (the location's fence radius) */
  radius: number;
  /** minutes */
  idleCheckTime: number | null;
  bleInbound: boolean;
  bleOutbound: boolean;
  bleDeDup: boolean;
  gpsInbound: boolean;
  gpsOutbound: boolean;
}

export interface RouteInfo {
  id: number;
  orgId: number;
  from: number;
  to: number;
  /** minutes */
  transportTime: number | null;
}

export interface CarrierInfo {
  id: number;
  orgId: number;
  sn: string;
  name: string | null;
  carrierCodeId: number | null;
  beaconId: number | null;
  gpsId: number | null;
  warehouseId: number | null;
  transportStatus: number | null;
  /** carrier status (SPEC §4): scrapped 30, maintenance 50, damaged 60 must not travel */
  status?: number | null;
}

export interface FleetSnapshot {
  models: ModelInfo[];
  devices: DeviceInfo[];
  warehouses: WarehouseInfo[];
  routes: RouteInfo[];
  carriers: CarrierInfo[];
  /** the organisations' fence rows (circles) */
  fences?: Array<FenceInfo & { orgId: number }>;
}

/** Gateway purposes (SPEC §9). */
export const PURPOSE = { inWarehouse: 10, gate: 20, geofence: 50, truck: 60 } as const;

export class Fleet {
  readonly models = new Map<number, ModelInfo>();
  readonly warehouses = new Map<number, WarehouseInfo>();
  readonly carriers = new Map<number, CarrierInfo>();
  /** series → org → key: three map hits, no key string built per reading */
  private readonly byKey = new Map<string, Map<number, Map<string, DeviceInfo>>>();
  private readonly byId = new Map<string, DeviceInfo>();
  /** devices by slot (directory/device-slots.ts): readings that carry a slot need no key lookup */
  private readonly bySlot: Array<DeviceInfo | undefined> = [];
  private readonly carrierByDevice = new Map<string, CarrierInfo>();
  private readonly routes = new Map<string, RouteInfo>();
  private readonly routesFrom = new Map<number, RouteInfo[]>();
  private readonly orgWarehouses = new Map<number, WarehouseInfo[]>();
  private readonly orgFences = new Map<number, FenceInfo[]>();

  constructor(readonly snapshot: FleetSnapshot) {
    for (const m of snapshot.models) this.models.set(m.id, m);
    for (const d of snapshot.devices) {
      d.uid = `${d.kind}/${d.id}`;
      // beacons and gateways are both keyed by mac: the series tells them apart
      const sName = series(d.kind);
      let bySeries = this.byKey.get(sName);
      if (!bySeries) this.byKey.set(sName, (bySeries = new Map()));
      let byOrg = bySeries.get(d.orgId);
      if (!byOrg) bySeries.set(d.orgId, (byOrg = new Map()));
      byOrg.set(d.key, d);
      this.byId.set(d.uid, d);
      const slot = deviceSlots.slot(sName, d.orgId, d.key);
      while (this.bySlot.length <= slot) this.bySlot.push(undefined);
      this.bySlot[slot] = d;
    }
    for (const w of snapshot.warehouses) {
      this.warehouses.set(w.id, w);
      const list = this.orgWarehouses.get(w.orgId) ?? [];
      list.push(w);
      this.orgWarehouses.set(w.orgId, list);
    }
    for (const f of snapshot.fences ?? []) {
      const list = this.orgFences.get(f.orgId) ?? [];
      list.push(f);
      this.orgFences.set(f.orgId, list);
    }
    for (const r of snapshot.routes) {
      this.routes.set(`${r.from}>${r.to}`, r);
      const list = this.routesFrom.get(r.from) ?? [];
      list.push(r);
      this.routesFrom.set(r.from, list);
    }
    for (const c of snapshot.carriers) {
      this.carriers.set(c.id, c);
      if (c.beaconId) this.carrierByDevice.set(`beacon/${c.beaconId}`, c);
      if (c.gpsId) this.carrierByDevice.set(`gps/${c.gpsId}`, c);
    }
    for (const d of snapshot.devices)
      setCache(d, { cacheFleet: this, cacheCarrier: this.carrierByDevice.get(d.uid!), cacheModel: d.modelId ? this.models.get(d.modelId) : undefined });
  }

  /** the organisation's devices of a series by key (hoisted out of per-reading loops) */
  devicesOf(seriesName: string, orgId: number): ReadonlyMap<string, DeviceInfo> | undefined {
    return this.byKey.get(seriesName)?.get(orgId);
  }

  /** the device a reading's slot names (undefined: not in this fleet) */
  deviceAt(slot: number): DeviceInfo | undefined {
    return slot < this.bySlot.length ? this.bySlot[slot] : undefined;
  }

  device(orgId: number, seriesName: string, key: string): DeviceInfo | undefined {
    return this.byKey.get(seriesName)?.get(orgId)?.get(key);
  }

  deviceById(kind: DeviceKind, id: number): DeviceInfo | undefined {
    return this.byId.get(`${kind}/${id}`);
  }

  carrierOf(d: DeviceInfo): CarrierInfo | undefined {
    const c = cachesOf(d);
    if (c.cacheFleet === this) return c.cacheCarrier;
    return this.carrierByDevice.get(d.uid ?? `${d.kind}/${d.id}`);
  }

  route(from: number, to: number): RouteInfo | undefined {
    return this.routes.get(`${from}>${to}`);
  }

  routesFromWarehouse(from: number): readonly RouteInfo[] {
    return this.routesFrom.get(from) ?? [];
  }

  warehousesOf(orgId: number): readonly WarehouseInfo[] {
    return this.orgWarehouses.get(orgId) ?? [];
  }

  fencesOf(orgId: number): readonly FenceInfo[] {
    return this.orgFences.get(orgId) ?? [];
  }

  model(d: DeviceInfo): ModelInfo | undefined {
    const c = cachesOf(d);
    if (c.cacheFleet === this) return c.cacheModel;
    return d.modelId ? this.models.get(d.modelId) : undefined;
  }
}

function series(kind: DeviceKind): string {
  return kind === 'gps' ? 'gps' : kind === 'beacon' ? 'beacon' : 'gateway';
}

export const emptyFleet = (): Fleet => new Fleet({ models: [], devices: [], warehouses: [], routes: [], carriers: [] });
