/**
 * Vehicle calls over a real server (telemetry + map + vehicle plugins): vehicles are carriers
 * of "vehicle" carrier codes; positions from the derived state; another organisation's
 * vehicles are invisible (lists) or refused with 10002 (by id); report and screenshot data
 * from the telemetry store; the locating centre's sources.
 */
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceState } from '@rti/ingest/state/subject-state';
import { newDeviceState } from '@rti/ingest/state/subject-state';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
const ids: Record<string, number> = {};
const MIN = 60_000;
const start = Date.now() - 6 * 3600_000;

async function ok<T = any>(caller: TestServer['a'], p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

const gpsState = (id: number, orgId: number, s: Partial<DeviceState>): DeviceState => ({ ...newDeviceState('gps', id, orgId), ...s });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-vehicle-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'map', 'vehicle'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  for (const [caller, tag] of [
    [ts.a, 'A'],
    [ts.b, 'B'],
  ] as const) {
    const loc = (await ok(caller, '/location/create', { name: `Depot ${tag}`, longitude: 121.5, latitude: 31.2, fenceRadius: 300, type: 0 })).id;
    const wh = (await ok(caller, '/warehouse/create', { code: `W${tag}`, name: `Depot ${tag}`, locationId: loc })).id;
    ids[`wh${tag}`] = wh;
    const project = (await ok(caller, '/project/create', { name: `Fleet ${tag}` })).id;
    const truck = (
      await ok(caller, '/carrier-code/create', { projectId: project, code: `TRUCK-${tag}`, name: 'Truck', type: 10, available: true, particular: 10 })
    ).id;
    const box = (await ok(caller, '/carrier-code/create', { projectId: project, code: `BOX-${tag}`, name: 'Box', type: 10, available: true })).id;
    const model = (await ok(caller, '/device-model/create', { name: `Tracker ${tag}`, batteryThreshold: 20, offlineCheckTime: 30 })).id;
    for (const k of [1, 2])
      ids[`gps${tag}${k}`] = (
        await ok(caller, '/device-gps/create', { sn: `GT-${tag}${k}`, name: `Tracker ${tag}${k}`, deviceModelId: model, useStatus: 20 })
      ).id;
    ids[`truck${tag}1`] = (await ok(caller, '/carrier/create', { sn: `TR-${tag}1`, carrierCodeId: truck, gpsId: ids[`gps${tag}1`], warehouseId: wh })).id;
    ids[`truck${tag}2`] = (await ok(caller, '/carrier/create', { sn: `TR-${tag}2`, carrierCodeId: truck, gpsId: ids[`gps${tag}2`] })).id;
    const mac = tag === 'A' ? 'AC233F000001' : 'AC233F000002';
    const beacon = (await ok(caller, '/device-beacon/create', { sn: `BC-${tag}`, mac, deviceModelId: model, useStatus: 20 })).id;
    ids[`box${tag}`] = (await ok(caller, '/carrier/create', { sn: `BOX-${tag}-1`, carrierCodeId: box, beaconId: beacon, warehouseId: wh })).id;
  }
  // truck A1 drives now, truck A2 went silent two hours ago
  rt.engine.load({
    devices: [
      gpsState(ids.gpsA1, ts.orgA, { status: 10, lastSeen: Date.now() - MIN, longitude: 121.6, latitude: 31.25, battery: 80 }),
      gpsState(ids.gpsA2, ts.orgA, { status: 10, lastSeen: Date.now() - 2 * 3600_000, longitude: 121.4, latitude: 31.1, battery: 15 }),
      gpsState(ids.gpsB1, ts.orgB, { status: 10, lastSeen: Date.now() - MIN, longitude: 113.9, latitude: 22.5 }),
    ],
  });
  const rows = [];
  // A1: 30 min at 60 km/h east, 30 min parked, newest fix 1 min ago at speed 40
  for (let i = 0; i < 30; i++)
    rows.push({ org: ts.orgA, sn: 'GT-A1', time: start + i * MIN, dataType: 10, longitude: 121 + i * 0.01, latitude: 31, speed: 60, temperature1: 5 });
  for (let i = 30; i < 60; i++)
    rows.push({ org: ts.orgA, sn: 'GT-A1', time: start + i * MIN, dataType: 10, longitude: 121.29, latitude: 31, speed: 0, temperature1: 7 });
  rows.push({ org: ts.orgA, sn: 'GT-A1', time: start + 61 * MIN, dataType: 20, eventCode: '018', eventValue: '1' });
  rows.push({ org: ts.orgA, sn: 'GT-A1', time: Date.now() - MIN, dataType: 10, longitude: 121.6, latitude: 31.25, speed: 40 });
  rows.push({ org: ts.orgB, sn: 'GT-B1', time: start, dataType: 10, longitude: 113.9, latitude: 22.5, speed: 10 });
  await rt.store!.write([{ series: 'gps', rows }]);
}, 120_000);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/jimi/list and /jimi/gps', () => {
  it('lists the caller organisation vehicles only, with position, speed and motion', async () => {
    const a = await ok(ts.a, '/jimi/list', { limit: 20 });
    expect(a.list.map((v: any) => v.sn)).toEqual(['TR-A1', 'TR-A2']); // the box is not a vehicle, B's trucks are not ours
    expect(a.list[0]).toMatchObject({ gpsSn: 'GT-A1', lng: 121.6, lat: 31.25, speed: 40, motion: 'moving', battery: 80, warehouse: 'Depot A' });
    expect(a.list[1]).toMatchObject({ motion: 'offline', battery: 15 });
    expect(a.counts).toEqual({ moving: 1, stopped: 0, offline: 1 });
    expect((await ok(ts.a, '/jimi/list', { motion: 'offline' })).list.map((v: any) => v.sn)).toEqual(['TR-A2']);
    expect((await ok(ts.b, '/jimi/list')).list.map((v: any) => v.sn)).toEqual(['TR-B1', 'TR-B2']);
    const g = await ok(ts.a, '/jimi/gps');
    expect(g.vehicles.sn).toEqual(['TR-A1', 'TR-A2']);
    expect(g.vehicles.motion).toEqual([1, 3]);
  });

  it('ignores another organisation vehicle asked for by id', async () => {
    expect((await ok(ts.a, '/jimi/list', { carrierId: ids.truckB1 })).total).toBe(0);
  });
});

describe('/jimi/history and trips', () => {
  it('gives the track with stops, trips and sums; refuses another organisation vehicle', async () => {
    const h = await ok(ts.a, '/jimi/history', { carrierId: ids.truckA1, time: [start - 1000, start + 62 * MIN] });
    expect(h.total).toBe(60);
    expect(h.stops).toHaveLength(1);
    expect(h.trips).toHaveLength(1);
    expect(h.trips[0].distanceKm).toBeCloseTo(27.64, 1); // 29 hops of 0.01° at 31° N
    expect(h.summary.runningMs).toBe(29 * MIN);
    expect(h.summary.alarms).toBe(1);
    const foreign = await ts.a.call('/jimi/history', { carrierId: ids.truckB1 });
    expect(foreign.body.code).toBe(10002);
    const t = await ok(ts.a, '/jimi/transport/order/list', { carrierId: ids.truckA1, time: [start - 1000, start + 62 * MIN] });
    expect(t.total).toBe(1);
    const bad = await ts.a.call('/jimi/history', { carrierId: ids.truckA1, time: [Date.now(), Date.now() - 1000] });
    expect(bad.body.code).toBe(10001);
    // refusals through the one validation helper, fields named by their labels, in the caller's language
    const notId = await ts.a.call('/jimi/history', { carrierId: 'x' }, { language: 'zh-CN' });
    expect(notId.body).toMatchObject({ code: 10001, message: '载具必须是记录编号' });
    const zone = await ts.a.call('/jimi/history', { carrierId: ids.truckA1, tz: 900 });
    expect(zone.body).toMatchObject({ code: 10001, message: 'tz: value between -840 and 840' });
  });
});

describe('/jimi/list/alarm', () => {
  it('lists alerts of own vehicles only', async () => {
    const m = ts.server.db.models;
    await m['device-gps-alert'].create({ orgId: ts.orgA, gpsId: ids.gpsA1, gpsSn: 'GT-A1', code: '018', dataType: 20, status: 0, reportTime: new Date() });
    await m['device-gps-alert'].create({ orgId: ts.orgB, gpsId: ids.gpsB1, gpsSn: 'GT-B1', code: '019', dataType: 20, status: 0, reportTime: new Date() });
    const a = await ok(ts.a, '/jimi/list/alarm');
    expect(a.list.map((r: any) => [r.gpsSn, r.vehicleSn])).toEqual([['GT-A1', 'TR-A1']]);

    // declared paging and status, with rows to page over: a clear 10001, never a 10000 from the query
    for (const page of [1e300, 2.5, -1, '1e300']) {
      const got = await ts.a.call('/jimi/list/alarm', { page }, { language: 'ja-JP' });
      expect({ page, code: got.body.code }).toEqual({ page, code: 10001 });
      expect(got.body.message).toContain('1000000');
    }
    for (const status of [1e300, 'x', 7]) expect((await ts.a.call('/jimi/list/alarm', { status })).body.code).toBe(10001);
    expect((await ok(ts.a, '/jimi/list/alarm', { status: 0, page: 1, limit: 5 })).total).toBe(1);
    expect((await ok(ts.a, '/jimi/list/alarm', { page: 2, limit: 1 })).list).toEqual([]);
  });
});

describe('/jimi/carrier/gps (locating centre)', () => {
  it('finds by beacon mac, places a beacon carrier at its warehouse and a vehicle by its GPS', async () => {
    const byMac = await ok(ts.a, '/jimi/carrier/gps', { keyword: 'ac:23:3f:00:00:01' });
    expect(byMac.list.map((c: any) => c.sn)).toEqual(['BOX-A-1']);
    expect(byMac.list[0]).toMatchObject({ source: 'warehouse', lng: 121.5, lat: 31.2, warehouse: { name: 'Depot A' } });
    const truck = await ok(ts.a, '/jimi/carrier/gps', { carrierId: ids.truckA1 });
    expect(truck.list[0]).toMatchObject({ source: 'gps', lng: 121.6, lat: 31.25, recent: [] });
    // the other organisation's mac is not found, its carrier refused
    expect((await ok(ts.a, '/jimi/carrier/gps', { keyword: 'AC233F000002' })).total).toBe(0);
    expect((await ts.a.call('/jimi/carrier/gps', { carrierId: ids.boxB })).body.code).toBe(10002);
    expect((await ts.a.call('/jimi/carrier/gps', {})).body.code).toBe(10001);
  });

  it('places a carrier bound to a vehicle at the vehicle GPS position', async () => {
    const m = ts.server.db.models;
    const bind = Number((await m['carrier-bind'].create({ orgId: ts.orgA, bindNo: 'BND-1', carrierId: ids.truckA1, status: 10 })).get('id'));
    await m['carrier-bind-detail'].create({ orgId: ts.orgA, carrierBindId: bind, carrierId: ids.boxA, qty: 1 });
    const got = await ok(ts.a, '/jimi/carrier/gps', { carrierId: ids.boxA });
    expect(got.list[0]).toMatchObject({ source: 'vehicle', vehicle: { sn: 'TR-A1' }, lng: 121.6 });
  });
});

describe('/gps/report', () => {
  it('reports per tracker per day and exports xlsx; another organisation sees its own trackers only', async () => {
    const r = await ok(ts.a, '/gps/report/list', { sn: 'GT-A1', time: [start - 1000, Date.now()] });
    expect(r.total).toBe(1);
    const row = r.list[0];
    expect(row.sn).toBe('GT-A1');
    expect(row.total.runningMs).toBeGreaterThanOrEqual(29 * MIN);
    expect(row.total.distanceKm).toBeGreaterThan(27.6);
    expect(row.total.maxSpeed).toBe(60);
    expect([row.total.tempMin, row.total.tempMax]).toEqual([5, 7]);
    const b = await ok(ts.b, '/gps/report/list', { time: [start - 1000, Date.now()] });
    expect(b.list.map((x: any) => x.sn)).toEqual(['GT-B1', 'GT-B2']);
    const res = await ts.a.fetch('/gps/report/export', { time: [start - 1000, Date.now()] });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    // sheet names and headers in the caller's language (the plugin's server/messages)
    const zh = new ExcelJS.Workbook();
    await zh.xlsx.load(
      Buffer.from(await (await ts.a.fetch('/gps/report/export', { time: [start - 1000, Date.now()] }, { language: 'zh-CN' })).arrayBuffer()) as never,
    );
    expect(zh.worksheets.map((w) => w.name)).toEqual(['按日', '按设备']);
    expect(zh.worksheets[0].getRow(1).values).toEqual(expect.arrayContaining(['GPS 编号', '里程（km）', '最高温度（°C）']));
    expect((await ts.a.call('/gps/report/list', { time: [Date.now() - 40 * 86_400_000, Date.now()] })).body.code).toBe(10001);
  });
});

describe('/map/history/screen/shot', () => {
  it('gives each own tracker with points its thinned track, stops and last fix', async () => {
    const s = await ok(ts.a, '/map/history/screen/shot', { time: [start - 1000, Date.now()] });
    expect(s.tracks.map((t: any) => t.sn)).toEqual(['GT-A1']);
    expect(s.tracks[0].stops).toHaveLength(1);
    expect(s.tracks[0].last).toMatchObject({ lng: 121.6, lat: 31.25 });
    expect((await ok(ts.b, '/map/history/screen/shot', { time: [start - 1000, Date.now()] })).tracks.map((t: any) => t.sn)).toEqual(['GT-B1']);
  });
});

describe('/jimi/synchronize', () => {
  it('reloads the tracking engine and counts the vehicles', async () => {
    expect((await ok(ts.a, '/jimi/synchronize')).vehicles).toBe(2);
  });
});

describe('permissions', () => {
  const paths = [
    '/jimi/list',
    '/jimi/gps',
    '/jimi/list/alarm',
    '/jimi/transport/order/list',
    '/jimi/history',
    '/jimi/carrier/gps',
    '/jimi/synchronize',
    '/gps/report/list',
    '/gps/report/export',
    '/map/history/screen/shot',
  ];

  it('needs each call code (derived from the path) and lists the codes under the vehicle page', async () => {
    const role = (await ok(ts.a, '/role/create', { name: 'no vehicle codes', pcPermissions: [], pdaPermissions: [] })).id;
    const nobody = await ts.callerFor(await ts.addUser(ts.orgA, 'nobody', { roleIds: [role] }), ts.orgA);
    for (const p of paths) {
      const res = await nobody.fetch(p, {});
      expect(res.status, p).toBe(403);
      expect(((await res.json()) as { code: number }).code, p).toBe(10005);
    }
    const tree = JSON.stringify(await ok(ts.a, '/permission/all'));
    for (const code of ['ApiJimiList', 'ApiJimiCarrierGps', 'ApiGpsReportExport', 'ApiMapHistoryScreenShot', 'ViewVehicleMonitor', 'ViewCarrierLocating'])
      expect(tree, code).toContain(`"${code}"`);
  });
});
