import type { Metadata } from '@rti/metadata/browser';
import { HOME_PATH } from '../constants';
import type { ConsolePlugin } from '../plugin-api';
import { buildRoutes, canOpen, matchRoute } from '../lib/routes';
import { shellMeta } from '../providers/shell-context';
import { preloadRoute } from './route-page';

/**
 * Fetches the chunk of the page `pathname` opens, once metadata and plugins are known, and
 * lets a plugin page start its own first calls (ConsolePage.preload).
 */
export function preloadPage(pathname: string, metadata: Metadata, plugins: ConsolePlugin[], access: Set<string>): void {
  const routes = buildRoutes(shellMeta(metadata, plugins), plugins);
  const hit = matchRoute(pathname === '/' ? HOME_PATH : pathname, routes);
  if (!hit || !canOpen(hit.route, access)) return;
  preloadRoute(hit.route, plugins);
  try {
    hit.route.page?.preload?.(hit.params);
  } catch (e) {
    // a page's own head start is an optimisation: the page still loads without it
    console.warn(`preload of ${hit.route.path} failed`, e);
  }
}
