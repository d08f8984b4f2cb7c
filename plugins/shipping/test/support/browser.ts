/**
 * What the shipping browser tests share: a test server with the shipping plugin over a temp
 * data folder, the organisation's master data (a carrier code, two warehouses with locations,
 * the route between them, boxes C-001…), chromium on the built console with failed calls
 * echoed, signing in as another operator, and picking in an antd select. Every wait is for a
 * state (an element, a value), never a fixed time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openConsole, type ConsoleBrowser } from '../../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../../server/test/support/test-server';
import { ok } from '../support-orders';

export { ok };
/** how long a state may take to show on a loaded machine */
export const WAIT = { timeout: 30000 };
export const sn = (i: number): string => `C-${String(i).padStart(3, '0')}`;

export interface ShippingServer {
  ts: TestServer;
  close(): Promise<void>;
}

/** A test server with the shipping plugin over its own temp data folder. */
export async function shippingServer(tag: string): Promise<ShippingServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rti-${tag}-e2e-`));
  const ts = await startTestServer({ plugins: ['shipping'], config: { dataDir: dir } });
  return {
    ts,
    async close() {
      await ts.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Sites {
  shanghai: number;
  osaka: number;
  carrierCodeId: number;
}

/** The master data an administrator sets up once: a box code, Shanghai Hub → Osaka DC (600 min by land), n boxes in Shanghai. */
export async function sites(ts: TestServer, boxes: number): Promise<Sites> {
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const carrierCodeId = (await ok(ts.a, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true })).id;
  const site = async (code: string, name: string, longitude: number, latitude: number) => {
    const locationId = (await ok(ts.a, '/location/create', { name, longitude, latitude, fenceRadius: 500, type: 0 })).id;
    return (await ok(ts.a, '/warehouse/create', { code, name, locationId })).id as number;
  };
  const shanghai = await site('SH', 'Shanghai Hub', 121.47, 31.23);
  const osaka = await site('OS', 'Osaka DC', 135.5, 34.69);
  await ok(ts.a, '/route/create', { routeName: 'SH-OS', fromWarehouseId: shanghai, toWarehouseId: osaka, transportType: 20, transportTime: 600 });
  for (let i = 1; i <= boxes; i++) await ok(ts.a, '/carrier/create', { sn: sn(i), carrierCodeId, warehouseId: shanghai, status: 10 });
  return { shanghai, osaka, carrierCodeId };
}

/** Chromium on the built console, signed in as `caller`; failed calls and refused answers are echoed to the test output. */
export async function browse(ts: TestServer, caller: Caller): Promise<ConsoleBrowser> {
  const cb = await openConsole(ts, caller);
  cb.page.on('response', (r) => {
    if (r.status() >= 400) console.error('[http]', r.status(), r.url(), r.request().postData());
    else if (r.url().includes('/api/') && r.request().method() === 'POST')
      r.json()
        .then((b: { code?: number; message?: string }) => b?.code && console.error('[api]', r.url(), b.code, b.message))
        .catch(() => undefined);
  });
  return cb;
}

/** The browser signs in as `c` (its session cookies), optionally in another language. */
export async function signInAs(page: Page, ts: TestServer, c: Caller, lang = 'en-US'): Promise<void> {
  const context = page.context();
  await context.clearCookies();
  const domain = new URL(ts.url).hostname;
  await context.addCookies(
    [
      ['admin-token', c.token],
      ['admin-user-id', String(c.userId)],
      ['admin-org-id', String(c.orgId)],
    ].map(([name, value]) => ({ name, value, domain, path: '/' })),
  );
  await page.goto(`${ts.url}/403`);
  await page.evaluate(([uid, l]) => localStorage.setItem(`admin-locale:${uid}`, l), [String(c.userId), lang]);
}

/** The antd select of a form field. */
export const formSelect = (page: Page, name: string): Locator => page.locator(`.ant-form-item:has(#${name}) .ant-select`).first();

/** Opens an antd select (a ref field), types to search and picks the option showing `text`. */
export async function pick(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  const input = select.locator('input');
  await input.fill(text);
  // this select's own dropdown (its listbox id), not one still closing from the previous pick
  const listId = await input.getAttribute('aria-controls');
  const option = page.locator(`.ant-select-dropdown:has([id="${listId}"]) .ant-select-item-option`).filter({ hasText: text }).first();
  await option.waitFor(WAIT);
  await option.click();
  await select.locator('.ant-select-selection-item').filter({ hasText: text }).waitFor(WAIT);
}

/** Resolves once the form field's select shows `text` (filled by the form itself). */
export const chosen = (page: Page, name: string, text: string): Promise<void> =>
  formSelect(page, name).locator('.ant-select-selection-item').filter({ hasText: text }).waitFor(WAIT);
