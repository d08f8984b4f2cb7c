/**
 * Receiving what was shipped, in headless chromium on a real server (temp SQLite), as the people
 * who do it (issue 17) — never as an administrator: a clerk restricted to the shipper warehouse
 * releases a ship order of six carriers (its lines show Shipped without a reload); a receiver
 * restricted to the receiving warehouse sees the inbound order, creates its receipt (the form
 * fills itself from the order, the lines come from it), receives by scanning a serial, by
 * ticking a line and by container, scans a serial twice (the refusal names it), closes with the
 * confirmation stating how many become missing, and the lines left show Missing. The panel is
 * checked in zh-CN and at phone width (375 px). Screenshots go to test-output/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openConsole, grantWholeCatalogue, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let dir: string;
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
const sn = (i: number) => `C-${String(i).padStart(3, '0')}`;
const WAIT = { timeout: 30000 };

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

/** The browser signs in as `c` (its session cookies), optionally in another language. */
async function signInAs(c: Caller, lang = 'en-US'): Promise<void> {
  const context = page.context();
  await context.clearCookies();
  const domain = new URL(ts.url).hostname;
  await context.addCookies(
    [['admin-token', c.token], ['admin-user-id', String(c.userId)], ['admin-org-id', String(c.orgId)]].map(([name, value]) => ({ name, value, domain, path: '/' })),
  );
  await page.goto(`${ts.url}/403`);
  await page.evaluate(([uid, l]) => localStorage.setItem(`admin-locale:${uid}`, l), [String(c.userId), lang]);
}

/** Opens an antd select (a ref field), types to search and picks the option showing `text`. */
async function pick(select: Locator, text: string): Promise<void> {
  await select.click();
  const input = select.locator('input');
  await input.fill(text);
  const listId = await input.getAttribute('aria-controls');
  const option = page.locator(`.ant-select-dropdown:has([id="${listId}"]) .ant-select-item-option`).filter({ hasText: text }).first();
  await option.waitFor(WAIT);
  await option.click();
  await select.locator('.ant-select-selection-item').filter({ hasText: text }).waitFor(WAIT);
}
const formSelect = (name: string) => page.locator(`.ant-form-item:has(#${name}) .ant-select`).first();
const chosen = (name: string, text: string) => formSelect(name).locator('.ant-select-selection-item').filter({ hasText: text }).waitFor(WAIT);

const receiptLines = () => page.getByTestId('document-lines-receipt-detail');
const lineRow = (s: string) => receiptLines().locator('tr.ant-table-row').filter({ has: page.getByText(s, { exact: true }) });
const count = (key: string) => page.getByTestId(`receiving-count-${key}`);
const counted = async (key: string, n: number) => expect.poll(() => count(key).getAttribute('data-value'), WAIT).toBe(String(n));
const receipt = () => ok(receiver, '/receipt', { id: receiptId });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-receiving-e2e-'));
  ts = await startTestServer({ plugins: ['shipping'], config: { dataDir: dir } });
  // master data (the organisation's administrator sets it up once)
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const carrierCodeId = (await ok(ts.a, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true })).id;
  const site = async (code: string, name: string, longitude: number, latitude: number) => {
    const locationId = (await ok(ts.a, '/location/create', { name, longitude, latitude, fenceRadius: 500, type: 0 })).id;
    return (await ok(ts.a, '/warehouse/create', { code, name, locationId })).id as number;
  };
  shanghai = await site('SH', 'Shanghai Hub', 121.47, 31.23);
  osaka = await site('OS', 'Osaka DC', 135.5, 34.69);
  await ok(ts.a, '/route/create', { routeName: 'SH-OS', fromWarehouseId: shanghai, toWarehouseId: osaka, transportType: 20, transportTime: 600 });
  for (let i = 1; i <= 6; i++) await ok(ts.a, '/carrier/create', { sn: sn(i), carrierCodeId, warehouseId: shanghai, status: 10 });
  // the operators' role and two operators, each restricted to one warehouse
  const roleId = (await ok(ts.a, '/role/create', { name: 'Warehouse operator', pcPermissions: [], pdaPermissions: [] })).id;
  await grantWholeCatalogue(ts); // every role of the organisation, the operators' included
  const user = async (name: string, warehouseId: number) =>
    (await ok(ts.a, '/user/create', { name, realName: name, password: 'Passw0rd!x', roleIds: [roleId], warehouseIds: [warehouseId], organizationIds: [ts.orgA] })).id as number;
  clerk = await ts.callerFor(await user('clerk.sh', shanghai), ts.orgA);
  receiver = await ts.callerFor(await user('receiver.os', osaka), ts.orgA);
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
  orderNo = (await ok(clerk, '/ship-order', { id: orderId })).orderNo;
  cb = await openConsole(ts, clerk);
  page = cb.page;
  page.on('response', (r) => r.status() >= 400 && console.error('[http]', r.status(), r.url(), r.request().postData()));
});
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('receiving what was shipped, as warehouse-restricted operators', () => {
  it('the shipper clerk releases the order: its lines show Shipped without a reload', async () => {
    await signInAs(clerk);
    await page.goto(`${ts.url}${ORDER}/detail/${orderId}`);
    await page.getByTestId('meta-show').getByText(orderNo).waitFor({ timeout: 60000 });
    const lines = page.getByTestId('document-lines-ship-order-detail');
    await lines.getByText('Pending').first().waitFor(WAIT);
    await page.getByTestId('meta-step-release').click();
    await page.getByTestId('meta-step-ok').click();
    await expect.poll(async () => (await ok(clerk, '/ship-order', { id: orderId })).status, WAIT).toBe(2);
    await expect.poll(() => lines.getByText('Shipped', { exact: true }).count(), WAIT).toBe(6);
    expect(await lines.getByText('Pending', { exact: true }).count()).toBe(0);
  });

  it('the receiver sees the inbound order and creates its receipt, prefilled from the order', async () => {
    await signInAs(receiver);
    await page.goto(`${ts.url}${ORDER}`);
    await page.getByTestId('meta-table').getByText(orderNo).waitFor({ timeout: 60000 });
    // its carriers are visible to the receiving end while in transit
    expect((await ok(receiver, '/carrier/list', { sn: sn(1), page: 1, limit: 1 })).total).toBe(1);

    await page.goto(`${ts.url}${RECEIPT}/create`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    await pick(formSelect('shipOrderId'), orderNo);
    // choosing the order fills both warehouses and the transport type
    await chosen('warehouseId', 'Osaka DC');
    await chosen('shipperWarehouseId', 'Shanghai Hub');
    await chosen('transportType', 'Land');
    // the order's six shipped lines are announced: they become the receipt's lines on save
    await page.getByTestId('document-source-lines').getByText(/^6 lines of the chosen Ship order/).waitFor(WAIT);
    await cb.shot('receipt-create-prefilled');
    await page.getByTestId('meta-save').click();
    await page.waitForURL((u) => u.pathname === RECEIPT, WAIT);
    const list = await ok(receiver, '/receipt/list', { page: 1, limit: 5, shipOrderId: orderId });
    expect(list.total).toBe(1);
    receiptId = list.list[0].id;
    // the lines came from the order, every one expected
    expect(await receipt()).toMatchObject({ totalAmount: 6, expectedAmount: 6, receivedAmount: 0, warehouseId: osaka, shipperWarehouseId: shanghai, transportType: 20 });
  });

  it('receives by scan, by ticking and by container; a second scan of a serial is refused by name', async () => {
    await page.goto(`${ts.url}${RECEIPT}/detail/${receiptId}`);
    await page.getByTestId('receiving-panel').waitFor({ timeout: 60000 });
    await counted('expected', 6);
    await lineRow(sn(6)).getByText('Expected').waitFor(WAIT);

    // a scanner types the serial and Enter
    const scan = page.getByTestId('receiving-scan');
    await scan.fill(sn(1));
    await scan.press('Enter');
    await page.getByTestId('receiving-result').getByText('1 received').waitFor(WAIT);
    await counted('received', 1);
    await counted('expected', 5);
    await lineRow(sn(1)).getByText('Received').waitFor(WAIT);

    // ticking a line in the table
    await lineRow(sn(2)).locator('.ant-checkbox-input').check();
    await page.getByTestId('receiving-receive-selected').click();
    await page.locator('.ant-message').getByText('1 line received').waitFor(WAIT);
    await counted('received', 2);
    await lineRow(sn(2)).getByText('Received').waitFor(WAIT);

    // a whole container
    await page.getByTestId('receiving-container').fill('CT-1');
    await page.getByTestId('receiving-container').press('Enter');
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
    await page.getByTestId('receiving-refused:NOPE-2').waitFor(WAIT);
    await page.getByTestId('receiving-refused:NOPE-1').waitFor(WAIT);
    page.off('request', onRequest);
    expect(scans.map((b) => JSON.parse(b).keys)).toEqual([['NOPE-1', 'NOPE-2']]);
    expect(await scan.inputValue()).toBe('');

    // the same serial again: refused, named, nothing counted twice
    await scan.fill(sn(1));
    await scan.press('Enter');
    const refused = page.getByTestId(`receiving-refused:${sn(1)}`);
    await refused.waitFor(WAIT);
    expect(await refused.innerText()).toContain(sn(1));
    await page.getByTestId('receiving-result').getByText('1 refused').waitFor(WAIT);
    await counted('received', 4);
    expect(await receipt()).toMatchObject({ status: 20, receivedAmount: 4, expectedAmount: 2 });
    await cb.shot('receipt-receiving');
  });

  it('the panel at phone width: counts and scan box fit 375 px', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await page.reload();
      const panel = page.getByTestId('receiving-panel');
      await panel.waitFor({ timeout: 60000 });
      await counted('received', 4);
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      // the scan box is on the first screen, above the receipt's fields
      const input = (await page.getByTestId('receiving-scan').boundingBox())!;
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
    await page.getByTestId('receiving-panel').waitFor({ timeout: 60000 });
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
    expect(await page.getByTestId('receiving-scan').count()).toBe(0);
    await receiptLines().locator('.ant-checkbox-input').first().waitFor({ state: 'detached', ...WAIT });
    expect(await page.getByTestId('receiving-receive-selected').count()).toBe(0);
    expect(await ok(receiver, '/ship-order', { id: orderId })).toMatchObject({ status: 4, missingAmount: 2 });
  });

  it('shows the receipt in zh-CN: panel and line statuses translated', async () => {
    await signInAs(receiver, 'zh-CN');
    await page.goto(`${ts.url}${RECEIPT}/detail/${receiptId}`);
    const panel = page.getByTestId('receiving-panel');
    await panel.getByText('收货', { exact: true }).waitFor({ timeout: 60000 });
    for (const label of ['待收', '已收', '缺失', '多收']) await panel.getByText(label, { exact: true }).waitFor(WAIT);
    await lineRow(sn(5)).getByText('缺失', { exact: true }).waitFor(WAIT);
    await cb.shot('receipt-closed-zh');
  });
});
