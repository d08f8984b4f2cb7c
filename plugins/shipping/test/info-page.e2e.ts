/**
 * The public order page in headless chromium, as a driver scanning the delivery note: the URL
 * the printed code carries opens the order without any session (no cookies), shows its
 * containers and carriers, switches language, and a wrong token shows nothing of the order.
 * Screenshots go to test-output/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, SCREENSHOTS, assertConsoleBuilt } from '../../../server/test/support/console-browser';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world } from './support-orders';

let ts: TestServer;
let browser: Browser;

beforeAll(async () => {
  assertConsoleBuilt();
  ts = await startTestServer({ plugins: ['shipping'] });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

describe('public ship-order page', () => {
  it('opens from the printed code without signing in', async () => {
    const w = await world(ts);
    const o = await shipOrder(ts.a, w, 3, {}, ['K1', 'K2']);
    await ok(ts.a, '/ship-order/release', { id: o.id });
    // the note printed through this server: its code carries this URL
    const { token } = await ok(ts.a, '/ship-order/info/link', { id: o.id });
    const url = `${ts.url}/info/ship-order?token=${token}`;

    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    expect(await context.cookies()).toEqual([]);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(url);
    await page.getByTestId('info-ship-order').waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(url);
    const text = (await page.getByTestId('info-ship-order').textContent()) ?? '';
    expect(text).toContain(o.orderNo);
    expect(text).toContain('Released');
    expect(text).toContain('Shanghai Hub A');
    expect(text).toContain('K2');
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'shipping-info-en.png'), fullPage: true });

    // the driver's language
    await page.locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option', { hasText: '中文' }).click();
    await page.getByText('发运单信息').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('info-ship-order').textContent()).toContain('已发布');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'shipping-info-zh.png'), fullPage: true });

    // on a phone (375 px) the page does not overflow sideways
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    await mobile.goto(url);
    await mobile.getByTestId('info-ship-order').getByText('K2').first().waitFor({ timeout: 30_000 });
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await mobile.getByTestId('info-ship-order').textContent()).toContain(o.orderNo);
    await mobile.screenshot({ path: path.join(SCREENSHOTS, 'shipping-info-phone.png'), fullPage: true });
    await phone.close();

    await page.goto(`${ts.url}/info/ship-order?token=${'x'.repeat(32)}`);
    await page.locator('.ant-result').waitFor({ timeout: 15_000 });
    expect(await page.content()).not.toContain(o.orderNo);
    await context.close();
  });
});
