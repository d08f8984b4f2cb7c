/**
 * The map screens in headless chromium on a real server (temp SQLite, telemetry + map
 * plugins): markers drawn at their positions (read back from the screen's pixels), a click on
 * a marker opens its detail card (deck.gl picking), the header switch draws provider B, and a
 * history plays: the clock advances and the cursor moves along the track; its PDF downloads.
 * Screenshots go to test-output/screenshots/map-*.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime } from '@rti/plugin-telemetry/testing';
import type { SeriesRow } from '@rti/ingest';
import { positionAt } from '@rti/common';

let ts: TestServer;
let dir: string;
let cb: ConsoleBrowser;
let page: Page;
let gpsId = 0;
/** carriers on the road, each far enough from the others to be drawn as a single marker */
const loose: Array<{ sn: string; lng: number; lat: number }> = [];

type Rgb = [number, number, number];
const LAND: Rgb = [0xf4, 0xf2, 0xec];
const WATER: Rgb = [0xd6, 0xe6, 0xf2];
const CURSOR: Rgb = [22, 119, 255];
const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

async function seed(): Promise<void> {
  const c = ts.a;
  const rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  const projectId = (await ok(c, '/project/create', { name: 'Returnables' })).id;
  const carrierCodeId = (await ok(c, '/carrier-code/create', { code: 'BOX-60', name: 'Box 60', projectId, type: 10, available: true })).id;
  const locationId = (await ok(c, '/location/create', { name: 'Pudong DC', longitude: 121.2, latitude: 31.34, fenceRadius: 800, type: 0 })).id;
  const warehouseId = (await ok(c, '/warehouse/create', { code: 'W1', name: 'Pudong DC', locationId, visibleInMap: true, fenceVisibleInMap: true })).id;
  // 25 boxes in the warehouse: one cluster
  for (let i = 0; i < 25; i++) await ok(c, '/carrier/create', { sn: `W-${String(i).padStart(3, '0')}`, carrierCodeId, warehouseId, transportStatus: 10 });
  // 12 boxes on the road on a 4 × 3 grid, 0.08° apart: single markers once the map fits them
  const state = [];
  for (let i = 0; i < 12; i++) {
    const p = { sn: `R-${String(i).padStart(3, '0')}`, lng: 121.3 + (i % 4) * 0.08, lat: 31.12 + Math.floor(i / 4) * 0.08 };
    const id = (await ok(c, '/carrier/create', { sn: p.sn, carrierCodeId, transportStatus: 20 })).id;
    loose.push(p);
    state.push({
      id,
      orgId: ts.orgA,
      warehouseId: null,
      transportStatus: 20,
      placedAt: Date.now(),
      departedFrom: null,
      departedAt: null,
      inboundWarehouseId: null,
      inboundTime: null,
      outboundWarehouseId: null,
      outboundTime: null,
      longitude: p.lng,
      latitude: p.lat,
      gateSeen: {},
      lastInOut: {},
      open: {},
    });
  }
  rt.engine.load({ carriers: state });
  // a tracker with a one-day track heading east (5-minute reports, one stop, sensors)
  const modelId = (await ok(c, '/device-model/create', { name: 'Tracker', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  gpsId = (await ok(c, '/device-gps/create', { sn: 'GT-E2E', name: 'Truck 1', deviceModelId: modelId, useStatus: 20 })).id;
  const rows: SeriesRow[] = [];
  const t0 = Date.now() - 86_400_000;
  let lng = 121.2;
  let lat = 31.1;
  for (let i = 0; i < 280; i++) {
    const moving = !(i > 120 && i < 150);
    if (moving) {
      lng += 0.003;
      lat += Math.sin(i / 25) * 0.0015;
    }
    rows.push({
      org: ts.orgA,
      sn: 'GT-E2E',
      time: t0 + i * 300_000,
      dataType: 10,
      longitude: lng,
      latitude: lat,
      speed: moving ? 42 : 0,
      battery: 90,
      temperature1: 5 + Math.sin(i / 15) * 2,
      humidity1: 55 + Math.cos(i / 25) * 8,
      acceleration: moving ? 0.3 : 0.02,
      pressure1: 101 + Math.sin(i / 40),
    });
  }
  await rt.store!.write([{ series: 'gps', rows }]);
}

const shot = (name: string) => cb.shot(name);

/** page pixel of a position on the map (the providers' __mapProject hook + the canvas offset) */
async function project(lng: number, lat: number): Promise<[number, number]> {
  const box = (await page.getByTestId('map-canvas').boundingBox())!;
  const [x, y] = await page.evaluate(
    ([a, b]) => (window as unknown as { __mapProject: (lng: number, lat: number) => number[] }).__mapProject(a, b),
    [lng, lat],
  );
  return [box.x + x, box.y + y];
}

/** colours of page pixels as composited on screen (WebGL canvases included) */
async function pixels(at: Array<[number, number]>): Promise<Rgb[]> {
  const png = (await page.screenshot()).toString('base64');
  return page.evaluate(
    async ({ png, at }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      return at.map(([x, y]) => Array.from(g.getImageData(Math.round(x), Math.round(y), 1, 1).data).slice(0, 3) as Rgb);
    },
    { png, at },
  );
}

async function waitFirstDraw(): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw, undefined, { timeout: 45000 });
}

/** every loose marker is drawn in a status colour, not the basemap's */
async function expectMarkersDrawn(): Promise<void> {
  await expect
    .poll(
      async () => {
        const got = await pixels(await Promise.all(loose.map((p) => project(p.lng, p.lat))));
        return got.filter((px) => dist(px, LAND) > 60 && dist(px, WATER) > 60 && dist(px, [255, 255, 255]) > 60).length;
      },
      { timeout: 15000 },
    )
    .toBe(loose.length);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-map-e2e-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '1000000', STATE_TICK_MS: '1000000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({
    plugins: ['telemetry', 'map'],
    config: { dataDir: dir, ...(process.env.CONSOLE_DIST ? { consoleDist: process.env.CONSOLE_DIST } : {}) },
  });
  await seed();
  await grantWholeCatalogue(ts);
  cb = await openConsole(ts, ts.a, { width: 1440, height: 900 });
  page = cb.page;
  page.on('response', (r) => r.status() >= 400 && console.error('[http]', r.status(), r.url()));
});
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('map screens', () => {
  it('provider A draws every seeded marker and a click opens its detail card', async () => {
    await page.goto(`${ts.url}/map`);
    await waitFirstDraw();
    expect(await page.getByTestId('map-canvas').getAttribute('data-provider')).toBe('a');
    expect(await page.getByTestId('map-count').getAttribute('data-count')).toBe('37');
    // 12 single markers + the warehouse's cluster of 25
    await expect.poll(() => page.getByTestId('map-canvas').getAttribute('data-markers')).toBe('13');
    await expectMarkersDrawn();
    await shot('map-provider-a');

    const target = loose[5];
    const [x, y] = await project(target.lng, target.lat);
    await page.mouse.click(x, y);
    const card = page.getByTestId('map-detail');
    await card.getByText(target.sn).first().waitFor({ timeout: 15000 });
    await shot('map-detail-card');
    await card.getByRole('button').first().click();
    await card.waitFor({ state: 'detached' });
  });

  it('the header switch draws the same markers with provider B, and back', async () => {
    await page.evaluate(() => delete (window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw);
    await page.getByTestId('map-type:b').click();
    await page.locator('[data-testid="map-canvas"][data-provider="b"]').waitFor({ timeout: 30000 });
    await waitFirstDraw();
    await expectMarkersDrawn();
    expect(await page.evaluate((uid) => localStorage.getItem(`admin-map-type:${uid}`), ts.a.userId)).toBe('20');
    await shot('map-provider-b');
    await page.getByTestId('map-type:a').click();
    await page.locator('[data-testid="map-canvas"][data-provider="a"]').waitFor({ timeout: 30000 });
  });

  it('a history plays: the clock advances and the cursor moves along the track', async () => {
    const history = await ok(ts.a, '/map/history', { gpsId });
    expect(history.track.t.length).toBeGreaterThan(100);
    expect(history.stops.length).toBe(1);
    await page.goto(`${ts.url}/map/history?gpsId=${gpsId}`);
    await page.getByTestId('history-charts').waitFor({ timeout: 45000 });
    await page.waitForFunction(() => (window as unknown as { __mapProject?: unknown }).__mapProject, undefined, { timeout: 30000 });
    const cursorAt = async () => {
      const time = Number(await page.getByTestId('history-time').getAttribute('data-time'));
      const p = positionAt(history.track, time)!;
      return { time, px: await project(p.lng, p.lat) };
    };
    const start = await cursorAt();
    expect(start.time).toBe(history.track.t[0]);
    await expect.poll(async () => dist((await pixels([start.px]))[0], CURSOR), { timeout: 15000 }).toBeLessThan(12);
    await shot('map-history');

    await page.getByTestId('history-speed').click();
    await page.getByTitle('16×').click();
    await expect.poll(() => page.getByTestId('history-speed').innerText(), { timeout: 10000 }).toContain('16×');
    const play = page.getByTestId('history-play');
    const playLabel = await play.getAttribute('aria-label');
    await play.click();
    // 16× plays the whole day in 3.75 s of frames; a loaded machine delivers frames late, so
    // wait for the clock rather than for a fixed time
    await expect
      .poll(async () => Number(await page.getByTestId('history-time').getAttribute('data-time')) - start.time, { timeout: 30000 })
      .toBeGreaterThan(3 * 3_600_000);
    if ((await play.getAttribute('aria-label')) !== playLabel) await play.click(); // pause, unless it already reached the end
    const moved = await cursorAt();
    expect(Math.hypot(moved.px[0] - start.px[0], moved.px[1] - start.px[1])).toBeGreaterThan(30);
    await expect.poll(async () => dist((await pixels([moved.px]))[0], CURSOR), { timeout: 10000 }).toBeLessThan(12);
    // the start of the track shows the (translucent) track line now, not the cursor
    expect(dist((await pixels([start.px]))[0], CURSOR)).toBeGreaterThan(12);
    await shot('map-history-playing');

    // the PDF button downloads the server-drawn report
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.getByTestId('history-pdf').click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
