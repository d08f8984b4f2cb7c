// Issue 10 defect 5: the console on a phone (390×844, SPEC §9 mobile ≤ 600 px) and a tablet
// (820×1180): menu as a drawer over the page, user menu reachable, lists without pinned columns.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, login, shot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

async function at(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, isMobile: width <= 600, hasTouch: width <= 600 });
  return context.newPage();
}

/** the page never scrolls sideways: everything fits the viewport width */
const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function insideViewport(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const width = page.viewportSize()!.width;
  return Boolean(box && box.width > 0 && box.x >= 0 && box.x + box.width <= width);
}

/** pinned (sticky) cells of the list: none below 600 px */
const stickyCells = (page: Page) =>
  page
    .locator('[data-testid=meta-table] td, [data-testid=meta-table] th')
    .evaluateAll((cells) => cells.filter((c) => getComputedStyle(c).position === 'sticky').length);

test('phone: the menu is a drawer over the page, the user menu is reachable, lists have no pinned columns', async () => {
  const page = await at(390, 844);
  await login(page, 'admin', 'Admin@12345');
  expect(await page.getByTestId('sider').count()).toBe(0);
  expect(await insideViewport(page, 'user-menu')).toBe(true);
  expect(await insideViewport(page, 'reload-tab')).toBe(true);
  expect(await overflowX(page)).toBeLessThanOrEqual(0);

  // the drawer overlays the page: opening it changes neither the page's width nor its offset
  const contentBox = await page.locator('.shell-content').boundingBox();
  await page.getByTestId('sider-trigger').click();
  await page.getByTestId('sider-drawer').waitFor();
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  expect((await page.locator('.shell-content').boundingBox())!.x).toBe(contentBox!.x);
  await shot(page, 'phone-drawer');
  await page.getByTestId('menu:/device').click();
  await page.getByTestId('menu:/device/device-beacon').click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/device/device-beacon');
  await expect.poll(() => page.getByTestId('sider-drawer').isVisible()).toBe(false);

  // a list: rows render, no column is pinned over the others, the page itself does not scroll sideways
  await page.locator('[data-testid=meta-table] tbody tr.ant-table-row').first().waitFor();
  expect(await stickyCells(page)).toBe(0);
  const firstCell = page.locator('[data-testid=meta-table] tbody tr.ant-table-row').first().locator('td').nth(1);
  const cell = (await firstCell.boundingBox())!;
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('td')?.cellIndex ?? -1,
    [cell.x + cell.width / 2, cell.y + cell.height / 2],
  );
  expect(hit).toBe(1); // the data cell itself is on top, not an actions column
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  await shot(page, 'phone-list');

  // the user menu: change password and log out
  await page.getByTestId('user-menu').click();
  await page.getByTestId('change-password').click();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/password-change$/);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.getByTestId('logout-confirm').click();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/login$/);
  await page.context().close();
});

test('tablet: the sider collapses to icons beside the page, header and lists fit', async () => {
  const page = await at(820, 1180);
  await login(page, 'admin', 'Admin@12345');
  const sider = (await page.getByTestId('sider').boundingBox())!;
  expect(sider.width).toBe(40);
  expect(await insideViewport(page, 'user-menu')).toBe(true);
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  await page.goto(`${baseUrl()}/device/device-beacon`);
  await page.locator('[data-testid=meta-table] tbody tr.ant-table-row').first().waitFor();
  expect(await insideViewport(page, 'user-menu')).toBe(true);
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  await shot(page, 'tablet-list');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').waitFor();
  await page.context().close();
});
