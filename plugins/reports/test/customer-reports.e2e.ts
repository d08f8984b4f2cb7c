/**
 * A customer report plugin in headless chromium (issue 19 item 2), as a planner restricted to one
 * warehouse whose role holds the Customer reports page and the customer report's page without its
 * export code: off for the organisation, the report is not in the menu; switched on from Reports →
 * Customer reports, it appears at once; its page shows no Export button, and its warehouse picker
 * (a call of another resource, implied by the page) offers the planner's warehouse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { narrowOperator, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const PLUGIN = 'customer-operation-a';
let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'reports', PLUGIN] });
  const mine = (await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Suzhou Plant' })).id;
  await ok(ts.a, '/warehouse/create', { code: 'W2', name: 'Osaka Depot' });
  const planner = await narrowOperator(ts, 'planner', {
    screens: ['/report/customer-reports', `/report/${PLUGIN}/list`],
    calls: new RegExp(`^/(organization/plugin/|${PLUGIN}/list$)`),
    warehouseIds: [mine],
  });
  // the test server switches every customer report on: start from off
  await ok(planner, '/organization/plugin/update', { plugin: PLUGIN, enabled: false });
  cb = await openConsole(ts, planner);
  page = cb.page;
}, 120_000);
afterAll(async () => {
  await cb?.close();
  await ts?.close();
});

const menuItem = () => page.locator('.ant-menu').getByText('Customer operation daily report A', { exact: true });

describe('customer report plugins', () => {
  it('are switched on for the organisation from Customer reports, and the menu follows', async () => {
    await page.goto(`${ts.url}/report/customer-reports`);
    await page.getByTestId('customer-reports-page').waitFor({ timeout: 60000 });
    const toggle = page.getByTestId(`customer-report-switch-${PLUGIN}`);
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await page
      .getByText('Reports', { exact: true })
      .first()
      .click()
      .catch(() => undefined);
    expect(await menuItem().count()).toBe(0);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 10000 }).toBe('true');
    await expect.poll(() => menuItem().count(), { timeout: 10000 }).toBe(1);
    await cb.shot('customer-reports-switch');
  });

  it("opens the report: no Export without the export code, the warehouse picker offers the planner's warehouse", async () => {
    await page.goto(`${ts.url}/report/${PLUGIN}/list`);
    await page.getByTestId('report-page').waitFor({ timeout: 60000 });
    await page.getByTestId('report-table').waitFor({ timeout: 30000 });
    expect(await page.getByTestId('report-export').count()).toBe(0);
    await page.getByTestId('report-search').locator('.ant-select').first().click();
    const option = page.locator('.ant-select-item-option').filter({ hasText: 'Suzhou Plant' });
    await option.first().waitFor({ timeout: 15000 });
    expect(await page.locator('.ant-select-item-option').filter({ hasText: 'Osaka Depot' }).count()).toBe(0);
    await cb.shot('customer-report-page');
  });
});
