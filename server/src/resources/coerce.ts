/**
 * JSON value → typed value of a field, or a 400 naming the field. Shared by writes and by
 * list filters, so a filter accepts exactly what a write accepts.
 */
import type { EnumsFile, FieldDef } from '@rti/metadata';
import { fieldError, typeError } from './errors';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Bounds of what the columns hold on both databases (docs/SERVER.md "Input limits"): INTEGER
 * is 32-bit on MySQL, DECIMAL(20, scale), DATETIME years 1000–9999. A value beyond them is a
 * refusal naming the field, never a driver error.
 */
export const INT_MIN = -2_147_483_648;
export const INT_MAX = 2_147_483_647;
/** ids (and refs) are positive INTEGERs */
export const MAX_ID = INT_MAX;
const DATE_MIN = Date.UTC(1000, 0, 1);
const DATE_MAX = Date.UTC(10000, 0, 1) - 1;

/** An epoch-ms time both databases store (DATETIME years 1000–9999) and Date can print. */
export const isStorableTime = (ms: number): boolean => ms >= DATE_MIN && ms <= DATE_MAX;
const inDateRange = (d: Date) => isStorableTime(d.getTime());

export function toDateOnly(f: FieldDef, v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v) && inDateRange(new Date(v))) return new Date(v).toISOString().slice(0, 10);
  if (typeof v === 'string' && v.length <= 64) {
    const parsed = v.length > 10 ? new Date(v) : null;
    const day = parsed ? (inDateRange(parsed) ? parsed.toISOString().slice(0, 10) : '') : v;
    const m = DATE_RE.exec(day);
    if (m && +m[1] >= 1000) {
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      if (d.getUTCDate() === +m[3] && d.getUTCMonth() === +m[2] - 1) return day;
    }
  }
  throw typeError(f, 'date');
}

export function toDateTime(f: FieldDef, v: unknown): Date {
  const d = typeof v === 'number' ? new Date(v) : typeof v === 'string' && v.trim() !== '' && v.length <= 64 ? new Date(v) : null;
  if (d && inDateRange(d)) return d;
  throw typeError(f, 'datetime');
}

export function enumValue(f: FieldDef, v: unknown, enums: EnumsFile): string | number {
  if (typeof v !== 'string' && typeof v !== 'number') throw typeError(f, 'string');
  const match = (enums[f.enum ?? ''] ?? []).find((e) => String(e.value) === String(v));
  // the value is echoed in the message: a short prefix is enough to recognise it
  if (!match) throw fieldError(f, 'enum', { value: String(v).slice(0, 64) });
  return match.value;
}

/** A positive integer an id column can hold. */
export const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_ID;

/** Largest absolute value DECIMAL(20, scale) holds. */
const decimalMax = (f: FieldDef) => 10 ** (20 - (f.scale ?? 2)) - 10 ** -(f.scale ?? 2);

/** One scalar value (for eq/in/range filters and writes). Null is handled by the caller. */
export function coerceScalar(f: FieldDef, v: unknown, enums: EnumsFile): unknown {
  switch (f.type) {
    case 'string':
    case 'text':
    case 'color':
    case 'password':
      if (typeof v !== 'string') throw typeError(f, 'string');
      return v;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(f, 'integer');
      if (v < INT_MIN || v > INT_MAX) throw fieldError(f, 'valueBetween', { min: f.min ?? INT_MIN, max: f.max ?? INT_MAX });
      return v;
    case 'decimal': {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw typeError(f, 'number');
      const max = decimalMax(f);
      if (Math.abs(v) > max) throw fieldError(f, 'valueBetween', { min: f.min ?? -max, max: f.max ?? max });
      return v;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(f, 'boolean');
      return v;
    case 'date':
      return toDateOnly(f, v);
    case 'datetime':
      return toDateTime(f, v);
    case 'enum':
    case 'enums':
      return enumValue(f, v, enums);
    case 'ref':
    case 'refs':
      if (!isId(v)) throw typeError(f, 'id');
      return v;
    case 'permissions':
    case 'image':
    case 'file':
      if (typeof v !== 'string') throw typeError(f, 'string');
      return v;
    default:
      return v;
  }
}

/** A whole (non-null) write value of a field. */
export function coerceValue(f: FieldDef, v: unknown, enums: EnumsFile): unknown {
  switch (f.type) {
    case 'enums':
    case 'refs':
    case 'permissions': {
      if (!Array.isArray(v)) throw typeError(f, 'list');
      const out = v.map((x) => coerceScalar(f, x, enums));
      return [...new Set(out)];
    }
    case 'image':
    case 'file':
      if (typeof v === 'string') return v;
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw typeError(f, 'list');
      return v;
    case 'lnglat': {
      if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw typeError(f, 'lnglat');
      const [lng, lat] = v as number[];
      if (Math.abs(lng) > 180 || Math.abs(lat) > 90) throw fieldError(f, 'format');
      return [lng, lat];
    }
    case 'json':
      if (typeof v !== 'object') throw typeError(f, 'object');
      return v;
    default:
      return coerceScalar(f, v, enums);
  }
}
