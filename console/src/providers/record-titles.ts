/**
 * Records are named by their metadata `titleField` (serial, code, order number), not "#123":
 * in tabs, the breadcrumb, the document title and delete confirmations. The data provider
 * notes the title of every row it reads or writes; pages that only know an id (a tab, the
 * breadcrumb of /…/detail/123) read it from here and re-render when it arrives.
 */
import { useSyncExternalStore } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';

type Row = Record<string, unknown>;

const titles = new Map<string, string>();
const listeners = new Set<() => void>();
let version = 0;
/** bounded: a long session browsing thousands of rows keeps the newest */
const MAX = 5000;

const keyOf = (resource: string, id: unknown) => `${resource}:${String(id)}`;

/**
 * The title of a record: its `titleField`, or for a reference field the referenced row's
 * label the server sends beside it (`<field>Label`); undefined when the row has neither.
 */
export function titleOf(def: Pick<ResourceDef, 'titleField' | 'fields'> | undefined, row: Row | undefined): string | undefined {
  if (!def?.titleField || !row) return undefined;
  const field = def.fields?.find((f) => f.name === def.titleField);
  const v = field?.type === 'ref' ? (row[`${def.titleField}Label`] ?? row[def.titleField]) : row[def.titleField];
  return v === undefined || v === null || v === '' || typeof v === 'object' ? undefined : String(v);
}

/** Notes the titles of rows just read or written (data provider). */
export function noteTitles(def: ResourceDef | undefined, rows: Row[]): void {
  if (!def) return;
  let changed = false;
  for (const row of rows) {
    if (!row || row.id === undefined || row.id === null) continue;
    const title = titleOf(def, row);
    if (title === undefined) continue;
    const key = keyOf(def.name, row.id);
    if (titles.get(key) === title) continue;
    titles.delete(key);
    titles.set(key, title);
    changed = true;
  }
  if (!changed) return;
  while (titles.size > MAX) titles.delete(titles.keys().next().value as string);
  version++;
  for (const l of listeners) l();
}

/** The known title of a record, if any row of it was seen. */
export function recordTitle(resource: string | undefined, id: unknown): string | undefined {
  return resource === undefined || id === undefined || id === null ? undefined : titles.get(keyOf(resource, id));
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** Re-renders the caller when a title becomes known; returns a counter for memo dependencies. */
export function useRecordTitles(): number {
  return useSyncExternalStore(subscribe, () => version);
}

/** for tests */
export function clearRecordTitles(): void {
  titles.clear();
  version++;
}
