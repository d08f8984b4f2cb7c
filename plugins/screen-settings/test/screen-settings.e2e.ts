/**
 * A platform administrator relabels and re-orders a generated list in headless chromium; the
 * list, the create form's required rule and the labels follow without a deploy, and Reset
 * returns to the base screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const shots = path.resolve(__dirname, '../../../test-output/screenshots');
let ts: TestServer;
let admin: Caller;
let browser: Browser;
let page: Page;

async function grantWholeCatalogue(): Promise<void> {
  const tree = (await ts.a.call<any>('/permission/all')).body.data;
  const codes = new Set<string>();
  const walk = (nodes: Array<{ code: string; children?: unknown[] }>) => {
    for (const n of nodes) {
      codes.add(n.code);
      if (n.children) walk(n.children as never);
    }
  };
  walk(Array.isArray(tree) ? tree : (tree.list ?? tree.tree ?? []));
  const m = ts.server.db.models;
  await m.organization.update({ pcPermissions: [...codes] }, { where: { id: ts.orgA } });
  await m.role.update({ pcPermissions: [...codes] }, { where: { orgId: ts.orgA } });
  await ts.server.access.policies.changed([ts.orgA], undefined);
}

const headers = () => page.locator('.ant-table-thead th').allInnerTexts();

beforeAll(async () => {
  if (!fs.existsSync(path.join(process.env.CONSOLE_DIST ?? path.resolve(__dirname, '../../../console/dist'), 'index.html'))) throw new Error('console/dist missing: npm run build -w @rti/console');
  ts = await startTestServer({ plugins: false });
  await grantWholeCatalogue();
  admin = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
  await ts.a.call('/supplier-customer/create', { name: 'Acme Supplies', shortName: 'ACME', type: 10, remark: 'weekly pickup' });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const host = new URL(ts.url).hostname;
  await context.addCookies(
    [['admin-token', admin.token], ['admin-user-id', String(admin.userId)], ['admin-org-id', String(ts.orgA)]].map(([name, value]) => ({ name, value, domain: host, path: '/' })),
  );
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
});
afterAll(async () => {
  await browser?.close();
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
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'screen-settings.png') });
    await page.getByTestId('screen-settings-save').click();
    await page.locator('.ant-message-success').waitFor({ timeout: 15000 });

    await page.goto(`${ts.url}/basic-info/supplier-customer`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    const cols = await headers();
    expect(cols).toContain('Abbreviation');
    expect(cols.indexOf('Abbreviation')).toBeLessThan(cols.findIndex((c) => c === 'Name'));
    expect(cols).toContain('Remark');
    await page.screenshot({ path: path.join(shots, 'screen-settings-list.png') });

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
