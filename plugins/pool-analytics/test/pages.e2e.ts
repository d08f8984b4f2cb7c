/**
 * The pool analytics pages in headless chromium as a planner restricted to two warehouses (Plant
 * North, owned by the supplier Northwind Moulding, and Harbour DC, owned by the customer Harbour
 * Assembly; Lakeside Yard is another customer's and not the planner's), holding the pool pages
 * and the partner terms, not an administrator: the turns page with its chart, the partner
 * balances, a partner's monthly statement downloaded as PDF, the partner's free period edited on
 * the terms page and read back on the balances, and the turns page in Chinese. Every wait is for
 * a state (an element, a value), never a fixed time nor network idle (the console keeps an event
 * stream open).
 */
import { Enums } from '@rti/metadata';
import { DAY_MS } from '@rti/server/plugin-api';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowOperator, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const WAIT = { timeout: 30000 };
const FIRST = { timeout: 60000 };
let ts: TestServer;
let planner: Caller;
let cb: ConsoleBrowser;
let page: Page;
const wh: Record<'WS' | 'WC' | 'WO', number> = { WS: 0, WC: 0, WO: 0 };
let harbour: number;

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

/*
 * Days from M0, the first day of last month (UTC; the test organisation's zone). TOTE-1 and
 * TOTE-2 loop between Plant North and Harbour DC; TOTE-3 stands in Lakeside Yard.
 *
 *   TOTE-1  out WS −10 · in WC −9 · out WC 5 · in WS 6 · out WS 12 · in WC 13 (still there)
 *   TOTE-2  out WS −5 · in WC −4 · out WC 20 · in WS 21 (still there)
 *
 * Turns over the page's default 90 days: Plant North has two departures of TOTE-1 22 days apart
 * (one cycle of 22 days); Harbour DC none repeated. Harbour Assembly holds TOTE-1 today.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'pool-analytics'] });
  const now = new Date();
  const M0 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const at = (d: number) => new Date(M0 + d * DAY_MS + 9 * 3_600_000);
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const tote = (await ok(ts.a, '/carrier-code/create', { code: 'TOTE', name: 'Tote 40', projectId, type: 10, available: true })).id;
  const T = Enums.supplierCustomerType;
  const northwind = (await ok(ts.a, '/supplier-customer/create', { type: T.supplier, entCode: 'NW', name: 'Northwind Moulding' })).id;
  harbour = (await ok(ts.a, '/supplier-customer/create', { type: T.customer, entCode: 'HA', name: 'Harbour Assembly' })).id;
  const lakeside = (await ok(ts.a, '/supplier-customer/create', { type: T.customer, entCode: 'LM', name: 'Lakeside Motors' })).id;
  const site = async (name: string, type: number, partner: number, lng: number) =>
    (await ok(ts.a, '/location/create', { name, type, supplierCustomerId: partner, longitude: lng, latitude: 31 })).id;
  wh.WS = (await ok(ts.a, '/warehouse/create', { code: 'WS', name: 'Plant North', locationId: await site('North site', 10, northwind, 121) })).id;
  wh.WC = (await ok(ts.a, '/warehouse/create', { code: 'WC', name: 'Harbour DC', locationId: await site('Harbour site', 20, harbour, 122) })).id;
  wh.WO = (await ok(ts.a, '/warehouse/create', { code: 'WO', name: 'Lakeside Yard', locationId: await site('Lakeside site', 20, lakeside, 120) })).id;
  await ok(ts.a, '/pool-partner-terms/create', { supplierCustomerId: harbour, freeDays: 10 });
  await ok(ts.a, '/pool-partner-terms/create', { supplierCustomerId: lakeside, freeDays: 20 });
  const c: Record<string, number> = {};
  for (const sn of ['TOTE-1', 'TOTE-2', 'TOTE-3']) c[sn] = (await ok(ts.a, '/carrier/create', { sn, carrierCodeId: tote })).id;
  // eslint-disable-next-line rti/no-raw-models -- the test writes what gate passes and receipts would
  const carriers = ts.server.db.models.carrier;
  const inWh = Enums.transportStatus.inWarehouse;
  await carriers.update({ warehouseId: wh.WC, transportStatus: inWh, inboundTime: at(13) }, { where: { id: c['TOTE-1'] } });
  await carriers.update({ warehouseId: wh.WS, transportStatus: inWh, inboundTime: at(21) }, { where: { id: c['TOTE-2'] } });
  await carriers.update({ warehouseId: wh.WO, transportStatus: inWh, inboundTime: at(-30) }, { where: { id: c['TOTE-3'] } });
  const IN = Enums.inoutDirection.inbound;
  const OUT = Enums.inoutDirection.outbound;
  const moves: Array<[string, number, number, number]> = [
    ['TOTE-1', OUT, wh.WS, -10],
    ['TOTE-1', IN, wh.WC, -9],
    ['TOTE-1', OUT, wh.WC, 5],
    ['TOTE-1', IN, wh.WS, 6],
    ['TOTE-1', OUT, wh.WS, 12],
    ['TOTE-1', IN, wh.WC, 13],
    ['TOTE-2', OUT, wh.WS, -5],
    ['TOTE-2', IN, wh.WC, -4],
    ['TOTE-2', OUT, wh.WC, 20],
    ['TOTE-2', IN, wh.WS, 21],
    ['TOTE-3', IN, wh.WO, -30],
  ];
  // eslint-disable-next-line rti/no-raw-models -- as above
  await ts.server.db.models['carrier-inout'].bulkCreate(
    moves.map(([sn, direction, warehouseId, d]) => ({ orgId: ts.orgA, carrierId: c[sn], sn, carrierCodeId: tote, direction, warehouseId, confirmTime: at(d) })),
  );
  const TERMS = '/report/pool/partner-terms';
  planner = await narrowOperator(ts, 'pool planner', {
    screens: ['/report/pool/turns', '/report/pool/partner-balance', '/report/pool/partner-history', '/report/pool/partner-statement', TERMS, `${TERMS}/edit`],
    calls:
      /^\/(pool-analytics\/|pool-partner-terms(\/(list|update)|$)|supplier-customer\/(list|all)$|warehouse\/(list|all)$|carrier-code\/(list|all)$|project\/(list|all)$)/,
    warehouseIds: [wh.WS, wh.WC],
  });
  cb = await openConsole(ts, planner);
  page = cb.page;
}, 120_000);
afterAll(async () => {
  await cb?.close();
  await ts?.close();
});

const table = () => page.getByTestId('report-table');
const tableRows = () => table().locator('tbody tr.ant-table-row');
const openReport = async (path: string) => {
  await page.goto(`${ts.url}${path}`);
  await page.getByTestId('report-page').waitFor(FIRST);
};

describe('pool analytics pages as a warehouse-restricted planner', () => {
  it('turns per warehouse: its two warehouses with their cycle, and the chart of cycle time and dwell', async () => {
    await openReport('/report/pool/turns');
    await expect.poll(() => tableRows().count(), WAIT).toBe(2);
    const text = await table().innerText();
    expect(text).toContain('Plant North');
    expect(text).toContain('Harbour DC');
    expect(text).not.toContain('Lakeside Yard');
    // Plant North: two departures of TOTE-1 22 days apart → cycle 22 days, 365 / 22 = 16.59 turns a year
    const north = await tableRows().filter({ hasText: 'Plant North' }).innerText();
    expect(north).toContain('22');
    expect(north).toContain('16.59');
    // a bar per warehouse and figure (cycle time, dwell)
    const chart = page.getByTestId('report-chart');
    await chart.waitFor(WAIT);
    await expect.poll(() => chart.locator('svg rect').count(), WAIT).toBeGreaterThan(0);
    expect(await chart.locator('svg rect title').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Plant North')]));
    await cb.shot('pool-turns');
  });

  it('partner balances: the partners of its warehouses, with the carriers each holds against its free period', async () => {
    await openReport('/report/pool/partner-balance');
    const row = tableRows().filter({ hasText: 'Harbour Assembly' });
    await row.waitFor(WAIT);
    expect(await table().innerText()).not.toContain('Lakeside Motors');
    // TOTE-1 stands in Harbour DC; free period 10 days
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.map((s) => s.trim())).toEqual(expect.arrayContaining(['1', '10']));
    await cb.shot('pool-partner-balance');
  });

  it("downloads a partner's statement of last month as PDF from the statement page", async () => {
    await openReport('/report/pool/partner-statement');
    await tableRows().filter({ hasText: 'Harbour Assembly' }).first().waitFor(WAIT);
    const select = page.getByTestId('pool-statement-partner');
    await select.click();
    const listId = await select.locator('input').getAttribute('aria-controls');
    await page.locator(`.ant-select-dropdown:has([id="${listId}"]) .ant-select-item-option`).filter({ hasText: 'Harbour Assembly' }).first().click();
    await select.locator('.ant-select-selection-item').filter({ hasText: 'Harbour Assembly' }).waitFor(WAIT);
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.getByTestId('pool-statement-pdf').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^partner-statement-${harbour}-.+\\.pdf$`));
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await cb.shot('pool-partner-statement');
  });

  it("edits a partner's free period on the terms page; the balances read the new one", async () => {
    await page.goto(`${ts.url}/report/pool/partner-terms`);
    const rows = page.locator('[data-testid=meta-table] tbody tr.ant-table-row');
    const row = rows.filter({ hasText: 'Harbour Assembly' });
    await row.waitFor(FIRST);
    await row.getByTestId('meta-row-edit').click();
    const form = page.getByTestId('meta-form');
    const days = form.locator('#freeDays');
    await days.waitFor(WAIT);
    await expect.poll(() => days.inputValue(), WAIT).toBe('10');
    await days.fill('7');
    await page.getByTestId('meta-save').click();
    await page.waitForURL((u) => u.pathname === '/report/pool/partner-terms', WAIT);
    const terms = (await ok(planner, '/pool-partner-terms/list', { page: 1, limit: 10 })).list;
    expect(terms.find((t: any) => t.supplierCustomerId === harbour)?.freeDays).toBe(7);

    await openReport('/report/pool/partner-balance');
    const balance = tableRows().filter({ hasText: 'Harbour Assembly' });
    await balance.waitFor(WAIT);
    await expect.poll(async () => (await balance.locator('td').allInnerTexts()).map((s) => s.trim()), WAIT).toContain('7');
  });

  it('the turns page in Chinese: translated headers and menu title, the same two warehouses and the chart', async () => {
    await page.evaluate((uid) => localStorage.setItem(`admin-locale:${uid}`, 'zh-CN'), String(planner.userId));
    await openReport('/report/pool/turns');
    await expect.poll(() => tableRows().count(), WAIT).toBe(2);
    await expect.poll(() => table().locator('thead').innerText(), WAIT).toContain('年周转次数');
    expect(await table().locator('thead').innerText()).toContain('平均停留');
    await page.getByText('载具池周转与停留').first().waitFor(WAIT);
    // the bars (a zero figure draws an empty one) titled with the warehouse and the translated figure
    const bars = page.getByTestId('report-chart').locator('svg rect title');
    await expect.poll(() => bars.count(), WAIT).toBeGreaterThan(0);
    expect((await bars.allTextContents()).join('\n')).toContain('平均停留');
    // what a column counts, on its header's (?) in Chinese
    await page.getByTestId('report-help-visits').first().hover();
    await page.getByRole('tooltip').filter({ hasText: '出库结束的停留' }).waitFor(WAIT);
    await cb.shot('pool-turns-zh');
  });

  it('the turns page on a phone (375 px, in Chinese): the two warehouses and their figures, the page not wider than the screen', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await openReport('/report/pool/turns');
      await expect.poll(() => tableRows().count(), WAIT).toBe(2);
      expect(await tableRows().filter({ hasText: 'Plant North' }).innerText()).toContain('16.59');
      // the table scrolls in its own box; the page itself does not scroll sideways
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
      await cb.shot('pool-turns-phone');
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });
});
