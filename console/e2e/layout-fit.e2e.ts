// Labels that fit (issue 23 item 7), measured in the browser in Japanese, the language whose
// group names ran into the menu's chevrons: a menu group's label ends before its arrow and in an
// ellipsis when it does not fit; the breadcrumb is never cut off where the header widgets begin
// (its last item ends in an ellipsis); the pinned actions column stays opaque under the hovered
// row and takes at most a quarter of a tablet's table.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, login, shot } from './support/browser';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // the language is the user's stored choice: set before the console's first script runs
  await page.addInitScript(() => localStorage.setItem('admin-locale', 'ja-JP'));
});
afterAll(async () => browser?.close());

const LIST = '/device/device-master-gateway';

test('menu group labels, the breadcrumb and the actions column fit (ja-JP)', { timeout: 120_000 }, async () => {
  await login(page, 'admin', 'Admin@12345');
  await page.goto(`${baseUrl()}${LIST}`);
  await page.locator('.ant-table-row').first().waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja-JP');

  // every group of the sider: its label ends before the chevron; a label too long ends in "…"
  const groups = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.app-sider .ant-menu-submenu-title')).map((title) => {
      const label = title.querySelector('[data-testid^="menu:"]') as HTMLElement;
      const arrow = title.querySelector('.ant-menu-submenu-arrow') as HTMLElement;
      return {
        text: label.textContent,
        labelRight: label.getBoundingClientRect().right,
        arrowLeft: arrow.getBoundingClientRect().left,
        overflows: label.scrollWidth > label.clientWidth,
        ellipsis: getComputedStyle(label).textOverflow === 'ellipsis' && getComputedStyle(label).overflow === 'hidden',
      };
    }),
  );
  expect(groups.length).toBeGreaterThan(5);
  expect(groups.filter((g) => g.labelRight > g.arrowLeft).map((g) => g.text)).toEqual([]);
  expect(groups.filter((g) => g.overflows && !g.ellipsis).map((g) => g.text)).toEqual([]);
  // at least one ja group name is longer than the sider: the case that was cut
  expect(groups.some((g) => g.overflows)).toBe(true);

  // the breadcrumb at desktop widths: shown whole, or its last item ends in "…" — never clipped by the widgets
  for (const width of [1280, 1152, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await expect
      .poll(() =>
        page.evaluate(() => {
          const nav = document.querySelector('.app-breadcrumb') as HTMLElement;
          const last = nav.querySelector('li:last-child') as HTMLElement;
          const widgets = (document.querySelector('.header-widgets') as HTMLElement).getBoundingClientRect();
          return {
            clipped: nav.scrollWidth > nav.clientWidth + 1,
            lastCut: last.scrollWidth > last.clientWidth + 1,
            lastEllipsis: getComputedStyle(last).textOverflow === 'ellipsis',
            overlaps: nav.getBoundingClientRect().right > widgets.left + 1,
          };
        }),
      )
      .toMatchObject({ clipped: false, overlaps: false });
    const last = await page.evaluate(() => {
      const li = document.querySelector('.app-breadcrumb li:last-child') as HTMLElement;
      return { cut: li.scrollWidth > li.clientWidth + 1, ellipsis: getComputedStyle(li).textOverflow === 'ellipsis' };
    });
    if (last.cut) expect(last.ellipsis, `breadcrumb at ${width} px`).toBe(true);
  }
  await shot(page, 'layout-fit-ja');

  // a tablet: the pinned actions column takes at most a quarter of the table, opaque under the hovered row
  await page.setViewportSize({ width: 768, height: 1024 });
  await expect
    .poll(() =>
      page.evaluate(() => {
        const table = (document.querySelector('.ant-table') as HTMLElement).getBoundingClientRect().width;
        const th = Array.from(document.querySelectorAll('th.ant-table-cell-fix-right')).pop() as HTMLElement | undefined;
        return th ? th.getBoundingClientRect().width / table : 1;
      }),
    )
    .toBeLessThanOrEqual(0.25);
  const row = page.locator('.ant-table-row').first();
  await row.hover();
  await page.locator('.ant-table-row td.ant-table-cell-fix-right.ant-table-cell-row-hover').first().waitFor();
  const alpha = await page.evaluate(() => {
    const td = document.querySelector('.ant-table-row td.ant-table-cell-fix-right.ant-table-cell-row-hover') as HTMLElement;
    const bg = getComputedStyle(td).backgroundColor;
    const rgba = /^rgba\(([^)]+)\)$/.exec(bg);
    return rgba ? Number(rgba[1].split(',')[3]) : bg === 'transparent' ? 0 : 1;
  });
  expect(alpha).toBe(1);
  await shot(page, 'layout-fit-tablet');
});
