import type { TFunction } from 'i18next';
import type { PageRoute } from '../lib/routes';

/** Title of a page for tabs, breadcrumb and the document: "Beacon", "Edit Beacon #4"… */
export function pageTitle(route: PageRoute, params: Record<string, string | undefined>, t: TFunction): string {
  const name = t(route.title);
  switch (route.screen) {
    case 'create':
      return t('screens.create', { name });
    case 'edit':
      return t('screens.edit', { name, id: params.id ?? '' });
    case 'show':
      return t('screens.show', { name, id: params.id ?? '' });
    default:
      return name;
  }
}
