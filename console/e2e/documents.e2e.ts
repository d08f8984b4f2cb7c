// A header-and-lines document and its workflow steps used the way an operator would: carrier
// binding created with its lines on one page and saved in one call (number generated, total
// rolled up), released from its list row after the "cannot be undone" confirmation, after which
// the release button is gone and the lines are read-only.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, login, pageApi, shot } from './support/browser';

let browser: Browser;
let page: Page;
const tag = Date.now().toString(36).toUpperCase();

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1500, height: 950 } })).newPage();
  await login(page, 'admin', 'Admin@12345', 'demo');
});
afterAll(async () => browser?.close());

/** A call with the signed-in session (the console keeps token and organisation in cookies). */
async function api<T = any>(path: string, body: unknown): Promise<T> {
  const env = await pageApi(page, path, body);
  if (env.code !== 0) throw new Error(`${path}: ${env.message}`);
  return env.data as T;
}

/** What a single select shows as chosen ('' when nothing: read without waiting for it). */
const chosen = async (select: ReturnType<Page['locator']>) => (await select.locator('.ant-select-selection-item').allTextContents()).join();

/**
 * Picks the option of a searchable select by typing part of its label and clicking it, at once:
 * the list narrows as the text is typed, so the option does not move away when the server's
 * answer arrives (a dropdown opened upwards used to shrink from under the pointer).
 */
async function pick(select: ReturnType<Page['locator']>, text: string) {
  await select.click();
  await select.locator('input').fill(text);
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text });
  await option.first().waitFor();
  await option.first().click();
  await expect.poll(() => chosen(select)).toBe(text);
}

const rows = () => page.locator('[data-testid=meta-table] tbody tr.ant-table-row');

test('creates a bind order with its lines on one page, saved in one call', async () => {
  const code = (await api<{ list: Array<{ id: number }> }>('/carrier-code/list', { limit: 1 })).list[0].id;
  for (const sn of ['M', 'L1', 'L2']) await api('/carrier/create', { sn: `E2E-${tag}-${sn}`, carrierCodeId: code });

  await page.goto(`${baseUrl()}/carrier/management/carrier-bind/create`);
  await page.getByTestId('document-form').waitFor();
  // typed and Enter as soon as the carrier shows (the first page has it), whether or not the
  // search has been answered: the typed carrier is taken, not the first row of the list shown
  // before typing (the newest carrier, L2)
  const header = page.getByTestId('meta-form').locator('.ant-select').first();
  await header.click();
  await header.locator('input').fill(`E2E-${tag}-M`);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `E2E-${tag}-M` })
    .first()
    .waitFor();
  await header.locator('input').press('Enter');
  await expect.poll(() => chosen(header)).toBe(`E2E-${tag}-M`);
  const lines = page.getByTestId('document-lines-carrier-bind-detail');
  for (const [i, sn] of ['L1', 'L2'].entries()) {
    await page.getByTestId('document-line-add').click();
    await pick(lines.locator('tbody tr.ant-table-row').nth(i).locator('.ant-select').first(), `E2E-${tag}-${sn}`);
  }
  await lines.locator('tbody tr.ant-table-row').nth(1).locator('input.ant-input-number-input').fill('4');
  await expect.poll(() => page.getByTestId('document-lines-summary').textContent()).toContain('5');
  // the same carrier twice is marked before anything is sent, on the repeating line, naming the
  // line it repeats (as the server's refusal would: "Line 3: Carrier repeats line 1")
  await page.getByTestId('document-line-add').click();
  await pick(lines.locator('tbody tr.ant-table-row').nth(2).locator('.ant-select').first(), `E2E-${tag}-L1`);
  await expect.poll(() => page.getByTestId('document-line-duplicate').count()).toBe(1);
  expect(await lines.locator('tbody tr.ant-table-row').nth(2).getByTestId('document-line-duplicate').textContent()).toBe('Repeats line 1');
  await shot(page, 'document-create');
  await page.getByTestId('document-line-remove').nth(2).click();
  await expect.poll(() => page.getByTestId('document-line-duplicate').count()).toBe(0);

  await page.getByTestId('meta-save').click();
  await page.waitForURL(/\/carrier\/management\/carrier-bind(\?.*)?$/);
  const saved = (
    await api<{ list: any[] }>('/carrier-bind/list', { carrierId: (await api<{ list: any[] }>('/carrier/list', { sn: `E2E-${tag}-M` })).list[0].id })
  ).list;
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ status: 10, totalAmount: 5 });
  expect(saved[0].bindNo).toMatch(/^BD\d{8}\d{4}$/);
  expect((await api<{ total: number }>('/carrier-bind-detail/list', { carrierBindId: saved[0].id })).total).toBe(2);
});

test('releases it from its list row after the irreversible-step warning; then its lines are frozen', async () => {
  const order = (
    await api<{ list: any[] }>('/carrier-bind/list', { carrierId: (await api<{ list: any[] }>('/carrier/list', { sn: `E2E-${tag}-M` })).list[0].id })
  ).list[0];
  await page.goto(`${baseUrl()}/carrier/management/carrier-bind`);
  const search = page.getByTestId('meta-search-form');
  await search.locator('#bindNo').fill(order.bindNo);
  await page.getByTestId('meta-search-submit').click();
  await expect.poll(() => rows().count()).toBe(1);
  // a new order offers Release, not Close
  await expect.poll(() => rows().first().getByTestId('meta-step-close').count()).toBe(0);
  await rows().first().getByTestId('meta-step-release').click();
  await page.getByTestId('meta-step-warning').waitFor();
  expect(await page.getByTestId('meta-step-warning').textContent()).toMatch(/cannot be undone/);
  await page.waitForTimeout(400); // the dialog's zoom-in
  await shot(page, 'document-release-confirm');
  await page.getByTestId('meta-step-ok').click();
  await expect.poll(async () => (await api<any>('/carrier-bind', { id: order.id })).status).toBe(20);
  // the row now offers Close instead
  await rows().first().getByTestId('meta-step-close').waitFor();
  expect(await rows().first().getByTestId('meta-step-release').count()).toBe(0);

  await page.goto(`${baseUrl()}/carrier/management/carrier-bind/edit/${order.id}`);
  await page.getByTestId('document-lines-carrier-bind-detail').waitFor();
  expect(await page.getByTestId('document-line-add').count()).toBe(0);
  expect(await page.getByTestId('document-lines-carrier-bind-detail').textContent()).toContain('no longer change');
  await shot(page, 'document-frozen');
});
