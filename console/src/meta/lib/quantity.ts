/** Quantity picker rules (SPEC §3, §9): quantity minimum 1, default 1, whole numbers. */
export const QUANTITY_MIN = 1;
export const QUANTITY_DEFAULT = 1;

/** A typed quantity made valid: whole, at least the minimum, at most `max` when given. */
export function normalizeQuantity(v: unknown, max?: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return QUANTITY_DEFAULT;
  let q = Math.max(QUANTITY_MIN, Math.floor(n));
  if (max !== undefined && max >= QUANTITY_MIN) q = Math.min(q, max);
  return q;
}

export interface QuantityLine<T = Record<string, unknown>> {
  id: unknown;
  row: T;
  quantity: number;
}

/** Lines for newly picked rows: existing lines keep their quantity, new ones get the default; order of `rows`. */
export function mergeQuantityLines<T extends { id?: unknown }>(lines: QuantityLine<T>[], rows: T[]): QuantityLine<T>[] {
  const have = new Map(lines.map((l) => [String(l.id), l]));
  return rows.map((r) => have.get(String(r.id)) ?? { id: r.id, row: r, quantity: QUANTITY_DEFAULT });
}

/** Total quantity of the lines. */
export const totalQuantity = (lines: QuantityLine<unknown>[]): number => lines.reduce((s, l) => s + l.quantity, 0);
