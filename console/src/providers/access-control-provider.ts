import type { AccessControlProvider } from '@refinedev/core';
import { canDo } from '../lib/access';
import type { PageRoute } from '../lib/routes';
import { i18n } from '../i18n';
import { appState } from './app-state';

/** Refine access control fed by the server's access list (/permission/list). */
export function createAccessControlProvider(routes: () => PageRoute[]): AccessControlProvider {
  return {
    async can({ resource, action }) {
      const s = appState.get();
      if (!s.metadata) return { can: false, reason: i18n.t('pages.forbiddenText') };
      const can = canDo(s.metadata, routes(), s.access, resource, action);
      return can ? { can } : { can, reason: i18n.t('pages.forbiddenText') };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
