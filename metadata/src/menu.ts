/**
 * The effective menu: menu.json where a page item standing on a resource's route becomes
 * that resource's item, plus every resource still not listed, appended to its module's
 * group. Adding a resource therefore needs only its JSON file and labels.
 * Server (permission catalogue) and console (side menu, routes) both use this.
 */
import { resourceLabelKey } from './labels';
import type { MenuFile, MenuItem, Metadata } from './types';

export function effectiveMenu(meta: Metadata): MenuFile {
  const byRoute = new Map(Object.values(meta.resources).map((r) => [r.route, r.name]));
  const listed = new Set<string>();
  // A page item standing where a resource now lives becomes that resource's item; its
  // hidden create/edit/detail sub-pages are implied by the resource.
  const adopt = (items: MenuItem[]): MenuItem[] =>
    items.map((it) => {
      const name = it.resource ?? (it.page ? byRoute.get(it.path) : undefined);
      if (name) listed.add(name);
      if (name && !it.resource) {
        const { page: _page, children, ...rest } = it;
        const kept = (children ?? []).filter((c) => !c.hidden);
        return { ...rest, resource: name, ...(kept.length ? { children: adopt(kept) } : {}) };
      }
      return it.children ? { ...it, children: adopt(it.children) } : it;
    });
  const groups = meta.menu.groups.map((g) => ({ ...g, items: adopt(g.items) }));
  return {
    groups: groups.map((g) => {
      const extra = Object.values(meta.resources)
        .filter((r) => r.module === g.key && !listed.has(r.name))
        .map((r): MenuItem => ({ path: r.route, label: resourceLabelKey(r), resource: r.name, ...(r.icon ? { icon: r.icon } : {}) }));
      return extra.length ? { ...g, items: [...g.items, ...extra] } : g;
    }),
  };
}

/** Every menu item, depth first, with the key of its group. */
export function menuItems(menu: MenuFile): Array<MenuItem & { group: string }> {
  const out: Array<MenuItem & { group: string }> = [];
  const walk = (items: MenuItem[], group: string) => {
    for (const it of items) {
      out.push({ ...it, group });
      if (it.children) walk(it.children, group);
    }
  };
  for (const g of menu.groups) walk(g.items, g.key);
  return out;
}
