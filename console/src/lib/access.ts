import type { Metadata } from '@rti/metadata/browser';
import { apiCode, resourceApiPath, resourceViewCode } from '@rti/metadata/browser';
import { ADMIN_LOG_PATH } from '../constants';
import { canOpen, matchRoute, type PageRoute } from './routes';

/**
 * Access value a Refine action on a resource needs (SPEC §6): the screens' View codes,
 * and the delete/export calls' Api codes. Unknown actions need the list View code.
 */
export function resourceActionCode(meta: Metadata, resource: string, action: string): string | undefined {
  const def = meta.resources[resource];
  if (!def) return undefined;
  switch (action) {
    case 'create':
    case 'clone':
      return resourceViewCode(def, 'create', meta.menu);
    case 'edit':
      return resourceViewCode(def, 'edit', meta.menu);
    case 'show':
    case 'detail':
      return resourceViewCode(def, 'detail', meta.menu);
    case 'delete':
      return apiCode(resourceApiPath(def, 'delete'));
    case 'export':
      return apiCode(resourceApiPath(def, 'export'));
    case 'import':
      return apiCode(resourceApiPath(def, 'import'));
    case 'update':
      return apiCode(resourceApiPath(def, 'update'));
    case 'statusUpdate':
      return apiCode(resourceApiPath(def, 'status/update'));
    default:
      return resourceViewCode(def, 'list', meta.menu);
  }
}

/**
 * The `can` answer: resources by their action codes, plugin pages (Refine resources named
 * `page:<id>`) by their View code. Anything unknown is refused.
 */
export function canDo(meta: Metadata, routes: PageRoute[], access: Set<string>, resource: string | undefined, action: string): boolean {
  if (!resource) return true;
  if (resource.startsWith('page:')) {
    const route = routes.find((r) => r.key === resource);
    return Boolean(route) && (!route!.viewCode || access.has(route!.viewCode));
  }
  const code = resourceActionCode(meta, resource, action);
  return code !== undefined && access.has(code);
}

/**
 * An administrator (docs/ACCESS.md "Administrators"): may open the system's request log. Roles
 * have no admin flag; the system log management code is what administrators hold and
 * operators (nothing of the System group) lack. Without that page registered, nobody is.
 */
export function isAdministrator(routes: PageRoute[], access: Set<string>): boolean {
  const adminLog = matchRoute(ADMIN_LOG_PATH, routes)?.route;
  return Boolean(adminLog?.viewCode) && canOpen(adminLog!, access);
}
