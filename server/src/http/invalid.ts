/**
 * The one way code outside the generated calls (plugins above all) refuses input: 10001 with a
 * text of the server's one validation catalogue (`server.validation.<rule>` in
 * i18n/messages), in the caller's language, with the field named by its metadata label.
 */
import { tKey, type TParams, type TranslatableParam } from '../i18n/translator';
import { ApiError, ErrorCode } from './api-error';

export type ValidationRule =
  | 'required'
  | 'select'
  | 'type'
  | 'format'
  | 'lengthMax'
  | 'lengthMin'
  | 'lengthBetween'
  | 'valueMax'
  | 'valueMin'
  | 'valueBetween'
  | 'enum'
  | 'refMissing'
  | 'warehouse'
  | 'earlier'
  | 'later'
  | 'smaller'
  | 'different'
  | 'rangeDays'
  | 'filterLength'
  | 'filterValues';

/**
 * `field` is a field name (labelled `fields.<name>` from the metadata locales, the name itself
 * when there is no such label) or a ready TranslatableParam. Rules comparing two fields
 * (earlier, later, smaller, different) take `left`/`right` in params, labelled the same way.
 * `type` takes `expected`: one of server.validation.expected (integer, number, date, …).
 */
export function invalid(rule: ValidationRule, field: string | TranslatableParam, params: TParams = {}): ApiError {
  const label = (f: unknown) => (typeof f === 'string' ? tKey(`fields.${f}`, f) : f);
  const p: TParams = { ...params, field: label(field) };
  if ('left' in p) p.left = label(p.left);
  if ('right' in p) p.right = label(p.right);
  if (typeof p.expected === 'string') p.expected = tKey(`server.validation.expected.${p.expected}`, p.expected);
  return new ApiError(ErrorCode.validation, `server.validation.${rule}`, p, 400);
}
