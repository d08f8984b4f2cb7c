/**
 * Excel cells → API values. Spreadsheets carry labels, not ids: enum cells may hold the value
 * or its label in any language, bool cells yes/no words, ref cells the target's label field
 * (resolved in batches by the runner). Everything else goes through the normal validation.
 *
 * Cells are read by their type: a number formatted as a date or time (also a formula's cached
 * result) is a date; Excel stores it as a wall-clock time without a zone, carried here as a
 * Date whose UTC fields are that wall clock, and turned into an instant in the organisation's
 * time zone only when a datetime column reads it. Typed text "YYYY-MM-DD HH:mm[:ss]" is read
 * in the same zone; text with an explicit offset as written.
 */
import { fieldLabelKey, type EnumsFile, type FieldDef } from '@rti/metadata';
import type { TFunction } from '../i18n/translator';
import { LANGUAGES } from '../i18n/translator';

export type CellValue = string | number | boolean | Date | null;

const DAY_MS = 86_400_000;
/** Excel serial 0 (1899-12-30) and the 1904 system's (1904-01-01), as Unix days. */
const EPOCH_1900 = 25569;
const EPOCH_1904 = 24107;
/** Serial of 9999-12-31, Excel's last date: larger numbers in a date column are not serials. */
const LAST_SERIAL = 2_958_465;
const FIRST_DATE = Date.UTC(1900, 0, 1);

/** A serial date (days since Excel's epoch, time as the fraction) → its wall clock, to the second. */
export function excelDate(serial: number, date1904 = false): Date {
  const ms = (serial - (date1904 ? EPOCH_1904 : EPOCH_1900)) * DAY_MS;
  return new Date(Math.round(ms / 1000) * 1000);
}

/** A number format that shows a date or time (exceljs' own test, on the format code). */
export function isDateFormat(fmt: unknown): boolean {
  if (typeof fmt !== 'string' || !fmt) return false;
  const code = fmt
    .replace(/\[[^\]]*]/g, '')
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '');
  return /[ymdhsb]/i.test(code) && !/^general$/i.test(code.trim());
}

/** One cell of exceljs' streaming reader (value and number format), by its type. */
export function readCell(cell: { value: unknown; numFmt?: unknown }, date1904 = false): CellValue {
  const v = cell.value;
  if (v && typeof v === 'object' && !(v instanceof Date) && ('formula' in v || 'sharedFormula' in v)) {
    // A formula counts by its cached result; a date-formatted number result is a date.
    const result = (v as { result?: unknown }).result;
    if (typeof result === 'number' && isDateFormat(cell.numFmt)) return excelDate(result, date1904);
    return plainCell(result ?? null);
  }
  if (v instanceof Date) return new Date(Math.round(v.getTime() / 1000) * 1000);
  return plainCell(v);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in ms. */
function offsetAt(instant: number, zone: string): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * A wall-clock time (as UTC fields) in `zone` → the instant. A time skipped by a daylight
 * saving change moves forward by the gap (the offset before it); a repeated one is its first
 * occurrence — as ECMAScript Temporal's "compatible" rule.
 */
export function wallToInstant(wall: number, zone: string): number {
  if (zone === 'UTC') return wall;
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const valid = [wall - before, wall - after].filter((c) => offsetAt(c, zone) === wall - c);
  return valid.length ? Math.min(...valid) : wall - before;
}

const timeOnly = (d: Date) => d.getTime() < FIRST_DATE;
const iso = (d: Date) => d.toISOString();

/** exceljs cell values (rich text, hyperlinks, formulas, errors) → a plain value. */
export function plainCell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const s = v.trim();
    return s === '' ? null : s;
  }
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return plainCell(o.richText.map((r) => r.text).join(''));
    if ('result' in o) return plainCell(o.result);
    if ('text' in o) return plainCell(o.text);
    if ('error' in o) return null;
  }
  return plainCell(String(v));
}

export const normalize = (s: string): string =>
  s
    .trim()
    .replace(/\s*\*$/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** Header text → field name, accepting the field name or its label in any language. */
export function headerMatcher(fields: FieldDef[], t: TFunction): (header: CellValue) => string | null {
  const map = new Map<string, string>();
  for (const f of fields) {
    map.set(normalize(f.name), f.name);
    for (const lang of LANGUAGES) map.set(normalize(t(lang, fieldLabelKey(f))), f.name);
  }
  return (header) => (header === null ? null : (map.get(normalize(String(header))) ?? null));
}

/** Cell text for string columns: numbers without float noise or exponents, dates as shown. */
function asText(v: CellValue): string {
  if (v instanceof Date) {
    const s = iso(v);
    if (timeOnly(v)) return s.slice(11, 19);
    return s.endsWith('T00:00:00.000Z') ? s.slice(0, 10) : `${s.slice(0, 10)} ${s.slice(11, 19)}`;
  }
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  return String(v);
}

/** A cell as the file showed it (reasons, the result workbook); null when empty. */
export const cellText = (v: CellValue): string | null => (v === null ? null : asText(v));

const LOCAL_DATETIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A cell as a wall-clock time (UTC fields), or null when it holds none. */
function wallOf(v: CellValue, date1904: boolean): Date | null {
  if (v instanceof Date) return v;
  // A serial not formatted as a date (General, or styles unreadable): still a date in a date column.
  if (typeof v === 'number' && v >= 0 && v < LAST_SERIAL + 1) return excelDate(v, date1904);
  if (typeof v === 'string') {
    const m = LOCAL_DATETIME.exec(v);
    if (m) {
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)));
      // 2026-02-30 is not a date (Date.UTC would roll it over to March).
      if (d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] && +(m[4] ?? 0) < 24) return d;
    }
  }
  return null;
}

/** Text shaped like a local date that is not one (2026-02-30, 25:00). */
const notADate = (v: CellValue) => typeof v === 'string' && LOCAL_DATETIME.test(v);

function asDateTime(v: CellValue, zone: string, date1904: boolean): unknown {
  const wall = wallOf(v, date1904);
  if (wall) return timeOnly(wall) ? undefined : iso(new Date(wallToInstant(wall.getTime(), zone)));
  if (notADate(v)) return undefined;
  // Text with its own offset (or epoch ms) goes to the normal validation as written.
  return v;
}

function asDate(v: CellValue, date1904: boolean): unknown {
  const wall = wallOf(v, date1904);
  if (wall) return timeOnly(wall) ? undefined : iso(wall).slice(0, 10);
  if (notADate(v)) return undefined;
  return typeof v === 'string' ? v.slice(0, 10) : v;
}

export interface ReadOptions {
  /** IANA zone of the organisation (wall-clock times → instants) */
  zone?: string;
  /** the workbook counts dates from 1904 (old Mac Excel) */
  date1904?: boolean;
}

export interface FieldReader {
  /** the API value, or undefined when the cell cannot be one (an unknown enum label …) */
  read(v: CellValue): unknown;
}

export function fieldReader(f: FieldDef, enums: EnumsFile, t: TFunction, options: ReadOptions = {}): FieldReader {
  const zone = options.zone ?? 'UTC';
  const date1904 = options.date1904 ?? false;
  switch (f.type) {
    case 'enum':
    case 'enums': {
      const byText = new Map<string, unknown>();
      for (const e of enums[f.enum ?? ''] ?? []) {
        byText.set(normalize(String(e.value)), e.value);
        for (const lang of LANGUAGES) byText.set(normalize(t(lang, e.label)), e.value);
      }
      const one = (x: string) => byText.get(normalize(x));
      if (f.type === 'enum') return { read: (v) => one(asText(v as CellValue)) };
      return {
        read: (v) => {
          const parts = asText(v)
            .split(/[,，、;]/)
            .map((s) => s.trim())
            .filter(Boolean);
          const values = parts.map(one);
          return values.some((x) => x === undefined) ? undefined : values;
        },
      };
    }
    case 'bool': {
      const yes = new Set(['true', '1', 'y', 'yes', ...LANGUAGES.map((l) => normalize(t(l, 'server.values.yes')))]);
      const no = new Set(['false', '0', 'n', 'no', ...LANGUAGES.map((l) => normalize(t(l, 'server.values.no')))]);
      return {
        read: (v) => {
          if (typeof v === 'boolean') return v;
          const s = normalize(asText(v));
          return yes.has(s) ? true : no.has(s) ? false : undefined;
        },
      };
    }
    case 'int':
    case 'decimal':
      // A date is not a number, whatever Excel stores underneath.
      return {
        read: (v) =>
          v instanceof Date ? undefined : typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v,
      };
    case 'datetime':
      return { read: (v) => asDateTime(v, zone, date1904) };
    case 'date':
      return { read: (v) => asDate(v, date1904) };
    case 'ref':
    case 'refs':
      // Resolved by label in the runner.
      return { read: (v) => asText(v) };
    default:
      return { read: (v) => asText(v) };
  }
}
