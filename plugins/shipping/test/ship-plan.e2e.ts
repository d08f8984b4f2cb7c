/**
 * Ship plan screens in headless chromium on a real server (temp SQLite): a planner creates a
 * plan with two detail lines on one page, imports the cubing plan from the plan's detail page (a
 * workbook built from the import template; a row without a container number and one with an
 * unknown carrier code are refused with their SPEC §8 reasons), releases it after the
 * irreversible-step warning and finds it frozen: no line edits, no import, no edit, no delete.
 * Screenshots go to test-output/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { loadLocales } from '@rti/metadata';
import { xlsx } from '../../../server/test/import-fixtures';
import { grantWholeCatalogue, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import type { TestServer } from '../../../server/test/support/test-server';
import { browse, formSelect as select, ok, pick as choose, shippingServer, type ShippingServer } from './support/browser';

let server: ShippingServer;
let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;
let planId: number;
let planNo: string;
const ROUTE = '/ship-order-manage/ship-plan';
// the texts the screens show, from the metadata's own catalogue
const en = loadLocales()['en-US'] as any;
const reason = en.enums.sharedImportError;

const pick = (target: Locator, text: string) => choose(page, target, text);
const formSelect = (name: string) => select(page, name);
const plan = () => ok(ts.a, '/ship-plan', { id: planId });
const cubing = async () => (await ok(ts.a, '/ship-cubing-plan/list', { shipPlanId: planId, page: 1, limit: 50 })).list as any[];

beforeAll(async () => {
  server = await shippingServer('ship-plan');
  ts = server.ts;
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  await ok(ts.a, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true });
  await ok(ts.a, '/carrier-code/create', { code: 'PAL-12', name: 'Pallet 12', projectId, type: 30, available: true });
  await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub' });
  await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka DC' });
  await grantWholeCatalogue(ts);
  cb = await browse(ts, ts.a);
  page = cb.page;
});
afterAll(async () => {
  await cb?.close();
  await server?.close();
});

describe('ship plan screens', () => {
  it('creates a plan with two detail lines on one page', async () => {
    await page.goto(`${ts.url}${ROUTE}/create`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    await pick(formSelect('shipperWarehouseId'), 'Shanghai Hub');
    await pick(formSelect('receiverWarehouseId'), 'Osaka DC');
    const lines = page.getByTestId('document-lines-ship-plan-detail');
    const planned: Array<[string, number, string]> = [
      ['BOX-60', 40, 'MSKU-1'],
      ['PAL-12', 6, ''],
    ];
    for (const [i, [code, qty, containerNo]] of planned.entries()) {
      await page.getByTestId('document-line-add').click();
      const row = lines.locator('tr.ant-table-row').nth(i);
      // carrier code, quantity, container (a carrier: left empty), container no., remark
      await pick(row.locator('.ant-select').first(), code);
      await row.locator('.ant-input-number input').fill(String(qty));
      if (containerNo) await row.locator('input.ant-input').first().fill(containerNo);
    }
    // the header's total follows the lines before saving
    await expect.poll(() => page.getByTestId('document-lines-summary').innerText()).toContain('46');
    await page.getByTestId('meta-save').click();
    await page.waitForURL((u) => u.pathname === ROUTE, { timeout: 30000 });
    const list = await ok(ts.a, '/ship-plan/list', { page: 1, limit: 5 });
    expect(list.total).toBe(1);
    planId = list.list[0].id;
    planNo = list.list[0].shipPlanNo;
    expect(planNo).toMatch(/^SP\d{8}\d{4}$/);
    await page.getByTestId('meta-table').getByText(planNo).waitFor({ timeout: 30000 });
    expect(await plan()).toMatchObject({
      status: 10,
      totalAmount: 46,
      cubingAmount: 0,
      shipperWarehouseIdLabel: 'Shanghai Hub',
      receiverWarehouseIdLabel: 'Osaka DC',
    });
    const details = await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: planId, page: 1, limit: 10 });
    expect(details.list.map((l: any) => [l.carrierCodeIdLabel, l.qty, l.containerNo ?? null])).toEqual([
      ['BOX-60', 40, 'MSKU-1'],
      ['PAL-12', 6, null],
    ]);
  });

  it('imports the cubing plan from the detail page: good rows in, refused rows with their reasons', async () => {
    await page.goto(`${ts.url}${ROUTE}/detail/${planId}`);
    await page.getByTestId('meta-show').getByText(planNo).waitFor({ timeout: 60000 });
    const card = page.getByTestId('children-ship-cubing-plan');
    await card.getByTestId('meta-import').click();

    // the workbook: the template's columns, three good rows and two the server refuses
    const res = await ts.request('/ship-cubing-plan/import/template', {}, { token: ts.a.token, orgId: ts.a.orgId });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    expect(headers).toHaveLength(5);
    const file = await xlsx(headers, [
      [planNo, 'MSKU-1', 'BOX-60', 25, 'first container'], // row 2
      [planNo, 'MSKU-2', 'BOX-60', 15, null], // row 3: 40 of 40 boxes
      [planNo, 'MSKU-2', 'PAL-12', 6, null], // row 4: 6 of 6 pallets
      [planNo, null, 'PAL-12', 1, null], // row 5: no container number
      [planNo, 'MSKU-3', 'CRATE-9', 1, null], // row 6: no such carrier code
    ]);
    const dialog = page.getByTestId('meta-import-dialog');
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'cubing-plan.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await page.getByTestId('meta-import-result').waitFor({ timeout: 30000 });
    expect(await page.getByTestId('meta-import-success').innerText()).toBe('3');
    expect(await page.getByTestId('meta-import-failed').innerText()).toBe('2');
    // each refused row is named with its reason
    const errors = page.getByTestId('meta-import-errors');
    const errorRow = (row: number) => errors.locator('tr.ant-table-row').filter({ has: page.locator('td', { hasText: new RegExp(`^${row}$`) }) });
    await expect.poll(() => errorRow(5).innerText()).toContain(reason.containerNumberEmpty);
    await expect.poll(() => errorRow(6).innerText()).toContain(reason.carrierCodeNotFound);
    await cb.shot('ship-plan-cubing-import');
    await page.getByTestId('meta-import-close').click();
    await dialog.waitFor({ state: 'detached' });

    // the card lists the imported rows, the header's cubing total follows
    await card.getByText('MSKU-2').first().waitFor({ timeout: 20000 });
    expect((await cubing()).map((c) => [c.containerNo, c.carrierCodeIdLabel, c.qty]).sort()).toEqual([
      ['MSKU-1', 'BOX-60', 25],
      ['MSKU-2', 'BOX-60', 15],
      ['MSKU-2', 'PAL-12', 6],
    ]);
    expect((await plan()).cubingAmount).toBe(46);
    const cubed = page
      .getByTestId('meta-show')
      .locator('th.ant-descriptions-item-label', { hasText: new RegExp(`^${en.fields.cubingAmount}$`) })
      .locator('xpath=following-sibling::td[1]');
    await expect.poll(() => cubed.innerText(), { timeout: 20000 }).toBe('46');
  });

  it('releases with the confirmation, then the plan is frozen', async () => {
    // before: lines can be edited, the cubing plan imported, the plan edited and deleted
    await page.getByTestId('document-lines-edit').waitFor();
    await page.getByTestId('meta-show-edit').waitFor();
    await page.getByTestId('meta-step-release').click();
    // the irreversible-step warning comes first
    await page.getByTestId('meta-step-warning').waitFor();
    await page.getByTestId('meta-step-ok').click();
    await page.getByTestId('meta-step-warning').waitFor({ state: 'hidden', timeout: 20000 });
    await expect.poll(async () => (await plan()).status, { timeout: 20000 }).toBe(20);
    const released = await plan();
    expect(released.releasedBy).toBeTruthy();
    expect(released.releasedAt).toBeTruthy();

    // on the page without a reload: released, the step gone, lines and cubing plan frozen
    const show = page.getByTestId('meta-show');
    const status = show.locator('th.ant-descriptions-item-label', { hasText: new RegExp(`^${en.fields.status}$`) }).locator('xpath=following-sibling::td[1]');
    await expect.poll(() => status.innerText(), { timeout: 20000 }).toBe(en.enums.shipPlanStatus.released);
    await page.getByTestId('meta-step-release').waitFor({ state: 'detached', timeout: 20000 });
    await page.getByTestId('document-lines-ship-plan-detail').getByTestId('document-lines-frozen').waitFor();
    expect(await page.getByTestId('document-lines-edit').count()).toBe(0);
    expect(await page.getByTestId('children-ship-cubing-plan').getByTestId('meta-import').count()).toBe(0);
    // Edit stays, disabled (its tooltip says why); Delete likewise
    expect(await page.getByTestId('meta-show-edit').count()).toBe(0);
    expect(await page.locator('button[disabled]', { hasText: /^Edit$/ }).count()).toBe(1);
    expect(await page.getByTestId('meta-show-delete').isDisabled()).toBe(true);
    await cb.shot('ship-plan-released');

    // the editor opened directly says why, and the server refuses a change all the same
    await page.goto(`${ts.url}${ROUTE}/edit/${planId}`);
    await page.getByTestId('document-form').waitFor({ timeout: 60000 });
    await page.locator('.ant-alert-warning').getByText(en.rules.shipPlanClosedNoEdit).first().waitFor({ timeout: 20000 });
    expect(await page.getByTestId('meta-save').isDisabled()).toBe(true);
    expect((await ts.a.call('/ship-plan/save', { id: planId, lines: { 'ship-plan-detail': [] } })).body.code).toBe(10004);
    expect((await plan()).totalAmount).toBe(46);
  });
});
