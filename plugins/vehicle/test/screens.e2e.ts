/**
 * Vehicle and locating screens (issue 5 item 4) in headless chromium on a real server (temp
 * SQLite, telemetry + map + vehicle plugins): vehicle list, the full-screen monitor with a
 * live move from the event stream, the vehicle track, the locating centre search, the GPS
 * report and a report-mail screenshot page. Screenshots go to test-output/screenshots/.
 * Runs against console/dist, or the build named by CONSOLE_DIST.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { newDeviceState, type DeviceState } from '@rti/ingest/state/subject-state';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';

const dist = process.env.CONSOLE_DIST ?? path.resolve(__dirname, '../../../console/dist');
const MIN = 60_000;
let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let cb: ConsoleBrowser;
let page: Page;
const ids: Record<string, number> = {};
const now = Date.now();
const start = now - 8 * 3600_000;

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

const gps = (id: number, s: Partial<DeviceState>): DeviceState => ({ ...newDeviceState('gps', id, ts.orgA), ...s });

async function seed(c: Caller): Promise<void> {
  const sites: Array<[string, number, number]> = [
    ['Shanghai Hub', 121.47, 31.23],
    ['Suzhou Plant', 120.62, 31.3],
    ['Hangzhou DC', 120.16, 30.27],
  ];
  const wh: number[] = [];
  for (const [i, [name, lng, lat]] of sites.entries()) {
    const locationId = (await ok(c, '/location/create', { name, longitude: lng, latitude: lat, fenceRadius: 500, type: 0 })).id;
    wh.push((await ok(c, '/warehouse/create', { code: `W${i}`, name, locationId, visibleInMap: true })).id);
  }
  await ok(c, '/route/create', { routeName: 'Shanghai → Suzhou', fromWarehouseId: wh[0], toWarehouseId: wh[1], needDrawLine: true, routeColor: '#722ed1' });
  const projectId = (await ok(c, '/project/create', { name: 'Linehaul' })).id;
  const truck = (await ok(c, '/carrier-code/create', { code: 'TRUCK-12T', name: '12 t truck', projectId, type: 10, available: true, particular: 10 })).id;
  const box = (await ok(c, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true })).id;
  const model = (await ok(c, '/device-model/create', { name: 'GT06', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  const rows: Array<Record<string, unknown> & { org: number; time: number }> = [];
  for (let k = 1; k <= 4; k++) {
    const g = (await ok(c, '/device-gps/create', { sn: `GT-00${k}`, name: `Tracker ${k}`, deviceModelId: model, useStatus: 20 })).id;
    ids[`gps${k}`] = g;
    ids[`truck${k}`] = (
      await ok(c, '/carrier/create', {
        sn: `TRK-00${k}`,
        name: `Truck ${k}`,
        carrierCodeId: truck,
        gpsId: g,
        warehouseId: k === 3 ? wh[2] : null,
        transportStatus: k === 3 ? 10 : 20,
      })
    ).id;
    // a day of driving from Shanghai towards Suzhou with a one-hour stop halfway
    for (let i = 0; i < 240; i++) {
      const moving = i < 100 || i >= 160;
      const step = i < 100 ? i : i < 160 ? 100 : i - 60;
      rows.push({
        org: ts.orgA,
        sn: `GT-00${k}`,
        time: start + i * 2 * MIN,
        dataType: 10,
        longitude: 121.47 - step * 0.0035 * (1 + k / 10),
        latitude: 31.23 + step * 0.0004 * k,
        speed: moving ? 55 + (i % 7) : 0,
        mileage: 10_000 * k + step * 0.35,
        temperature1: 4 + (i % 20) / 10,
      });
    }
    rows.push({ org: ts.orgA, sn: `GT-00${k}`, time: start + 150 * MIN, dataType: 20, eventCode: '018', eventValue: '1' });
  }
  await rt.store!.write([{ series: 'gps', rows }]);
  // live state: 1 moving, 2 stopped, 3 parked in Hangzhou, 4 silent for hours
  const last = (k: number) => rows.filter((r) => r.sn === `GT-00${k}` && r.dataType === 10).at(-1)!;
  rt.engine.load({
    devices: [
      gps(ids.gps1, { status: 10, lastSeen: now - MIN, longitude: last(1).longitude as number, latitude: last(1).latitude as number, battery: 86 }),
      gps(ids.gps2, { status: 10, lastSeen: now - 2 * MIN, longitude: 120.9, latitude: 31.28, battery: 64 }),
      gps(ids.gps3, { status: 10, lastSeen: now - MIN, longitude: 120.16, latitude: 30.27, battery: 41 }),
      gps(ids.gps4, { status: 20, lastSeen: now - 5 * 3600_000, longitude: 121.2, latitude: 31.0, battery: 12 }),
    ],
  });
  await rt.store!.write([
    {
      series: 'gps',
      rows: [
        { org: ts.orgA, sn: 'GT-001', time: now - MIN, dataType: 10, longitude: last(1).longitude, latitude: last(1).latitude, speed: 62 },
        { org: ts.orgA, sn: 'GT-002', time: now - 2 * MIN, dataType: 10, longitude: 120.9, latitude: 31.28, speed: 0 },
        { org: ts.orgA, sn: 'GT-003', time: now - MIN, dataType: 10, longitude: 120.16, latitude: 30.27, speed: 0 },
      ],
    },
  ]);
  const beacon = (await ok(c, '/device-beacon/create', { sn: 'BC-0001', mac: 'AC233F112233', deviceModelId: model, useStatus: 20 })).id;
  ids.box = (
    await ok(c, '/carrier/create', { sn: 'BOX-000123', name: 'Returnable box', carrierCodeId: box, beaconId: beacon, warehouseId: wh[1], transportStatus: 10 })
  ).id;
  const m = ts.server.db.models;
  // transport status is the ingest's to write, not the create call's
  for (let k = 1; k <= 4; k++) await m.carrier.update({ transportStatus: k === 3 ? 10 : 20 }, { where: { id: ids[`truck${k}`] } });
  await m.carrier.update({ transportStatus: 10 }, { where: { id: ids.box } });
  await m['carrier-inout'].create({
    orgId: ts.orgA,
    carrierId: ids.box,
    sn: 'BOX-000123',
    direction: 10,
    warehouseId: wh[1],
    confirmTime: new Date(now - 3 * 3600_000),
  });
}

const shot = (name: string) => cb.shot(name);

/** pixels of the map close to a colour, read from a screenshot (WebGL buffers are not kept) */
async function colourPixels(rgb: [number, number, number], tol = 40): Promise<number> {
  const png = await page.locator('[data-testid="map-canvas"]').first().screenshot();
  return page.evaluate(
    async ({ b64, rgb, tol }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol) n++;
      return n;
    },
    { b64: png.toString('base64'), rgb, tol },
  );
}
const BLUE: [number, number, number] = [22, 119, 255];
const GREEN: [number, number, number] = [82, 196, 26];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-vehicle-e2e-'));
  Object.assign(process.env, { MQTT_PORT: '0', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments', STATE_TICK_MS: '600000' });
  ts = await startTestServer({ plugins: ['telemetry', 'map', 'vehicle'], config: { dataDir: dir, consoleDist: dist } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  await seed(ts.a);
  await rt.refresh();
  await grantWholeCatalogue(ts);
  cb = await openConsole(ts, ts.a, { width: 1440, height: 900 });
  page = cb.page;
  page.on('response', (r) => r.status() >= 400 && console.error('[http]', r.status(), r.url()));
}, 120_000);

afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('vehicle screens', () => {
  it('/vehicle lists the trucks with motion counts; a row opens its track', async () => {
    await page.goto(`${ts.url}/vehicle`);
    const table = page.getByTestId('vehicle-list');
    await table.locator('.ant-table-row').first().waitFor({ timeout: 60000 });
    expect(await table.locator('.ant-table-row').count()).toBe(4); // the box is not a vehicle
    expect(await page.getByTestId('vehicle-count:moving').getAttribute('data-count')).toBe('1');
    expect(await page.getByTestId('vehicle-count:stopped').getAttribute('data-count')).toBe('2');
    expect(await page.getByTestId('vehicle-count:offline').getAttribute('data-count')).toBe('1');
    await shot('vehicle-list');
    await table.getByText('TRK-001').click();
    await page.getByTestId('vehicle-track-summary').waitFor({ timeout: 30000 });
    expect(new URL(page.url()).pathname).toBe('/vehicle/track');
    await expect.poll(() => colourPixels(BLUE), { timeout: 20000 }).toBeGreaterThan(50); // the track
    await page.waitForTimeout(500);
    await shot('vehicle-track');
  });

  it('/vehicle/monitor is standalone, draws every vehicle and follows a live move', async () => {
    await page.goto(`${ts.url}/vehicle/monitor`);
    await page.getByTestId('vehicle-monitor').waitFor({ timeout: 60000 });
    expect(await page.getByTestId('sider').count()).toBe(0);
    await page.waitForFunction(() => (window as unknown as { __monitorDrawn?: boolean }).__monitorDrawn === true, null, { timeout: 30000 });
    expect(await page.getByTestId('monitor-count:moving').getAttribute('data-count')).toBe('1');
    await expect.poll(() => colourPixels(GREEN), { timeout: 20000 }).toBeGreaterThan(20); // the moving truck
    // single markers carry the vehicle's code
    await expect.poll(async () => Number(await page.getByTestId('map-canvas').getAttribute('data-labels')), { timeout: 15000 }).toBeGreaterThan(0);
    await shot('vehicle-monitor');
    // truck 2 drives off: a fix 1.4 km away two minutes later, through the ingest state engine
    await page.waitForTimeout(1500); // the event stream is connected
    rt.engine.applyBatch([
      { series: 'gps', rows: [{ org: ts.orgA, sn: 'GT-002', time: Date.now(), dataType: 10, longitude: 120.915, latitude: 31.28, speed: 42 }] },
    ]);
    await rt.flush();
    await expect.poll(() => page.getByTestId('monitor-count:moving').getAttribute('data-count'), { timeout: 15000 }).toBe('2');
    // provider B (the user's map type) draws the markers and labels too
    await page.evaluate((uid) => localStorage.setItem(`admin-map-type:${uid}`, '20'), ts.a.userId);
    await page.reload();
    await page.locator('[data-testid="map-canvas"][data-provider="b"]').waitFor({ timeout: 30000 });
    await expect.poll(async () => Number(await page.getByTestId('map-canvas').getAttribute('data-labels')), { timeout: 30000 }).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    await shot('vehicle-monitor-provider-b');
    await page.evaluate((uid) => localStorage.removeItem(`admin-map-type:${uid}`), ts.a.userId);
  });

  it('/locating-center finds a carrier by beacon mac and shows where it is', async () => {
    await page.goto(`${ts.url}/locating-center`);
    await page.getByTestId('locating-search').locator('input').fill('ac:23:3f:11:22:33');
    await page.getByTestId('locating-search').locator('input').press('Enter');
    await page.getByTestId('locating-match:BOX-000123').waitFor({ timeout: 30000 });
    await expect.poll(() => page.getByTestId('carrier-location-source').getAttribute('data-source'), { timeout: 15000 }).toBe('warehouse');
    await page.getByTestId('carrier-location').getByText('Suzhou Plant').first().waitFor();
    await expect.poll(() => colourPixels(GREEN), { timeout: 20000 }).toBeGreaterThan(20); // the carrier, in warehouse
    await shot('locating-center');
    await page.goto(`${ts.url}/carrier-locating?carrierId=${ids.box}`);
    await page.getByTestId('carrier-locating').getByText('BOX-000123').first().waitFor({ timeout: 30000 });
    expect(await page.getByTestId('sider').count()).toBe(0);
  });

  it('/gps/report shows per-tracker figures and expands to days', async () => {
    await page.goto(`${ts.url}/gps/report`);
    const report = page.getByTestId('gps-report');
    await report.locator('.ant-table-row').first().waitFor({ timeout: 60000 });
    expect(await report.locator('.ant-table-row').count()).toBe(4);
    await expect.poll(() => report.locator('.ant-table-row').first().innerText()).toContain('GT-001');
    await shot('gps-report');
  });

  it('the screenshot page draws every track and raises __screenshotReady', async () => {
    await page.goto(`${ts.url}/gps/report/screen/shot/map?from=${start - MIN}&to=${Date.now()}&title=GPS%20report`);
    await page.waitForFunction(() => (window as unknown as { __screenshotReady?: boolean }).__screenshotReady === true, null, { timeout: 30000 });
    expect(await page.getByTestId('screen-shot:tracks').getAttribute('data-ready')).toBe('true');
    expect(await colourPixels(BLUE)).toBeGreaterThan(50); // first tracker's colour
    expect(await colourPixels([245, 34, 45])).toBeGreaterThan(50); // second tracker's colour
    expect(await page.getByText('GT-004 (TRK-004)').count()).toBe(1);
    await shot('gps-report-screen-shot-map');
  });

  it('the marker and weekly-inventory screenshot pages get ready too', async () => {
    const ready = () => page.waitForFunction(() => (window as unknown as { __screenshotReady?: boolean }).__screenshotReady === true, null, { timeout: 30000 });
    await page.goto(`${ts.url}/gps/report/screen/shot/marker?from=${start - MIN}&to=${Date.now()}&sn=GT-001,GT-002`);
    await ready();
    expect(await page.getByText('GT-002 (TRK-002)').count()).toBe(1);
    expect(await page.getByText('GT-003 (TRK-003)').count()).toBe(0); // only the listed trackers
    await shot('gps-report-screen-shot-marker');
    await page.goto(`${ts.url}/gps/report/screen/shot/map/other?title=Weekly%20inventory`);
    await ready();
    expect(await colourPixels([114, 46, 209])).toBeGreaterThan(50); // the drawn route
    await shot('gps-report-screen-shot-map-other');
  });
});
