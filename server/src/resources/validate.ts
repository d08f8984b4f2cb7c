/**
 * Write validation from FieldDefs: only declared, writable fields pass; each value is typed,
 * then checked against required, lengths, ranges, patterns and cross-field rules. Messages
 * name the field by its label key, translated by the dispatcher in the caller's language.
 */
import { isNamedPattern, namedPatterns, patternRule, type EnumsFile, type FieldDef, type ResourceDef } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import { coerceValue } from './coerce';
import { fieldError, fieldParam } from './errors';

const SELECT_TYPES = new Set(['enum', 'enums', 'ref', 'refs', 'image', 'file', 'bool', 'date', 'datetime', 'lnglat']);
const STRING_TYPES = new Set(['string', 'text', 'password', 'color']);
/** Patterns with a message of their own; others read "the format of X is wrong". */

/** Secrets: accepted on write, never returned, kept when an update leaves them empty. */
export const isSecret = (f: FieldDef): boolean => f.type === 'password' || Boolean(f.writeOnly);

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export function requiredError(f: FieldDef): ApiError {
  return fieldError(f, SELECT_TYPES.has(f.type) ? 'select' : 'required');
}

function checkLength(f: FieldDef, s: string): void {
  const max = f.maxLength ?? (f.type === 'string' ? 255 : undefined);
  const min = f.minLength;
  if ((max !== undefined && s.length > max) || (min !== undefined && s.length < min)) {
    if (min !== undefined && max !== undefined) throw fieldError(f, 'lengthBetween', { min, max });
    if (max !== undefined) throw fieldError(f, 'lengthMax', { max });
    throw fieldError(f, 'lengthMin', { min });
  }
}

function checkRange(f: FieldDef, n: number): void {
  const { min, max } = f;
  if ((max !== undefined && n > max) || (min !== undefined && n < min)) {
    if (min !== undefined && max !== undefined) throw fieldError(f, 'valueBetween', { min, max });
    if (max !== undefined) throw fieldError(f, 'valueMax', { max });
    throw fieldError(f, 'valueMin', { min });
  }
}

function checkPattern(f: FieldDef, s: string): void {
  const pattern = f.pattern ?? (f.type === 'color' ? 'color' : undefined);
  if (!pattern) return;
  const re = isNamedPattern(pattern) ? namedPatterns[pattern] : new RegExp(pattern);
  if (re.test(s)) return;
  // the message says the expected format (and a code's maximum length), not only "wrong format"
  throw fieldError(f, patternRule(pattern, f.maxLength), { max: f.maxLength });
}

/** Validates one non-empty value and returns it typed. */
export function validateValue(f: FieldDef, raw: unknown, enums: EnumsFile): unknown {
  const v = coerceValue(f, raw, enums);
  if (STRING_TYPES.has(f.type) && typeof v === 'string') {
    // Length first: a 60-character password is "too long", not "wrong format".
    checkLength(f, v);
    checkPattern(f, v);
  } else if ((f.type === 'int' || f.type === 'decimal') && typeof v === 'number') {
    checkRange(f, v);
  }
  return v;
}

export interface WriteOptions {
  mode: 'create' | 'update';
  /** fields written by the system only (orgField, status of a status call) */
  skip?: ReadonlySet<string>;
  /** readOnly fields this write may set anyway (status/update) */
  allowReadOnly?: ReadonlySet<string>;
}

/** Body → values to write. Unknown and read-only keys are ignored, as docs/API.md says. */
export function validateWrite(res: ResourceDef, enums: EnumsFile, body: Record<string, unknown>, opts: WriteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of res.fields) {
    if (f.name === 'id' || opts.skip?.has(f.name)) continue;
    const writable = !f.readOnly || opts.allowReadOnly?.has(f.name);
    const present = writable && Object.prototype.hasOwnProperty.call(body, f.name) && body[f.name] !== undefined;
    if (!present) {
      if (opts.mode === 'create') {
        if (f.default !== undefined) out[f.name] = structuredClone(f.default);
        else if (f.required && writable) throw requiredError(f);
      }
      continue;
    }
    const raw = body[f.name];
    if (isEmpty(raw)) {
      // An empty secret on update means "keep the current one".
      if (opts.mode === 'update' && isSecret(f)) continue;
      if (f.required) throw requiredError(f);
      // An empty list stays a list; other empty values clear the field.
      out[f.name] = Array.isArray(raw) ? validateValue(f, raw, enums) : null;
      continue;
    }
    out[f.name] = validateValue(f, raw, enums);
  }
  return out;
}

const comparable = (v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
};

/** Cross-field rules over the row as it will be (current values overlaid by the write). */
export function checkCompareRules(res: ResourceDef, merged: Record<string, unknown>): void {
  for (const rule of res.rules?.compare ?? []) {
    const left = res.fields.find((f) => f.name === rule.left);
    const right = res.fields.find((f) => f.name === rule.right);
    if (!left || !right) continue;
    const params = { left: fieldParam(left), right: fieldParam(right) };
    const a = merged[rule.left];
    const b = merged[rule.right];
    if (rule.kind === 'different') {
      if (a !== null && a !== undefined && b !== null && b !== undefined && JSON.stringify(a) === JSON.stringify(b)) {
        throw new ApiError(ErrorCode.validation, 'server.validation.different', params);
      }
      continue;
    }
    const x = comparable(a);
    const y = comparable(b);
    if (x === null || y === null || x < y) continue;
    throw new ApiError(ErrorCode.validation, `server.validation.${rule.kind}`, params);
  }
}
