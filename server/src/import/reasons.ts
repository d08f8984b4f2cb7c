/**
 * Row problems → SPEC §8 reasons: the resource's `import.codes` names the catalogue code of a
 * column's problem; the catalogue enum's label is the translated reason. Problems without a
 * code keep the generic validation message, which names the field.
 *
 * A reason is stored as what it says (an i18n key and its values), the column it is about and
 * the offending value as the file held it, and rendered when read in the reader's language
 * (renderError): never frozen in the language of the upload. Rows stored before keys existed
 * keep their text.
 */
import { fieldLabelKey, type FieldDef, type ImportProblem, type Metadata, type ResourceDef } from '@rti/metadata';
import { ApiError } from '../http/api-error';
import type { Language } from '../http/types';
import type { TFunction, TParams } from '../i18n/translator';
import type { ImportError, StoredImportError } from './import-jobs';

export class RowProblem extends Error {
  constructor(
    readonly column: string | null,
    readonly problem: ImportProblem | null,
    /** the refusal behind it, for its generic message */
    override readonly cause?: ApiError,
    /** an explicit catalogue code (validators, hooks) */
    readonly code: number | null = null,
  ) {
    super(problem ?? 'row problem');
  }
}

const labelKeyOf = (v: unknown): string | null =>
  typeof v === 'object' && v !== null && typeof (v as { $t?: unknown }).$t === 'string' ? (v as { $t: string }).$t : null;

/** An ApiError from the repository (or a hook) → the column and problem it is about. */
export function problemOf(res: ResourceDef, err: ApiError): RowProblem {
  const explicit = err.params.importCode;
  // a hook's refusal may name the column it is about (importColumn): the reason then shows it and its value
  if (typeof explicit === 'number') return new RowProblem(typeof err.params.importColumn === 'string' ? err.params.importColumn : null, null, err, explicit);
  const key = labelKeyOf(err.params.field) ?? labelKeyOf(err.params.left);
  const columns = res.import?.columns ?? [];
  const column = key
    ? (columns.find((c) => {
        const f = res.fields.find((x) => x.name === c);
        return f && fieldLabelKey(f) === key;
      }) ?? null)
    : null;
  let problem: ImportProblem = 'invalid';
  if (err.code === 10003) problem = 'exists';
  else if (/\.(required|select)$/.test(err.messageKey)) problem = 'required';
  else if (/\.refMissing$/.test(err.messageKey)) problem = 'notFound';
  return new RowProblem(column, problem, err);
}

/** JSON-safe parameters (a refusal's params may hold dates). */
const storable = (params: Record<string, unknown>): TParams =>
  JSON.parse(JSON.stringify(params, (_k, v) => (v instanceof Date ? v.toISOString() : v))) as TParams;

/** The one column whose declared codes include `code` (a validator's code names no column itself). */
function columnOfCode(res: ResourceDef, code: number): string | null {
  const columns = Object.entries(res.import?.codes ?? {}).filter(([, m]) => Object.values(m ?? {}).includes(code));
  return columns.length === 1 ? columns[0][0] : null;
}

/** the refusals of metadata `rules.compare` (resources/validate.ts checkCompareRules) */
const COMPARE_RULE = /^server\.validation\.(earlier|later|smaller|different)$/;

/** Values of a reason longer than this are cut (a reason names the value, it does not copy a paragraph). */
const VALUE_CHARS = 100;

/**
 * `fields`: the import's columns as fields (lookup columns are not fields of the resource).
 * `valueOf`: the offending value of a column as the file held it (null when empty).
 */
export function reasonFor(
  meta: Metadata,
  res: ResourceDef,
  p: RowProblem,
  row: number,
  lang: Language,
  t: TFunction,
  fields: FieldDef[] = res.fields,
  valueOf: (column: string) => string | null = () => null,
): StoredImportError {
  const code = p.code ?? (p.column && p.problem ? (res.import?.codes?.[p.column]?.[p.problem] ?? null) : null);
  const catalogue = res.import?.errors ? meta.enums[res.import.errors] : undefined;
  const entry = code !== null ? catalogue?.find((e) => e.value === code) : undefined;
  let text: { key: string; params?: TParams };
  // a cross-field rule says what is wrong ("Start time must be earlier than End time"), not the
  // catalogue's "invalid time" of one of its fields (issue 23 item 7); the code stays the catalogue's
  if (p.cause && COMPARE_RULE.test(p.cause.messageKey)) text = { key: p.cause.messageKey, params: storable(p.cause.params) };
  else if (entry) text = { key: entry.label };
  else if (p.cause) text = { key: p.cause.messageKey, params: storable(p.cause.params) };
  else {
    const f = fields.find((x) => x.name === p.column) ?? res.fields.find((x) => x.name === p.column);
    const params = { field: { $t: f ? fieldLabelKey(f) : p.column }, name: { $t: f ? fieldLabelKey(f) : p.column } };
    const key =
      p.problem === 'required'
        ? 'server.validation.required'
        : p.problem === 'notFound'
          ? 'server.validation.refMissing'
          : p.problem === 'exists' || p.problem === 'duplicate'
            ? 'server.errors.duplicate'
            : 'server.validation.format';
    text = { key, params };
  }
  const column = p.column ?? (code !== null ? columnOfCode(res, code) : null);
  const raw = column ? valueOf(column) : null;
  const value = raw === null || raw === '' ? undefined : raw.length > VALUE_CHARS ? `${raw.slice(0, VALUE_CHARS - 1)}…` : raw;
  const stored: StoredImportError = { row, code, reason: '', text, ...(column ? { column } : {}), ...(value !== undefined ? { value } : {}) };
  stored.reason = renderReason(stored, lang, t);
  return stored;
}

/** A stored reason in `lang`: what it says, naming the offending value when there is one. */
export function renderReason(e: StoredImportError, lang: Language, t: TFunction): string {
  if (!e.text) return e.reason;
  const said = t(lang, e.text.key, e.text.params);
  // a message that already quotes the value (10003 "… X already exists") is not told it twice
  return e.value === undefined || said.includes(e.value) ? said : t(lang, 'server.import.reasonValue', { reason: said, value: e.value });
}

/** A stored reason as `import/status` answers it, in the reader's language (the column by its label). */
export function renderError(res: ResourceDef, fields: FieldDef[], e: StoredImportError, lang: Language, t: TFunction): ImportError {
  const f = e.column ? (fields.find((x) => x.name === e.column) ?? res.fields.find((x) => x.name === e.column)) : undefined;
  return {
    row: e.row,
    code: e.code,
    reason: renderReason(e, lang, t),
    ...(e.column ? { column: f ? t(lang, fieldLabelKey(f)) : e.column } : {}),
    ...(e.value !== undefined ? { value: e.value } : {}),
  };
}
