/**
 * JSON value → typed value of a field, or a 400 naming the field. Shared by writes and by
 * list filters, so a filter accepts exactly what a write accepts.
 */
import type { EnumsFile, FieldDef } from '@rti/metadata';
import { fieldError, typeError } from './errors';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function toDateOnly(f: FieldDef, v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v).toISOString().slice(0, 10);
  if (typeof v === 'string') {
    const day = v.length > 10 && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString().slice(0, 10) : v;
    const m = DATE_RE.exec(day);
    if (m) {
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      if (d.getUTCDate() === +m[3] && d.getUTCMonth() === +m[2] - 1) return day;
    }
  }
  throw typeError(f, 'date');
}

export function toDateTime(f: FieldDef, v: unknown): Date {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Date.parse(v))) return new Date(v);
  throw typeError(f, 'datetime');
}

export function enumValue(f: FieldDef, v: unknown, enums: EnumsFile): string | number {
  if (typeof v !== 'string' && typeof v !== 'number') throw typeError(f, 'string');
  const match = (enums[f.enum ?? ''] ?? []).find((e) => String(e.value) === String(v));
  if (!match) throw fieldError(f, 'enum', { value: v });
  return match.value;
}

const positiveId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

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
      return v;
    case 'decimal':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw typeError(f, 'number');
      return v;
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
      if (!positiveId(v)) throw typeError(f, 'id');
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
