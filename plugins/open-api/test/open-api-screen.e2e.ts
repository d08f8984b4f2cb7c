/**
 * The Open API screen in headless chromium, as an administrator setting up an integration: the
 * docs page opens from it, a read-only API token is made (shown once) and works on the REST API
 * until it is revoked, and a webhook to a receiver started here gets a test delivery that the
 * deliveries table shows and can resend.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let cb: ConsoleBrowser;
let page: Page;
let receiver: Server;
const received: Array<{ event: string; id: number }> = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  process.env.WEBHOOK_POLL_MS = '100';
  receiver = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  ts = await startTestServer({ plugins: ['open-api'] });
  await grantWholeCatalogue(ts);
  await ts.a.call('/supplier-customer/create', { name: 'Acme Supplies', type: 10 });
  cb = await openConsole(ts, ts.a);
  page = cb.page;
});
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  receiver?.close();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

describe('Open API screen', () => {
  it('links the REST docs, makes a read-only token shown once, and revokes it', async () => {
    await page.goto(`${ts.url}/open-api`);
    await page.getByTestId('open-api-page').waitFor({ timeout: 60000 });
    expect(await page.getByTestId('open-api-docs').getAttribute('href')).toBe('/rest/v1/docs');
    const docs = await page.context().newPage();
    await docs.goto(`${ts.url}/rest/v1/docs`);
    await docs.locator('#r-supplier-customer').waitFor({ timeout: 30000 });
    await docs.close();

    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByTestId('open-api-token-new').click();
    await page.getByTestId('open-api-token-name').fill('ERP reader');
    await page.getByTestId('open-api-token-create').click();
    const field = page.getByTestId('open-api-named-token');
    await field.waitFor();
    const token = await field.inputValue();
    expect(token).toMatch(/^rtk_/);
    await page.getByText('ERP reader').waitFor();
    await cb.shot('open-api-tokens');

    const rest = () => fetch(`${ts.url}/rest/v1/supplier-customer`, { headers: { Authorization: `Bearer ${token}` } });
    const ok = await rest();
    expect(ok.status).toBe(200);
    expect((await ok.json())[0].name).toBe('Acme Supplies');
    const write = await fetch(`${ts.url}/rest/v1/supplier-customer`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"type":10,"name":"x"}',
    });
    expect(write.status).toBe(403);

    const id = (await ts.a.call<any>('/open-api-token/list')).body.data[0].id;
    await page.getByTestId(`open-api-token-revoke-${id}`).click();
    await page.getByTestId('open-api-token-revoke-confirm').click();
    await page.locator('.ant-tag', { hasText: 'Revoked' }).waitFor();
    expect((await rest()).status).toBe(401);
  });

  it('subscribes a webhook, shows its secret once, and lists and resends its deliveries', async () => {
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByTestId('open-api-webhook-new').click();
    await page.getByTestId('open-api-webhook-url').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    await page.locator('.ant-modal .ant-select').click();
    await page.keyboard.type('ping (ping)');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal .ant-btn-primary').click();
    expect(await page.getByTestId('open-api-webhook-secret').inputValue()).toMatch(/^whsec_/);
    expect((await ts.a.call<any>('/webhook/list')).body.data[0].events).toEqual(['ping']);

    await page.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => received.filter((r) => r.event === 'ping').length, { timeout: 15000 }).toBe(1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const deliveries = page.getByTestId('open-api-deliveries');
    await deliveries.locator('.ant-tag', { hasText: 'Delivered' }).waitFor({ timeout: 15000 });
    await deliveries.locator('.ant-table-row-expand-icon').first().click();
    await expect.poll(() => deliveries.locator('pre').first().innerText(), { timeout: 15000 }).toContain('"event": "ping"');
    await cb.shot('open-api-webhooks');
    await deliveries.getByRole('button', { name: 'Resend' }).first().click();
    await expect.poll(() => received.filter((r) => r.event === 'ping').length, { timeout: 15000 }).toBe(2);
  });
});
