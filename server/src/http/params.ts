/**
 * Typed readers for the parameters of hand-written calls (plugins above all), with the same
 * bounds as the generated calls (docs/SERVER.md "Input limits"): ids a column can hold,
 * bounded text, page and limit, integers in a range. A bad value is a 10001 naming the
 * parameter in the caller's language (through `invalid`, the one way plugins refuse input),
 * never a driver error or a 500 further down.
 */
import { tKey } from '../i18n/translator';
import { MAX_ID } from '../resources/coerce';
import { FILTER_MAX_LENGTH, FILTER_MAX_VALUES, MAX_LIMIT, MAX_PAGE } from '../resources/query';
import { ApiError, ErrorCode } from './api-error';
import { invalid, type ValidationRule } from './invalid';

export interface ParamOptions {
  /** i18n key naming the parameter in refusals (default: the parameter's name) */
  label?: string;
  /** refuse when missing (default: missing answers undefined) */
  required?: boolean;
}

type Body = Record<string, unknown>;

const missing = (v: unknown) => v === undefined || v === null || v === '';
/** The parameter as `invalid` names it: the given label, else `fields.<key>` or the key itself. */
const fieldOf = (key: string, opts?: ParamOptions) => (opts?.label ? tKey(opts.label) : key);
const refuse = (key: string, opts: ParamOptions | undefined, rule: ValidationRule, params: Record<string, unknown> = {}) =>
  invalid(rule, fieldOf(key, opts), params);
const wrongType = (key: string, opts: ParamOptions | undefined, expected: string) => refuse(key, opts, 'type', { expected });

function absent(key: string, opts: ParamOptions | undefined): undefined {
  if (opts?.required) throw refuse(key, opts, 'required');
  return undefined;
}

/** A number or a string of digits (what query strings and older clients send) → number, else NaN. */
const numeric = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,16}(\.\d{1,16})?$/.test(v.trim()) ? Number(v) : NaN);

/** One record id: a positive integer an id column holds. */
export function readId(body: Body, key: string, opts?: ParamOptions): number | undefined {
  const v = body[key];
  if (missing(v)) return absent(key, opts);
  const n = numeric(v);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ID) throw wrongType(key, opts, 'id');
  return n;
}

/** Record ids: a list (or one id); at most `max` (default 1,000). */
export function readIds(body: Body, key: string, opts?: ParamOptions & { max?: number }): number[] | undefined {
  const v = body[key];
  if (missing(v) || (Array.isArray(v) && !v.length)) return absent(key, opts);
  const list = Array.isArray(v) ? v : [v];
  const max = opts?.max ?? FILTER_MAX_VALUES;
  if (list.length > max) throw refuse(key, opts, 'filterValues', { max });
  return [...new Set(list.map((x) => readId({ [key]: x }, key, { ...opts, required: true })!))];
}

/** An integer in [min, max]. */
export function readInt(body: Body, key: string, opts: ParamOptions & { min: number; max: number }): number | undefined {
  const v = body[key];
  if (missing(v)) return absent(key, opts);
  const n = numeric(v);
  if (!Number.isInteger(n)) throw wrongType(key, opts, 'integer');
  if (n < opts.min || n > opts.max) throw refuse(key, opts, 'valueBetween', { min: opts.min, max: opts.max });
  return n;
}

/** Text of at most `max` characters (default 256, the filter bound), trimmed unless told. */
export function readText(body: Body, key: string, opts?: ParamOptions & { max?: number; trim?: boolean }): string | undefined {
  const v = body[key];
  if (missing(v)) return absent(key, opts);
  if (typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) throw wrongType(key, opts, 'string');
  const s = opts?.trim === false ? String(v) : String(v).trim();
  const max = opts?.max ?? FILTER_MAX_LENGTH;
  if (s.length > max) throw refuse(key, opts, 'filterLength', { max });
  return s === '' ? absent(key, opts) : s;
}

/** One of the allowed values (compared as text). */
export function readOneOf<T extends string | number>(body: Body, key: string, allowed: readonly T[], opts?: ParamOptions): T | undefined {
  const v = body[key];
  if (missing(v)) return absent(key, opts);
  const hit = allowed.find((a) => String(a) === String(v));
  if (hit === undefined) throw refuse(key, opts, 'enum', { value: typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 64) : typeof v });
  return hit;
}

export interface Paging {
  page: number;
  limit: number;
  /** rows to skip: (page − 1) × limit */
  offset: number;
}

/** `page` (1–1,000,000, default 1) and `limit` (1–maxLimit, default defaultLimit) as the generated lists read them. */
export function readPaging(body: Body, opts: { defaultLimit?: number; maxLimit?: number } = {}): Paging {
  const maxLimit = opts.maxLimit ?? MAX_LIMIT;
  const read = (key: 'page' | 'limit', dflt: number, max: number) => {
    const v = body[key];
    if (missing(v)) return dflt;
    const n = numeric(v);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new ApiError(ErrorCode.validation, `server.validation.${key}`, { max }, 400);
    return n;
  };
  const page = read('page', 1, MAX_PAGE);
  const limit = read('limit', opts.defaultLimit ?? 10, maxLimit);
  return { page, limit, offset: (page - 1) * limit };
}
