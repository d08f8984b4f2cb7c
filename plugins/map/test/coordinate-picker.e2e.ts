/**
 * A location's coordinates picked on the map (issue 23 item 6), by a clerk who holds the location
 * screens only: the create form's "Pick on map" opens the map on a default city, a click on it
 * shows the picked point, OK fills longitude and latitude, and the saved location has them. In
 * Japanese, to see the picker's texts translated.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { narrowOperator, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const WAIT = { timeout: 30000 };
let ts: TestServer;
let clerk: Caller;
let cb: ConsoleBrowser;
let page: Page;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-map-picker-e2e-'));
  Object.assign(process.env, { MQTT_PORT: '0', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'map'], config: { dataDir: dir } });
  const ROUTE = ts.server.metadata.resources.location.route;
  clerk = await narrowOperator(ts, 'clerk', { screens: [ROUTE, `${ROUTE}/create`], calls: /^\/location\//, warehouseIds: [] });
  cb = await openConsole(ts, clerk);
  page = cb.page;
  await page.goto(`${ts.url}/403`);
  await page.evaluate((uid) => localStorage.setItem(`admin-locale:${uid}`, 'ja-JP'), String(clerk.userId));
}, 120_000);
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("picks a new location's longitude and latitude with a click on the map", async () => {
  const ROUTE = ts.server.metadata.resources.location.route;
  await page.goto(`${ts.url}${ROUTE}/create`);
  await page.getByTestId('meta-form').waitFor({ timeout: 60000 });
  await page.getByTestId('coordinate-picker-open').click();
  await page.getByText('地図上で場所をクリックすると').waitFor(WAIT);
  const map = page.getByTestId('coordinate-picker-map').getByTestId('map-canvas');
  await map.waitFor(WAIT);
  const box = (await map.boundingBox())!;
  // nothing picked yet: OK stays disabled until a click on the map
  expect(await page.getByTestId('coordinate-picker-ok').isDisabled()).toBe(true);
  await page.mouse.click(box.x + box.width / 2 + 40, box.y + box.height / 2 - 30);
  await expect.poll(() => page.getByTestId('coordinate-picker-value').innerText(), WAIT).toMatch(/^\d+\.\d{6}, \d+\.\d{6}$/);
  const [lng, lat] = (await page.getByTestId('coordinate-picker-value').innerText()).split(', ').map(Number);
  // east and north of the default centre (Shanghai), where the click was
  expect(lng).toBeGreaterThan(121.47);
  expect(lat).toBeGreaterThan(31.23);
  expect(lng).toBeLessThan(122.5);
  await cb.shot('coordinate-picker');
  await page.getByTestId('coordinate-picker-ok').click();
  await expect.poll(() => page.locator('#longitude').inputValue(), WAIT).toBe(lng.toFixed(6));
  expect(await page.locator('#latitude').inputValue()).toBe(lat.toFixed(6));
  await page.locator('#name').fill('Nordic Crate Yard');
  await page.getByTestId('meta-save').click();
  await page.waitForURL((u) => u.pathname === ROUTE, WAIT);
  const saved = (await clerk.call<any>('/location/list', { name: 'Nordic', page: 1, limit: 5 })).body.data.list[0];
  expect([Number(saved.longitude), Number(saved.latitude)]).toEqual([lng, lat]);
});
