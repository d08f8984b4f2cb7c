/**
 * The one time-range parameter of the server and the zone arithmetic reports need. Every
 * report, export and history call reads `time: [from, to]` (or `startTime`/`endTime`), each
 * end ISO or epoch ms, through parseTimeRange, so they refuse the same input with the same
 * translated messages. Zones are IANA names (daylight saving included) or fixed offsets in
 * minutes east of UTC (what a browser sends).
 */
import { tKey } from '../i18n/translator';
import { isStorableTime } from '../resources/coerce';
import { fieldError, typeError } from '../resources/errors';

export const DAY_MS = 86_400_000;

export interface TimeRange {
  /** epoch ms, inclusive */
  from: number;
  /** epoch ms, inclusive */
  to: number;
}

export interface TimeRangeOptions {
  /** body key of the [from, to] pair (default "time"); `startTime`/`endTime` are read too */
  name?: string;
  /** i18n key naming the parameter in refusals (default fields.<name>) */
  label?: string;
  /** a closed range: missing ends default to now and now − defaultDays (default 7) */
  defaultDays?: number;
  /** longest range accepted, in days */
  maxDays?: number;
}

const START = { name: 'startTime' };
const END = { name: 'endTime' };

function instant(v: unknown, field: { name: string; label?: string }): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && v.length <= 64 ? Date.parse(v) : NaN;
  // 1e300 or year 275760 is no time a row holds (and Date cannot print it)
  if (!Number.isFinite(n) || !isStorableTime(n)) throw typeError(field, 'datetime');
  return n;
}

/** The two raw ends of the range in a body: `[name]: [from, to]`, else startTime / endTime. */
function ends(body: Record<string, unknown>, name: string, label?: string): [number | undefined, number | undefined] {
  const pair = body[name];
  const field = { name, label };
  if (pair !== undefined && pair !== null && pair !== '') {
    if (!Array.isArray(pair) || pair.length > 2) throw typeError(field, 'range');
    return [instant(pair[0], field), instant(pair[1], field)];
  }
  return [instant(body.startTime, START), instant(body.endTime, END)];
}

function check(from: number | undefined, to: number | undefined, opts: TimeRangeOptions): void {
  if (from !== undefined && to !== undefined && from > to) throw fieldError(START, 'earlier', { left: fieldParamOf(START), right: fieldParamOf(END) });
  if (opts.maxDays !== undefined && from !== undefined && to !== undefined && to - from > opts.maxDays * DAY_MS) {
    throw fieldError({ name: opts.name ?? 'time', label: opts.label }, 'rangeDays', { max: opts.maxDays });
  }
}

const fieldParamOf = (f: { name: string }) => tKey(`fields.${f.name}`);

/** A closed range (both ends filled: `to` = now, `from` = to − defaultDays). */
export function parseTimeRange(body: Record<string, unknown>, opts: TimeRangeOptions = {}, now = Date.now()): TimeRange {
  const [a, b] = ends(body, opts.name ?? 'time', opts.label);
  const to = b ?? now;
  const from = a ?? to - (opts.defaultDays ?? 7) * DAY_MS;
  check(from, to, opts);
  return { from, to };
}

/** An open range: either end may be missing (no bound on that side). */
export function parseOpenTimeRange(body: Record<string, unknown>, opts: Omit<TimeRangeOptions, 'defaultDays'> = {}): Partial<TimeRange> {
  const [from, to] = ends(body, opts.name ?? 'time', opts.label);
  check(from, to, opts);
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/** IANA zone ("Asia/Shanghai") or a fixed offset in minutes east of UTC (480). */
export type Zone = string | number;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** A zone's offset from UTC in minutes (east positive) at a time: daylight saving included. */
export function zoneOffset(zone: Zone): (t: number) => number {
  if (typeof zone === 'number') return () => zone;
  let f = offsetFormats.get(zone);
  if (!f) offsetFormats.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  const fmt = f;
  return (t) => {
    const name = fmt.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  };
}

/** True for a zone this runtime knows (IANA name) or an offset within ±14 h. */
export function isZone(zone: unknown): zone is Zone {
  if (typeof zone === 'number') return Number.isInteger(zone) && Math.abs(zone) <= 14 * 60;
  if (typeof zone !== 'string' || !zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Wall-clock parts of a time in a zone. */
function wall(t: number, zone: Zone) {
  const d = new Date(t + zoneOffset(zone)(t) * 60_000);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds() };
}

/** The calendar day of a time in a zone, "YYYY-MM-DD". */
export function dayOf(t: number | Date, zone: Zone): string {
  const w = wall(typeof t === 'number' ? t : t.getTime(), zone);
  return `${w.y}-${pad(w.mo)}-${pad(w.d)}`;
}

/** "YYYY-MM-DD HH:mm:ss" (or without seconds) in a zone; '' for nothing or an invalid time. */
export function formatTime(v: unknown, zone: Zone = 0, seconds = true): string {
  if (v === null || v === undefined || v === '') return '';
  const t = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(String(v));
  if (!Number.isFinite(t)) return '';
  const w = wall(t, zone);
  return `${w.y}-${pad(w.mo)}-${pad(w.d)} ${pad(w.h)}:${pad(w.mi)}${seconds ? `:${pad(w.s)}` : ''}`;
}

/** The instant a calendar day ("YYYY-MM-DD") starts in a zone. */
export function dayStart(day: string, zone: Zone): number {
  const [y, m, d] = day.split('-').map(Number);
  const utc = Date.UTC(y, m - 1, d);
  const off = zoneOffset(zone);
  // the offset at midnight itself may differ from the offset at the UTC guess (DST days)
  let t = utc - off(utc) * 60_000;
  t = utc - off(t) * 60_000;
  return t;
}

/** The last `days` full calendar days before `now` in a zone: [midnight days ago, today's midnight − 1 ms]. */
export function lastFullDays(now: number, days: number, zone: Zone): TimeRange {
  const today = dayStart(dayOf(now, zone), zone);
  const first = new Date(Date.parse(`${dayOf(now, zone)}T00:00:00Z`) - Math.max(1, days) * DAY_MS).toISOString().slice(0, 10);
  return { from: dayStart(first, zone), to: today - 1 };
}
