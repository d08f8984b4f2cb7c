/**
 * The effective menu: menu.json plus every resource it does not list, appended to its
 * module's group. Adding a resource therefore needs only its JSON file and labels.
 * Server (permission catalogue) and console (side menu, routes) both use this.
 */
import { resourceLabelKey } from './labels';
import type { MenuFile, MenuItem, Metadata } from './types';

export function effectiveMenu(meta: Metadata): MenuFile {
  const listed = new Set<string>();
  const walk = (items: MenuItem[]) => {
    for (const it of items) {
      if (it.resource) listed.add(it.resource);
      if (it.children) walk(it.children);
    }
  };
  for (const g of meta.menu.groups) walk(g.items);
  return {
    groups: meta.menu.groups.map((g) => {
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
