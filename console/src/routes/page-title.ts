import type { TFunction } from 'i18next';
import type { PageRoute } from '../lib/routes';
import { recordTitle } from '../providers/record-titles';

/**
 * Title of a page for tabs, breadcrumb and the document: "Beacon", "Edit Beacon B-0042"… A
 * record is named by its title field once any row of it was read (providers/record-titles.ts),
 * else by `known` (a restored tab's saved title), else "#<id>".
 */
export function pageTitle(route: PageRoute, params: Record<string, string | undefined>, t: TFunction, known?: string): string {
  const name = t(route.title);
  const id = params.id ?? '';
  const title = recordTitle(route.resource?.name, params.id) ?? known ?? `#${id}`;
  switch (route.screen) {
    case 'create':
      return t('screens.create', { name });
    case 'edit':
      return t('screens.edit', { name, id, title });
    case 'show':
      return t('screens.show', { name, id, title });
    default:
      return name;
  }
}
