/**
 * Browser tests of plugin screens: headless Debian chromium signed in to a test server's
 * built console (console/dist, or CONSOLE_DIST) as one caller, plus the grants the console
 * needs. One place for the launch flags, cookies and screenshot folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Caller, TestServer } from './test-server';
import { RENDER_BROWSER_ARGS } from '../../src/render/console-png';

const root = path.resolve(__dirname, '../../..');
export const SCREENSHOTS = path.join(root, 'test-output/screenshots');
/** The flags headless Debian chromium needs here (SwiftShader WebGL, no sandbox, offline): the server's own renderer's. */
export const CHROMIUM_ARGS = RENDER_BROWSER_ARGS;

export function assertConsoleBuilt(): void {
  const dist = process.env.CONSOLE_DIST ?? path.join(root, 'console/dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist}/index.html missing: npm run build -w @rti/console`);
}

/** The test server grants every call code; the console's menus and pages also need the Menu/View codes. */
export async function grantWholeCatalogue(ts: TestServer, orgId = ts.orgA): Promise<void> {
  const tree = (await ts.a.call<any>('/permission/all')).body.data;
  const codes = new Set<string>();
  const walk = (nodes: Array<{ code: string; children?: unknown[] }>) => {
    for (const n of nodes) {
      codes.add(n.code);
      if (n.children) walk(n.children as never);
    }
  };
  walk(Array.isArray(tree) ? tree : (tree.list ?? tree.tree ?? []));
  const m = ts.server.db.models;
  await m.organization.update({ pcPermissions: [...codes] }, { where: { id: orgId } });
  await m.role.update({ pcPermissions: [...codes] }, { where: { orgId } });
  await ts.server.access.policies.changed([orgId], undefined);
}

interface CatalogueNode {
  code: string;
  type?: number;
  path?: string;
  children?: CatalogueNode[];
}

/**
 * A least-privileged operator for a browser test: a role holding only the screens (console
 * routes of View codes — a resource's list route, `<route>/create`, `/detail`, `/edit` — and the
 * Menu codes above them) and the calls (API paths matching `calls`, never a delete) the
 * operator's day needs, and a user restricted to `warehouseIds`.
 * The organisation holds the whole catalogue (what it bought); the role is the narrow part.
 */
export async function narrowOperator(ts: TestServer, name: string, opts: { screens: string[]; calls: RegExp; warehouseIds: number[] }): Promise<Caller> {
  const orgId = ts.orgA;
  const tree = (await ts.a.call<any>('/permission/all')).body.data as CatalogueNode[];
  const all = new Set<string>();
  const codes = new Set<string>();
  const onScreen = (path = '') => opts.screens.includes(path);
  const walk = (nodes: CatalogueNode[], menus: string[]) => {
    for (const n of nodes) {
      all.add(n.code);
      if (n.type === 20 && onScreen(n.path)) [...menus, n.code].forEach((c) => codes.add(c));
      if (n.type === 30 && n.path && opts.calls.test(n.path) && !n.path.endsWith('/delete')) codes.add(n.code);
      walk(n.children ?? [], n.type === 10 ? [...menus, n.code] : menus);
    }
  };
  walk(Array.isArray(tree) ? tree : [], []);
  await ts.server.db.models.organization.update({ pcPermissions: [...all] }, { where: { id: orgId } });
  await ts.server.access.policies.changed([orgId], undefined);
  const role = await ts.a.call<{ id: number }>('/role/create', { name: `${name} role`, pcPermissions: [...codes], pdaPermissions: [] });
  if (role.body.code !== 0) throw new Error(`/role/create: ${role.body.code} ${role.body.message}`);
  const userId = await ts.addUser(orgId, name, { roleIds: [role.body.data.id], warehouseIds: opts.warehouseIds });
  return ts.callerFor(userId, orgId);
}

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** saves test-output/screenshots/<name>.png */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Chromium with the caller's session cookies set, page errors echoed to the test output. */
export async function openConsole(ts: TestServer, caller: Caller, viewport = { width: 1600, height: 1000 }): Promise<ConsoleBrowser> {
  assertConsoleBuilt();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport });
  const domain = new URL(ts.url).hostname;
  await context.addCookies(
    [
      ['admin-token', caller.token],
      ['admin-user-id', String(caller.userId)],
      ['admin-org-id', String(caller.orgId)],
    ].map(([name, value]) => ({ name, value, domain, path: '/' })),
  );
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  page.on('console', (m) => m.type() === 'error' && console.error('[console]', m.text()));
  return {
    browser,
    page,
    async shot(name) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    },
    close: () => browser.close(),
  };
}
