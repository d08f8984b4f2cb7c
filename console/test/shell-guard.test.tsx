// Issue 10: elements leading to a page or call the user may not use are removed (SPEC §6);
// screens whose call the server does not offer get no route; a deleted record's tabs close.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { EnumsFile, MenuFile, Metadata, ResourceDef } from '@rti/metadata/browser';
import menuJson from '../../metadata/menu.json';
import enumsJson from '../../metadata/enums.json';
import { buildRoutes } from '../src/lib/routes';
import { mayUse } from '../src/lib/guard';
import { Guarded } from '../src/components/guard/guarded';
import { ShellProvider, shellMeta, type Shell } from '../src/providers/shell-context';
import { defineConsolePlugin } from '../src/plugin-api';
import { dropTabs, initialTabs, openTab } from '../src/components/tabs/tab-rules';
import { hasCall } from '../src/meta/lib/resource-calls';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const thing: ResourceDef = { name: 'thing', module: 'x', route: '/x/thing', orgScoped: true, titleField: 'sn', fields: [{ name: 'sn', type: 'string' }] };
const meta: Metadata = { resources: { thing }, enums: {}, menu: { groups: [] } };
const page = () => Promise.resolve({ default: () => null });
const plugin = defineConsolePlugin({
  id: 'p',
  pages: [
    { id: 'big', path: '/big-screen', title: 'big', component: page, standalone: true },
    { id: 'history', path: '/thing/history', title: 'history', component: page },
  ],
});
const routes = buildRoutes(meta, [plugin]);

describe('mayUse', () => {
  const access = new Set(['ViewBigScreen', 'ViewXThingDetail', 'ApiThingDelete']);
  it('opens a page by its View code, whatever the query or hash', () => {
    expect(mayUse({ open: '/big-screen' }, routes, access)).toBe(true);
    expect(mayUse({ open: '/thing/history?thingId=4#t' }, routes, access)).toBe(false);
    expect(mayUse({ open: '/thing/history?thingId=4' }, routes, new Set([...access, 'ViewThingHistory']))).toBe(true);
    expect(mayUse({ open: '/x/thing/detail/12' }, routes, access)).toBe(true);
    expect(mayUse({ open: '/x/thing/edit/12' }, routes, access)).toBe(false);
  });
  it('refuses a path the console has no page for, and calls by their Api code', () => {
    expect(mayUse({ open: '/nowhere' }, routes, access)).toBe(false);
    expect(mayUse({ call: '/thing/delete' }, routes, access)).toBe(true);
    expect(mayUse({ call: '/thing/update' }, routes, access)).toBe(false);
    expect(mayUse({ open: '/big-screen', call: '/thing/update' }, routes, access)).toBe(false);
    expect(mayUse({}, routes, new Set())).toBe(true);
  });
});

describe('<Guarded>', () => {
  const render = (access: string[]) => {
    const host = document.createElement('div');
    const shell = { meta, plugins: [plugin], routes, sideMenu: [], access: new Set(access), user: { userId: 1 } } as unknown as Shell;
    const root = createRoot(host);
    act(() =>
      root.render(
        <ShellProvider value={shell}>
          <Guarded open="/big-screen">
            <button data-testid="open-big">open</button>
          </Guarded>
          <Guarded call="/thing/delete" fallback={<i data-testid="no-delete" />}>
            <button data-testid="delete">delete</button>
          </Guarded>
        </ShellProvider>,
      ),
    );
    const found = (id: string) => host.querySelector(`[data-testid=${id}]`) !== null;
    const out = { big: found('open-big'), del: found('delete'), fallback: found('no-delete') };
    act(() => root.unmount());
    return out;
  };
  it('removes the element for a user without the code, keeps it for one with it', () => {
    expect(render([])).toEqual({ big: false, del: false, fallback: true });
    expect(render(['ViewBigScreen', 'ApiThingDelete'])).toEqual({ big: true, del: true, fallback: false });
  });
});

describe('routes over the real metadata', () => {
  // the real metadata, read as the console bundles it (the node loader needs file URLs)
  // (modules' own folders included: plugins/<id>/metadata/resources, enums.json; their menu
  // entries are hidden detail items, which make no route)
  const files = import.meta.glob<ResourceDef>(['../../metadata/resources/*/*.json', '../../plugins/*/metadata/resources/*.json'], {
    eager: true,
    import: 'default',
  });
  const pluginEnums = import.meta.glob<EnumsFile>('../../plugins/*/metadata/enums.json', { eager: true, import: 'default' });
  const enums = Object.assign({}, enumsJson, ...Object.values(pluginEnums)) as unknown as EnumsFile;
  const real: Metadata = { resources: Object.fromEntries(Object.values(files).map((r) => [r.name, r])), enums, menu: menuJson as unknown as MenuFile };
  const all = buildRoutes(shellMeta(real, []), []);
  it('has no screen whose call the resource turns off (a settings row without a list call has no list route)', () => {
    const call = { list: 'list', create: 'create', edit: 'update', show: 'base' } as const;
    for (const r of all.filter((x) => x.kind === 'resource')) expect(hasCall(r.resource!, call[r.screen!]), r.path).toBe(true);
    expect(all.some((r) => r.path === real.resources.config.route)).toBe(false);
  });
});

describe('tabs of deleted records', () => {
  it('close like a closed tab: the current one moves to its neighbour, others stay', () => {
    const tab = (key: string) => ({ key, path: key, title: key });
    let s = initialTabs(tab('/home'));
    for (const k of ['/x/thing', '/x/thing/detail/4', '/x/thing/edit/4', '/y']) s = openTab(s, tab(k));
    s = openTab(s, tab('/x/thing/detail/4'));
    const after = dropTabs(s, ['/x/thing/detail/4', '/x/thing/edit/4', '/x/thing/detail/5']);
    expect(after.tabs.map((t) => t.key)).toEqual(['/home', '/x/thing', '/y']);
    expect(after.active).toBe('/y');
  });
});
