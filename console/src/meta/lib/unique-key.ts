/**
 * Drawer editor rule (SPEC §2): a sub-row whose unique key columns match an existing row
 * updates that row instead of adding a duplicate.
 */
type Row = Record<string, unknown>;

const same = (a: unknown, b: unknown): boolean => {
  if (a === null || a === undefined || a === '') return b === null || b === undefined || b === '';
  return String(a) === String(b);
};

/** The existing row (other than `selfId`) holding the same values in every unique key column. */
export function findByUniqueKeys(rows: Row[], keys: string[] | undefined, values: Row, selfId?: unknown): Row | undefined {
  if (!keys?.length) return undefined;
  return rows.find((r) => (selfId === undefined || !same(r.id, selfId)) && keys.every((k) => same(r[k], values[k])));
}

export type UpsertPlan = { kind: 'create'; values: Row } | { kind: 'update'; id: unknown; values: Row; merged: boolean };

/**
 * What saving drawer values does: editing row `editingId` updates it unless its new key
 * belongs to another row (then that row is updated — the edited one keeps its key);
 * adding updates the row with the same key, else creates.
 */
export function planUpsert(rows: Row[], keys: string[] | undefined, values: Row, editingId?: unknown): UpsertPlan {
  const match = findByUniqueKeys(rows, keys, values, editingId);
  if (match) return { kind: 'update', id: match.id, values, merged: true };
  if (editingId !== undefined) return { kind: 'update', id: editingId, values, merged: false };
  return { kind: 'create', values };
}
