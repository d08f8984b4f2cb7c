import type { Metadata } from '@rti/metadata/browser';
import { HOME_PATH } from '../constants';
import type { ConsolePlugin } from '../plugin-contract';
import { buildRoutes, canOpen, matchRoute, screenOverrides } from '../lib/routes';
import { loadMetaScreens } from './meta-screens';
import { shellMeta } from '../providers/shell-context';
import { preloadRoute } from './route-page';

/**
 * Fetches the chunk of the page `path` (pathname and query) opens, once metadata and plugins are known, and
 * lets a plugin page start its own first calls (ConsolePage.preload).
 */
export function preloadPage(path: string, metadata: Metadata, plugins: ConsolePlugin[], access: Set<string>): void {
  const bare = path.replace(/#.*$/, '');
  const q = bare.indexOf('?');
  const [pathname, search] = q < 0 ? [bare, ''] : [bare.slice(0, q), bare.slice(q)];
  const routes = buildRoutes(shellMeta(metadata, plugins), plugins);
  const hit = matchRoute(pathname === '/' ? HOME_PATH : pathname, routes);
  if (!hit || !canOpen(hit.route, access)) return;
  preloadRoute(hit.route, plugins);
  // a generated list's first page is asked for now, not after the layout and the screen rendered
  const res = hit.route.resource;
  if (hit.route.kind === 'resource' && hit.route.screen === 'list' && res && !screenOverrides(plugins)[res.name]?.list) {
    // through the screens module (loading anyway for this page): the request building stays out of the entry
    void loadMetaScreens()
      .then((m) => m.startEarlyList?.(res, search))
      .catch(() => undefined);
  }
  try {
    hit.route.page?.preload?.(hit.params);
  } catch (e) {
    // a page's own head start is an optimisation: the page still loads without it
    console.warn(`preload of ${hit.route.path} failed`, e);
  }
}
