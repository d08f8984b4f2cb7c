/**
 * Row problems → SPEC §8 reasons: the resource's `import.codes` names the catalogue code of a
 * column's problem; the catalogue enum's label is the translated reason. Problems without a
 * code keep the generic validation message, which names the field.
 */
import { fieldLabelKey, type FieldDef, type ImportProblem, type Metadata, type ResourceDef } from '@rti/metadata';
import { ApiError } from '../http/api-error';
import type { Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import type { ImportError } from './import-jobs';

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

const labelKeyOf = (v: unknown): string | null => (typeof v === 'object' && v !== null && typeof (v as { $t?: unknown }).$t === 'string' ? (v as { $t: string }).$t : null);

/** An ApiError from the repository (or a hook) → the column and problem it is about. */
export function problemOf(res: ResourceDef, err: ApiError): RowProblem {
  const explicit = err.params.importCode;
  if (typeof explicit === 'number') return new RowProblem(null, null, err, explicit);
  const key = labelKeyOf(err.params.field) ?? labelKeyOf(err.params.left);
  const columns = res.import?.columns ?? [];
  const column = key ? (columns.find((c) => { const f = res.fields.find((x) => x.name === c); return f && fieldLabelKey(f) === key; }) ?? null) : null;
  let problem: ImportProblem = 'invalid';
  if (err.code === 10003) problem = 'exists';
  else if (/\.(required|select)$/.test(err.messageKey)) problem = 'required';
  else if (/\.refMissing$/.test(err.messageKey)) problem = 'notFound';
  return new RowProblem(column, problem, err);
}

/** `fields`: the import's columns as fields (lookup columns are not fields of the resource). */
export function reasonFor(meta: Metadata, res: ResourceDef, p: RowProblem, row: number, lang: Language, t: TFunction, fields: FieldDef[] = res.fields): ImportError {
  const code = p.code ?? (p.column && p.problem ? (res.import?.codes?.[p.column]?.[p.problem] ?? null) : null);
  const catalogue = res.import?.errors ? meta.enums[res.import.errors] : undefined;
  const entry = code !== null ? catalogue?.find((e) => e.value === code) : undefined;
  if (entry) return { row, code, reason: t(lang, entry.label) };
  if (p.cause) return { row, code, reason: t(lang, p.cause.messageKey, p.cause.params) };
  const f = fields.find((x) => x.name === p.column) ?? res.fields.find((x) => x.name === p.column);
  const params = { field: { $t: f ? fieldLabelKey(f) : p.column }, name: { $t: f ? fieldLabelKey(f) : p.column } };
  const key = p.problem === 'required' ? 'server.validation.required' : p.problem === 'notFound' ? 'server.validation.refMissing' : p.problem === 'exists' || p.problem === 'duplicate' ? 'server.errors.duplicate' : 'server.validation.format';
  return { row, code, reason: t(lang, key, params) };
}
