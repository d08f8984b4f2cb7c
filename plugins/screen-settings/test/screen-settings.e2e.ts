/**
 * A platform administrator relabels and re-orders a generated list in headless chromium; the
 * list, the create form's required rule and the labels follow without a deploy, and Reset
 * returns to the base screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;

const headers = () => page.locator('.ant-table-thead th').allInnerTexts();

beforeAll(async () => {
  ts = await startTestServer({ plugins: false });
  await grantWholeCatalogue(ts);
  const admin = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
  await ts.a.call('/supplier-customer/create', { name: 'Acme Supplies', shortName: 'ACME', type: 10, remark: 'weekly pickup' });
  cb = await openConsole(ts, admin);
  page = cb.page;
});
afterAll(async () => {
  await cb?.close();
  await ts?.close();
});

describe('screen settings', () => {
  it('relabels, re-orders and shows a column; the generated list and form follow; reset restores', async () => {
    await page.goto(`${ts.url}/system/screen-settings`);
    await page.getByTestId('screen-settings').waitFor({ timeout: 60000 });
    await page.getByTestId('screen-settings-resource').click();
    await page.keyboard.type('supplier-customer');
    await page.keyboard.press('Enter');
    await page.getByTestId('label:shortName:en-US').fill('Abbreviation');
    await page.getByTestId('move-up:shortName').click(); // before name
    await page.getByTestId('list:remark').click(); // hidden by default in the base
    await page.getByTestId('required:shortName').click();
    await cb.shot('screen-settings');
    await page.getByTestId('screen-settings-save').click();
    await page.locator('.ant-message-success').waitFor({ timeout: 15000 });

    await page.goto(`${ts.url}/basic-info/supplier-customer`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    const cols = await headers();
    expect(cols).toContain('Abbreviation');
    expect(cols.indexOf('Abbreviation')).toBeLessThan(cols.findIndex((c) => c === 'Name'));
    expect(cols).toContain('Remark');
    await cb.shot('screen-settings-list');

    // the stricter rule holds on the server whatever the form does
    const refused = await ts.a.call('/supplier-customer/create', { name: 'No Short', type: 10 });
    expect(refused.body.code).toBe(10001);
    expect(refused.body.message).toContain('Abbreviation');

    await page.goto(`${ts.url}/system/screen-settings`);
    await page.getByTestId('screen-settings-resource').click();
    await page.keyboard.type('supplier-customer');
    await page.keyboard.press('Enter');
    await page.getByTestId('screen-settings-reset').click();
    await page.getByTestId('screen-settings-reset-confirm').click();
    await page.locator('.ant-message-success').last().waitFor();
    await page.goto(`${ts.url}/basic-info/supplier-customer`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    await expect.poll(headers).not.toContain('Abbreviation');
  });
});
