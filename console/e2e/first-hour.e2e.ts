// Issue 10 as users meet it: buttons without permission are gone and no screen of the operator's
// menu (its groups unfolded, each list's create, edit and first record, shipping included) has a
// call refused, the palette says a carrier exists but needs a permission, the map history names
// its subject and offers the last known position, the map legend folds and fit-all keeps markers
// out from under it, the carrier detail leads to the map, and the settings route no longer spins.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launch, login, pageApi, shot } from './support/browser';

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

const api = (path: string, body: unknown = {}) => pageApi(page, path, body);

/**
 * A page has drawn: its content is there, no spinner turns, and its calls are answered. "Network
 * idle" alone never comes on a screen with live figures (its event stream stays open).
 */
async function settled(): Promise<void> {
  // standalone screens (the big screen, the monitor) draw outside the layout
  await page.locator('.shell-content, [data-standalone], [data-testid="page-403"], #root > *').first().waitFor({ timeout: 30000 });
  await expect.poll(() => page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible').count(), { timeout: 30000 }).toBe(0);
  // its calls answered (refusals counted below); a screen with live figures never goes quiet: bounded
  await page.waitForLoadState('networkidle', { timeout: 10000 }).catch(() => undefined);
}

test('an operator sees no button leading to a page or call they lack, and the palette says a carrier needs a permission', { timeout: 300_000 }, async () => {
  await login(page, 'operator.demo', 'Operator@12345', 'demo');
  await page.goto(`${baseUrl()}/dashboard-home`);
  await page.getByTestId('dashboard-reload').waitFor();
  expect(await page.getByTestId('dashboard-open-big-screen').count()).toBe(0);
  // every console link on the pages of the operator's menu opens without a 403, and no call
  // those screens make is refused (a page's menu `calls` lacking one its screen makes)
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403 && new URL(r.url()).pathname.startsWith('/api/')) refused.push(`${new URL(page.url()).pathname}: ${new URL(r.url()).pathname}`);
  });
  // the pages of the menu: its groups unfolded as a user does (a folded group draws no pages)
  for (let round = 0; round < 3; round++) {
    const folded = await page
      .locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title [data-testid^="menu:/"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    if (!folded.length) break;
    for (const id of folded) await page.getByTestId(id).click();
    await page.waitForTimeout(300);
  }
  const paths = await page.locator('.ant-menu-item [data-testid^="menu:/"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(5)));
  expect(paths.length).toBeGreaterThan(3);
  // shipping is the operator's daily work: its group, the monitor and the truck report are in the menu
  expect(paths).toEqual(
    expect.arrayContaining([
      '/ship-order-manage/ship-order',
      '/ship-order-manage/delivery',
      '/ship-order-manage/receipt',
      '/ship-order-manage/ship-plan',
      '/ship-order/monitor',
      '/report/truck',
    ]),
  );
  expect(paths.filter((p) => p.startsWith('/system/') || p === '/report/idle-carrier')).toEqual([]);
  // links by their address without the record id: the first row's stands for all rows
  const links = new Map<string, string>();
  for (const p of paths.filter((x) => !x.startsWith('/map') && !x.startsWith('/vehicle') && !x.startsWith('/locating'))) {
    await page.goto(`${baseUrl()}${p}`);
    await settled();
    expect(await page.getByTestId('page-403').count(), p).toBe(0);
    for (const href of await page.locator('.shell-content a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
      const key = href.replace(/\/\d+$/, '/:id');
      if (!links.has(key)) links.set(key, href);
    }
  }
  // every list's create form and first record (the shipping documents among them), and other links
  const forms = [...links.entries()].filter(([key]) => /\/(create|(detail|edit)\/:id)$/.test(key)).map(([, href]) => href);
  expect(forms).toEqual(expect.arrayContaining(['/ship-order-manage/ship-order/create']));
  expect(forms.filter((f) => /^\/ship-order-manage\/(ship-order|delivery|receipt)\/detail\/\d+$/.test(f))).toHaveLength(3);
  // a truck of the truck shipment report, opened as its row does
  const truck = (await api('/truck/list', { page: 1, limit: 1 })).data.list[0] as { id: number } | undefined;
  expect(truck).toBeTruthy();
  const opened = new Set([...forms, ...[...links.values()].slice(0, 12), `/report/truck/detail?id=${truck!.id}`]);
  for (const href of opened) {
    await page.goto(`${baseUrl()}${href}`);
    await settled();
    expect(await page.getByTestId('page-403').count(), href).toBe(0);
  }
  console.log(`[first-hour] operator: ${paths.length} menu pages, then ${opened.size} forms, records and links: ${[...opened].join(' ')}`);
  expect(refused).toEqual([]);
  // the operator lists carriers but may not open one: the hit is shown, marked
  const sn = (await api('/carrier/list', { page: 1, limit: 1 })).data.list[0].sn as string;
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(sn);
  const hit = page.locator('[data-testid^="palette-item:find:carrier:"]').first();
  await hit.waitFor();
  expect(await hit.textContent()).toMatch(/may not open/);
  await shot(page, 'palette-needs-permission');
});

test('map history names the subject and offers the last known position for an empty period', async () => {
  await login(page, 'admin', 'Admin@12345');
  const carrier = (await api('/carrier/list', { page: 1, limit: 1 })).data.list[0];
  await page.goto(`${baseUrl()}/map/history?carrierId=${carrier.id}`);
  const subject = page.getByTestId('history-subject');
  await expect.poll(() => subject.textContent(), { timeout: 20000 }).toContain(carrier.sn);
  expect(await subject.textContent()).not.toContain('carrierId');
  // a custom period long ago: no track, the empty state says so
  await page
    .getByTestId('history-preset')
    .getByText(/custom/i)
    .click();
  await page.locator('.ant-picker-range input').first().fill('2001-01-01 00:00:00');
  await page.locator('.ant-picker-range input').nth(1).fill('2001-01-05 00:00:00');
  await page.keyboard.press('Enter');
  await page.getByTestId('history-empty').waitFor({ timeout: 20000 });
  await shot(page, 'history-empty');
  const text = await page.getByTestId('history-empty').textContent();
  expect(text).toMatch(/No position between \d{4}-\d\d-\d\d \d\d:\d\d and /);
  if (await page.getByTestId('history-period-of-last').count()) {
    await page.getByTestId('history-period-of-last').click();
    await expect.poll(() => page.getByTestId('history-empty').count(), { timeout: 20000 }).toBe(0);
  } else expect(text).toMatch(/No position has been recorded/);
});

test('map: the legend folds, fit-all keeps markers out from under it, the carrier detail leads to the map', { timeout: 180_000 }, async () => {
  await login(page, 'admin', 'Admin@12345');
  await page.goto(`${baseUrl()}/map`);
  const canvas = page.getByTestId('map-canvas');
  await canvas.waitFor({ timeout: 60000 });
  await expect.poll(() => page.evaluate(() => Boolean((window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw)), { timeout: 60000 }).toBe(true);
  await page.getByTestId('map-fit').click();
  await page.waitForTimeout(800);
  const legend = (await page.getByTestId('map-legend').boundingBox())!;
  const frame = (await canvas.boundingBox())!;
  // no marker position of the fleet lies under the legend after the fit
  const under = await page.evaluate(
    ([l, f]) => {
      const project = (window as unknown as { __mapProject?: (lng: number, lat: number) => number[] }).__mapProject!;
      const pts = (window as unknown as { __mapPoints?: { lng: number[]; lat: number[] } }).__mapPoints;
      if (!pts) return -1;
      let n = 0;
      for (let i = 0; i < pts.lng.length; i++) {
        const [x, y] = project(pts.lng[i], pts.lat[i]);
        if (f.x + x >= l.x && f.x + x <= l.x + l.width && f.y + y >= l.y && f.y + y <= l.y + l.height) n++;
      }
      return n;
    },
    [legend, frame] as const,
  );
  expect(under).toBe(0);
  await shot(page, 'map-fit-legend');
  await page.getByTestId('map-legend-toggle').click();
  expect(await page.getByTestId('map-legend').getAttribute('data-open')).toBe('false');
  expect((await page.getByTestId('map-legend').boundingBox())!.height).toBeLessThan(legend.height);

  const carrier = (await api('/carrier/list', { page: 1, limit: 1 })).data.list[0];
  await page.goto(`${baseUrl()}/carrier/management/carrier/detail/${carrier.id}`);
  await page.getByTestId('record-show-on-map').click();
  const snBox = () => page.getByTestId('map-filter-sn').evaluate((el) => (el instanceof HTMLInputElement ? el : el.querySelector('input'))!.value);
  await expect.poll(snBox, { timeout: 30000 }).toBe(carrier.sn);
  await expect.poll(() => page.getByTestId('map-count').getAttribute('data-count'), { timeout: 30000 }).toBe('1');
});

test('the settings route has no list screen that would spin; the settings page works', async () => {
  await login(page, 'admin', 'Admin@12345');
  await page.goto(`${baseUrl()}/system/config/settings`);
  await page.getByTestId('page-404').waitFor();
  await page.goto(`${baseUrl()}/system/config`);
  await page.getByTestId('config-save').waitFor();
});
