import type { ResourceProps } from '@refinedev/core';
import { resourceLabel, type PageRoute } from './routes';

/**
 * Refine resources from the console's pages: one per metadata resource with its list/create/
 * edit/show routes and translated label, one per plugin page (`page:<id>`, hidden from
 * Refine's own menus) so access checks and breadcrumbs know them.
 */
export function refineResources(routes: PageRoute[], t: (k: string) => string): ResourceProps[] {
  const byName = new Map<string, ResourceProps>();
  for (const r of routes) {
    if (r.kind === 'resource' && r.resource) {
      const def = r.resource;
      const res = byName.get(def.name) ?? { name: def.name, meta: { label: t(resourceLabel(def)), canDelete: true } };
      if (r.screen === 'list') res.list = r.path;
      if (r.screen === 'create') res.create = r.path;
      if (r.screen === 'edit') res.edit = r.path;
      if (r.screen === 'show') res.show = r.path;
      byName.set(def.name, res);
    } else if (r.kind === 'page' && !r.path.includes(':')) {
      byName.set(r.key, { name: r.key, list: r.path, meta: { label: t(r.title), hide: true } });
    }
  }
  return [...byName.values()];
}
