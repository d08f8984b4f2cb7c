import { matchPath } from 'react-router';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { resourceViewCode, routeName, viewCode } from '@rti/metadata/browser';
import type { ConsolePage, ConsolePlugin, ResourceScreen, ScreenKind } from '../plugin-contract';
import { HOME_PATH } from '../constants';

/** One page of the console: what the guard, tabs, breadcrumb and title need to know. */
export interface PageRoute {
  key: string;
  /** react-router pattern, absolute */
  path: string;
  /** i18n key (resource pages: the resource label, `screen` says which screen) */
  title: string;
  kind: 'resource' | 'page' | 'builtin';
  screen?: ScreenKind;
  resource?: ResourceDef;
  page?: ConsolePage;
  /** access value needed; undefined = open to every signed-in user */
  viewCode?: string;
  cached?: boolean;
  hideSider?: boolean;
  standalone?: boolean;
  /** menu group key this page belongs to (breadcrumb) */
  group?: string;
}

export const resourceLabel = (def: ResourceDef): string => def.label ?? `resources.${def.name}`;

const SCREEN_PATHS: Record<ScreenKind, (route: string) => string> = {
  list: (r) => r,
  create: (r) => `${r}/create`,
  edit: (r) => `${r}/edit/:id`,
  show: (r) => `${r}/detail/:id`,
};
const SCREEN_CODE = { list: 'list', create: 'create', edit: 'edit', show: 'detail' } as const;

function groupOf(path: string, meta: Metadata): string | undefined {
  let best: { key: string; len: number } | undefined;
  for (const g of meta.menu.groups) {
    const inGroup = g.items.some(function has(i): boolean {
      return i.path === path || (i.children ?? []).some(has);
    });
    if (inGroup) return g.key;
    if (g.path && (path === g.path || path.startsWith(g.path + '/')) && g.path.length > (best?.len ?? -1)) {
      best = { key: g.key, len: g.path.length };
    }
  }
  return best?.key;
}

function menuLabel(path: string, meta: Metadata): string | undefined {
  for (const g of meta.menu.groups) {
    const stack = [...g.items];
    while (stack.length) {
      const i = stack.pop()!;
      if (i.path === path) return i.label;
      stack.push(...(i.children ?? []));
    }
  }
  return undefined;
}

function flagsFor(path: string, meta: Metadata): { cached?: boolean; hideSider?: boolean } {
  for (const g of meta.menu.groups) {
    const stack = [...g.items];
    while (stack.length) {
      const i = stack.pop()!;
      if (i.path === path) return { cached: i.cached, hideSider: i.hideSider };
      stack.push(...(i.children ?? []));
    }
  }
  return {};
}

/** Every routable page: generated resource screens, plugin pages and the shell's own pages. */
export function buildRoutes(meta: Metadata, plugins: ConsolePlugin[]): PageRoute[] {
  const routes: PageRoute[] = [];
  const pluginPaths = new Set(plugins.flatMap((p) => (p.pages ?? []).map((pg) => pg.path)));

  routes.push(
    // SPEC §2: every layout page needs the View code derived from its name; 403/500 are open.
    {
      key: 'builtin:home',
      path: HOME_PATH,
      title: menuLabel(HOME_PATH, meta) ?? 'pages.home',
      kind: 'builtin',
      viewCode: viewCode(routeName(HOME_PATH, meta.menu)),
      group: groupOf(HOME_PATH, meta),
    },
    {
      key: 'builtin:log',
      path: '/log',
      title: menuLabel('/log', meta) ?? 'pages.log',
      kind: 'builtin',
      viewCode: viewCode(routeName('/log', meta.menu)),
      group: groupOf('/log', meta),
    },
    // Open to every signed-in user (SPEC §2 exempts PasswordChange); entry code optional.
    { key: 'builtin:password', path: '/:entryCode?/password-change', title: 'password.title', kind: 'builtin' },
    { key: 'builtin:403', path: '/403', title: 'pages.forbidden', kind: 'builtin' },
    { key: 'builtin:500', path: '/500', title: 'pages.serverError', kind: 'builtin' },
  );

  for (const def of Object.values(meta.resources)) {
    const calls = def.calls ?? {};
    for (const screen of ['list', 'create', 'edit', 'show'] as ScreenKind[]) {
      // a screen whose call the server does not offer would only spin (a settings row with its
      // own plugin page has no list call): no route, so no menu entry, tab or palette entry either
      if (screen === 'list' && calls.list === false) continue;
      if (screen === 'create' && calls.create === false) continue;
      if (screen === 'edit' && calls.update === false) continue;
      if (screen === 'show' && calls.base === false) continue;
      const path = SCREEN_PATHS[screen](def.route);
      if (pluginPaths.has(path)) continue;
      routes.push({
        key: `resource:${def.name}:${screen}`,
        path,
        title: resourceLabel(def),
        kind: 'resource',
        screen,
        resource: def,
        viewCode: resourceViewCode(def, SCREEN_CODE[screen], meta.menu),
        group: groupOf(def.route, meta),
        ...(screen === 'list' ? flagsFor(def.route, meta) : {}),
      });
    }
  }

  for (const plugin of plugins) {
    for (const page of plugin.pages ?? []) {
      const flags = flagsFor(page.path, meta);
      const idx = routes.findIndex((r) => r.kind === 'builtin' && r.path === page.path);
      if (idx >= 0) routes.splice(idx, 1);
      routes.push({
        key: `page:${page.id}`,
        path: page.path,
        title: page.title,
        kind: 'page',
        page,
        viewCode: page.viewCode ?? viewCode(routeName(page.path, meta.menu)),
        cached: page.cached ?? flags.cached,
        hideSider: page.hideSider ?? flags.hideSider,
        standalone: page.standalone,
        group: groupOf(page.path, meta),
      });
    }
  }
  return routes;
}

/** The page a location belongs to, with its params. */
export function matchRoute(pathname: string, routes: PageRoute[]): { route: PageRoute; params: Record<string, string | undefined> } | undefined {
  for (const route of routes) {
    const m = matchPath({ path: route.path, end: true }, pathname);
    if (m) return { route, params: m.params };
  }
  return undefined;
}

export function canOpen(route: PageRoute, access: Set<string>): boolean {
  return !route.viewCode || access.has(route.viewCode);
}

/** Screen overrides registered by plugins, by resource name. */
export function screenOverrides(plugins: ConsolePlugin[]): Record<string, Partial<Record<ScreenKind, ResourceScreen>>> {
  const out: Record<string, Partial<Record<ScreenKind, ResourceScreen>>> = {};
  for (const p of plugins) for (const [res, o] of Object.entries(p.overrides ?? {})) out[res] = { ...out[res], ...o };
  return out;
}
