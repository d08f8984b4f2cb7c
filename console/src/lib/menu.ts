import type { MenuFile, MenuItem, Metadata } from '@rti/metadata/browser';
import { menuCode, resourceMenuCode, routeName } from '@rti/metadata/browser';
import type { ConsolePlugin } from '../plugin-contract';
import type { PageRoute } from './routes';

/** A side-menu node after filtering. */
export interface NavNode {
  key: string;
  path: string;
  label: string;
  icon?: string;
  newWindow?: boolean;
  hideSider?: boolean;
  children?: NavNode[];
}

export interface MenuContext {
  meta: Metadata;
  /** pages that exist (resource lists, plugin and built-in pages) by path */
  routes: PageRoute[];
  access: Set<string>;
  /** SPEC §2: side menu narrowed to these paths when non-empty */
  permissions: string[];
}

/** menu.json plus plugin menu entries appended to their groups. */
export function mergedMenu(menu: MenuFile, plugins: ConsolePlugin[]): MenuFile {
  const groups = menu.groups.map((g) => ({ ...g, items: [...g.items] }));
  for (const p of plugins) {
    for (const { group, ...item } of p.menu ?? []) {
      const g = groups.find((x) => x.key === group);
      if (g && !g.items.some((i) => i.path === item.path)) g.items.push(item);
    }
  }
  return { groups };
}

/** Menu code of one item: the resource's (overridable) code, else derived from its path. */
export function itemMenuCode(item: MenuItem, ctx: MenuContext): string {
  const def = item.resource ? ctx.meta.resources[item.resource] : undefined;
  return def ? resourceMenuCode(def, ctx.meta.menu) : menuCode(routeName(item.path, ctx.meta.menu));
}

/** The entry's page exists and the user may open it (SPEC §6: an entry leading to a 403 page is removed). */
function routeOpen(item: MenuItem, ctx: MenuContext): boolean {
  const def = item.resource ? ctx.meta.resources[item.resource] : undefined;
  if (item.resource && !def) return false;
  const route = def
    ? ctx.routes.find((r) => r.path === def.route)
    : ctx.routes.find((r) => r.path === item.path && (!item.page || r.page?.id === item.page || r.kind === 'builtin'));
  return Boolean(route) && (!route!.viewCode || ctx.access.has(route!.viewCode));
}

function filterItems(items: MenuItem[], ctx: MenuContext, narrow: Set<string> | undefined): NavNode[] {
  const out: NavNode[] = [];
  for (const item of items) {
    const children = item.children ? filterItems(item.children, ctx, narrow) : [];
    const selfOk = !item.hidden && routeOpen(item, ctx) && ctx.access.has(itemMenuCode(item, ctx)) && (!narrow || narrow.has(item.path));
    if (!selfOk && children.length === 0) continue;
    const path = item.resource ? (ctx.meta.resources[item.resource]?.route ?? item.path) : item.path;
    out.push({
      key: path,
      path,
      label: item.label,
      icon: item.icon,
      newWindow: item.newWindow,
      hideSider: item.hideSider,
      children: children.length ? children : undefined,
    });
  }
  return out;
}

/**
 * Side menu: menu.json groups, keeping only entries whose page exists and may be opened (its
 * View code), whose Menu code the user holds, and (when the permissions list is non-empty) whose path it lists. Groups
 * without a surviving entry disappear.
 */
export function buildSideMenu(ctx: MenuContext): NavNode[] {
  const narrow = ctx.permissions.length ? new Set(ctx.permissions) : undefined;
  const out: NavNode[] = [];
  for (const g of ctx.meta.menu.groups) {
    const items = filterItems(g.items, ctx, narrow);
    if (!items.length) continue;
    out.push({ key: `group:${g.key}`, path: g.path, label: g.label, icon: g.icon, children: items });
  }
  return out;
}

/** Flat list of openable menu pages (header search, palette). */
export function flattenMenu(nodes: NavNode[]): NavNode[] {
  return nodes.flatMap((n) => (n.children ? flattenMenu(n.children) : [n]));
}
