/** Modal picker selection that survives paging: a map id → row, changed one page at a time. */
type Row = Record<string, unknown> & { id?: unknown };

export type Selection<T extends Row = Row> = Map<string, T>;

/**
 * The selection after the user changed the checked rows of one page: rows of that page not
 * in `checkedIds` leave, checked ones join; rows of other pages stay. `max` caps the total
 * (single select = 1 keeps the newest).
 */
export function applyPageSelection<T extends Row>(current: Selection<T>, pageRows: T[], checkedIds: unknown[], max?: number): Selection<T> {
  const next = new Map(current);
  const checked = new Set(checkedIds.map(String));
  for (const r of pageRows) {
    const id = String(r.id);
    if (checked.has(id)) {
      if (!next.has(id)) next.set(id, r);
    } else next.delete(id);
  }
  if (max !== undefined && next.size > max) {
    const keys = [...next.keys()];
    for (const k of keys.slice(0, keys.length - max)) next.delete(k);
  }
  return next;
}

/** A selection seeded from already chosen ids (labels unknown until their rows are seen). */
export function selectionOf<T extends Row>(rows: T[]): Selection<T> {
  return new Map(rows.map((r) => [String(r.id), r]));
}

/** Ids of the selection in selection order, as the API types them (numbers stay numbers). */
export const selectedIds = (s: Selection): unknown[] => [...s.values()].map((r) => r.id);
