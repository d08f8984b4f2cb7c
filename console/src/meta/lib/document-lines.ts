/**
 * The one-page document editor's logic (metadata `children` marked inline): lines as the form
 * holds them, duplicates of the unique keys, roll-up previews, freeze, and the body of the
 * atomic save (`<prefix>/save`). Pure, so it is tested without a browser.
 */
import type { ChildrenDef, FieldDef } from '@rti/metadata/browser';
import { fromFormValues, toFormValues } from './form-values';

/** One line in the editor: a stable key for React, the stored id (none when new), form values. */
export interface EditorLine {
  key: string;
  id?: number;
  values: Record<string, unknown>;
}

let seq = 0;
export const newLineKey = (): string => `line-${++seq}`;

/** Form fields of a line: the line resource's create fields minus the foreign key (it is the header). */
export const lineFields = (def: ChildrenDef, all: FieldDef[]): FieldDef[] => all.filter((f) => f.name !== def.foreignKey);

/** Stored lines (API rows) → editor lines. */
export function toEditorLines(fields: FieldDef[], rows: Array<Record<string, unknown>>): EditorLine[] {
  return rows.map((r) => ({
    key: newLineKey(),
    id: typeof r.id === 'number' ? r.id : undefined,
    values: { ...toFormValues(fields, r, 'edit'), ...labelsOf(r) },
  }));
}

/** Ref labels travel with the values so selects show names before their options load. */
function labelsOf(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => k.endsWith('Label') || k.endsWith('Labels')));
}

/** A new line with the fields' defaults. */
export const emptyLine = (fields: FieldDef[]): EditorLine => ({ key: newLineKey(), values: toFormValues(fields, undefined, 'create') });

const keyOf = (keys: string[], v: Record<string, unknown>): string | null => {
  const parts = keys.map((k) => v[k]);
  return parts.some((p) => p === undefined || p === null || p === '') ? null : JSON.stringify(parts.map(String));
};

/** Lines repeating an earlier line's unique key: index → index of the first (0-based). */
export function duplicateLines(lines: EditorLine[], keys: string[] | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (!keys?.length) return out;
  const first = new Map<string, number>();
  lines.forEach((l, i) => {
    const k = keyOf(keys, l.values);
    if (k === null) return;
    if (first.has(k)) out.set(i, first.get(k)!);
    else first.set(k, i);
  });
  return out;
}

/** What the header's roll-ups will be once saved (the server computes them; this is a preview). */
export function rollUpPreview(def: ChildrenDef, lines: EditorLine[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of def.rollUps ?? []) {
    out[r.field] = r.kind === 'count' ? lines.length : lines.reduce((s, l) => s + (Number(l.values[r.of!]) || 0), 0);
  }
  return out;
}

/** Whether the header's status lets its lines change (`editableWhen`). */
export function linesEditable(def: ChildrenDef, header: Record<string, unknown> | undefined): boolean {
  const rule = def.editableWhen;
  if (!rule) return true;
  const v = header?.[rule.field];
  // a new document takes its status field's default
  if (v === undefined || v === null) return true;
  return rule.values.some((x) => String(x) === String(v));
}

/** The lines of the save body: stored lines keep their id, cleared inputs clear the value. */
export function linesBody(fields: FieldDef[], lines: EditorLine[]): Array<Record<string, unknown>> {
  return lines.map((l) => (l.id !== undefined ? { id: l.id, ...fromFormValues(fields, l.values, 'edit') } : fromFormValues(fields, l.values, 'create')));
}
