/**
 * i18n keys of metadata things, so server and console resolve labels the same way.
 */
import type { FieldDef, Metadata, ResourceDef } from './types';

export const resourceLabelKey = (res: Pick<ResourceDef, 'name' | 'label'>): string => res.label ?? `resources.${res.name}`;
export const fieldLabelKey = (field: Pick<FieldDef, 'name' | 'label'>): string => field.label ?? `fields.${field.name}`;
export const formGroupLabelKey = (group: string): string => `formGroups.${group}`;
export const unitLabelKey = (unit: string): string => `units.${unit}`;

/** Every i18n key the metadata refers to (labels, enum values, units, rule messages, help). */
export function metadataLabelKeys(meta: Metadata): Set<string> {
  const keys = new Set<string>();
  for (const res of Object.values(meta.resources)) {
    keys.add(resourceLabelKey(res));
    for (const f of res.fields) {
      keys.add(fieldLabelKey(f));
      if (f.unit) keys.add(unitLabelKey(f.unit));
      if (typeof f.form === 'object' && f.form.help) keys.add(f.form.help);
      if (typeof f.form === 'object' && f.form.group) keys.add(formGroupLabelKey(f.form.group));
    }
    for (const r of [...(res.rules?.editForbidden ?? []), ...(res.rules?.deleteForbidden ?? [])]) keys.add(r.message);
    for (const t of res.transitions ?? []) {
      keys.add(t.label ?? `transitions.${t.name}`);
      for (const i of t.inputs ?? []) if (typeof i !== 'string') keys.add(fieldLabelKey(i));
    }
    for (const c of res.children ?? []) if (c.editableWhen?.message) keys.add(c.editableWhen.message);
    for (const c of res.children ?? []) if (c.exclusive?.message) keys.add(c.exclusive.message);
    for (const tr of res.transitions ?? []) if (tr.confirmCount) keys.add(tr.confirmCount.message);
    for (const c of Object.values(res.form?.defaultsFrom?.choices ?? {})) if (c.label) keys.add(c.label);
  }
  for (const values of Object.values(meta.enums)) for (const v of values) keys.add(v.label);
  const walk = (items: Metadata['menu']['groups'][number]['items']) => {
    for (const it of items) {
      keys.add(it.label);
      if (it.children) walk(it.children);
    }
  };
  for (const g of meta.menu.groups) {
    keys.add(g.label);
    walk(g.items);
  }
  return keys;
}

/** Generic validation message keys (SPEC §5); server and console both format these. */
export const VALIDATION_KEYS = [
  'required',
  'select',
  'notAllowed',
  'format',
  'lengthMax',
  'lengthMin',
  'lengthBetween',
  'valueMax',
  'valueMin',
  'valueBetween',
  'color',
  'earlier',
  'later',
  'different',
  'smaller',
  'password',
  'mqttPassword',
  'passwordMismatch',
  'unique',
  'enum',
  'type',
  'ref',
  'imageLimit',
  'fileLimit',
  'importLimit',
  // a wrong format and a file too large are told apart (SPEC §5: one message of each)
  'imageFormat',
  'imageSize',
  'fileFormat',
  'fileSize',
  'importFormat',
  'importSize',
] as const;
export type ValidationKey = (typeof VALIDATION_KEYS)[number];
export const validationKey = (key: ValidationKey): string => `validation.${key}`;

/** Nested i18next resources → flat dotted keys. */
export function flattenLocale(tree: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flattenLocale(v as Record<string, unknown>, key));
    else out[key] = String(v);
  }
  return out;
}
