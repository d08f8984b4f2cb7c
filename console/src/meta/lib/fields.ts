/**
 * Which fields of a resource each generated screen shows. Pure, so the screens and their
 * tests agree on one rule set.
 */
import type { FieldDef, FieldType, FormHint, ListHint, ResourceDef } from '@rti/metadata/browser';

export type FormMode = 'create' | 'edit';

/** Types whose values are too bulky for a table cell by default (still in the column chooser). */
const BULKY: ReadonlySet<FieldType> = new Set(['text', 'json', 'permissions', 'file', 'lnglat']);
/** Types never shown back to the user. */
const SECRET: ReadonlySet<FieldType> = new Set(['password']);

const isSecret = (f: FieldDef): boolean => Boolean(f.writeOnly) || SECRET.has(f.type);

export function listHint(f: FieldDef): ListHint | null {
  if (f.list === false || f.hidden || isSecret(f)) return null;
  return typeof f.list === 'object' ? f.list : {};
}

export function formHint(f: FieldDef): FormHint | null {
  if (f.form === false || f.hidden) return null;
  return typeof f.form === 'object' ? f.form : {};
}

/** Fields that may be table columns, in declaration order. */
export function listFields(res: ResourceDef): FieldDef[] {
  return res.fields.filter((f) => listHint(f) !== null);
}

/** Whether a column is shown before the user touches the column chooser. */
export function defaultColumnVisible(f: FieldDef): boolean {
  const hint = listHint(f);
  if (!hint) return false;
  if (hint.visible !== undefined) return hint.visible;
  // an explicit `list: true` shows even bulky types
  return f.list === true || !BULKY.has(f.type);
}

export function searchFields(res: ResourceDef): FieldDef[] {
  return res.fields.filter((f) => f.search && !f.hidden && !isSecret(f));
}

/**
 * Fields of the create or edit form. Read-only fields are system-set: left out, except on
 * edit when the metadata asks for them explicitly (then shown disabled, for context).
 */
export function formFields(res: ResourceDef, mode: FormMode): FieldDef[] {
  return res.fields.filter((f) => {
    const hint = formHint(f);
    if (!hint) return false;
    if (hint.mode && hint.mode !== 'both' && hint.mode !== mode) return false;
    if (f.readOnly) return mode === 'edit' && typeof f.form === 'object';
    return true;
  });
}

export function showFields(res: ResourceDef): FieldDef[] {
  return res.fields.filter((f) => (f.show ?? true) && !f.hidden && !isSecret(f));
}

/** Types picked from a list, whose required message says "select" rather than "input". */
const SELECTED: ReadonlySet<FieldType> = new Set(['enum', 'enums', 'ref', 'refs', 'bool', 'date', 'datetime', 'image', 'file', 'permissions', 'color']);
export const isSelectType = (t: FieldType): boolean => SELECTED.has(t);

export interface FieldGroup {
  /** group key from `form.group` (title: `formGroups.<key>`) */
  key: string;
  fields: FieldDef[];
}

/** Group of fields that name none. */
export const DEFAULT_GROUP = 'basic';

/** Groups fields by `form.group`, groups in order of first appearance, ungrouped in `basic` first. */
export function groupFields(fields: FieldDef[]): FieldGroup[] {
  const groups = new Map<string, FieldDef[]>([[DEFAULT_GROUP, []]]);
  for (const f of fields) {
    const key = (typeof f.form === 'object' && f.form.group) || DEFAULT_GROUP;
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  return [...groups].filter(([, list]) => list.length > 0).map(([key, list]) => ({ key, fields: list }));
}

/** antd grid span of a form item: the hint, else full width for bulky inputs, else half. */
export function fieldSpan(f: FieldDef): number {
  const hint = formHint(f);
  if (hint?.span) return hint.span;
  return f.type === 'text' || f.type === 'json' || f.type === 'permissions' ? 24 : 12;
}

/** Sibling property holding a ref's display label in list/one rows (API.md). */
export const refLabelProp = (f: FieldDef): string => (f.type === 'refs' ? `${f.name}Labels` : `${f.name}Label`);

/**
 * The field a server validation message is about (API.md: "message names the field"): the
 * field whose label occurs in it, longest label first so "Start time" beats "Start".
 */
export function fieldOfMessage(fields: FieldDef[], labelOf: (f: FieldDef) => string, message: string | undefined): FieldDef | undefined {
  if (!message) return undefined;
  const text = message.toLowerCase();
  return [...fields]
    .map((f) => ({ f, label: labelOf(f).toLowerCase() }))
    .filter(({ label }) => label.length > 1)
    .sort((a, b) => b.label.length - a.label.length)
    .find(({ label }) => text.includes(label))?.f;
}
