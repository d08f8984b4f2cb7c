/**
 * Permission codes ⇄ a checkable tree (menu → view → api). The tree conducts checks, so it is
 * fed leaf codes only; what is saved adds every ancestor of a checked code, because a View
 * code without its Menu code would leave the page unreachable from the menu.
 */
export interface PermissionNode {
  code: string;
  label?: string;
  type?: number;
  children?: PermissionNode[];
}

export interface TreeNode {
  key: string;
  title: string;
  children?: TreeNode[];
}

/** The catalogue as antd tree data; a code met twice keeps its first place. */
export function toTreeData(nodes: PermissionNode[], seen = new Set<string>()): TreeNode[] {
  const out: TreeNode[] = [];
  for (const n of nodes) {
    if (seen.has(n.code)) continue;
    seen.add(n.code);
    const children = n.children?.length ? toTreeData(n.children, seen) : undefined;
    out.push({ key: n.code, title: n.label ? `${n.label}` : n.code, ...(children?.length ? { children } : {}) });
  }
  return out;
}

/** Parent of every code in the tree. */
export function parentIndex(nodes: TreeNode[], parent?: string, out = new Map<string, string | undefined>()): Map<string, string | undefined> {
  for (const n of nodes) {
    out.set(n.key, parent);
    if (n.children) parentIndex(n.children, n.key, out);
  }
  return out;
}

/** Saved codes → keys the conducting tree should show checked (leaves only). */
export function checkedLeaves(nodes: TreeNode[], codes: ReadonlyArray<string>): string[] {
  const held = new Set(codes);
  const leaves: string[] = [];
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      if (n.children?.length) walk(n.children);
      else if (held.has(n.key)) leaves.push(n.key);
    }
  };
  walk(nodes);
  return leaves;
}

/** Checked keys from the tree → saved codes: the keys plus all their ancestors. */
export function withAncestors(keys: ReadonlyArray<string>, parents: Map<string, string | undefined>): string[] {
  const out = new Set<string>();
  for (const k of keys) {
    let cur: string | undefined = k;
    while (cur && !out.has(cur)) {
      out.add(cur);
      cur = parents.get(cur);
    }
  }
  return [...out];
}

/** The catalogue call may answer a bare tree or one wrapped in { list } / { tree }. */
export function catalogueNodes(data: unknown): PermissionNode[] {
  if (Array.isArray(data)) return data as PermissionNode[];
  if (data && typeof data === 'object') {
    const o = data as { list?: unknown; tree?: unknown };
    if (Array.isArray(o.tree)) return o.tree as PermissionNode[];
    if (Array.isArray(o.list)) return o.list as PermissionNode[];
  }
  return [];
}
