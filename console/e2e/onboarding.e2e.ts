// A new customer's first day (issue 23), as the platform administrator does it in the browser:
// System → Organisation → Create with a logo and an entry code typed in capitals; the new
// organisation is in the header switcher at once; its login page (any case of the code) shows
// the logo without a session; the administrator signs in there and can work; a role built with
// the permission tree's search gets every code of the group ticked while the search showed one.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Jimp } from 'jimp';
import { baseUrl, launch, login, pageApi, shot } from './support/browser';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
});
afterAll(async () => browser?.close());

const suffix = Date.now().toString(36).slice(-4);
const ORG = `Nordic Crate Pool ${suffix}`;
const ENTRY = `nordic-${suffix}`;

interface TreeNode { code: string; label: string; children?: TreeNode[] }
const leaves = (n: TreeNode): string[] => (n.children?.length ? n.children.flatMap(leaves) : [n.code]);

test('onboards an organisation: created with its logo, in the switcher, its login page shows the logo, its administrator works there', { timeout: 180_000 }, async () => {
  await login(page, 'admin', 'Admin@12345');
  // the demo has no licence: the platform administrator is told what that leaves unenforced
  await page.getByTestId('licence-banner').hover();
  await expect.poll(() => page.locator('.ant-tooltip').last().textContent()).toContain('not enforced');
  await page.goto(`${baseUrl()}/system/organization/create`);
  const form = page.getByTestId('meta-form');
  await form.locator('#code').fill(`NCP${suffix}`.toUpperCase());
  await form.locator('#name').fill(ORG);
  await form.locator('#entryCode').fill(ENTRY.toUpperCase());
  const logo = await new Jimp({ width: 240, height: 80, color: 0x1f6feb_ff }).getBuffer('image/png');
  await form.locator('input[type=file]#largeLogo, #largeLogo input[type=file]').first().setInputFiles({ name: 'nordic-logo.png', mimeType: 'image/png', buffer: logo });
  await form.locator('.ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading)').first().waitFor();
  await page.getByTestId('meta-save').click();
  await page.waitForURL(/\/system\/organization(\?.*)?$/);
  // the saved row is highlighted, and its pinned actions cell stays opaque over the cells scrolled beneath
  const pinned = page.locator('tr.meta-row-saved td.ant-table-cell-fix-right').first();
  await pinned.waitFor();
  // sampled through the highlight and its fade (4 s): never see-through
  const alphas: number[] = [];
  for (let i = 0; i < 16 && (await pinned.count()); i++) {
    alphas.push(
      await pinned.evaluate((td) => {
        const bg = getComputedStyle(td).backgroundColor;
        const slash = /\/\s*([\d.]+%?)\s*\)\s*$/.exec(bg);
        if (slash) return slash[1].endsWith('%') ? Number(slash[1].slice(0, -1)) / 100 : Number(slash[1]);
        const rgba = /^rgba\(([^)]+)\)$/.exec(bg);
        return rgba ? Number(rgba[1].split(',')[3]) : 1;
      }),
    );
    await page.waitForTimeout(250);
  }
  expect(alphas.length).toBeGreaterThan(0);
  expect(alphas.filter((a) => a < 1)).toEqual([]);

  // in the list and in the header switcher without a reload
  const created = (await pageApi(page, '/organization/list', { name: ORG })).data.list[0] as { id: number; entryCode: string };
  expect(created.entryCode).toBe(ENTRY);
  await page.getByTestId('org-switcher').click();
  await page.getByTestId(`org-option:${created.id}`).waitFor();
  await page.keyboard.press('Escape');
  await shot(page, 'onboarding-switcher');

  // its login page, with the code in capitals, in a browser without a session: the logo loads
  const visitor = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await visitor.goto(`${baseUrl()}/${ENTRY.toUpperCase()}/login`);
  await expect.poll(() => visitor.getByTestId('login-org-name').textContent()).toBe(ORG);
  const img = visitor.locator('img.login-logo');
  await img.waitFor();
  expect(await img.getAttribute('src')).toContain('/api/organization/theme?');
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(240);
  await shot(visitor, 'onboarding-login');

  // the administrator signs in there and works in the new organisation
  await login(visitor, 'admin', 'Admin@12345', ENTRY);
  const info = (await pageApi(visitor, '/account/info')).data as { orgId: number; access: string[] };
  expect(info.orgId).toBe(created.id);
  expect(info.access).toEqual(expect.arrayContaining(['ApiWarehouseCreate', 'ApiRoleCreate']));
  const wh = await pageApi(visitor, '/warehouse/create', { code: 'OSL', name: 'Oslo' });
  expect(wh.code, wh.message).toBe(0);

  // a role built with the tree's search: ticking the Home group while only one of its pages shows grants all of Home
  const tree = (await pageApi(visitor, '/permission/organization/all')).data as TreeNode[];
  const home = tree.find((n) => n.code === 'MenuHome')!;
  expect(home.children!.length).toBeGreaterThan(1);
  const shownPage = home.children![0];
  await visitor.goto(`${baseUrl()}/system/role/create`);
  const roleForm = visitor.getByTestId('meta-form');
  await roleForm.locator('#name').fill('Account manager');
  const pcTree = roleForm.getByTestId('permissions-input').first();
  await pcTree.locator('input').first().fill(shownPage.label);
  const homeNode = pcTree.locator('.ant-tree-treenode', { has: visitor.locator(`.ant-tree-title:text-is("${home.label}")`) }).first();
  await homeNode.locator('.ant-tree-checkbox').click();
  await visitor.getByTestId('meta-save').click();
  await visitor.waitForURL(/\/system\/role(\?.*)?$/);
  const role = (await pageApi(visitor, '/role/list', { name: 'Account manager' })).data.list[0] as { pcPermissions?: string[]; id: number };
  const saved = role.pcPermissions ?? ((await pageApi(visitor, '/role/get', { id: role.id })).data.pcPermissions as string[]);
  // every code of Home the tree offers: not the menu.json pages of the group no plugin serves
  // (left out of the tree so a role is never granted a 404, issue 23 item 7)
  const notServed = new Set(['ViewInfo', 'ViewInfoMainten', 'ViewInfoPackingList']);
  const offered = leaves(home).filter((c) => !notServed.has(c));
  expect(offered.length).toBeGreaterThan(leaves(shownPage).length);
  expect(saved).toEqual(expect.arrayContaining(offered));
  await visitor.close();
});
