/**
 * GPS tracker alert rules, fed by every stored batch (docs/TELEMETRY.md §10). Alerts are
 * device-gps-alert rows: `code` is the tracker's own event code for event reports (dataType
 * 20), or one of the platform codes below for conditions the platform derives itself. A
 * condition alert is opened once while the condition lasts and gets clearedAt when it ends.
 */
import { Op } from 'sequelize';
import type { Database } from '@rti/server';
import { silentLogger, type Logger } from '../pipeline/pipeline';
import type { SeriesBatch } from '../store/telemetry-store';
import type { SeriesRow } from '../store/series';
import type { LiveEvents } from '../live/live-events';

/** positions published at most this often per tracker */
const POSITION_EVERY_MS = 1000;

/** Platform-derived codes (SPEC leaves the tracker catalogue's meanings out; these are ours). */
export const GPS_RULE_CODES = {
  highTemperature: 'T_HIGH',
  lowTemperature: 'T_LOW',
  highHumidity: 'H_HIGH',
  lowHumidity: 'H_LOW',
  shake: 'SHAKE',
  altitudeChange: 'ALT_JUMP',
  dataMissing: 'NO_DATA',
} as const;

/** SPEC §9: transmitter data missing for more than 60 minutes; altitude change above 200 m. */
export const DATA_MISSING_MS = 60 * 60_000;
export const ALTITUDE_CHANGE_M = 200;

interface Tracker {
  id: number;
  orgId: number;
  sn: string;
  high: { temp: number | null; humidity: number | null };
  low: { temp: number | null; humidity: number | null };
  shake: number | null;
  lastAltitude: number | null;
  lastSeen: number;
  lastPublished: number;
  open: Set<string>;
}

export interface GpsRulesOptions {
  database: Database;
  now?: () => number;
  /** sweep for silent trackers (default 60 s; 0 = only sweep()) */
  sweepMs?: number;
  log?: Logger;
  /** opened alerts and tracker positions are published here for the console */
  events?: LiveEvents;
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

export class GpsRules {
  private readonly trackers = new Map<number, Map<string, Tracker>>();
  private queue: SeriesRow[] = [];
  private busy: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(private readonly opts: GpsRulesOptions) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? silentLogger;
  }

  async start(): Promise<void> {
    await this.reload();
    const ms = this.opts.sweepMs ?? 60_000;
    if (ms > 0) {
      this.timer = setInterval(() => void this.sweep().catch((e) => this.log.error('ingest: GPS rule sweep failed', e)), ms);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.drain();
  }

  async reload(): Promise<void> {
    const m = this.opts.database.models;
    const rows = (await m['device-gps'].findAll({ attributes: ['id', 'orgId', 'sn', 'highTempThreshold', 'lowTempThreshold', 'shakeThreshold', 'highHumidityThreshold', 'lowHumidityThreshold', 'lastReportTime'], raw: true })) as unknown as Array<Record<string, unknown>>;
    const open = (await m['device-gps-alert'].findAll({ attributes: ['gpsId', 'code'], where: { clearedAt: null, code: { [Op.in]: Object.values(GPS_RULE_CODES) } }, raw: true })) as unknown as Array<{ gpsId: number; code: string }>;
    for (const r of rows) {
      const orgId = Number(r.orgId);
      const byOrg = this.trackers.get(orgId) ?? this.trackers.set(orgId, new Map()).get(orgId)!;
      const t: Tracker = byOrg.get(String(r.sn)) ?? { id: Number(r.id), orgId, sn: String(r.sn), high: { temp: null, humidity: null }, low: { temp: null, humidity: null }, shake: null, lastAltitude: null, lastSeen: r.lastReportTime ? new Date(r.lastReportTime as string).getTime() : 0, lastPublished: 0, open: new Set() };
      t.high = { temp: num(r.highTempThreshold), humidity: num(r.highHumidityThreshold) };
      t.low = { temp: num(r.lowTempThreshold), humidity: num(r.lowHumidityThreshold) };
      t.shake = num(r.shakeThreshold);
      byOrg.set(t.sn, t);
    }
    for (const a of open) for (const byOrg of this.trackers.values()) for (const t of byOrg.values()) if (t.id === Number(a.gpsId)) t.open.add(a.code);
  }

  /** Pipeline onStored hook: queues GPS rows; evaluation runs off the hot path. */
  observe = (batches: readonly SeriesBatch[]): void => {
    let any = false;
    for (const b of batches)
      if (b.series === 'gps') {
        for (const r of b.rows) this.queue.push(r);
        any = true;
      }
    if (any) this.busy = this.busy.then(() => this.evaluate()).catch((e) => this.log.error('ingest: GPS rules failed', e));
  };

  /** Resolves when every observed row has been evaluated (tests, shutdown). */
  drain(): Promise<void> {
    return this.busy;
  }

  /** Opens the data-missing alert for trackers silent longer than 60 minutes. */
  async sweep(): Promise<void> {
    await this.drain();
    const now = this.now();
    for (const byOrg of this.trackers.values())
      for (const t of byOrg.values())
        if (t.lastSeen > 0 && now - t.lastSeen > DATA_MISSING_MS) await this.open(t, GPS_RULE_CODES.dataMissing, `no data for ${Math.round((now - t.lastSeen) / 60000)} min`, null, now);
  }

  private async evaluate(): Promise<void> {
    const rows = this.queue;
    this.queue = [];
    for (const r of rows) {
      const t = this.trackers.get(r.org)?.get(r.sn as string);
      if (!t) continue;
      if (r.time > t.lastSeen) t.lastSeen = r.time;
      if (this.opts.events && typeof r.longitude === 'number' && typeof r.latitude === 'number' && r.time - t.lastPublished >= POSITION_EVERY_MS) {
        t.lastPublished = r.time;
        this.opts.events.publish({ type: 'position', orgId: t.orgId, data: { gpsId: t.id, sn: t.sn, longitude: r.longitude, latitude: r.latitude, altitude: r.altitude ?? null, speed: r.speed ?? null, time: new Date(r.time).toISOString() } });
      }
      await this.close(t, GPS_RULE_CODES.dataMissing);
      if (r.dataType === 20 && typeof r.eventCode === 'string') await this.event(t, r);
      const temps = [r.temperature1, r.temperature2, r.temperature3].filter((v): v is number => typeof v === 'number');
      const hums = [r.humidity1, r.humidity2, r.humidity3].filter((v): v is number => typeof v === 'number');
      if (temps.length) {
        await this.condition(t, GPS_RULE_CODES.highTemperature, t.high.temp !== null && Math.max(...temps) > t.high.temp, `temperature ${Math.max(...temps)} °C above ${t.high.temp} °C`, r);
        await this.condition(t, GPS_RULE_CODES.lowTemperature, t.low.temp !== null && Math.min(...temps) < t.low.temp, `temperature ${Math.min(...temps)} °C below ${t.low.temp} °C`, r);
      }
      if (hums.length) {
        await this.condition(t, GPS_RULE_CODES.highHumidity, t.high.humidity !== null && Math.max(...hums) > t.high.humidity, `humidity ${Math.max(...hums)} % above ${t.high.humidity} %`, r);
        await this.condition(t, GPS_RULE_CODES.lowHumidity, t.low.humidity !== null && Math.min(...hums) < t.low.humidity, `humidity ${Math.min(...hums)} % below ${t.low.humidity} %`, r);
      }
      if (typeof r.acceleration === 'number' && t.shake !== null)
        await this.condition(t, GPS_RULE_CODES.shake, Math.abs(r.acceleration) > t.shake, `shake ${Math.abs(r.acceleration)} g above ${t.shake} g`, r);
      if (typeof r.altitude === 'number') {
        // a jump between consecutive fixes is an event of its own, not a lasting condition
        if (t.lastAltitude !== null && Math.abs(r.altitude - t.lastAltitude) > ALTITUDE_CHANGE_M) await this.create(t, GPS_RULE_CODES.altitudeChange, `altitude changed by ${Math.round(Math.abs(r.altitude - t.lastAltitude))} m`, r);
        t.lastAltitude = r.altitude;
      }
    }
  }

  private async condition(t: Tracker, code: string, active: boolean, message: string, r: SeriesRow): Promise<void> {
    if (active) await this.open(t, code, message, r, r.time);
    else await this.close(t, code);
  }

  private async open(t: Tracker, code: string, message: string, r: SeriesRow | null, at: number): Promise<void> {
    if (t.open.has(code)) return;
    t.open.add(code);
    await this.create(t, code, message, r, at);
  }

  private async close(t: Tracker, code: string): Promise<void> {
    if (!t.open.delete(code)) return;
    await this.opts.database.models['device-gps-alert'].update({ clearedAt: new Date(this.now()) }, { where: { orgId: t.orgId, gpsId: t.id, code, clearedAt: null } });
  }

  /** Tracker events: one alert per report; a replayed report (same code and time) is not doubled. */
  private async event(t: Tracker, r: SeriesRow): Promise<void> {
    const model = this.opts.database.models['device-gps-alert'];
    const reportTime = new Date(r.time);
    if (await model.findOne({ attributes: ['id'], where: { orgId: t.orgId, gpsId: t.id, code: r.eventCode as string, reportTime }, raw: true })) return;
    await this.create(t, r.eventCode as string, `event ${r.eventCode}${r.eventValue ? ` = ${r.eventValue}` : ''}`, r);
  }

  /** Every alert is filed as data type event (20): the console fetches GPS alerts by that type. */
  private async create(t: Tracker, code: string, message: string, r: SeriesRow | null, at = r?.time ?? this.now()): Promise<void> {
    const created = await this.opts.database.models['device-gps-alert'].create({ orgId: t.orgId, gpsId: t.id, gpsSn: t.sn, code, dataType: 20, reportTime: new Date(at), message, status: 0, rawData: r ? { ...r } : null });
    this.opts.events?.publish({ type: 'alert', orgId: t.orgId, data: { resource: 'device-gps-alert', id: created.get('id'), gpsId: t.id, gpsSn: t.sn, code, message, reportTime: new Date(at).toISOString() } });
  }
}
