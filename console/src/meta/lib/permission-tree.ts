/**
 * Permission codes ⇄ a checkable tree (menu → view → api). The tree conducts checks, so it is
 * fed leaf codes only; what is saved adds every ancestor of a checked code, because a View
 * code without its Menu code would leave the page unreachable from the menu.
 */
export interface PermissionNode {
  code: string;
  label?: string;
  type?: number;
  /** console path (menu and view nodes) or API path */
  path?: string;
  children?: PermissionNode[];
}

interface MenuItemLike {
  path: string;
  page?: string;
  children?: MenuItemLike[];
}

/**
 * Menu pages (menu.json items with a `page`) that no console route serves: no plugin of this
 * console provides them yet, so granting them would only lead to a 404.
 */
export function missingPages(groups: ReadonlyArray<{ items: MenuItemLike[] }>, routedPaths: Iterable<string>): Set<string> {
  const routed = new Set(routedPaths);
  const out = new Set<string>();
  const walk = (items: MenuItemLike[]) => {
    for (const it of items) {
      if (it.page && !routed.has(it.path)) out.add(it.path);
      if (it.children) walk(it.children);
    }
  };
  for (const g of groups) walk(g.items);
  return out;
}

/** The catalogue without the nodes of pages that do not exist (and groups left empty by them). */
export function withoutPages(nodes: PermissionNode[], missing: ReadonlySet<string>): PermissionNode[] {
  if (!missing.size) return nodes;
  return nodes.flatMap((n) => {
    if (n.type !== 30 && n.path && missing.has(n.path)) return [];
    if (!n.children?.length) return [n];
    const children = withoutPages(n.children, missing);
    return children.length ? [{ ...n, children }] : [];
  });
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

/** Leaf keys under a node (the node itself when it has no children). */
export function leavesOf(node: TreeNode): string[] {
  return node.children?.length ? node.children.flatMap(leavesOf) : [node.key];
}

/** The node of a key anywhere in the tree. */
export function findNode(nodes: TreeNode[], key: string): TreeNode | undefined {
  for (const n of nodes) {
    if (n.key === key) return n;
    const hit = n.children ? findNode(n.children, key) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/**
 * A tick or untick of one node, judged on the whole tree (not on what a search shows): every
 * leaf under the node goes in or out with it, so ticking the Home group while a search shows
 * only "Dashboard" still grants all of Home.
 */
export function toggleLeaves(tree: TreeNode[], checked: ReadonlyArray<string>, key: string, on: boolean): string[] {
  const node = findNode(tree, key);
  if (!node) return [...checked];
  const affected = new Set(leavesOf(node));
  const rest = checked.filter((k) => !affected.has(k));
  return on ? [...rest, ...affected] : rest;
}

/**
 * Nodes whose title or code contains the query, with their ancestors. A matching node keeps its
 * whole subtree (a group found by name shows what ticking it grants); codes are matched too, so
 * typing an API code such as "ApiWarehouseCreate" finds it under its screen.
 */
export function filterTree(nodes: TreeNode[], query: string): TreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return nodes;
  const out: TreeNode[] = [];
  for (const n of nodes) {
    if (n.title.toLowerCase().includes(q) || n.key.toLowerCase().includes(q)) {
      out.push(n);
      continue;
    }
    const kids = n.children ? filterTree(n.children, q) : [];
    if (kids.length) out.push({ ...n, children: kids });
  }
  return out;
}

/** Keys to show expanded for a search: every node on the way to a match, so a matched API code is visible. */
export function expandedForSearch(shown: TreeNode[], query: string): string[] {
  const q = query.trim().toLowerCase();
  const out: string[] = [];
  const walk = (list: TreeNode[]): boolean => {
    let any = false;
    for (const n of list) {
      const self = n.title.toLowerCase().includes(q) || n.key.toLowerCase().includes(q);
      const below = n.children ? walk(n.children) : false;
      if (below) out.push(n.key);
      any = any || self || below;
    }
    return any;
  };
  walk(shown);
  return out;
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
