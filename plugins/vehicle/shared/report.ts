/**
 * GPS report aggregation (pure, shared by the report calls and their tests): one row per
 * device per calendar day from the device's GPS points.
 *
 * - distance: great-circle sum between consecutive fixes; a hop implying more than
 *   MAX_KMH is a bad fix and skipped (the next hop starts from the last good fix).
 * - mileage: the device odometer's rise over the day (null when the device sends none).
 * - running / stopping: each interval between consecutive fixes no longer than maxGapMs is
 *   running when the later fix reports speed ≥ movingKmh (or, without a speed, when the hop's
 *   own speed is ≥ movingKmh), else stopping. Longer gaps (device asleep, no signal) count as
 *   neither: they are reported as `silentMs`.
 * - intervals crossing midnight (in the caller's time zone) are split between the two days.
 * - alarms: event rows (GPS data type 20); temperature: probe 1 minimum and maximum.
 */
import { haversine } from '@rti/common';

export interface GpsPoint {
  t: number;
  lng: number | null;
  lat: number | null;
  speed: number | null;
  mileage: number | null;
  temp: number | null;
  /** GPS data type (SPEC §9): 10 location, 20 event/alarm, 30 temperature and humidity */
  dataType: number | null;
}

export interface DayReport {
  /** YYYY-MM-DD in the requested time zone */
  day: string;
  points: number;
  distanceKm: number;
  mileageKm: number | null;
  runningMs: number;
  stoppingMs: number;
  silentMs: number;
  maxSpeed: number | null;
  alarms: number;
  tempMin: number | null;
  tempMax: number | null;
  first: number;
  last: number;
}

export interface ReportOptions {
  /** minutes east of UTC (Asia/Shanghai = 480) */
  tzOffsetMin?: number;
  /** minutes east of UTC at a time, for a zone with daylight saving (the scheduler's zone); overrides tzOffsetMin */
  offsetAt?: (t: number) => number;
  movingKmh?: number;
  maxGapMs?: number;
}

export const MAX_KMH = 250;
const DAY = 86_400_000;

const dayKey = (t: number, off: number) => new Date(t + off * 60_000).toISOString().slice(0, 10);
/** start (epoch ms) of the local day holding t */
const dayStart = (t: number, off: number) => Math.floor((t + off * 60_000) / DAY) * DAY - off * 60_000;

function emptyDay(day: string, t: number): DayReport {
  return {
    day,
    points: 0,
    distanceKm: 0,
    mileageKm: null,
    runningMs: 0,
    stoppingMs: 0,
    silentMs: 0,
    maxSpeed: null,
    alarms: 0,
    tempMin: null,
    tempMax: null,
    first: t,
    last: t,
  };
}

/** Points must be in ascending time. */
export function dailyReport(points: readonly GpsPoint[], opts: ReportOptions = {}): DayReport[] {
  const fixed = opts.tzOffsetMin ?? 0;
  const off = opts.offsetAt ?? (() => fixed);
  const movingKmh = opts.movingKmh ?? 5;
  const maxGap = opts.maxGapMs ?? 30 * 60_000;
  const days = new Map<string, DayReport>();
  const at = (t: number) => {
    const k = dayKey(t, off(t));
    let d = days.get(k);
    if (!d) days.set(k, (d = emptyDay(k, t)));
    return d;
  };
  const odo = new Map<string, { min: number; max: number }>();

  // per-row figures
  for (const p of points) {
    const d = at(p.t);
    d.points++;
    d.first = Math.min(d.first, p.t);
    d.last = Math.max(d.last, p.t);
    if (p.dataType === 20) d.alarms++;
    if (p.speed !== null && (d.maxSpeed === null || p.speed > d.maxSpeed)) d.maxSpeed = p.speed;
    if (p.temp !== null) {
      d.tempMin = d.tempMin === null ? p.temp : Math.min(d.tempMin, p.temp);
      d.tempMax = d.tempMax === null ? p.temp : Math.max(d.tempMax, p.temp);
    }
    if (p.mileage !== null && p.mileage > 0) {
      const o = odo.get(d.day);
      if (!o) odo.set(d.day, { min: p.mileage, max: p.mileage });
      else {
        o.min = Math.min(o.min, p.mileage);
        o.max = Math.max(o.max, p.mileage);
      }
    }
  }
  for (const [day, o] of odo) days.get(day)!.mileageKm = round(o.max - o.min, 3);

  // intervals between consecutive fixes
  let prev: GpsPoint | null = null;
  for (const p of points) {
    if (p.lng === null || p.lat === null) continue;
    if (prev) {
      const dt = p.t - prev.t;
      if (dt > 0) {
        const km = haversine(prev.lng!, prev.lat!, p.lng, p.lat) / 1000;
        const hopKmh = km / (dt / 3_600_000);
        // a jump: the fix is wrong, the next hop starts from the last good one
        if (hopKmh > MAX_KMH) continue;
        const gap = dt > maxGap;
        const moving = !gap && (p.speed !== null ? p.speed >= movingKmh : hopKmh >= movingKmh);
        split(prev.t, p.t, off, (from, to) => {
          const share = (to - from) / dt;
          const d = at(from);
          d.distanceKm += km * share;
          if (gap) d.silentMs += to - from;
          else if (moving) d.runningMs += to - from;
          else d.stoppingMs += to - from;
        });
      }
    }
    prev = p;
  }
  const out = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  for (const d of out) d.distanceKm = round(d.distanceKm, 3);
  return out;
}

/** Calls fn for each piece of [from, to) cut at local midnights. */
function split(from: number, to: number, off: (t: number) => number, fn: (a: number, b: number) => void): void {
  let a = from;
  while (a < to) {
    const b = Math.min(to, dayStart(a, off(a)) + DAY);
    fn(a, b);
    a = b;
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** milliseconds → hours with two decimals, as the report's sheets show them */
export const hours = (ms: number) => round(ms / 3_600_000, 2);

/** Sum of a device's days (the report's device row). */
export function totalOf(days: readonly DayReport[]): Omit<DayReport, 'day'> & { days: number } {
  const t = { ...emptyDay('', days[0]?.first ?? 0), days: days.length } as Omit<DayReport, 'day'> & { days: number; day?: string };
  delete t.day;
  let mileage: number | null = null;
  for (const d of days) {
    t.points += d.points;
    t.distanceKm += d.distanceKm;
    t.runningMs += d.runningMs;
    t.stoppingMs += d.stoppingMs;
    t.silentMs += d.silentMs;
    t.alarms += d.alarms;
    t.first = Math.min(t.first, d.first);
    t.last = Math.max(t.last, d.last);
    if (d.mileageKm !== null) mileage = (mileage ?? 0) + d.mileageKm;
    if (d.maxSpeed !== null && (t.maxSpeed === null || d.maxSpeed > t.maxSpeed)) t.maxSpeed = d.maxSpeed;
    if (d.tempMin !== null) t.tempMin = t.tempMin === null ? d.tempMin : Math.min(t.tempMin, d.tempMin);
    if (d.tempMax !== null) t.tempMax = t.tempMax === null ? d.tempMax : Math.max(t.tempMax, d.tempMax);
  }
  t.distanceKm = round(t.distanceKm, 3);
  t.mileageKm = mileage === null ? null : round(mileage, 3);
  return t;
}
