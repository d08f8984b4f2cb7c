// The shell as people use it: tabs and every tab action, the command palette, language and
// organisation switching, logout with confirmation, and the 403 page for an operator.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launch, login, shot } from './support/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());
beforeEach(async () => {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
});

const tabKeys = () => page.locator('[data-testid^="tab:"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
const activeTab = () =>
  page
    .locator('[data-testid^="tab:"][data-active=true]')
    .getAttribute('data-testid')
    .then((s) => s!.slice(4));

async function open(path: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  // the tab exists and is the current one: a tab action then acts on it, not on the previous page
  await page.locator(`[data-testid="tab:${path}"][data-active=true]`).waitFor();
}

async function tabAction(action: string): Promise<void> {
  await page.getByTestId('tabs-actions').click();
  const item = page.getByTestId(`tab-action-${action}`);
  await item.waitFor();
  await item.click();
  // the menu closes once the action ran (on a loaded machine a click during its opening can miss)
  await item.waitFor({ state: 'hidden' });
}

test('keeps opened pages as tabs and applies every tab action', async () => {
  await login(page, 'admin', 'Admin@12345');
  const [a, b, c, d] = ['/device/device-beacon', '/device/device-model', '/basic-info/shipper', '/basic-info/warehouse'];
  for (const p of [a, b, c, d]) await open(p);
  const home = (await tabKeys())[0];
  expect(await tabKeys()).toEqual([home, a, b, c, d]);
  await shot(page, 'tabs');

  await page.locator(`[data-testid="tab:${b}"]`).click();
  await expect.poll(activeTab).toBe(b);
  await tabAction('closeRight');
  await expect.poll(tabKeys).toEqual([home, a, b]);
  await tabAction('closeLeft');
  await expect.poll(tabKeys).toEqual([home, b]); // the index tab always stays

  await open(c);
  await open(d);
  await tabAction('close'); // closing the last, current tab moves to the previous one
  await expect.poll(tabKeys).toEqual([home, b, c]);
  await expect.poll(activeTab).toBe(c);
  await expect.poll(() => new URL(page.url()).pathname).toBe(c);

  await tabAction('closeOthers');
  await expect.poll(tabKeys).toEqual([home, c]);

  // tabs are saved per user and restored on reload
  await page.reload();
  await expect.poll(tabKeys).toEqual([home, c]);

  await tabAction('closeAll');
  await expect.poll(tabKeys).toEqual([home]);
  await expect.poll(() => new URL(page.url()).pathname).toBe(home);
});

test('opens pages from the command palette', async () => {
  await login(page, 'admin', 'Admin@12345');
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').waitFor();
  await page.getByTestId('palette-input').fill('Device model');
  await page.locator('[data-testid="palette-item:open:/device/device-model"]').waitFor();
  await shot(page, 'palette');
  await page.keyboard.press('Enter');
  await expect.poll(() => new URL(page.url()).pathname).toBe('/device/device-model');
});

test('switches the interface language and keeps it after reload', async () => {
  await login(page, 'admin', 'Admin@12345');
  const sider = page.getByTestId('sider');
  expect(await sider.textContent()).toContain('Devices');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-language').click();
  await page.getByTestId('user-language:zh-CN').click();
  await expect.poll(() => sider.textContent(), { timeout: 20000 }).toMatch(/[\u4e00-\u9fff]/);
  await page.reload();
  await expect.poll(() => page.getByTestId('sider').textContent(), { timeout: 20000 }).toMatch(/[\u4e00-\u9fff]/);
  await shot(page, 'home-zh-CN');
});

test('switches organisation: tabs close and the lists show the other organisation', async () => {
  await login(page, 'admin', 'Admin@12345'); // no entry code, several organisations → switcher shown
  await open('/basic-info/warehouse');
  const firstRow = () => page.locator('[data-testid=meta-table] tbody tr.ant-table-row').first().textContent();
  await expect.poll(firstRow).toBeTruthy();
  const before = await firstRow();
  await page.getByTestId('org-switcher').click();
  const options = page.locator('[data-testid^="org-option:"]');
  await options.first().waitFor();
  const current = await page.getByTestId('org-switcher').textContent();
  const count = await options.count();
  for (let i = 0; i < count; i++) {
    if ((await options.nth(i).textContent()) !== current) {
      await options.nth(i).click();
      break;
    }
  }
  await expect.poll(tabKeys).toHaveLength(1);
  await open('/basic-info/warehouse');
  await expect.poll(firstRow).toBeTruthy();
  expect(await firstRow()).not.toEqual(before);
  await shot(page, 'org-switched');
});

test('an operator sees the 403 page for a screen outside their role, and logs out with confirmation', async () => {
  await login(page, 'operator.demo', 'Operator@12345', 'demo');
  await expect.poll(() => page.getByTestId('org-switcher').count()).toBe(0); // entry-code login: no switcher
  await page.goto(`${baseUrl()}/system/user`);
  await page.getByTestId('page-403').waitFor();
  await shot(page, 'operator-403');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.getByTestId('logout-confirm').click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/demo/login');
});

test('hides the header on scroll once the user turns it on, and brings it back on scrolling up', async () => {
  await login(page, 'admin', 'Admin@12345');
  await open('/device/device-beacon');
  // a page long enough to scroll, whatever the seed holds
  await page.evaluate(() => ((document.querySelector('.shell-content') as HTMLElement).style.minHeight = '4000px'));
  const hidden = () => page.getByTestId('shell-top').getAttribute('data-header-hidden');
  const scrollTo = async (y: number) => {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await page.waitForTimeout(150);
  };
  // off by default: the header stays
  await scrollTo(800);
  expect(await hidden()).toBe('false');
  await scrollTo(0);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('header-auto-hide').click();
  await scrollTo(200);
  expect(await hidden()).toBe('false'); // not past 300 px yet
  await scrollTo(800);
  await expect.poll(hidden).toBe('true');
  await expect.poll(async () => (await page.getByTestId('tabs-actions').boundingBox())!.y).toBeLessThan(10); // the tabs stay, at the top
  await shot(page, 'header-hidden');
  await scrollTo(700);
  await expect.poll(hidden).toBe('false');
  // kept for this user across a reload
  await page.reload();
  await page.locator('[data-testid="tab:/device/device-beacon"]').waitFor();
  await page.getByTestId('user-menu').click();
  await expect.poll(() => page.getByTestId('header-auto-hide').getAttribute('data-on')).toBe('true');
});
