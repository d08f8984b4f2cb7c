/**
 * Receiving what was shipped, in headless chromium on a real server (temp SQLite), as the people
 * who do it (issue 17) — never as an administrator: a clerk restricted to the shipper warehouse
 * releases a ship order of six carriers (its lines show Shipped without a reload); a receiver
 * restricted to the receiving warehouse sees the inbound order, creates its receipt (the form
 * fills itself from the order, the lines come from it), receives by scanning a serial, by
 * ticking a line and by container, scans a serial twice (the refusal names it), closes with the
 * confirmation stating how many become missing, and the lines left show Missing. The panel is
 * checked in zh-CN and at phone width (375 px). Both operators hold a narrow shipping role (only
 * the screens and calls of their day, no deletes) and one warehouse each; setup shared with the
 * other shipping browser tests (support/browser.ts). Screenshots go to test-output/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { narrowOperator, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import type { Caller, TestServer } from '../../../server/test/support/test-server';
import { WAIT, browse, chosen, formSelect, ok, pick, shippingServer, signInAs, sites, sn, type ShippingServer } from './support/browser';

let server: ShippingServer;
let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;
let shanghai: number;
let osaka: number;
let clerk: Caller;
let receiver: Caller;
let orderId: number;
let orderNo: string;
let receiptId: number;
const ORDER = '/ship-order-manage/ship-order';
const RECEIPT = '/ship-order-manage/receipt';

const receiptLines = () => page.getByTestId('document-lines-receipt-detail');
const lineRow = (s: string) =>
  receiptLines()
    .locator('tr.ant-table-row')
    .filter({ has: page.getByText(s, { exact: true }) });
const count = (key: string) => page.getByTestId(`scan-count-${key}Amount`);
const counted = async (key: string, n: number) => expect.poll(() => count(key).getAttribute('data-value'), WAIT).toBe(String(n));
const receipt = () => ok(receiver, '/receipt', { id: receiptId });

beforeAll(async () => {
  server = await shippingServer('receiving');
  ts = server.ts;
  ({ shanghai, osaka } = await sites(ts, 6));
  // Least privilege: each operator holds a narrow shipping role (the screens and calls of their
  // day, no deletes, nothing of master data or System) and is restricted to one warehouse.
  clerk = await narrowOperator(ts, 'clerk.sh', {
    screens: [ORDER, `${ORDER}/detail`, `${ORDER}/containerize`, `${ORDER}/add-carrier`],
    calls: /^\/ship-order(\/(list|save|timeline|release|print))?$|^\/ship-order-detail\/(list|batch\/(add|update|candidates))$|^\/carrier(\/list)?$/,
    warehouseIds: [shanghai],
  });
  receiver = await narrowOperator(ts, 'receiver.os', {
    screens: [ORDER, `${ORDER}/detail`, RECEIPT, `${RECEIPT}/create`, `${RECEIPT}/detail`],
    calls:
      /^\/ship-order(\/(list|all|timeline))?$|^\/ship-order-detail\/list$|^\/receipt(\/(list|create|save|prefill|timeline|close))?$|^\/receipt-detail\/(list|scan|receive)$|^\/carrier(\/list)?$/,
    warehouseIds: [osaka],
  });
  // the clerk's own order: six carriers, two of them packed in container CT-1
  const ids = await Promise.all([1, 2, 3, 4, 5, 6].map(async (i) => (await ok(clerk, '/carrier/list', { sn: sn(i), page: 1, limit: 1 })).list[0].id as number));
  const saved = await ok(clerk, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: shanghai,
    receiverWarehouseId: osaka,
    transportType: 20,
    lines: ids.map((carrierId, i) => ({ carrierId, ...(i === 2 || i === 3 ? { containerNo: 'CT-1' } : {}) })),
  });
  orderId = saved.id;
  // one more carrier standing free in Shanghai, one in Osaka: what the clerk's picker may and may not offer
  const codeId = (await ok(ts.a, '/carrier/list', { sn: sn(1), page: 1, limit: 1 })).list[0].carrierCodeId;
  await ok(ts.a, '/carrier/create', { sn: sn(7), carrierCodeId: codeId, warehouseId: shanghai, status: 10 });
  await ok(ts.a, '/carrier/create', { sn: sn(8), carrierCodeId: codeId, warehouseId: osaka, status: 10 });
  orderNo = (await ok(clerk, '/ship-order', { id: orderId })).orderNo;
  cb = await browse(ts, clerk);
  page = cb.page;
});
afterAll(async () => {
  await cb?.close();
  await server?.close();
});

describe('receiving what was shipped, as warehouse-restricted operators', () => {
  it('the shipper clerk releases the order: its lines show Shipped without a reload', async () => {
    // least privilege: neither operator writes master data, deletes, or takes the other's steps
    expect((await clerk.call('/warehouse/create', { code: 'NO', name: 'Nope' })).body.code).toBe(10005);
    expect((await clerk.call('/ship-order/delete', { id: orderId })).body.code).toBe(10005);
    expect((await receiver.call('/ship-order/release', { id: orderId })).body.code).toBe(10005);
    await signInAs(page, ts, clerk);
    await page.goto(`${ts.url}${ORDER}/detail/${orderId}`);
    await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 60000 });
    // the Add carriers screen on a phone: the picker offers the free Shanghai carrier only — not Osaka's, not the order's own
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await page.getByTestId('record-page-open-ship-order-add-carrier').click();
      const adding = page.getByTestId('record-page-ship-order-add-carrier');
      await adding.getByTestId('batch-add-open').click();
      await adding.getByTestId('batch-add-tab-pick').click();
      const offered = adding.getByTestId('batch-pick-table');
      await offered.getByText(sn(7), { exact: true }).waitFor(WAIT);
      expect(await offered.locator('tr.ant-table-row').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.getByTestId('record-page-back').click();
      await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 60000 });
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
    // packing first, as the restricted clerk: the two loose carriers into CT-2 on the order's containerize screen (Set for selected)
    await page.getByTestId('record-page-open-ship-order-containerize').click();
    const packing = page.getByTestId('record-page-ship-order-containerize');
    for (const s of [sn(5), sn(6)])
      await packing
        .locator('tr.ant-table-row')
        .filter({ has: page.getByText(s, { exact: true }) })
        .locator('.ant-checkbox-input')
        .check(WAIT);
    await packing.getByTestId('batch-set-open').click();
    await page.getByTestId('batch-set-value-containerNo').locator('input').first().fill('CT-2');
    await page.getByTestId('batch-set-ok').click();
    await expect
      .poll(
        () =>
          packing
            .locator('tr.ant-table-row')
            .filter({ has: page.getByText('CT-2', { exact: true }) })
            .count(),
        WAIT,
      )
      .toBe(2);
    await page.getByTestId('record-page-back').click();
    await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 60000 });
    const lines = page.getByTestId('document-lines-ship-order-detail');
    await lines.getByText('Pending').first().waitFor(WAIT);
    await page.getByTestId('meta-step-release').click();
    // the confirmation is up before OK (a click while it opens can miss); done, or refused with its text
    await page.getByTestId('meta-step-warning').waitFor(WAIT);
    await page.getByTestId('meta-step-ok').click();
    const refused = page.locator('.ant-message-error');
    await Promise.race([page.getByTestId('meta-step-warning').waitFor({ state: 'hidden', timeout: 90000 }), refused.waitFor({ timeout: 90000 })]);
    if (await refused.isVisible()) throw new Error(`release refused: ${await refused.innerText()}`);
    await expect.poll(async () => (await ok(clerk, '/ship-order', { id: orderId })).status, WAIT).toBe(2);
    await expect.poll(() => lines.getByText('Shipped', { exact: true }).count(), WAIT).toBe(6);
    expect(await lines.getByText('Pending', { exact: true }).count()).toBe(0);
  });

  it('the clerk prints the delivery note from the detail page: one manifest per container', async () => {
    // the platform's Print (metadata `print`), not a page of the plugin; the receiver holds no print call
    expect(await page.getByTestId('meta-print').count()).toBe(1);
    await page.getByTestId('meta-print').click();
    await page.getByText('One section per Container no.').click();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.getByTestId('meta-print-ok').click()]);
    expect(download.suggestedFilename()).toBe(`${orderNo}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // a page run per container: CT-1, CT-2 and the two lines without one
    expect((pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length).toBe(3);
    expect((await receiver.call('/ship-order/print', { id: orderId })).body.code).toBe(10005);
  });

  it('the receiver sees the inbound order and creates its receipt, prefilled from the order', async () => {
    await signInAs(page, ts, receiver);
    await page.goto(`${ts.url}${ORDER}`);
    await page.getByTestId('meta-table').getByText(orderNo).waitFor({ timeout: 60000 });
    // its carriers are visible to the receiving end while in transit
    expect((await ok(receiver, '/carrier/list', { sn: sn(1), page: 1, limit: 1 })).total).toBe(1);

    await page.goto(`${ts.url}${RECEIPT}/create`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    await pick(page, formSelect(page, 'shipOrderId'), orderNo);
    // choosing the order fills both warehouses and the transport type
    await chosen(page, 'warehouseId', 'Osaka DC');
    await chosen(page, 'shipperWarehouseId', 'Shanghai Hub');
    await chosen(page, 'transportType', 'Land');
    // the order's six shipped lines are announced: they become the receipt's lines on save
    await page
      .getByTestId('document-source-lines')
      .getByText(/^6 lines of the chosen Ship order/)
      .waitFor(WAIT);
    await cb.shot('receipt-create-prefilled');
    await page.getByTestId('meta-save').click();
    await page.waitForURL((u) => u.pathname === RECEIPT, WAIT);
    const list = await ok(receiver, '/receipt/list', { page: 1, limit: 5, shipOrderId: orderId });
    expect(list.total).toBe(1);
    receiptId = list.list[0].id;
    // the lines came from the order, every one expected
    expect(await receipt()).toMatchObject({
      totalAmount: 6,
      expectedAmount: 6,
      receivedAmount: 0,
      warehouseId: osaka,
      shipperWarehouseId: shanghai,
      transportType: 20,
    });
  });

  it('receives by scan, by ticking and by container; a second scan of a serial is refused by name', async () => {
    await page.goto(`${ts.url}${RECEIPT}/detail/${receiptId}`);
    await page.getByTestId('scan-panel').waitFor({ timeout: 60000 });
    await counted('expected', 6);
    await lineRow(sn(6)).getByText('Expected').waitFor(WAIT);

    // a scanner types the serial and Enter
    const scan = page.getByTestId('scan-input');
    await scan.fill(sn(1));
    await scan.press('Enter');
    await page.getByTestId('scan-result').getByText('Received: 1').waitFor(WAIT);
    await counted('received', 1);
    await counted('expected', 5);
    await lineRow(sn(1)).getByText('Received').waitFor(WAIT);

    // ticking a line in the table
    await lineRow(sn(2)).locator('.ant-checkbox-input').check();
    await page.getByTestId('line-step-receive').click();
    await page.locator('.ant-message').getByText('Receive: 1 line').waitFor(WAIT);
    await counted('received', 2);
    await lineRow(sn(2)).getByText('Received').waitFor(WAIT);

    // a whole container
    await page.getByTestId('scan-container').fill('CT-1');
    await page.getByTestId('scan-container').press('Enter');
    await counted('received', 4);
    await counted('expected', 2);

    // several serials pasted at once go as one call; serials that are no carrier are refused by name
    const scans: string[] = [];
    const onRequest = (r: { url(): string; postData(): string | null }) => r.url().endsWith('/api/receipt-detail/scan') && scans.push(r.postData() ?? '');
    page.on('request', onRequest);
    await scan.evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, 'NOPE-1\nNOPE-2');
    await page.getByTestId('scan-refused:NOPE-2').waitFor(WAIT);
    await page.getByTestId('scan-refused:NOPE-1').waitFor(WAIT);
    page.off('request', onRequest);
    expect(scans.map((b) => JSON.parse(b).keys)).toEqual([['NOPE-1', 'NOPE-2']]);
    expect(await scan.inputValue()).toBe('');

    // the same serial again: refused, named, nothing counted twice
    await scan.fill(sn(1));
    await scan.press('Enter');
    const refused = page.getByTestId(`scan-refused:${sn(1)}`);
    await refused.waitFor(WAIT);
    expect(await refused.innerText()).toContain(sn(1));
    await page.getByTestId('scan-result').getByText('Refused: 1').waitFor(WAIT);
    await counted('received', 4);
    expect(await receipt()).toMatchObject({ status: 20, receivedAmount: 4, expectedAmount: 2 });
    await cb.shot('receipt-receiving');
  });

  it('the panel at phone width: counts and scan box fit 375 px', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await page.reload();
      const panel = page.getByTestId('scan-panel');
      await panel.waitFor({ timeout: 60000 });
      await counted('received', 4);
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      // the scan box is on the first screen, above the receipt's fields
      const input = (await page.getByTestId('scan-input').boundingBox())!;
      expect(input.width).toBeGreaterThan(200);
      expect(input.x + input.width).toBeLessThanOrEqual(375);
      expect(input.y + input.height).toBeLessThanOrEqual(812);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
      await cb.shot('receipt-receiving-phone');
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });

  it('closes with the confirmation stating how many become missing; the lines left show Missing', async () => {
    await page.goto(`${ts.url}${RECEIPT}/detail/${receiptId}`);
    await page.getByTestId('scan-panel').waitFor({ timeout: 60000 });
    await counted('expected', 2);
    await page.getByTestId('meta-step-close').click();
    const stated = page.getByTestId('meta-step-count');
    await stated.waitFor(WAIT);
    expect(await stated.innerText()).toMatch(/^2 expected carriers .*Missing/);
    await cb.shot('receipt-close-confirm');
    await page.getByTestId('meta-step-ok').click();
    await expect.poll(async () => (await receipt()).status, WAIT).toBe(30);
    // the page follows without a reload: counts, and the two lines never received
    await counted('missing', 2);
    await counted('expected', 0);
    for (const s of [sn(5), sn(6)]) await lineRow(s).getByText('Missing', { exact: true }).waitFor(WAIT);
    for (const s of [sn(1), sn(2), sn(3), sn(4)]) await lineRow(s).getByText('Received', { exact: true }).waitFor(WAIT);
    // a closed receipt takes no more scans, and its lines are no longer tickable
    expect(await page.getByTestId('scan-input').count()).toBe(0);
    await receiptLines()
      .locator('.ant-checkbox-input')
      .first()
      .waitFor({ state: 'detached', ...WAIT });
    expect(await page.getByTestId('line-step-receive').count()).toBe(0);
    expect(await ok(receiver, '/ship-order', { id: orderId })).toMatchObject({ status: 4, missingAmount: 2 });
  });

  it('shows the receipt in zh-CN: panel and line statuses translated', async () => {
    await signInAs(page, ts, receiver, 'zh-CN');
    await page.goto(`${ts.url}${RECEIPT}/detail/${receiptId}`);
    const panel = page.getByTestId('scan-panel');
    await panel.getByText('收货', { exact: true }).waitFor({ timeout: 60000 });
    for (const label of ['待收', '已收', '缺失', '多收']) await panel.getByText(label, { exact: true }).waitFor(WAIT);
    await lineRow(sn(5)).getByText('缺失', { exact: true }).waitFor(WAIT);
    await cb.shot('receipt-closed-zh');
    // the clerk's containerize screen of the received order, in Chinese: why nothing can change now
    await signInAs(page, ts, clerk, 'zh-CN');
    await page.goto(`${ts.url}${ORDER}/containerize?id=${orderId}`);
    const note = page.getByTestId('record-page-not-now');
    await note.waitFor({ timeout: 60000 });
    expect(await note.innerText()).toContain(orderNo);
    expect(await note.innerText()).toContain('明细已不能修改');
    expect(await page.getByTestId('batch-set-open').count()).toBe(0);
  });
});
