/**
 * Derived device state, fed by every stored batch: last seen, battery, online/offline, and the
 * device alerts that follow from them. Documented in docs/TELEMETRY.md §9.
 *
 * - A reading marks its device online (status 10) and advances lastReportTime; the time is
 *   written at most once a minute per device and only forwards, so several workers seeing
 *   the same device agree (the database holds the maximum).
 * - The sweep marks online devices offline (20) whose lastReportTime is older than their
 *   model's offlineCheckTime (minutes; DEFAULT_OFFLINE_MINUTES without a model value).
 * - Battery below the model's batteryThreshold opens one beacon alert (reason 10) while the
 *   condition lasts; it is cleared (clearedAt) once the battery is 5 points above again.
 * - A gateway's connection 20 (last will, broker disconnect) marks it offline and opens one
 *   gateway alert (reason 20); connection 10 or any reading clears it.
 * - Every status change writes a device log row (event 40, status change; 60 for an alert).
 * Rows are changed through the metadata models with explicit organisation filters; each
 * transition is written with a conditional UPDATE and logged only by the writer whose UPDATE
 * changed the row, so concurrent workers do not double-log.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '@rti/server';
import { WRONG, mac as canonicalMac } from '../decoders/fields';
import { silentLogger, type Logger } from '../pipeline/pipeline';
import type { SeriesBatch } from '../store/telemetry-store';
import type { LiveEvents } from '../live/live-events';

export const DEVICE_STATUS = { unknown: 0, online: 10, offline: 20 } as const;
export const DEVICE_LOG_EVENT = { statusChange: 40, abnormal: 60 } as const;
export const BEACON_ALERT_BATTERY = 10;
export const GATEWAY_ALERT_OFFLINE = 20;
export const DEFAULT_OFFLINE_MINUTES = 60;
const BATTERY_HYSTERESIS = 5;
const LAST_SEEN_WRITE_MS = 60_000;

/** Which resources a telemetry series updates (generic code, domain names live here only). */
interface DeviceKind {
  series: string;
  resource: string;
  keyField: 'mac' | 'sn';
  hasBattery: boolean;
  log?: { resource: string; ref: string };
  alert?: { resource: string; ref: string; snField: string };
}

const KINDS: DeviceKind[] = [
  { series: 'beacon', resource: 'device-beacon', keyField: 'mac', hasBattery: true, log: { resource: 'device-beacon-log', ref: 'beaconId' }, alert: { resource: 'device-beacon-alert', ref: 'beaconId', snField: 'beaconSn' } },
  { series: 'gps', resource: 'device-gps', keyField: 'sn', hasBattery: true, log: { resource: 'device-gps-log', ref: 'gpsId' } },
  { series: 'gateway', resource: 'device-slave-gateway', keyField: 'mac', hasBattery: false, alert: { resource: 'device-slave-gateway-alert', ref: 'slaveGatewayId', snField: 'slaveGatewaySn' } },
  { series: 'gateway', resource: 'device-master-gateway', keyField: 'mac', hasBattery: false, alert: { resource: 'device-master-gateway-alert', ref: 'masterGatewayId', snField: 'masterGatewaySn' } },
];

interface Device {
  kind: DeviceKind;
  id: number;
  orgId: number;
  sn: string;
  warehouseId: number | null;
  modelId: number | null;
  lastSeen: number;
  /** lastReportTime as last written */
  written: number;
  battery: number | null;
  writtenBattery: number | null;
  connection: number | null;
  /** status as this worker last read or wrote it */
  status: number;
  /** reasons with an open (uncleared) alert */
  open: Set<number>;
  dirty: boolean;
}

export interface DeviceStateOptions {
  database: Database;
  now?: () => number;
  /** how often observed changes are written (default 5 s) */
  flushMs?: number;
  /** how often the offline sweep runs (default 60 s) */
  sweepMs?: number;
  log?: Logger;
  /** status changes and opened alerts are published here for the console */
  events?: LiveEvents;
}

export class DeviceStateTracker {
  private readonly byKey = new Map<string, Map<number, Map<string, Device[]>>>(); // series → org → key
  private readonly models = new Map<number, { batteryThreshold: number | null; offlineMinutes: number }>();
  private timers: NodeJS.Timeout[] = [];
  private readonly now: () => number;
  private readonly log: Logger;
  private busy: Promise<void> = Promise.resolve();

  constructor(private readonly opts: DeviceStateOptions) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? silentLogger;
  }

  async start(): Promise<void> {
    await this.reload();
    const every = (ms: number, fn: () => Promise<void>) => {
      const t = setInterval(() => void this.serial(fn).catch((e) => this.log.error('ingest: device state update failed', e)), ms);
      t.unref();
      this.timers.push(t);
    };
    if ((this.opts.flushMs ?? 5000) > 0) every(this.opts.flushMs ?? 5000, () => this.flush());
    if ((this.opts.sweepMs ?? 60_000) > 0) every(this.opts.sweepMs ?? 60_000, () => this.sweep());
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.serial(() => this.flush());
  }

  /** Loads devices and models (also call after devices are added). */
  async reload(): Promise<void> {
    const m = this.opts.database.models;
    for (const row of (await m['device-model'].findAll({ attributes: ['id', 'batteryThreshold', 'offlineCheckTime'], raw: true })) as unknown as Array<Record<string, unknown>>) {
      const minutes = Number(row.offlineCheckTime);
      this.models.set(Number(row.id), { batteryThreshold: row.batteryThreshold == null ? null : Number(row.batteryThreshold), offlineMinutes: minutes > 0 ? minutes : DEFAULT_OFFLINE_MINUTES });
    }
    for (const kind of KINDS) {
      const attrs = ['id', 'orgId', 'sn', kind.keyField, 'deviceModelId', 'lastReportTime', 'status', ...(kind.hasBattery ? ['battery'] : []), ...(kind.resource.includes('gateway') ? ['warehouseId'] : [])];
      const rows = (await m[kind.resource].findAll({ attributes: attrs, raw: true })) as unknown as Array<Record<string, unknown>>;
      const byOrg = this.byKey.get(kind.series) ?? this.byKey.set(kind.series, new Map()).get(kind.series)!;
      for (const r of rows) {
        const key = kind.keyField === 'mac' ? canonicalMac(r.mac) : String(r.sn);
        if (key === WRONG || !key) continue;
        const orgId = Number(r.orgId);
        let keys = byOrg.get(orgId);
        if (!keys) byOrg.set(orgId, (keys = new Map()));
        const list = keys.get(key) ?? [];
        const existing = list.find((d) => d.kind === kind && d.id === Number(r.id));
        if (existing) {
          existing.status = Number(r.status ?? 0);
          continue;
        }
        const seen = r.lastReportTime ? new Date(r.lastReportTime as string).getTime() : 0;
        const battery = kind.hasBattery && r.battery != null ? Number(r.battery) : null;
        list.push({ kind, id: Number(r.id), orgId, sn: String(r.sn ?? ''), warehouseId: r.warehouseId == null ? null : Number(r.warehouseId), modelId: r.deviceModelId == null ? null : Number(r.deviceModelId), lastSeen: seen, written: seen, battery, writtenBattery: battery, connection: null, status: Number(r.status ?? 0), open: new Set(), dirty: false });
        keys.set(key, list);
      }
      if (kind.alert) {
        const open = (await m[kind.alert.resource].findAll({ attributes: [kind.alert.ref, 'reason'], where: { clearedAt: null }, raw: true })) as unknown as Array<Record<string, unknown>>;
        const byId = new Map<number, Device>();
        for (const keys of byOrg.values()) for (const list of keys.values()) for (const d of list) if (d.kind === kind) byId.set(d.id, d);
        for (const a of open) byId.get(Number(a[kind.alert.ref]))?.open.add(Number(a.reason));
      }
    }
  }

  /** Pipeline onStored hook: in memory only, cheap per row. */
  observe = (batches: readonly SeriesBatch[]): void => {
    for (const b of batches) {
      const byOrg = this.byKey.get(b.series);
      if (!byOrg) continue;
      const keyField = b.series === 'gps' ? 'sn' : 'mac';
      for (const row of b.rows) {
        const list = byOrg.get(row.org)?.get(row[keyField] as string);
        if (!list) continue;
        for (const d of list) {
          if (row.time >= d.lastSeen) {
            d.lastSeen = row.time;
            if (d.kind.hasBattery && typeof row.battery === 'number') d.battery = Math.round(row.battery);
            if (typeof row.connection === 'number') d.connection = row.connection;
          }
          d.dirty = true;
        }
      }
    }
  };

  /** Writes what observe() collected: online transitions, last seen, battery, alerts. */
  async flush(): Promise<void> {
    const now = this.now();
    const dirty: Device[] = [];
    for (const byOrg of this.byKey.values()) for (const keys of byOrg.values()) for (const list of keys.values()) for (const d of list) if (d.dirty) dirty.push(d);
    for (const d of dirty) d.dirty = false;
    for (const kind of KINDS) {
      const mine = dirty.filter((d) => d.kind === kind);
      if (mine.length === 0) continue;
      const model = this.opts.database.models[kind.resource];
      const fresh = mine.filter((d) => d.connection !== 20 && now - d.lastSeen < this.offlineMs(d));
      const gone = mine.filter((d) => d.connection === 20);
      await this.transition(kind, fresh, DEVICE_STATUS.online, now);
      await this.transition(kind, gone, DEVICE_STATUS.offline, now);
      // last seen, minute precision (the exact time is the telemetry store's latest row):
      // one forwards-only UPDATE per minute bucket, not one per device
      const buckets = new Map<number, Device[]>();
      for (const d of mine) {
        const minute = Math.floor(d.lastSeen / LAST_SEEN_WRITE_MS) * LAST_SEEN_WRITE_MS;
        if (d.lastSeen === 0 || minute <= d.written) continue;
        const list = buckets.get(minute) ?? buckets.set(minute, []).get(minute)!;
        list.push(d);
      }
      for (const [minute, list] of buckets) {
        const at = new Date(minute);
        for (let i = 0; i < list.length; i += 500) {
          const part = list.slice(i, i + 500);
          await model.update({ lastReportTime: at }, { where: { id: part.map((d) => d.id), [Op.or]: [{ lastReportTime: null }, { lastReportTime: { [Op.lt]: at } }] } as WhereOptions });
        }
        for (const d of list) d.written = minute;
      }
      if (kind.hasBattery) {
        const byLevel = new Map<number, Device[]>();
        for (const d of mine) if (d.battery !== null && d.battery !== d.writtenBattery) (byLevel.get(d.battery) ?? byLevel.set(d.battery, []).get(d.battery)!).push(d);
        for (const [level, list] of byLevel) {
          for (let i = 0; i < list.length; i += 500) await model.update({ battery: level }, { where: { id: list.slice(i, i + 500).map((d) => d.id) } });
          for (const d of list) {
            d.writtenBattery = level;
            await this.batteryRule(d, now);
          }
        }
      }
      if (kind.alert) {
        for (const d of gone) await this.openAlert(d, GATEWAY_ALERT_OFFLINE, `gateway ${d.sn} disconnected`, { connection: 20 }, now);
        for (const d of fresh) await this.clearAlert(d, GATEWAY_ALERT_OFFLINE, now);
      }
    }
  }

  /** Marks devices offline whose last report is older than their model's offlineCheckTime. */
  async sweep(): Promise<void> {
    await this.flush();
    const now = this.now();
    for (const kind of KINDS) {
      const stale: Device[] = [];
      for (const keys of this.byKey.get(kind.series)?.values() ?? []) for (const list of keys.values()) for (const d of list) if (d.kind === kind && d.status !== DEVICE_STATUS.offline && d.lastSeen > 0 && now - d.lastSeen >= this.offlineMs(d)) stale.push(d);
      if (stale.length === 0) continue;
      // the database's lastReportTime may be newer (another worker saw the device): check there
      const model = this.opts.database.models[kind.resource];
      const rows = (await model.findAll({ attributes: ['id', 'lastReportTime'], where: { id: stale.map((d) => d.id), status: DEVICE_STATUS.online }, raw: true })) as unknown as Array<{ id: number; lastReportTime: string | Date | null }>;
      const dbSeen = new Map(rows.map((r) => [Number(r.id), r.lastReportTime ? new Date(r.lastReportTime).getTime() : 0]));
      const offline = stale.filter((d) => dbSeen.has(d.id) && now - Math.max(d.lastSeen, dbSeen.get(d.id)!) >= this.offlineMs(d));
      await this.transition(kind, offline, DEVICE_STATUS.offline, now);
      if (kind.alert) for (const d of offline) await this.openAlert(d, GATEWAY_ALERT_OFFLINE, `gateway ${d.sn} silent for more than ${Math.round(this.offlineMs(d) / 60000)} min`, { lastSeen: d.lastSeen }, now);
    }
  }

  private offlineMs(d: Device): number {
    return (d.modelId !== null ? (this.models.get(d.modelId)?.offlineMinutes ?? DEFAULT_OFFLINE_MINUTES) : DEFAULT_OFFLINE_MINUTES) * 60_000;
  }

  /**
   * Conditional status change of the devices whose known status differs; logs only the rows
   * this call changed (another worker may have changed them first).
   */
  private async transition(kind: DeviceKind, devices: Device[], status: number, now: number): Promise<void> {
    const model = this.opts.database.models[kind.resource];
    for (const d of devices) {
      if (d.status === status) continue;
      const before = d.status;
      const [changed] = await model.update({ status }, { where: { id: d.id, orgId: d.orgId, status: before } as WhereOptions });
      d.status = status;
      if (changed === 1) await this.changed(d, before, status, now);
      else {
        // someone else moved it: read the truth, log only if we are the one changing it now
        const row = (await model.findOne({ attributes: ['status'], where: { id: d.id }, raw: true })) as { status: number | null } | null;
        if (row && Number(row.status ?? 0) !== status) {
          const [again] = await model.update({ status }, { where: { id: d.id, status: row.status } as WhereOptions });
          if (again === 1) await this.changed(d, Number(row.status ?? 0), status, now);
        }
      }
    }
  }

  private async changed(d: Device, from: number, to: number, now: number): Promise<void> {
    await this.logEvent(d, DEVICE_LOG_EVENT.statusChange, String(from), String(to), now);
    this.opts.events?.publish({ type: 'device-status', orgId: d.orgId, data: { resource: d.kind.resource, id: d.id, sn: d.sn, from, status: to, time: new Date(now).toISOString() } });
  }

  private async batteryRule(d: Device, now: number): Promise<void> {
    if (!d.kind.alert || d.kind.series !== 'beacon' || d.battery === null || d.modelId === null) return;
    const threshold = this.models.get(d.modelId)?.batteryThreshold;
    if (threshold == null) return;
    if (d.battery < threshold) await this.openAlert(d, BEACON_ALERT_BATTERY, `battery ${d.battery}% below ${threshold}%`, { battery: d.battery, threshold }, now);
    else if (d.battery >= threshold + BATTERY_HYSTERESIS) await this.clearAlert(d, BEACON_ALERT_BATTERY, now);
  }

  /** One open alert per device and reason while the condition lasts. */
  private async openAlert(d: Device, reason: number, message: string, raw: object, now: number): Promise<void> {
    if (d.open.has(reason)) return;
    const a = d.kind.alert!;
    const model = this.opts.database.models[a.resource];
    d.open.add(reason);
    const open = await model.findOne({ attributes: ['id'], where: { orgId: d.orgId, [a.ref]: d.id, reason, clearedAt: null }, raw: true });
    if (open) return;
    const created = await model.create({ orgId: d.orgId, [a.ref]: d.id, [a.snField]: d.sn, reason, createdTime: new Date(now), warehouseId: d.warehouseId, message, status: 0, rawData: raw });
    this.opts.events?.publish({ type: 'alert', orgId: d.orgId, data: { resource: a.resource, id: created.get('id'), [a.ref]: d.id, [a.snField]: d.sn, reason, message, createdTime: new Date(now).toISOString() } });
    await this.logEvent(d, DEVICE_LOG_EVENT.abnormal, null, message, now);
  }

  private async clearAlert(d: Device, reason: number, now: number): Promise<void> {
    if (!d.open.has(reason)) return;
    d.open.delete(reason);
    const a = d.kind.alert!;
    await this.opts.database.models[a.resource].update({ clearedAt: new Date(now) }, { where: { orgId: d.orgId, [a.ref]: d.id, reason, clearedAt: null } as WhereOptions });
  }

  private async logEvent(d: Device, event: number, oldValue: string | null, newValue: string, now: number): Promise<void> {
    if (!d.kind.log) return;
    await this.opts.database.models[d.kind.log.resource].create({ orgId: d.orgId, [d.kind.log.ref]: d.id, event, oldValue, newValue, operator: 'system', time: new Date(now) });
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.busy.then(fn, fn);
    this.busy = run.catch(() => undefined);
    return run;
  }
}
