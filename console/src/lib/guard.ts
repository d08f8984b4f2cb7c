import { apiCode } from '@rti/metadata/browser';
import { canOpen, matchRoute, type PageRoute } from './routes';

/**
 * What a button, link or menu entry leads to (SPEC §6: an element guarded by a permission is
 * removed when the user lacks it): a console page by its path (query and hash ignored; the
 * page's View code decides) and/or a server call by its API path (its Api code decides).
 */
export interface GuardTarget {
  /** console path the element opens, e.g. `/dashboard` or `/map/history?carrierId=4` */
  open?: string;
  /** API path the element calls, e.g. `/organization-token/create` */
  call?: string;
}

const pathOnly = (to: string): string => to.replace(/[?#].*$/, '') || '/';

/** The page a path opens, if the console has one. */
export function pageFor(to: string, routes: PageRoute[]): PageRoute | undefined {
  return matchRoute(pathOnly(to), routes)?.route;
}

/**
 * Whether the user may use an element leading to `target`. A path the console has no page for
 * is refused too (it would only show the 404 page); an empty target guards nothing.
 */
export function mayUse(target: GuardTarget, routes: PageRoute[], access: ReadonlySet<string>): boolean {
  if (target.open !== undefined) {
    const route = pageFor(target.open, routes);
    if (!route || !canOpen(route, access as Set<string>)) return false;
  }
  if (target.call !== undefined && !access.has(apiCode(target.call))) return false;
  return true;
}
