/**
 * The daily inventory report page in headless chromium, as a warehouse-restricted operator (a
 * role holding only the report pages): the table and chart of its warehouses at yesterday's
 * close, the export downloaded and read back (its warehouses only, both sheets), and a warehouse's
 * link opening the per-code page with its filters (day, warehouse) filled from the link.
 * Screenshots go to test-output/screenshots/.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { narrowOperator, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;
const DAY = 86_400_000;
const D1 = new Date(Date.now() - DAY).toISOString().slice(0, 10);

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'reports'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  const pal = (await ok(ts.a, '/carrier-code/create', { code: 'PAL', name: 'Pallet', projectId, type: 30, available: true })).id;
  const wh: number[] = [];
  for (const [i, name] of ['Shanghai Hub', 'Suzhou Plant', 'Osaka Depot'].entries())
    wh.push((await ok(ts.a, '/warehouse/create', { code: `W${i}`, name, minInventory: 10, maxInventory: 40 })).id);
  // eslint-disable-next-line rti/no-raw-models -- the test writes what inventory's closing job would
  const snap = ts.server.db.models['inventory-snapshot'];
  const z = { maintenance: 0, idle: 0, empty: 0, full: 0, inTransitIn: 0, inTransitOut: 0, inbound: 0, outbound: 0 };
  const rows = [];
  for (let d = 1; d <= 7; d++) {
    const day = new Date(Date.now() - d * DAY).toISOString().slice(0, 10);
    for (const [i, w] of wh.entries()) {
      rows.push({ orgId: ts.orgA, day, warehouseId: w, carrierCodeId: box, ...z, inStock: 20 + i * 15 - d, inbound: d % 3, outbound: 1 });
      rows.push({ orgId: ts.orgA, day, warehouseId: w, carrierCodeId: pal, ...z, inStock: 5 + i });
    }
  }
  await snap.bulkCreate(rows);
  // a planner of the two Chinese sites, holding the report pages only
  const planner = await narrowOperator(ts, 'planner', {
    screens: ['/report/inventory/report/list', '/inventory-report'],
    calls: /^\/(inventory-report\/|warehouse\/(list|all)$|carrier-code\/(list|all)$)/,
    warehouseIds: [wh[0], wh[1]],
  });
  cb = await openConsole(ts, planner);
  page = cb.page;
}, 120_000);
afterAll(async () => {
  await cb?.close();
  await ts?.close();
});

const tableRows = () => page.locator('[data-testid="report-table"] tbody tr.ant-table-row');

describe('daily inventory report page', () => {
  it("shows its warehouses at yesterday's close with the chart, exports, and opens a warehouse's codes filtered", async () => {
    await page.goto(`${ts.url}/report/inventory/report/list`);
    await page.getByTestId('report-page').waitFor({ timeout: 60000 });
    await expect.poll(() => tableRows().count(), { timeout: 30000 }).toBe(2);
    const text = await page.getByTestId('report-table').innerText();
    expect(text).toContain('Shanghai Hub');
    expect(text).toContain('Suzhou Plant');
    expect(text).not.toContain('Osaka Depot');
    // the chart: in stock, min and max per warehouse
    await expect.poll(() => page.locator('[data-testid="report-chart"] svg rect').count(), { timeout: 30000 }).toBe(6);
    await cb.shot('reports-daily');

    // the export: both sheets, the planner's warehouses only
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const names: string[] = [];
    book.worksheets[0].eachRow((r, i) => i > 1 && names.push(String(r.getCell(2).value)));
    expect(names).toEqual(['Shanghai Hub', 'Suzhou Plant']);
    expect(book.worksheets[1].rowCount).toBe(5);

    // a warehouse's link: its codes on the per-code page, the form filled from the link
    await page.getByTestId('report-table').getByText('Suzhou Plant').click();
    await page.waitForURL(/\/inventory-report\?/);
    expect(new URL(page.url()).searchParams.get('day')).toBe(D1);
    // the per-code page's rows, filtered by the link: BOX and PAL of that warehouse only
    await expect.poll(() => page.getByTestId('report-table').innerText(), { timeout: 30000 }).toMatch(/^(?![\s\S]*Shanghai Hub)[\s\S]*Suzhou Plant[\s\S]*PAL/);
    expect(await tableRows().count()).toBe(2);
    expect(await page.getByTestId('report-table').innerText()).toContain('BOX');
    await cb.shot('reports-daily-by-code');
  });
});
