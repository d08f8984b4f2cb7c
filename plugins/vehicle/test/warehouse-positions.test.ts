/**
 * Warehouse restriction of positions and tracks (issue 13 #9): a user assigned to warehouse W1
 * asks every plugin call that returns positions or tracks — with and without a filter naming
 * the other warehouse — and gets only trackers and carriers of W1, plus trackers on no carrier
 * (they belong to no warehouse, as in /map/list); a tracker or carrier of W2 asked for by id is
 * refused like a row of another organisation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceState } from '@rti/ingest/state/subject-state';
import { newDeviceState } from '@rti/ingest/state/subject-state';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let wendy: Caller;
const ids: Record<string, number> = {};
const MIN = 60_000;
const start = Date.now() - 3 * 3600_000;

async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-wh-pos-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  // master-data binds trackers to carriers both ways, as in the product
  ts = await startTestServer({ plugins: ['master-data', 'telemetry', 'map', 'vehicle'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  const a = ts.a;
  const loc = (await ok(a, '/location/create', { name: 'Depot', longitude: 121.5, latitude: 31.2, fenceRadius: 300, type: 0 })).id;
  for (const w of [1, 2]) ids[`w${w}`] = (await ok(a, '/warehouse/create', { code: `W${w}`, name: `Depot ${w}`, locationId: loc })).id;
  const project = (await ok(a, '/project/create', { name: 'Fleet' })).id;
  const truck = (await ok(a, '/carrier-code/create', { projectId: project, code: 'TRUCK', name: 'Truck', type: 10, available: true, particular: 10 })).id;
  const model = (await ok(a, '/device-model/create', { name: 'Tracker', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  for (const k of [1, 2, 3])
    ids[`gps${k}`] = (await ok(a, '/device-gps/create', { sn: `GT-${k}`, name: `Tracker ${k}`, deviceModelId: model, useStatus: 20 })).id;
  // truck 1 in W1, truck 2 in W2; tracker 3 on no carrier
  for (const k of [1, 2])
    ids[`truck${k}`] = (await ok(a, '/carrier/create', { sn: `TR-${k}`, carrierCodeId: truck, gpsId: ids[`gps${k}`], warehouseId: ids[`w${k}`] })).id;
  wendy = await ts.callerFor(await ts.addUser(ts.orgA, 'wendy', { warehouseIds: [ids.w1] }), ts.orgA);
  const state = (k: number, lng: number): DeviceState => ({
    ...newDeviceState('gps', ids[`gps${k}`], ts.orgA),
    status: 10,
    lastSeen: Date.now() - MIN,
    longitude: lng,
    latitude: 31,
    battery: 80,
  });
  rt.engine.load({ devices: [state(1, 121.1), state(2, 122.2), state(3, 123.3)] });
  const rows = [];
  for (const k of [1, 2, 3])
    for (let i = 0; i < 20; i++)
      rows.push({ org: ts.orgA, sn: `GT-${k}`, time: start + i * MIN, dataType: 10, longitude: 120 + k + i * 0.001, latitude: 31, speed: 30 });
  await rt.store!.write([{ series: 'gps', rows }]);
}, 120_000);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const time = () => [start - 1000, Date.now()];
/** longitudes 122.x belong to tracker 2 (truck 2, warehouse W2) only */
const outside = (lng: unknown) => typeof lng === 'number' && lng >= 122 && lng < 123;

describe('calls that return positions or tracks, as a user of warehouse W1', () => {
  it('the unrestricted caller sees all three trackers (the filter below is the restriction)', async () => {
    const s = await ok(ts.a, '/map/history/screen/shot', { time: time() });
    expect(s.tracks.map((t: any) => t.sn)).toEqual(['GT-1', 'GT-2', 'GT-3']);
  });

  it.each([{}, { warehouseId: 'w2' }, { sn: 'GT-2' }])('/map/history/screen/shot %o', async (extra) => {
    const body = { time: time(), ...extra, ...(extra.warehouseId ? { warehouseId: ids.w2 } : {}) };
    const s = await ok(wendy, '/map/history/screen/shot', body);
    const sns = s.tracks.map((t: any) => t.sn);
    expect(sns).not.toContain('GT-2');
    if (!('sn' in extra)) expect(sns).toEqual(['GT-1', 'GT-3']);
    for (const t of s.tracks) for (const lng of t.lng) expect(outside(lng)).toBe(false);
  });

  it('/gps/report/list and its export', async () => {
    const list = await ok(wendy, '/gps/report/list', { time: time() });
    expect(list.list.map((r: any) => r.gpsSn ?? r.sn)).not.toContain('GT-2');
    expect(list.total).toBe(2);
    expect((await ok(wendy, '/gps/report/list', { time: time(), gpsId: ids.gps2 })).total).toBe(0);
    const exported = await wendy.fetch('/gps/report/export', { time: time() });
    expect(exported.status).toBe(200);
  });

  it.each(['/map/list', '/map/gps', '/jimi/list', '/jimi/gps'])('%s', async (p) => {
    for (const body of [{}, { warehouseId: ids.w2 }]) {
      const text = JSON.stringify(await ok(wendy, p, body));
      expect(text).not.toContain('TR-2');
      expect(text).not.toContain('GT-2');
      expect(text).not.toMatch(/122\.2\b/);
    }
  });

  it("by id, serial or carrier: the other warehouse's truck and tracker are refused; its own answer", async () => {
    expect((await ok(wendy, '/map/history', { gpsId: ids.gps1, time: time() })).points ?? true).toBeTruthy();
    expect((await wendy.call('/map/log', { gpsId: ids.gps3 })).body.code).toBe(0);
    for (const [p, body] of [
      ['/map/log', { carrierId: ids.truck2 }],
      ['/map/log', { gpsId: ids.gps2 }],
      ['/map/history', { gpsId: ids.gps2, time: time() }],
      ['/map/history', { sn: 'GT-2', time: time() }],
      ['/map/history', { carrierId: ids.truck2, time: time() }],
      ['/map/history/mix', { gpsId: ids.gps2, time: time() }],
      ['/map/history/export/pdf', { gpsId: ids.gps2, time: time() }],
      ['/jimi/history', { carrierId: ids.truck2, time: time() }],
      ['/jimi/carrier/gps', { carrierId: ids.truck2 }],
    ] as const) {
      const got = await wendy.call(p, body);
      expect(got.body.code, `${p} ${JSON.stringify(body)}: ${got.body.message}`).not.toBe(0);
    }
  });
});
