/** API row ⇄ antd form values for the generated create/edit forms. */
import dayjs from 'dayjs';
import type { FieldDef } from '@rti/metadata/browser';
import type { FormMode } from './fields';
import { asArray, isEmpty } from './format';
import { keepsOldWhenEmpty } from './rules';

const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

/** One API value → the value its form input works with. */
export function toFormValue(f: FieldDef, v: unknown): unknown {
  if (f.writeOnly || f.type === 'password') return undefined;
  if (isEmpty(v)) return f.type === 'enums' || f.type === 'refs' || f.type === 'permissions' ? [] : undefined;
  switch (f.type) {
    case 'date':
    case 'datetime': {
      const d = dayjs(v as string | number);
      return d.isValid() ? d : undefined;
    }
    case 'bool':
      return toBool(v);
    case 'enums':
    case 'refs':
    case 'permissions':
      return asArray(v);
    case 'lnglat':
      return asArray(v).slice(0, 2);
    case 'json':
      return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    default:
      return v;
  }
}

/** Initial form values: a row on edit, field defaults on create. */
export function toFormValues(fields: FieldDef[], row: Record<string, unknown> | undefined, mode: FormMode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = mode === 'edit' ? row?.[f.name] : f.default;
    const fv = toFormValue(f, v);
    if (fv !== undefined) out[f.name] = fv;
  }
  return out;
}

/** One form value → the API value; `undefined` means "do not send". */
export function fromFormValue(f: FieldDef, v: unknown, mode: FormMode): unknown {
  if (f.readOnly) return undefined;
  if (isEmpty(v) || (f.type === 'lnglat' && asArray(v).every(isEmpty))) {
    if (keepsOldWhenEmpty(f, mode)) return undefined;
    if (f.type === 'enums' || f.type === 'refs' || f.type === 'permissions') return mode === 'edit' ? [] : undefined;
    // on edit, a cleared input clears the stored value
    return mode === 'edit' ? null : undefined;
  }
  switch (f.type) {
    case 'date':
      return dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v;
    case 'datetime':
      return dayjs.isDayjs(v) ? v.toISOString() : v;
    case 'json':
      return typeof v === 'string' ? JSON.parse(v) : v;
    case 'string':
    case 'text':
      return typeof v === 'string' ? v.trim() : v;
    default:
      return v;
  }
}

/** Request body of the create or update call from the form's values. */
export function fromFormValues(fields: FieldDef[], values: Record<string, unknown>, mode: FormMode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = fromFormValue(f, values[f.name], mode);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}
