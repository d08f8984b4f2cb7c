/**
 * The derived-state engine: consumes stored readings in batches (the pipeline's onStored
 * hook), keeps device and carrier state in memory, runs the rules (docs/TELEMETRY.md,
 * "Derived state and rules") and emits effects. Time-based rules run on tick(now). Device and
 * carrier changes are coalesced: flush() emits one device/carrier effect per changed subject
 * (a device whose only news is a later lastSeen at most once a minute), so the sink writes
 * columns and pushes live events per flush, never per reading.
 */
import type { SeriesBatch } from '../store/telemetry-store';
import { batteryRule } from '../rules/battery';
import { beaconSighting } from '../rules/carrier-location';
import type { RuleContext } from '../rules/context';
import { presenceTick, seen } from '../rules/device-presence';
import { gatewayRow } from '../rules/gateway-connection';
import { geofenceRule } from '../rules/geofence';
import { altitudeRule, sensorRules, vendorEvent } from '../rules/gps-sensors';
import { closeCarrierAlert } from '../rules/carrier-trip';
import { transportTick } from '../rules/transport';
import { CARRIER_REASON, DIRECTION, type Effect } from './effects';
import { cachesOf, emptyFleet, setCache, type CarrierInfo, type DeviceInfo, type Fleet } from './fleet';
import { newCarrierState, newDeviceState, type CarrierState, type DeviceState } from './subject-state';

type Row = Record<string, unknown>;

/** a device whose only news is a later lastSeen is flushed (columns, state row, live event) at most this often */
const DEVICE_REFLUSH_MS = 60_000;

/** What a device looked like when last flushed: compared field by field, no string per device per flush. */
interface Flushed {
  seen: number;
  status: number;
  battery: number | null;
  longitude: number | null;
  latitude: number | null;
  connection: number | null;
  gatewayMac: string | null;
  open: string;
  inside: string;
}

function openKeys(s: DeviceState): string {
  for (const _ in s.open) return Object.keys(s.open).join(',');
  return '';
}

function unchanged(f: Flushed, s: DeviceState): boolean {
  return (
    f.status === s.status &&
    f.battery === s.battery &&
    f.longitude === s.longitude &&
    f.latitude === s.latitude &&
    f.connection === s.connection &&
    f.gatewayMac === s.gatewayMac &&
    f.open === openKeys(s) &&
    f.inside === (s.inside?.join(',') ?? '')
  );
}

function record(f: Flushed | undefined, s: DeviceState): Flushed {
  const r = f ?? ({} as Flushed);
  r.seen = s.lastSeen;
  r.status = s.status;
  r.battery = s.battery;
  r.longitude = s.longitude;
  r.latitude = s.latitude;
  r.connection = s.connection;
  r.gatewayMac = s.gatewayMac;
  r.open = openKeys(s);
  r.inside = s.inside?.join(',') ?? '';
  return r;
}

export interface StateEngineOptions {
  onEffect: (e: Effect) => void;
  now?: () => number;
}

/** A carrier moved by a document (shipped out of / received at a warehouse), for placeCarriers. */
export interface CarrierPlacement {
  id: number;
  orgId: number;
  /** outbound 20: shipped from `warehouseId` (now in transit); inbound 10: received at it */
  direction: number;
  warehouseId: number;
  transportStatus: number;
  /** epoch ms of the document step */
  time: number;
}

export interface StateDump {
  devices: DeviceState[];
  carriers: CarrierState[];
}

export class StateEngine {
  private fleet: Fleet = emptyFleet();
  private readonly devices = new Map<string, DeviceState>();
  private readonly carriers = new Map<number, CarrierState>();
  /**
   * Devices touched since the last flush, each once (its cacheDirty mark holds the generation).
   * An array, not a map: a map of 20,000 devices rebuilt every second is promoted and then
   * collected as old garbage — a visible share of the stored path's GC.
   */
  private dirtyDevices: DeviceInfo[] = [];
  /** dirty marks were reset (load(), a cache taken back): the list may name a device twice until the next flush */
  private dirtyMayRepeat = false;
  private dirtyCarriers = new Map<number, CarrierInfo>();
  private readonly flushed = new Map<string, Flushed>();
  private readonly ctx: RuleContext;
  private readonly now: () => number;
  /** flush generation: a device whose slot carries the current one is already in dirtyDevices */
  private gen = 1;
  readonly stats = { readings: 0, unknown: 0, effects: 0 };

  constructor(private readonly opts: StateEngineOptions) {
    this.now = opts.now ?? Date.now;
    const emit = (e: Effect) => {
      this.stats.effects++;
      opts.onEffect(e);
    };
    this.ctx = {
      fleet: this.fleet,
      emit,
      device: (d) => this.deviceState(d),
      carrier: (c) => this.carrierState(c),
      touchDevice: (d) => {
        const c = cachesOf(d);
        if (c.cacheEngine !== this) this.deviceState(d);
        if (c.cacheDirty === this.gen) return;
        c.cacheDirty = this.gen;
        this.dirtyDevices.push(d);
      },
      touchCarrier: (c) => void this.dirtyCarriers.set(c.id, c),
    };
  }

  /** Replaces the master data (states of devices and carriers that still exist are kept). */
  setFleet(fleet: Fleet): void {
    this.fleet = fleet;
    this.ctx.fleet = fleet;
  }

  get currentFleet(): Fleet {
    return this.fleet;
  }

  /** Restores states saved by dump() (after a restart). */
  load(dump: Partial<StateDump>): void {
    this.gen++;
    if (this.dirtyDevices.length > 0) this.dirtyMayRepeat = true;
    for (const d of this.fleet.snapshot.devices) if (cachesOf(d).cacheEngine === this) setCache(d, { cacheEngine: undefined, cacheState: undefined });
    for (const c of this.fleet.snapshot.carriers)
      if ((c as { cacheEngine?: object }).cacheEngine === this) (c as { cacheEngine?: object }).cacheEngine = undefined;
    for (const s of dump.devices ?? []) this.devices.set(`${s.kind}/${s.id}`, s);
    for (const s of dump.carriers ?? []) this.carriers.set(s.id, s);
  }

  /**
   * Documents moved these carriers (the business database already says so): the state follows,
   * so later readings are read against where they are and a flush never writes the old place
   * back. The device pass still to come at that warehouse — the gate or fence the carrier
   * physically leaves through after its release, or arrives through when the receipt was
   * booked first — is expected: it confirms the move instead of being read as one the other way.
   */
  placeCarriers(moves: readonly CarrierPlacement[]): void {
    for (const m of moves) {
      const c = this.fleet.carriers.get(m.id);
      let s = c ? this.carrierState(c) : this.carriers.get(m.id);
      if (!s) this.carriers.set(m.id, (s = newCarrierState(m.id, m.orgId, null, m.transportStatus, m.time)));
      s.transportStatus = m.transportStatus;
      s.placedAt = m.time;
      s.expectedPass = { warehouseId: m.warehouseId, direction: m.direction };
      if (m.direction === DIRECTION.outbound) {
        s.warehouseId = null;
        s.departedFrom = m.warehouseId;
        s.departedAt = m.time;
        s.outboundWarehouseId = m.warehouseId;
        s.outboundTime = m.time;
      } else {
        s.warehouseId = m.warehouseId;
        s.departedFrom = null;
        s.departedAt = null;
        s.inboundWarehouseId = m.warehouseId;
        s.inboundTime = m.time;
      }
      if (!c) continue;
      // the trip's alerts end with the document's move, as with a device's
      closeCarrierAlert(this.ctx, c, s, 'idle', CARRIER_REASON.idle, m.time);
      if (m.direction === DIRECTION.inbound) closeCarrierAlert(this.ctx, c, s, 'timeout', CARRIER_REASON.transportTimeout, m.time);
      this.ctx.touchCarrier(c, s);
    }
  }

  /** Read-only lookups for other readers (maps): never create a state. */
  peekDevice(kind: DeviceInfo['kind'], id: number): Readonly<DeviceState> | undefined {
    return this.devices.get(`${kind}/${id}`);
  }

  peekCarrier(id: number): Readonly<CarrierState> | undefined {
    return this.carriers.get(id);
  }

  /** The device's state, cached on its DeviceInfo with its dirty mark (one map lookup per device, not per reading). */
  deviceState(d: DeviceInfo): DeviceState {
    const c = cachesOf(d);
    if (c.cacheEngine === this) return c.cacheState as DeviceState;
    const k = d.uid ?? `${d.kind}/${d.id}`;
    let s = this.devices.get(k);
    if (!s) this.devices.set(k, (s = newDeviceState(d.kind, d.id, d.orgId)));
    // the dirty mark starts over: if the device is listed already (another engine held the cache), dedupe at flush
    if (this.dirtyDevices.length > 0) this.dirtyMayRepeat = true;
    setCache(d, { cacheEngine: this, cacheState: s, cacheDirty: 0 });
    return s;
  }

  /** The carrier's state, cached on its CarrierInfo like a device's (see deviceState). */
  carrierState(c: CarrierInfo): CarrierState {
    const k = c as CarrierInfo & { cacheEngine?: object; cacheState?: CarrierState };
    if (k.cacheEngine === this) return k.cacheState!;
    let s = this.carriers.get(c.id);
    if (!s) this.carriers.set(c.id, (s = newCarrierState(c.id, c.orgId, c.warehouseId, c.transportStatus, this.now())));
    if (!Object.prototype.hasOwnProperty.call(k, 'cacheEngine'))
      for (const f of ['cacheEngine', 'cacheState']) Object.defineProperty(k, f, { value: undefined, writable: true, enumerable: false, configurable: true });
    k.cacheEngine = this;
    k.cacheState = s;
    return s;
  }

  /** The interface the ingest pipeline calls after each stored batch. */
  applyBatch = (batches: readonly SeriesBatch[]): void => {
    for (const b of batches) {
      if (b.series === 'beacon') this.beacons(b.rows, b.slots);
      else if (b.series === 'gps') for (const r of b.rows) this.gps(r);
      else if (b.series === 'gateway') for (const r of b.rows) this.gateway(r);
    }
  };

  /** Time-based rules (offline, data missing, idle, transport timeout). */
  tick(now = this.now()): void {
    const fleet = this.fleet;
    for (const s of this.devices.values()) {
      const d = fleet.deviceById(s.kind, s.id);
      if (d) presenceTick(this.ctx, d, s, now);
    }
    for (const s of this.carriers.values()) {
      const c = fleet.carriers.get(s.id);
      if (c) transportTick(this.ctx, c, s, now);
    }
  }

  /** Emits one device/carrier effect per subject changed since the last flush; returns the states to persist. */
  flush(): StateDump {
    const devices: DeviceState[] = [];
    const carriers: CarrierState[] = [];
    const dd = this.dirtyMayRepeat ? [...new Set(this.dirtyDevices)] : this.dirtyDevices;
    const dc = this.dirtyCarriers;
    this.gen++;
    this.dirtyDevices = [];
    this.dirtyMayRepeat = false;
    this.dirtyCarriers = new Map();
    for (let i = 0; i < dd.length; i++) {
      const d = dd[i];
      const uid = d.uid ?? `${d.kind}/${d.id}`;
      const s = this.deviceState(d);
      const last = this.flushed.get(uid);
      if (last && s.lastSeen - last.seen < DEVICE_REFLUSH_MS && unchanged(last, s)) continue;
      if (last) record(last, s);
      else this.flushed.set(uid, record(undefined, s));
      devices.push(s);
      const c = this.fleet.carrierOf(d);
      this.ctx.emit({
        type: 'device',
        orgId: d.orgId,
        kind: d.kind,
        id: d.id,
        sn: d.sn,
        status: s.status,
        battery: s.battery,
        lastReportTime: s.lastSeen,
        longitude: s.longitude,
        latitude: s.latitude,
        warehouseId: d.warehouseId ?? (c ? this.carrierState(c).warehouseId : null),
      });
    }
    for (const c of dc.values()) {
      const s = this.carrierState(c);
      carriers.push(s);
      this.ctx.emit({
        type: 'carrier',
        orgId: c.orgId,
        id: c.id,
        sn: c.sn,
        warehouseId: s.warehouseId,
        transportStatus: s.transportStatus,
        longitude: s.longitude,
        latitude: s.latitude,
        inboundWarehouseId: s.inboundWarehouseId,
        inboundTime: s.inboundTime,
        outboundWarehouseId: s.outboundWarehouseId,
        outboundTime: s.outboundTime,
        time: s.placedAt,
      });
    }
    return { devices, carriers };
  }

  /**
   * Beacon rows with the lookups shared by consecutive rows hoisted: org's devices, the gateway
   * of a frame. A row's device comes by its slot when the intake supplied slots.
   */
  private beacons(rows: readonly Row[], slots: readonly number[] | undefined): void {
    const fleet = this.fleet;
    let org = NaN;
    let byKey: ReadonlyMap<string, DeviceInfo> | undefined;
    let gwMac: unknown = undefined;
    let gw: DeviceInfo | undefined;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (r.org !== org) {
        org = r.org as number;
        byKey = fleet.devicesOf('beacon', org);
        gwMac = undefined;
      }
      if (r.gatewayMac !== gwMac) {
        gwMac = r.gatewayMac;
        gw = fleet.device(org, 'gateway', gwMac as string);
      }
      this.beacon(r, slots ? fleet.deviceAt(slots[i]) : byKey?.get(r.mac as string), gw);
    }
  }

  private beacon(r: Row, d: DeviceInfo | undefined, gw: DeviceInfo | undefined): void {
    this.stats.readings++;
    if (!d) return void this.stats.unknown++;
    const s = this.deviceState(d);
    const time = r.time as number;
    const fresh = time >= s.lastSeen;
    seen(this.ctx, d, s, time);
    if (!fresh) return; // a late reading does not move state backwards
    if (typeof r.battery === 'number') batteryRule(this.ctx, d, s, r.battery, time);
    const gwMac = r.gatewayMac as string;
    s.gatewayMac = gwMac;
    this.ctx.touchDevice(d, s);
    const c = this.fleet.carrierOf(d);
    if (!c) return;
    if (gw) beaconSighting(this.ctx, c, this.carrierState(c), gw, time);
  }

  private gps(r: Row): void {
    this.stats.readings++;
    const d = this.fleet.device(r.org as number, 'gps', r.sn as string);
    if (!d) return void this.stats.unknown++;
    const s = this.deviceState(d);
    const time = r.time as number;
    const fresh = time >= s.lastSeen;
    seen(this.ctx, d, s, time);
    this.ctx.touchDevice(d, s);
    if (typeof r.battery === 'number') batteryRule(this.ctx, d, s, r.battery, time);
    if (r.dataType === 20 && typeof r.eventCode === 'string') vendorEvent(this.ctx, d, s, r.eventCode, r, time);
    sensorRules(this.ctx, d, s, r, time);
    if (!fresh || typeof r.longitude !== 'number' || typeof r.latitude !== 'number') return;
    s.longitude = r.longitude;
    s.latitude = r.latitude;
    if (typeof r.altitude === 'number') altitudeRule(this.ctx, d, s, r.altitude, time, r);
    geofenceRule(this.ctx, d, s, r.longitude, r.latitude, time);
    const c = this.fleet.carrierOf(d);
    if (c) {
      const cs = this.carrierState(c);
      cs.longitude = r.longitude;
      cs.latitude = r.latitude;
      this.ctx.touchCarrier(c, cs);
    }
  }

  private gateway(r: Row): void {
    this.stats.readings++;
    const d = this.fleet.device(r.org as number, 'gateway', r.mac as string);
    if (!d) return void this.stats.unknown++;
    gatewayRow(this.ctx, d, this.deviceState(d), typeof r.connection === 'number' ? r.connection : 10, r.time as number);
  }
}
