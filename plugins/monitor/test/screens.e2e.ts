/**
 * Screens of issue 5 items 5–7 in headless chromium on a real server (temp SQLite, telemetry
 * plugin for the alert feed, process calls and live stream): dashboard home, big screen,
 * system inspection, the alert menu, and processing an alert makes the badge fall.
 * Screenshots go to test-output/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime } from '@rti/plugin-telemetry/testing';

let ts: TestServer;
let dir: string;
let cb: ConsoleBrowser;
let page: Page;
const alertIds: number[] = [];

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

async function seed(c: Caller): Promise<void> {
  const m = ts.server.db.models;
  const orgId = ts.orgA;
  const projectId = (await ok(c, '/project/create', { name: 'Returnables' })).id;
  const carrierCodeId = (await ok(c, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true })).id;
  const modelId = (await ok(c, '/device-model/create', { name: 'Tag X', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  const sites: Array<[string, number, number]> = [
    ['Shanghai Hub', 121.47, 31.23],
    ['Pudong DC', 121.6, 31.2],
    ['Suzhou Plant', 120.62, 31.3],
    ['Ningbo Port', 121.55, 29.87],
    ['Hangzhou DC', 120.16, 30.27],
  ];
  const wh: number[] = [];
  for (const [i, [name, lng, lat]] of sites.entries()) {
    const locationId = (await ok(c, '/location/create', { name, longitude: lng, latitude: lat, fenceRadius: 500, type: 0 })).id;
    wh.push(
      (
        await ok(c, '/warehouse/create', {
          code: `W${i}`,
          name,
          locationId,
          idleCheckTime: 120,
          minInventory: 20 + 5 * i,
          maxInventory: 60,
          theoryInventory: 40,
        })
      ).id,
    );
  }
  const now = Date.now();
  const carriers = [];
  for (let i = 0; i < 240; i++) {
    const transportStatus = [10, 10, 10, 20, 30, 40][i % 6];
    carriers.push({
      orgId,
      sn: `C-${String(i).padStart(5, '0')}`,
      name: `Box ${i}`,
      carrierCodeId,
      projectId,
      warehouseId: wh[(i * 7) % 5 === 0 ? 0 : i % 5],
      status: [10, 10, 10, 20, 50, 60, 0][i % 7],
      transportStatus,
      startTime: new Date(now - ((i % 50) / 10) * 365 * 86_400_000),
    });
  }
  await m.carrier.bulkCreate(carriers);
  const beacons = [];
  for (let i = 0; i < 120; i++)
    beacons.push({
      orgId,
      sn: `B-${i}`,
      mac: `AC233F${String(100000 + i)}`,
      deviceModelId: modelId,
      useStatus: 20,
      battery: i % 10 === 0 ? null : (i * 37) % 101,
    });
  await m['device-beacon'].bulkCreate(beacons);
  const gws = [];
  for (let i = 0; i < 12; i++)
    gws.push({
      orgId,
      sn: `SG-${i}`,
      name: `Gate ${i}`,
      mac: `AC23FF0000${String(i).padStart(2, '0')}`,
      deviceModelId: modelId,
      warehouseId: wh[i % 5],
      purpose: 10,
      useStatus: 20,
      status: i % 4 === 0 ? 20 : 10,
      lastReportTime: new Date(now - i * 3_600_000),
    });
  await m['device-slave-gateway'].bulkCreate(gws);
  const reasons = [20, 30, 10];
  for (let i = 0; i < 18; i++) {
    const row = await m['carrier-alert'].create({
      orgId,
      carrierSn: `C-${String(i * 3).padStart(5, '0')}`,
      reason: reasons[i % 3],
      status: i < 16 ? 0 : 10,
      createdTime: new Date(now - i * 7 * 3_600_000),
      warehouseId: wh[i % 5],
      message: i % 3 === 0 ? 'Expected at Pudong DC 6 h ago' : null,
    });
    alertIds.push(Number(row.get('id')));
  }
  for (let i = 0; i < 4; i++)
    await m['device-beacon-alert'].create({
      orgId,
      beaconSn: `B-${i * 10 + 3}`,
      reason: 10,
      status: 0,
      createdTime: new Date(now - i * 5 * 3_600_000),
      message: 'battery low',
    });
  for (let i = 0; i < 3; i++)
    await m['device-gps-alert'].create({
      orgId,
      gpsSn: `GT-00${i}`,
      code: ['T_HIGH', '018', 'NO_DATA'][i],
      dataType: 20,
      status: 0,
      reportTime: new Date(now - i * 9 * 3_600_000),
    });
  await m['device-slave-gateway-alert'].create({
    orgId,
    slaveGatewaySn: 'SG-0',
    reason: 20,
    status: 0,
    createdTime: new Date(now - 3_600_000),
    warehouseId: wh[0],
  });
}

/** beacon readings straight into the telemetry store, for the data-point screens */
async function seedReadings(): Promise<void> {
  const rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  const now = Date.now();
  const rows = [];
  for (let i = 0; i < 30; i++)
    rows.push({
      org: ts.orgA,
      time: now - i * 60_000,
      mac: 'AC233F100001',
      gatewayMac: 'AC23FF000001',
      rssi: -60 - (i % 15),
      battery: 88,
      temperature: 20 + (i % 5) / 2,
      humidity: 40 + (i % 7),
    });
  await rt.store!.write([{ series: 'beacon', rows }]);
}

const shot = (name: string) => cb.shot(name);

async function canvasDrawn(testId: string): Promise<boolean> {
  const loc = page.locator(`[data-testid="${testId}"] canvas`).first();
  await loc.waitFor({ timeout: 30000 });
  return loc.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    for (let i = 3; i < data.length; i += 16) if (data[i] > 0) return true;
    return false;
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-monitor-e2e-'));
  Object.assign(process.env, { MQTT_PORT: '0', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'monitor', 'dashboard', 'system-inspection'], config: { dataDir: dir } });
  await seed(ts.a);
  await seedReadings();
  await grantWholeCatalogue(ts);
  cb = await openConsole(ts, ts.a);
  page = cb.page;
  page.on('response', (r) => r.status() >= 400 && console.error('[http]', r.status(), r.url(), r.request().postData()));
});
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('screens', () => {
  it('dashboard home is the landing page and draws its charts', async () => {
    await page.goto(`${ts.url}/`);
    await page.getByTestId('dashboard-home').waitFor({ timeout: 60000 });
    expect(new URL(page.url()).pathname).toBe('/dashboard-home');
    for (const id of ['chart:transport', 'chart:inventory', 'chart:trend', 'chart:battery', 'chart:life', 'chart:map'])
      expect(await canvasDrawn(id), id).toBe(true);
    await page.getByTestId('dashboard-timeouts').getByText('C-00000').waitFor();
    await page.waitForTimeout(800); // chart animations
    await shot('dashboard-home');
  });

  it('big-screen dashboard renders standalone', async () => {
    await page.goto(`${ts.url}/dashboard`);
    await page.getByTestId('dashboard-big-screen').waitFor({ timeout: 60000 });
    expect(await page.getByTestId('sider').count()).toBe(0);
    expect(await canvasDrawn('chart:trend')).toBe(true);
    await expect.poll(() => page.getByTestId('kpi:dashboard.kpi.carriers').innerText()).toContain('240');
    await page.waitForTimeout(800);
    await shot('dashboard-big-screen');
  });

  it('system inspection shows host, database, gateways, battery and suggestions on both paths', async () => {
    await page.goto(`${ts.url}/system-inspection`);
    await page.getByTestId('system-inspection').waitFor({ timeout: 60000 });
    for (const id of ['chart:cpu', 'chart:mem', 'chart:occupancy', 'chart:database', 'chart:battery']) expect(await canvasDrawn(id), id).toBe(true);
    await page.getByTestId('inspection-suggestions').getByText('B-').first().waitFor();
    await page.getByTestId('gateways:slave').getByText('SG-0').waitFor();
    await page.waitForTimeout(800);
    await shot('system-inspection');
    await page.goto(`${ts.url}/monitor/system-inspection`);
    await page.getByTestId('system-inspection').waitFor({ timeout: 60000 });
  });

  it('alert menu lists unsolved alerts; processing one lowers the badge live', async () => {
    const id = alertIds[0];
    await page.goto(`${ts.url}/monitor/carrier-alert/detail/${id}`);
    const badge = page.getByTestId('alert-badge');
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 30000 }).toBe('24'); // 16 carrier + 4 beacon + 3 GPS + 1 slave gateway
    await page.getByTestId('alert-bell').click();
    await page.getByTestId('alert-panel').waitFor();
    // at most 15 per category although 16 carrier alerts are unsolved
    expect(await page.locator('[data-testid^="alert-item:carrier:"]').count()).toBe(15);
    await page.waitForTimeout(500); // popover animation
    await shot('alert-menu');
    await page.keyboard.press('Escape');
    await page.getByTestId('alert-status-banner').waitFor();
    expect(await page.getByTestId('alert-status-banner').getAttribute('data-status')).toBe('unsolved');
    await shot('alert-detail-unsolved');
    await page.getByTestId('alert-process').click();
    await page.getByTestId('alert-process-remark').fill('called the driver');
    await page.getByTestId('alert-process-confirm').click();
    await expect.poll(() => page.getByTestId('alert-status-banner').getAttribute('data-status'), { timeout: 15000 }).toBe('solved');
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15000 }).toBe('23');
    await page.locator('.ant-modal-confirm').waitFor({ state: 'hidden' });
    await shot('alert-detail-solved');
    const row = await ok(ts.a, '/carrier-alert', { id });
    expect(row).toMatchObject({ status: 10, remark: 'called the driver' });

    // another user's processing reaches this page through the live stream
    await ok(ts.a, '/device-alert/beacon/process', {
      ids: (await ok(ts.a, '/device-alert/beacon/list', { status: 0 })).list.slice(0, 2).map((r: any) => r.id),
    });
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15000 }).toBe('21');
  });

  it('beacon data points: list over a time range and a point detail', async () => {
    await page.goto(`${ts.url}/monitor/data-points-beacon`);
    await page.getByTestId('data-points-beacon').locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    expect(await page.getByTestId('data-points-beacon').locator('.ant-table-row').count()).toBe(20);
    await shot('data-points-beacon');
    await page.getByTestId('data-points-beacon').locator('.ant-table-row').first().click();
    await page.getByTestId('data-point-beacon-detail').getByText('AC233F100001').first().waitFor({ timeout: 30000 });
    await shot('data-point-beacon-detail');
  });

  it('alert list keeps the generated screen with SPEC colours', async () => {
    await page.goto(`${ts.url}/monitor/carrier-alert`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    await shot('alert-list');
    expect(await page.locator('.ant-tag-error').count()).toBeGreaterThan(0);
  });

  it('an alert is processed from its list row (plugin row action); the row and the badge follow', async () => {
    await page.goto(`${ts.url}/monitor/carrier-alert`);
    const buttons = page.getByTestId('alert-row-process');
    await buttons.first().waitFor({ timeout: 30000 });
    const before = await buttons.count();
    const badge = page.getByTestId('alert-badge');
    // the badge fetches its count on its own: read it once it has arrived, not before
    await expect.poll(async () => Number(await badge.getAttribute('data-count')), { timeout: 15000 }).toBeGreaterThan(0);
    const count = Number(await badge.getAttribute('data-count'));
    await buttons.first().click();
    await page.getByTestId('alert-process-confirm').click();
    await expect.poll(() => buttons.count(), { timeout: 15000 }).toBe(before - 1);
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15000 }).toBe(String(count - 1));
  });
});
