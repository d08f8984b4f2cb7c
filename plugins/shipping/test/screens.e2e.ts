/**
 * Shipping screens in headless chromium on a real server (temp SQLite): a clerk creates a ship
 * order with a line on one page, adds carriers by the warehouse picker (across pages), by
 * typed serials and by import (an unknown serial is refused with its reason each time), containerizes, releases with
 * the confirmation, sees the order on the ship-order monitor (a late one highlighted), and the
 * receiver takes a receipt of all but one carrier: the order shows the missing carrier.
 * Screenshots go to test-output/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { xlsx } from '../../../server/test/import-fixtures';
import { grantWholeCatalogue, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import type { TestServer } from '../../../server/test/support/test-server';
import { WAIT, browse, formSelect as select, ok, pick as choose, shippingServer, sites, sn, type ShippingServer } from './support/browser';

let server: ShippingServer;
let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;
let shanghai: number;
let osaka: number;
let orderId: number;
let orderNo: string;
const ROUTE = '/ship-order-manage/ship-order';

const pick = (target: Locator, text: string) => choose(page, target, text);
const formSelect = (name: string) => select(page, name);

async function order() {
  return ok(ts.a, '/ship-order', { id: orderId });
}

async function runStep(name: string): Promise<void> {
  await page.getByTestId(`meta-step-${name}`).click();
  await page.getByTestId('meta-step-warning').waitFor(WAIT);
  await page.getByTestId('meta-step-ok').click();
  // done (the dialog closes) or refused (its message shown): a refusal fails with its text
  const refused = page.locator('.ant-message-error');
  await Promise.race([page.getByTestId('meta-step-warning').waitFor({ state: 'hidden', timeout: 90000 }), refused.waitFor({ timeout: 90000 })]);
  if (await refused.isVisible()) throw new Error(`step ${name} refused: ${await refused.innerText()}`);
}

beforeAll(async () => {
  server = await shippingServer('shipping');
  ts = server.ts;
  ({ shanghai, osaka } = await sites(ts, 30));
  // a second order, released long ago: late on the monitor
  const late = await ok(ts.a, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: shanghai,
    receiverWarehouseId: osaka,
    lines: [{ carrierId: (await ok(ts.a, '/carrier/list', { sn: sn(30), page: 1, limit: 1 })).list[0].id }],
  });
  // recorded after the fact: left 30 hours ago, due 20 hours ago (the route's 600 minutes)
  await ok(ts.a, '/ship-order/release', { id: late.id, atd: new Date(Date.now() - 30 * 3_600_000).toISOString() });
  await grantWholeCatalogue(ts);
  cb = await browse(ts, ts.a);
  page = cb.page;
});
afterAll(async () => {
  await cb?.close();
  await server?.close();
});

describe('ship order screens', () => {
  it('creates a ship order with a line on one page, prefilled from /ship-order/setup', async () => {
    await page.goto(`${ts.url}${ROUTE}/create`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    // the form asks /ship-order/setup as it opens: etd = now, nothing guessed without a shipper
    await expect.poll(() => page.locator('#etd').inputValue(), { timeout: 20000 }).not.toBe('');
    expect(Math.abs(Date.parse(await page.locator('#etd').inputValue()) - Date.now())).toBeLessThan(5 * 60_000);
    expect(await page.locator('#eta').inputValue()).toBe('');
    // the shipper picker lists what stands in each warehouse (C-030 is on the road: 29 of 30)
    await pick(formSelect('shipperWarehouseId'), 'Shanghai Hub — 29 in stock');
    // asked again with the shipper: the only route leaving Shanghai gives receiver, route,
    // transport type and eta = etd + its 600 minutes; the receiver is not picked by hand
    const chosen = (name: string, text: string) => formSelect(name).locator('.ant-select-selection-item').filter({ hasText: text }).waitFor({ timeout: 20000 });
    await chosen('receiverWarehouseId', 'Osaka DC');
    await chosen('routeId', 'SH-OS');
    await chosen('transportType', 'Land');
    await expect.poll(() => page.locator('#eta').inputValue(), { timeout: 20000 }).not.toBe('');
    const minutes = (Date.parse(await page.locator('#eta').inputValue()) - Date.parse(await page.locator('#etd').inputValue())) / 60_000;
    expect(minutes).toBe(600);
    await page.keyboard.press('Escape'); // the shipper's dropdown closed for the screenshot
    await cb.shot('ship-order-create-prefilled');
    await page.getByTestId('document-line-add').click();
    const line = page.getByTestId('document-lines-ship-order-detail').locator('tr.ant-table-row').first();
    await pick(line.locator('.ant-select').first(), sn(1));
    await expect.poll(() => page.getByTestId('document-lines-summary').innerText()).toContain('1');
    await page.getByTestId('meta-save').click();
    // the save returns to the list, where the new order is the first row
    await page.waitForURL((u) => u.pathname === ROUTE, { timeout: 30000 });
    const list = await ok(ts.a, '/ship-order/list', { page: 1, limit: 5, status: [1] });
    expect(list.total).toBe(1);
    orderId = list.list[0].id;
    orderNo = list.list[0].orderNo;
    expect(orderNo).toMatch(/^SO\d{8}\d{4}$/);
    await page.getByTestId('meta-table').getByText(orderNo).waitFor({ timeout: 30000 });
    const saved = await order();
    expect(saved.totalAmount).toBe(1);
    // what the form was given was saved: the route, its transport type, eta 600 minutes after etd
    expect(saved).toMatchObject({ receiverWarehouseId: osaka, routeIdLabel: 'SH-OS', transportType: 20 });
    expect((Date.parse(saved.eta) - Date.parse(saved.etd)) / 60_000).toBe(600);
  });

  it('adds carriers by the warehouse picker across pages, by typed serials on the detail page and by import', async () => {
    await page.goto(`${ts.url}${ROUTE}/detail/${orderId}`);
    await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 60000 });
    // the detail page's button opens the order's Add carriers screen (SPEC §2 route)
    await page.getByTestId('record-page-open-ship-order-add-carrier').click();
    await page.waitForURL((u) => u.pathname === `${ROUTE}/add-carrier` && u.searchParams.get('id') === String(orderId), { timeout: 20000 });
    await page.getByTestId('record-page-ship-order-add-carrier').getByText(orderNo).first().waitFor({ timeout: 20000 });
    // the generated lines' "Add by serial" with its picker (children batch.candidates): carriers in the shipper warehouse on no open order
    const screen = page.getByTestId('record-page-ship-order-add-carrier');
    await screen.getByTestId('batch-add-open').click();
    await screen.getByTestId('batch-add-tab-pick').click();
    const table = screen.getByTestId('batch-pick-table');
    // C-001 is on this order and C-030 on the late one: 28 free carriers, page 1 starts at C-002
    await table.getByText(sn(2), { exact: true }).waitFor({ timeout: 20000 });
    expect(await table.getByText(sn(1), { exact: true }).count()).toBe(0);
    const rowOf = (s: string) => table.locator('tr.ant-table-row').filter({ has: page.getByText(s, { exact: true }) });
    for (const s of [sn(2), sn(3), sn(4)]) await rowOf(s).locator('.ant-checkbox-input').check();
    await table.locator('.ant-pagination-item-2').click();
    // 20 rows a page (SPEC §9 picker): page 2 starts at C-022
    await table.getByText(sn(22), { exact: true }).waitFor();
    expect(await table.locator('tr.ant-table-row').count()).toBe(8);
    for (const s of [sn(22), sn(23)]) await rowOf(s).locator('.ant-checkbox-input').check();
    await expect.poll(() => screen.getByTestId('batch-pick-selected').innerText()).toContain('5');
    await screen.getByTestId('batch-pick-submit').click();
    await page.locator('.ant-message').getByText('5 lines added').waitFor({ timeout: 20000 });
    // the picked carriers leave the picker
    await table.getByText(sn(5), { exact: true }).waitFor({ timeout: 20000 });
    expect(await table.getByText(sn(2), { exact: true }).count()).toBe(0);
    expect((await order()).totalAmount).toBe(6);

    // by typed serials: the generated detail page's "Add by serial" (lines' `batch`), a container for all
    await page.getByTestId('record-page-back').click();
    await page.getByTestId('batch-add-open').click();
    await page.getByTestId('batch-add-keys').fill(`${sn(5)}\n${sn(6)}\nNOPE-1`);
    await page.getByTestId('batch-add-value-containerNo').locator('input').fill('CT-1');
    await page.getByTestId('batch-add-submit').click();
    await page.locator('.ant-message').getByText('2 lines added').waitFor({ timeout: 20000 });
    const refused = page.getByTestId('batch-add-refused');
    await refused.getByText('NOPE-1').waitFor();
    expect(await refused.locator('tr.ant-table-row').count()).toBe(1);
    // only the refused serial stays in the box
    expect(await page.getByTestId('batch-add-keys').inputValue()).toBe('NOPE-1');
    expect((await order()).totalAmount).toBe(8);
    await cb.shot('ship-order-add-carriers');
    // the declared batch values on ticked lines (`batch/update`): a remark for the two just added
    const detailLines = page.getByTestId('document-lines-ship-order-detail');
    const lineOf = (s: string) => detailLines.locator('tr.ant-table-row').filter({ has: page.getByText(s, { exact: true }) });
    for (const s of [sn(5), sn(6)]) await lineOf(s).locator('.ant-checkbox-input').check();
    await page.getByTestId('batch-set-open').click();
    await page.getByTestId('batch-set-value-remark').locator('input, textarea').first().fill('Handle with care');
    await page.getByTestId('batch-set-ok').click();
    await page.locator('.ant-message').getByText('2 lines updated').waitFor({ timeout: 20000 });
    const remarks = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: orderId, page: 1, limit: 50 })).list as any[];
    expect(
      remarks
        .filter((l) => l.remark === 'Handle with care')
        .map((l) => l.carrierSn)
        .sort(),
    ).toEqual([sn(5), sn(6)]);
    await page.getByTestId('record-page-open-ship-order-add-carrier').click();
    await page.getByTestId('record-page-ship-order-add-carrier').getByText(orderNo).first().waitFor({ timeout: 20000 });

    // by import: the template's columns, one good row pair and an unknown serial
    const res = await ts.request('/ship-order-detail/import/template', {}, { token: ts.a.token, orgId: ts.a.orgId });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    const file = await xlsx(headers, [
      [orderNo, sn(7), null, null, null, null],
      [orderNo, sn(8), null, null, null, null],
      [orderNo, 'NOPE-2', null, null, null, null],
    ]);
    await page.getByTestId('record-page-ship-order-add-carrier').getByTestId('meta-import').click();
    await page
      .getByTestId('meta-import-dialog')
      .locator('input[type=file]')
      .setInputFiles({ name: 'shipping-list.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await page.getByTestId('meta-import-result').waitFor({ timeout: 30000 });
    expect(await page.getByTestId('meta-import-success').innerText()).toBe('2');
    expect(await page.getByTestId('meta-import-failed').innerText()).toBe('1');
    await page.getByTestId('meta-import-errors').getByText('NOPE-2').first().waitFor();
    await page.getByTestId('meta-import-close').click();
    await page.getByTestId('meta-import-dialog').waitFor({ state: 'detached' });

    // the screen's own total follows, then back to the order
    await expect.poll(() => page.getByTestId('record-page-field-totalAmount').innerText(), { timeout: 20000 }).toBe('10');
    await page.getByTestId('record-page-back').click();
    await page.getByTestId('record-page-ship-order-add-carrier').waitFor({ state: 'detached' });
    expect((await order()).totalAmount).toBe(10);
    // the detail's lines and total follow without a reload
    await page.getByTestId('meta-show').getByText('10', { exact: true }).first().waitFor({ timeout: 20000 });
  });

  it('containerizes lines', async () => {
    // SPEC's containerize screen is a declared record page: the order's generated lines, ticked and packed with "Set for selected"
    await page.getByTestId('record-page-open-ship-order-containerize').click();
    await page.waitForURL((u) => u.pathname === `${ROUTE}/containerize` && u.searchParams.get('id') === String(orderId), { timeout: 20000 });
    const dialog = page.getByTestId('record-page-ship-order-containerize');
    await dialog.getByText(sn(2), { exact: true }).waitFor({ timeout: 20000 });
    // packing, not adding: no "Add by serial" here
    expect(await dialog.getByTestId('batch-add-open').count()).toBe(0);
    for (const s of [sn(2), sn(3)])
      await dialog
        .locator('tr.ant-table-row')
        .filter({ has: page.getByText(s, { exact: true }) })
        .locator('.ant-checkbox-input')
        .check();
    await dialog.getByTestId('batch-set-open').click();
    await page.getByTestId('batch-set-value-containerNo').locator('input').first().fill('CT-2');
    await page.getByTestId('batch-set-ok').click();
    await page.locator('.ant-message').getByText('2 lines updated').waitFor({ timeout: 20000 });
    await expect
      .poll(
        () =>
          dialog
            .locator('tr.ant-table-row')
            .filter({ has: page.getByText('CT-2', { exact: true }) })
            .count(),
        { timeout: 20000 },
      )
      .toBe(2);
    await page.getByTestId('record-page-back').click();
    await page.getByTestId('record-page-ship-order-containerize').waitFor({ state: 'detached' });
    await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 20000 });
    const containers = await ok(ts.a, '/ship-order-detail/getcontainers', { shipOrderId: orderId });
    expect(containers.find((c: any) => c.containerNo === 'CT-2')?.total).toBe(2);
    expect(containers.find((c: any) => c.containerNo === 'CT-1')?.total).toBe(2);
  });

  it('releases with the confirmation: carriers leave Shanghai', async () => {
    await runStep('release');
    await expect.poll(async () => (await order()).status, { timeout: 20000 }).toBe(2);
    // lines are frozen now: no more adding
    await page.getByTestId('record-page-open-ship-order-add-carrier').waitFor({ state: 'detached', timeout: 20000 });
    const c = (await ok(ts.a, '/carrier/list', { sn: sn(2), page: 1, limit: 1 })).list[0];
    expect(c.transportStatus).not.toBe(10);
    expect((await order()).dueAt).toBeTruthy();
    // the order's screens opened directly (a bookmark, a restored tab) say why nothing can change
    expect(await page.getByTestId('batch-add-open').count()).toBe(0);
    await page.goto(`${ts.url}${ROUTE}/add-carrier?id=${orderId}`);
    await page.getByTestId('record-page-not-now').waitFor({ timeout: 30000 });
    expect(await page.getByTestId('batch-add-open').count()).toBe(0);
  });

  it('shows the order on the ship-order monitor, the late one highlighted', async () => {
    await page.goto(`${ts.url}/ship-order/monitor`);
    const item = page.getByTestId(`ship-monitor-item:${orderNo}`);
    await item.waitFor({ timeout: 60000 });
    expect(await item.getAttribute('data-late')).toBe('false');
    const late = page.locator('[data-testid^="ship-monitor-item:"][data-late="true"]');
    expect(await late.count()).toBe(1);
    // late orders come first
    expect(await page.locator('[data-testid^="ship-monitor-item:"]').first().getAttribute('data-late')).toBe('true');
    await page.getByTestId('ship-monitor-legend:late').getByText('(1)').waitFor();
    await page.getByTestId('ship-monitor-map').locator('canvas').first().waitFor({ timeout: 30000 });
    await item.click();
    const detail = page.getByTestId('ship-monitor-detail');
    await detail.waitFor();
    await detail.getByText('Shanghai Hub → Osaka DC').waitFor();
    expect(await page.getByTestId('ship-monitor-due').innerText()).toMatch(/\d{4}-\d{2}-\d{2}/);
    await page.waitForLoadState('networkidle'); // map tiles and layers loaded for the screenshot
    await cb.shot('ship-order-monitor');
    await page.getByTestId('ship-monitor-open').click();
    await page.waitForURL((u) => u.pathname === `${ROUTE}/detail/${orderId}`, { timeout: 30000 });
  });

  it('receives all but one carrier by a receipt: the order shows the missing one', async () => {
    await page.goto(`${ts.url}/ship-order-manage/receipt/create`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    await pick(formSelect('shipOrderId'), orderNo);
    await pick(formSelect('warehouseId'), 'Osaka DC');
    const shipped = [sn(1), sn(2), sn(3), sn(4), sn(22), sn(23), sn(5), sn(7), sn(8)]; // C-006 never arrives
    for (const [i, s] of shipped.entries()) {
      await page.getByTestId('document-line-add').click();
      await pick(page.getByTestId('document-lines-receipt-detail').locator('tr.ant-table-row').nth(i).locator('.ant-select').first(), s);
    }
    await page.getByTestId('meta-save').click();
    await page.waitForURL((u) => u.pathname === '/ship-order-manage/receipt', { timeout: 30000 });
    const receipt = (await ok(ts.a, '/receipt/list', { page: 1, limit: 1 })).list[0];
    expect(receipt.totalAmount).toBe(9);
    await page.goto(`${ts.url}/ship-order-manage/receipt/detail/${receipt.id}`);
    await page.getByTestId('meta-show').waitFor({ timeout: 60000 });
    await runStep('receive');
    await expect.poll(async () => (await ok(ts.a, '/receipt', { id: receipt.id })).status, { timeout: 20000 }).toBe(20);
    await runStep('close');
    await expect.poll(async () => (await ok(ts.a, '/receipt', { id: receipt.id })).status, { timeout: 20000 }).toBe(30);

    const o = await order();
    expect(o.status).toBe(4);
    expect(o.missingAmount).toBe(1);
    await page.goto(`${ts.url}${ROUTE}/detail/${orderId}`);
    const show = page.getByTestId('meta-show');
    await show.getByText(orderNo).waitFor({ timeout: 60000 });
    const missing = show.locator('th.ant-descriptions-item-label', { hasText: /^Missing$/ }).locator('xpath=following-sibling::td[1]');
    await expect.poll(() => missing.innerText(), { timeout: 20000 }).toBe('1');
    await cb.shot('ship-order-received-difference');
    // inventory moved by exactly the received quantity
    expect((await ok(ts.a, '/carrier/list', { warehouseId: osaka, page: 1, limit: 1 })).total).toBe(9);
  });

  it('the monitor stacks map and list on a phone without overflowing', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${ts.url}/ship-order/monitor`);
      const late = page.locator('[data-testid^="ship-monitor-item:"][data-late="true"]').first();
      await late.waitFor({ timeout: 60000 });
      const map = await page.getByTestId('ship-monitor-map').boundingBox();
      const list = await page.getByTestId('ship-monitor-list').boundingBox();
      expect(map!.width).toBeGreaterThan(300);
      expect(list!.y).toBeGreaterThanOrEqual(map!.y + map!.height - 1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
      await cb.shot('ship-order-monitor-phone');
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });
});
