/** Tree table rows (metadata `tree` hint): rows linked by a parent key column. */
import type { TreeHint } from '@rti/metadata/browser';

type Row = Record<string, unknown>;
export type TreeRow<T extends Row = Row> = T & { children?: TreeRow<T>[] };

const keyOf = (hint: TreeHint, r: Row, value: unknown): string => (hint.scopeField ? `${String(r[hint.scopeField])}\u0000${String(value)}` : String(value));

/**
 * Rows → roots with `children` (antd's expandable tree data). A row whose parent is absent
 * (another page, filtered out) or that would close a cycle is a root; order is kept.
 */
export function buildTree<T extends Row>(rows: T[], hint: TreeHint): TreeRow<T>[] {
  const nodes = rows.map((r) => ({ ...r }) as TreeRow<T>);
  const byKey = new Map<string, TreeRow<T>>();
  for (const n of nodes) {
    const k = n[hint.keyField];
    if (k !== null && k !== undefined && k !== '') byKey.set(keyOf(hint, n, k), n);
  }
  const parentOf = (n: TreeRow<T>): TreeRow<T> | undefined => {
    const p = n[hint.parentField];
    if (p === null || p === undefined || p === '') return undefined;
    const parent = byKey.get(keyOf(hint, n, p));
    return parent === n ? undefined : parent;
  };
  // a node that reaches itself walking up is part of a cycle: keep it a root
  const inCycle = (n: TreeRow<T>): boolean => {
    const seen = new Set<TreeRow<T>>([n]);
    for (let p = parentOf(n); p; p = parentOf(p)) {
      if (seen.has(p)) return p === n;
      seen.add(p);
    }
    return false;
  };
  const roots: TreeRow<T>[] = [];
  for (const n of nodes) {
    const parent = inCycle(n) ? undefined : parentOf(n);
    if (!parent) roots.push(n);
    else (parent.children ??= []).push(n);
  }
  return roots;
}

/** Keys of every node that has children (for "expand all"). */
export function parentKeys(roots: TreeRow[], rowKey = 'id'): unknown[] {
  const out: unknown[] = [];
  const walk = (list: TreeRow[]) => {
    for (const n of list) {
      if (n.children?.length) {
        out.push(n[rowKey]);
        walk(n.children);
      }
    }
  };
  walk(roots);
  return out;
}
