// A generated resource screen used the way an operator would: log in with an entry code, open
// the list, create a row, find it with the search form, edit it, delete it with confirmation.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, login, shot } from './support/browser';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
});
afterAll(async () => browser?.close());

const rows = () => page.locator('[data-testid=meta-table] tbody tr.ant-table-row');

test('logs in with the entry code and shows that organisation', async () => {
  await page.goto(`${baseUrl()}/demo/login`);
  await expect.poll(() => page.getByTestId('login-org-name').textContent()).toContain('Demo');
  await shot(page, 'login-demo');
  await login(page, 'admin', 'Admin@12345', 'demo');
  await shot(page, 'home');
});

test('creates, searches, edits and deletes a row of a generated list', async () => {
  const name = `E2E vessel ${Date.now().toString(36)}`;
  await page.goto(`${baseUrl()}/basic-info/shipper`);
  await page.getByTestId('meta-table').waitFor();
  await shot(page, 'list-shipper');

  await page.getByTestId('meta-create').click();
  const form = page.getByTestId('meta-form');
  await form.waitFor();
  await page.getByTestId('meta-save').click(); // empty required field → SPEC §5 message
  await expect.poll(() => form.locator('.ant-form-item-explain-error').first().textContent()).toMatch(/Please input/i);
  await form.locator('#name').fill(name);
  await form.locator('#mmsi').fill('412345678');
  await page.getByTestId('meta-save').click();
  await page.waitForURL(/\/basic-info\/shipper(\?.*)?$/);

  const search = page.getByTestId('meta-search-form');
  await search.locator('#name').fill(name);
  await page.getByTestId('meta-search-submit').click();
  await expect.poll(() => rows().count()).toBe(1);
  await expect.poll(() => rows().first().textContent()).toContain(name);

  await rows().first().getByTestId('meta-row-edit').click();
  await page.getByTestId('meta-form').locator('#name').waitFor();
  await page.getByTestId('meta-form').locator('#name').fill(`${name} edited`);
  await page.getByTestId('meta-save').click();
  await page.waitForURL(/\/basic-info\/shipper(\?.*)?$/);
  await search.locator('#name').fill(`${name} edited`);
  await page.getByTestId('meta-search-submit').click();
  await expect.poll(() => rows().first().textContent()).toContain(`${name} edited`);

  await rows().first().getByTestId('meta-row-delete').click();
  await page.getByTestId('meta-delete-ok').click();
  await expect.poll(() => rows().count()).toBe(0);

  await page.getByTestId('meta-search-reset').click();
  await expect.poll(() => search.locator('#name').inputValue()).toBe('');
});
