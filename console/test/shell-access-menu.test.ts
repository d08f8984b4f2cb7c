import { describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { buildRoutes, canOpen, matchRoute } from '../src/lib/routes';
import { buildSideMenu, flattenMenu, mergedMenu } from '../src/lib/menu';
import { canDo, isAdministrator, resourceActionCode } from '../src/lib/access';
import { showOrgSwitcher } from '../src/lib/org-switcher';
import { defineConsolePlugin } from '../src/plugin-api';
import { refineResources } from '../src/lib/refine-resources';

const res = (name: string, module: string, route: string, extra: Partial<ResourceDef> = {}): ResourceDef => ({
  name,
  module,
  route,
  orgScoped: true,
  titleField: 'sn',
  fields: [{ name: 'sn', type: 'string' }],
  ...extra,
});

const meta: Metadata = {
  resources: {
    'device-beacon': res('device-beacon', 'device', '/device/device-beacon', { paletteSearch: 'sn' }),
    'device-model': res('device-model', 'device', '/device/device-model', { calls: { create: false } }),
    role: res('role', 'system', '/system/role'),
  },
  enums: {},
  menu: {
    groups: [
      {
        key: 'home',
        path: '',
        label: 'menu.home',
        items: [
          { path: '/dashboard-home', label: 'menu.dashboardHome', page: 'dashboard-home' },
          { path: '/map', label: 'menu.map', page: 'map' },
          { path: '/log', label: 'menu.log', page: 'log', hidden: true, hideSider: true },
        ],
      },
      {
        key: 'device',
        path: '/device',
        label: 'menu.device',
        items: [
          { path: '/device/device-beacon', label: 'resources.device-beacon', resource: 'device-beacon' },
          { path: '/device/device-model', label: 'resources.device-model', resource: 'device-model' },
          { path: '/device/ghost', label: 'menu.ghost', resource: 'ghost' },
        ],
      },
      { key: 'system', path: '/system', label: 'menu.system', items: [{ path: '/system/role', label: 'resources.role', resource: 'role' }] },
      { key: 'open-api', path: '', label: 'menu.openApiGroup', items: [{ path: '/open-api', label: 'menu.openApi', page: 'open-api' }] },
    ],
  },
};

const page = () => Promise.resolve({ default: () => null });
const plugin = defineConsolePlugin({
  id: 'demo',
  pages: [
    { id: 'map', path: '/map', title: 'menu.map', component: page, cached: true },
    { id: 'open-api', path: '/open-api', title: 'menu.openApi', component: page, viewCode: 'ViewOpenApi' },
    { id: 'extra', path: '/system/extra', title: 'menu.extra', component: page },
  ],
  menu: [{ group: 'system', path: '/system/extra', label: 'menu.extra', page: 'extra' }],
});
const routes = buildRoutes(meta, [plugin]);
const ALL = new Set([
  'MenuDashboardHome',
  'MenuMap',
  'MenuDeviceBeacon',
  'MenuDeviceModel',
  'MenuRole',
  'MenuOpenApi',
  'MenuGhost',
  'ViewDashboardHome',
  'ViewLog',
  'ViewMap',
  'ViewOpenApi',
  'ViewDeviceBeacon',
  'ViewDeviceBeaconCreate',
  'ViewDeviceBeaconEdit',
  'ViewDeviceBeaconDetail',
  'ApiDeviceBeaconDelete',
  'ViewRole',
  'ViewDeviceModel',
]);

describe('routes', () => {
  it('derives list/create/edit/detail routes with their View codes; skips screens whose call is off', () => {
    const beacon = routes.filter((r) => r.resource?.name === 'device-beacon').map((r) => [r.path, r.viewCode]);
    expect(beacon).toEqual([
      ['/device/device-beacon', 'ViewDeviceBeacon'],
      ['/device/device-beacon/create', 'ViewDeviceBeaconCreate'],
      ['/device/device-beacon/edit/:id', 'ViewDeviceBeaconEdit'],
      ['/device/device-beacon/detail/:id', 'ViewDeviceBeaconDetail'],
    ]);
    expect(routes.some((r) => r.path === '/device/device-model/create')).toBe(false);
  });

  it('plugin pages take their View code (explicit or derived) and menu flags; home and log need theirs', () => {
    const byPath = (p: string) => routes.find((r) => r.path === p)!;
    expect(byPath('/map')).toMatchObject({ kind: 'page', viewCode: 'ViewMap', cached: true });
    expect(byPath('/open-api').viewCode).toBe('ViewOpenApi');
    expect(byPath('/dashboard-home')).toMatchObject({ kind: 'builtin', viewCode: 'ViewDashboardHome', title: 'menu.dashboardHome' });
    // the error log opens inside the shell (header, side menu, tabs), in the home group
    expect(byPath('/log')).toMatchObject({ viewCode: 'ViewLog', group: 'home' });
    expect(byPath('/log').hideSider).toBeUndefined();
    expect(byPath('/403').viewCode).toBeUndefined();
  });

  it('matches a location to its page and params; the guard needs the View code', () => {
    const m = matchRoute('/device/device-beacon/edit/42', routes)!;
    expect(m.route.screen).toBe('edit');
    expect(m.params.id).toBe('42');
    expect(matchRoute('/nowhere', routes)).toBeUndefined();
    expect(canOpen(m.route, ALL)).toBe(true);
    expect(canOpen(m.route, new Set(['ViewDeviceBeacon']))).toBe(false);
  });
});

describe('side menu', () => {
  const menuMeta = { ...meta, menu: mergedMenu(meta.menu, [plugin]) };
  const paths = (access: Set<string>, permissions: string[] = []) =>
    flattenMenu(buildSideMenu({ meta: menuMeta, routes, access, permissions })).map((n) => n.path);

  it('keeps existing pages whose Menu code the user holds; hidden items and unknown resources never show', () => {
    expect(paths(ALL)).toEqual(['/dashboard-home', '/map', '/device/device-beacon', '/device/device-model', '/system/role', '/open-api']);
  });

  it('adds plugin menu entries to their group', () => {
    expect(paths(new Set([...ALL, 'MenuExtra', 'ViewExtra']))).toContain('/system/extra');
    expect(routes.find((r) => r.path === '/system/extra')?.viewCode).toBe('ViewExtra');
  });

  it('drops entries without their Menu code and groups left empty', () => {
    const nodes = buildSideMenu({ meta: menuMeta, routes, access: new Set(['MenuDeviceBeacon', 'ViewDeviceBeacon']), permissions: [] });
    expect(nodes.map((n) => n.key)).toEqual(['group:device']);
    expect(flattenMenu(nodes).map((n) => n.path)).toEqual(['/device/device-beacon']);
    expect(buildSideMenu({ meta: menuMeta, routes, access: new Set(), permissions: [] })).toEqual([]);
  });

  it('drops entries whose page the user may not open (Menu code without the View code: it would lead to the 403 page)', () => {
    expect(paths(new Set([...ALL, 'MenuExtra']))).not.toContain('/system/extra');
    const noView = new Set([...ALL].filter((c) => c !== 'ViewDeviceModel'));
    expect(paths(noView)).not.toContain('/device/device-model');
    expect(paths(noView)).toContain('/device/device-beacon');
  });

  it('is narrowed to the permissions path list when it is not empty', () => {
    expect(paths(ALL, ['/device', '/device/device-model', '/open-api'])).toEqual(['/device/device-model', '/open-api']);
  });
});

describe('access control', () => {
  it('maps Refine actions to View codes and delete to the Api code', () => {
    expect(resourceActionCode(meta, 'device-beacon', 'list')).toBe('ViewDeviceBeacon');
    expect(resourceActionCode(meta, 'device-beacon', 'create')).toBe('ViewDeviceBeaconCreate');
    expect(resourceActionCode(meta, 'device-beacon', 'edit')).toBe('ViewDeviceBeaconEdit');
    expect(resourceActionCode(meta, 'device-beacon', 'show')).toBe('ViewDeviceBeaconDetail');
    expect(resourceActionCode(meta, 'device-beacon', 'delete')).toBe('ApiDeviceBeaconDelete');
    expect(resourceActionCode(meta, 'device-beacon', 'statusUpdate')).toBe('ApiDeviceBeaconStatusUpdate');
    expect(resourceActionCode(meta, 'nope', 'list')).toBeUndefined();
  });

  it('answers can() from the access list, plugin pages by their View code, unknown resources refused', () => {
    expect(canDo(meta, routes, ALL, 'device-beacon', 'delete')).toBe(true);
    expect(canDo(meta, routes, ALL, 'role', 'delete')).toBe(false);
    expect(canDo(meta, routes, ALL, 'role', 'edit')).toBe(false);
    expect(canDo(meta, routes, ALL, 'page:open-api', 'list')).toBe(true);
    expect(canDo(meta, routes, new Set(), 'page:open-api', 'list')).toBe(false);
    expect(canDo(meta, routes, ALL, 'ghost', 'list')).toBe(false);
  });
});

describe('administrators (the error-log badge)', () => {
  const withAdminLog: Metadata = {
    ...meta,
    resources: { ...meta.resources, 'admin-log': res('admin-log', 'system', '/system/admin-log') },
    menu: {
      groups: meta.menu.groups.map((g) =>
        g.key === 'system' ? { ...g, items: [...g.items, { path: '/system/admin-log', label: 'menu.adminLog', resource: 'admin-log' }] } : g,
      ),
    },
  };
  const adminRoutes = buildRoutes(withAdminLog, [plugin]);

  it('is whoever may open the system request log, not whoever holds the error log page code', () => {
    expect(isAdministrator(adminRoutes, new Set([...ALL, 'ViewAdminLog']))).toBe(true);
    expect(isAdministrator(adminRoutes, ALL)).toBe(false); // ViewLog alone: an operator given the page
    expect(isAdministrator(adminRoutes, new Set(['MenuAdminLog']))).toBe(false);
  });

  it('is nobody when the request log page is not registered', () => {
    expect(isAdministrator(routes, new Set([...ALL, 'ViewAdminLog']))).toBe(false);
  });
});

describe('organisation switcher', () => {
  const orgs = [
    { orgId: 1, name: 'A' },
    { orgId: 2, name: 'B' },
  ];
  it('shows only for a sys-org user without login entry code with more than one organisation', () => {
    expect(showOrgSwitcher({ userId: 1, sysOrgUser: true, loginEntryCode: null, organizations: orgs })).toBe(true);
    expect(showOrgSwitcher({ userId: 1, sysOrgUser: false, loginEntryCode: null, organizations: orgs })).toBe(false);
    expect(showOrgSwitcher({ userId: 1, sysOrgUser: true, loginEntryCode: 'demo', organizations: orgs })).toBe(false);
    expect(showOrgSwitcher({ userId: 1, sysOrgUser: true, loginEntryCode: null, organizations: [orgs[0]] })).toBe(false);
    expect(showOrgSwitcher(undefined)).toBe(false);
  });
});

describe('refine resources', () => {
  it('gives each resource its screen routes and translated label, plugin pages as page:<id>', () => {
    const res = refineResources(routes, (k) => `T(${k})`);
    const beacon = res.find((r) => r.name === 'device-beacon')!;
    expect(beacon).toMatchObject({
      list: '/device/device-beacon',
      create: '/device/device-beacon/create',
      edit: '/device/device-beacon/edit/:id',
      show: '/device/device-beacon/detail/:id',
      meta: { label: 'T(resources.device-beacon)' },
    });
    expect(res.find((r) => r.name === 'device-model')!.create).toBeUndefined();
    expect(res.find((r) => r.name === 'page:open-api')).toMatchObject({ list: '/open-api', meta: { hide: true } });
  });
});
