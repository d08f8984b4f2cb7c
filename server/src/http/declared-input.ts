/**
 * Declared inputs of hand-written calls (plugins above all): `ctx.addCall({ path, input, paging,
 * handler })` declares its body's fields like metadata FieldDefs, and the handler receives them
 * validated and typed (`input`), checked by the same validator as the generated calls' writes
 * (resources/validate.ts: types, required, min/max, lengths, patterns, enums by name) and
 * refused as a 10001 naming the field's label in the caller's language. `paging` reads `page`
 * and `limit` as the generated lists do (1–1,000,000 and 1–maxLimit, a clear 10001 otherwise).
 * docs/PLUGINS.md "Declared call inputs".
 */
import { fieldLabelKey, type EnumsFile, type FieldDef, type NamedPattern } from '@rti/metadata';
import { tKey } from '../i18n/translator';
import { requiredError, validateValue } from '../resources/validate';
import { FILTER_MAX_VALUES } from '../resources/query';
import { ApiError, ErrorCode } from './api-error';
import { readPaging, type Paging } from './params';
import type { CallDef, CallInput } from './types';

/** The field types a call input may declare (metadata's, minus stored-file and secret kinds). */
export type InputFieldType = 'int' | 'decimal' | 'string' | 'text' | 'bool' | 'date' | 'datetime' | 'enum' | 'enums' | 'ref' | 'refs' | 'lnglat' | 'json';

/** One declared input field: a metadata FieldDef whose name is its key in `input`. */
export interface InputField {
  type: InputFieldType;
  /** i18n key naming the field in refusals; default `fields.<key>` (the key itself when no catalogue has that) */
  label?: string;
  /** refuse when missing or empty */
  required?: boolean;
  /** numbers: bounds (int defaults to what an INTEGER column holds) */
  min?: number;
  max?: number;
  /** texts: length bounds (string defaults to at most 255, text to the body's 65,536) */
  minLength?: number;
  maxLength?: number;
  /** decimal places of a decimal */
  scale?: number;
  /** texts: a named pattern (code, mac, email …) or a regular expression source */
  pattern?: NamedPattern | string;
  /** enum / enums: the name of an enumeration of enums.json (values compared as text) */
  enum?: string;
  /** enum / enums: the allowed values, for a closed list that is no enumeration of enums.json */
  values?: readonly (string | number)[];
  /** the value when the body leaves the field out (or empty) */
  default?: unknown;
  /** enums / refs: at most this many values (default 1,000, the list filters' bound) */
  maxItems?: number;
}

export type InputDecl = Readonly<Record<string, InputField>>;
/** `true`: default limit 10, at most 1,000 (the generated lists' bounds) */
export type PagingDecl = true | { defaultLimit?: number; maxLimit?: number };

type Scalar<F> = F extends { values: readonly (infer V)[] } ? V : string | number;
/** The TypeScript type of a validated value of a declared field. */
export type InputValue<F> = F extends { type: 'int' | 'decimal' | 'ref' }
  ? number
  : F extends { type: 'string' | 'text' | 'date' }
    ? string
    : F extends { type: 'bool' }
      ? boolean
      : F extends { type: 'datetime' }
        ? Date
        : F extends { type: 'refs' }
          ? number[]
          : F extends { type: 'enum' }
            ? Scalar<F>
            : F extends { type: 'enums' }
              ? Array<Scalar<F>>
              : F extends { type: 'lnglat' }
                ? [number, number]
                : unknown;

type Always<F> = F extends { required: true } ? true : F extends { default: NonNullable<unknown> } ? true : false;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The handler's `input` for a declaration: required and defaulted fields present, others optional. */
type Present<D> = { -readonly [K in keyof D as Always<D[K]> extends true ? K : never]: InputValue<D[K]> };
type Optional<D> = { -readonly [K in keyof D as Always<D[K]> extends true ? never : K]?: InputValue<D[K]> };
export type InputOf<D, P = undefined> = Flat<Present<D> & Optional<D> & (P extends PagingDecl ? Paging : unknown)>;

/** What a declared call's handler receives: the call input with its validated `input`. */
export type DeclaredCallInput<I> = Omit<CallInput, 'input'> & { input: I };

/** A call with a declared input, as `ctx.addCall` takes it. */
export interface DeclaredCallDef<D extends InputDecl, P extends PagingDecl | undefined> extends Omit<CallDef, 'handler' | 'input' | 'paging'> {
  input?: D;
  paging?: P;
  handler: (input: DeclaredCallInput<InputOf<D, P>>) => Promise<unknown> | unknown;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
/** digits (what query strings and older clients send for numbers) */
const NUMERIC = /^-?\d{1,16}(\.\d{1,16})?$/;
const NUMBER_TYPES = new Set<InputFieldType>(['int', 'decimal', 'ref', 'refs']);
const LIST_TYPES = new Set<InputFieldType>(['enums', 'refs']);
const VALUES_ENUM = '\u0000input';

/** The metadata FieldDef a declared field is validated as. */
function fieldOf(name: string, f: InputField): FieldDef {
  const { values: _values, maxItems: _maxItems, default: _default, ...rest } = f;
  return { ...rest, name, enum: f.values ? VALUES_ENUM : f.enum, ...(f.type === 'text' && f.maxLength === undefined ? { maxLength: 65_536 } : {}) } as FieldDef;
}

/** The refusal naming the field by its label (or its key when no catalogue has `fields.<key>`). */
function named(err: unknown, name: string, f: InputField): unknown {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.validation) return err;
  return new ApiError(err.code, err.messageKey, { ...err.params, field: tKey(fieldLabelKey({ name, label: f.label }), name) }, err.httpStatus);
}

/**
 * Validates `body` against a declaration: each declared field typed and checked, in the order
 * declared; keys the declaration does not name are left out. Throws the first refusal.
 */
export function validateInput(decl: InputDecl, body: Record<string, unknown>, enums: EnumsFile, paging?: PagingDecl): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(decl)) {
    const def = fieldOf(name, f);
    try {
      let raw = Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
      if (isEmpty(raw)) {
        if (f.default !== undefined) out[name] = structuredClone(f.default);
        else if (f.required) throw requiredError(def);
        continue;
      }
      if (NUMBER_TYPES.has(f.type)) raw = Array.isArray(raw) ? raw.map(numeric) : numeric(raw);
      if (LIST_TYPES.has(f.type) && Array.isArray(raw) && raw.length > (f.maxItems ?? FILTER_MAX_VALUES)) {
        throw new ApiError(ErrorCode.validation, 'server.validation.filterValues', { max: f.maxItems ?? FILTER_MAX_VALUES }, 400);
      }
      // a list field given one value: a list of one (what a select sends when it holds one)
      if (LIST_TYPES.has(f.type) && !Array.isArray(raw)) raw = [raw];
      const own = f.values ? { ...enums, [VALUES_ENUM]: f.values.map((value) => ({ value, label: String(value) })) } : enums;
      out[name] = validateValue(def, raw, own);
    } catch (err) {
      throw named(err, name, f);
    }
  }
  if (paging) Object.assign(out, readPaging(body, paging === true ? {} : paging));
  return out;
}

const numeric = (v: unknown): unknown => (typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : v);

/**
 * The call as registered: a declared input (or paging) is validated before the handler runs,
 * which gets it as `input`; a call without a declaration is registered as it is.
 */
export function withDeclaredInput(def: CallDef, enums: () => EnumsFile): CallDef {
  const decl = def.input;
  const paging = def.paging;
  if (!decl && !paging) return def;
  for (const [name, f] of Object.entries(decl ?? {})) {
    if ((f.type === 'enum' || f.type === 'enums') && !f.enum && !f.values)
      throw new Error(`call ${def.path}: input ${name} is an ${f.type} without \`enum\` (an enumeration's name) or \`values\``);
    if (f.enum && !enums()[f.enum]) throw new Error(`call ${def.path}: input ${name} names the enumeration "${f.enum}", which enums.json does not have`);
  }
  const handler = def.handler;
  return { ...def, handler: (call) => handler({ ...call, input: validateInput(decl ?? {}, call.body, enums(), paging) }) };
}
