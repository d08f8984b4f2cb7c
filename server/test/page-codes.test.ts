/**
 * Every page can be used with its own codes (issue 10 #1): for each plugin page of the menu,
 * the calls its screen makes are read from the page's console sources (the component and
 * every module it imports: string literals naming a registered call), and a role holding only
 * that page's node of the permission tree (its Menu and View codes and the Api codes under
 * them) must be allowed every one of them. The page's View code grants calls the tree shows
 * under another page (Catalogue.implied).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, menuCode, routeName, viewCode, type MenuItem } from '@rti/metadata';
import type { PermissionNode } from '../src/access/catalogue';
import { callPermission } from '../src/http/registry';
import { startTestServer, type TestServer } from './support/test-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const metadata = loadMetadata();

function pagesOf(items: MenuItem[]): MenuItem[] {
  return items.flatMap((i) => [...(i.page && !i.public ? [i] : []), ...pagesOf(i.children ?? [])]);
}
const menuPages = metadata.menu.groups.flatMap((g) => pagesOf(g.items));

// ---- the calls a page's screen makes, read from its console sources ----

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];
function resolveImport(from: string, spec: string): string | null {
  let base: string | null = null;
  if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else {
    const m = /^@rti\/(plugin-([a-z-]+)|common)\/(.+)$/.exec(spec);
    if (!m) return null;
    const dir = m[2] ? join(root, 'plugins', m[2]) : join(root, 'common');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, string> };
    const target = pkg.exports?.[`./${m[3]}`];
    base = target ? join(dir, target) : join(dir, m[3]);
  }
  for (const ext of EXTENSIONS) if (existsSync(base + ext) && !base.endsWith('/') && (ext || /\.[tj]sx?$/.test(base))) return base + ext;
  return null;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
const LITERAL = /['"`](\/[A-Za-z0-9/_-]+)['"`]/g;

function literalsFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(LITERAL)) out.add(m[1]);
    for (const m of text.matchAll(IMPORT)) {
      const next = resolveImport(file, m[1]);
      if (next && !next.includes('/node_modules/')) visit(next);
    }
  };
  visit(entry);
  return out;
}

/** The module a page id's component comes from, in the console index of the plugin that registers it. */
function pageEntry(pageId: string): string | null {
  for (const plugin of [
    'dashboard',
    'licence',
    'map',
    'master-data',
    'monitor',
    'open-api',
    'scheduler',
    'screen-settings',
    'shipping',
    'system-inspection',
    'telemetry',
    'vehicle',
  ]) {
    const index = join(root, 'plugins', plugin, 'console', 'index.ts');
    if (!existsSync(index)) continue;
    const text = readFileSync(index, 'utf8');
    // the page's entry: the object literal around its id (the formatter puts it on one line or several)
    const at = text.search(new RegExp(`\\bid:\\s*'${pageId}'`));
    if (at < 0) continue;
    let end = text.lastIndexOf('{', at);
    for (let depth = 0; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    const line = text.slice(text.lastIndexOf('{', at), end + 1);
    if (!/component:/.test(line)) continue;
    let spec = /import\(\s*'([^']+)'/.exec(line)?.[1];
    if (!spec) {
      // the component comes through a helper of the file (`const shot = (…) => () => import('./x')…`)
      for (const def of text.split('\n')) {
        const m = /const\s+([A-Za-z_$][\w$]*)\s*=.*import\(\s*'([^']+)'/.exec(def);
        if (m && new RegExp(`\\b${m[1]}\\b`).test(line)) spec = m[2];
      }
    }
    return spec ? resolveImport(index, spec) : null;
  }
  return null;
}

// ---- the page's node of the permission tree ----

function pageCodes(tree: PermissionNode[], item: MenuItem): string[] {
  const name = routeName(item.path, metadata.menu);
  const codes = new Set<string>();
  const collect = (n: PermissionNode, subPages: Set<string>) => {
    if (subPages.has(n.code)) return;
    if (n.code) codes.add(n.code);
    for (const c of n.children ?? []) collect(c, subPages);
  };
  // sub-pages (menu children) are pages of their own
  const subPages = new Set((item.children ?? []).flatMap((c) => [menuCode(routeName(c.path, metadata.menu)), viewCode(routeName(c.path, metadata.menu))]));
  const find = (nodes: PermissionNode[], code: string): PermissionNode | undefined => {
    for (const n of nodes) {
      if (n.code === code) return n;
      const inner = n.children && find(n.children, code);
      if (inner) return inner;
    }
    return undefined;
  };
  for (const code of [menuCode(name), viewCode(name)]) {
    const node = find(tree, code);
    if (node) collect(node, subPages);
  }
  return [...codes];
}

/**
 * Literals the scan finds in a module shared by several pages that one of them never calls:
 * the licence screen is one module rendering verify, import and update, each calling its own.
 */
const NOT_CALLED: Record<string, string[]> = {
  'licence-verify': ['/licence/import', '/licence/update'],
  'licence-import': ['/licence/update'],
  'licence-update': ['/licence/import'],
};

/** Menu pages a plugin implements (a menu item no plugin registers is no route of the console). */
const pages = menuPages.filter((p) => pageEntry(p.page!) !== null);

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ metadata, plugins: process.env.PAGE_PLUGINS ? process.env.PAGE_PLUGINS.split(',') : true });
  // the organisation allows the whole catalogue (Menu and View codes too, as ticking the tree does)
  const codes = new Set<string>();
  const walk = (nodes: PermissionNode[]) => nodes.forEach((n) => (codes.add(n.code), walk(n.children ?? [])));
  walk((await ts.a.call<PermissionNode[]>('/permission/all')).body.data);
  await ts.server.db.models.organization.update({ pcPermissions: [...codes].filter(Boolean) }, { where: { id: ts.orgA } });
  await ts.server.access.policies.changed([ts.orgA], undefined);
}, 120_000);
afterAll(() => ts?.close());

it('finds pages and the calls their screens make', () => {
  expect(pages.length).toBeGreaterThan(15);
  const entry = pageEntry('dashboard-home');
  expect(entry).not.toBeNull();
  expect([...literalsFrom(entry!)]).toEqual(expect.arrayContaining(['/dashboard', '/dashboard/message']));
});

describe.each(pages.map((p) => [p.path, p] as const))('page %s', (_, item) => {
  it('a role holding only this page can make every call its screen makes', async () => {
    const entry = pageEntry(item.page!);
    expect(entry, `console page "${item.page}"`).not.toBeNull();
    const registered = new Map(ts.server.calls.list().map((c) => [c.path, c]));
    const calls = [...literalsFrom(entry!), ...(item.calls ?? [])].filter((p) => {
      const c = registered.get(p);
      return c && !c.public && callPermission(c) && !NOT_CALLED[item.page!]?.includes(p);
    });
    const tree = (await ts.a.call<PermissionNode[]>('/permission/all')).body.data;
    const codes = pageCodes(tree, item);
    expect(codes).toContain(viewCode(routeName(item.path, metadata.menu)));
    const role = Number((await ts.server.db.models.role.create({ orgId: ts.orgA, name: `only ${item.page}`, pcPermissions: codes })).get('id'));
    const user = await ts.addUser(ts.orgA, `page-${item.page}`, { roleIds: [role] });
    const caller = await ts.callerFor(user, ts.orgA);
    const refused: string[] = [];
    for (const path of [...new Set(calls)]) {
      const r = await caller.fetch(path, {});
      // refused for the call's permission code (a call's own rule, e.g. platform users only, is not the tree's business)
      const text = r.status === 403 ? await r.text() : (await r.body?.cancel(), '');
      if (r.status === 403 && text.includes(`(${callPermission(registered.get(path)!)})`)) refused.push(path);
    }
    expect(refused.join(', '), `calls of ${item.path} refused with only its codes`).toBe('');
  });
});

it('a role with only "Dashboard" (the landing page) sees its numbers', async () => {
  const tree = (await ts.a.call<PermissionNode[]>('/permission/all')).body.data;
  const home = pages.find((p) => p.page === 'dashboard-home')!;
  const role = Number((await ts.server.db.models.role.create({ orgId: ts.orgA, name: 'dashboard only', pcPermissions: pageCodes(tree, home) })).get('id'));
  const caller = await ts.callerFor(await ts.addUser(ts.orgA, 'dora', { roleIds: [role] }), ts.orgA);
  for (const path of ['/dashboard', '/dashboard/beacon-battery', '/dashboard/message', '/dashboard/transport-timeout', '/dashboard/map']) {
    const r = await caller.call(path, {});
    expect(r.body.code, `${path}: ${r.body.message}`).toBe(0);
  }
  // and nothing beyond it
  expect((await caller.call('/carrier/list', {})).body.code).toBe(10005);
});
