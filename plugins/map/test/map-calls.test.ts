/**
 * Map calls over a real server (telemetry + map plugins): organisation scoping through the
 * scoped repository, positions from the derived state with the warehouse fallback, columnar
 * answers, GPS history with stops and the xlsx export.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { decodeIds } from '../server/map-list';
import { pdfPages, pdfText } from '@rti/server/pdf-text';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
const ids: Record<string, number> = {};

async function ok<T = any>(caller: TestServer['a'], p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-map-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'map'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  for (const [caller, tag] of [
    [ts.a, 'A'],
    [ts.b, 'B'],
  ] as const) {
    const loc = (await ok(caller, '/location/create', { name: `Site ${tag}`, longitude: 121.5, latitude: 31.2, fenceRadius: 300, type: 0 })).id;
    const wh = (
      await ok(caller, '/warehouse/create', { code: `W${tag}`, name: `Warehouse ${tag}`, locationId: loc, visibleInMap: true, fenceVisibleInMap: true })
    ).id;
    const project = (await ok(caller, '/project/create', { name: `Project ${tag}` })).id;
    const code = (await ok(caller, '/carrier-code/create', { projectId: project, code: `C${tag}`, name: `Box ${tag}`, type: 10, available: true })).id;
    ids[`wh${tag}`] = wh;
    const model = (await ok(caller, '/device-model/create', { name: `Model ${tag}`, batteryThreshold: 20, offlineCheckTime: 30 })).id;
    ids[`gps${tag}`] = (await ok(caller, '/device-gps/create', { sn: `G-${tag}`, name: `Tracker ${tag}`, deviceModelId: model, useStatus: 20 })).id;
    ids[`c${tag}1`] = (await ok(caller, '/carrier/create', { sn: `${tag}-1`, carrierCodeId: code, warehouseId: wh, transportStatus: 10 })).id;
    ids[`c${tag}2`] = (await ok(caller, '/carrier/create', { sn: `${tag}-2`, carrierCodeId: code, transportStatus: 20 })).id;
  }
  // the derived state knows where A-2 is (in transit)
  rt.engine.load({
    carriers: [
      {
        id: ids.cA2,
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
        longitude: 121.6,
        latitude: 31.3,
        gateSeen: {},
        lastInOut: {},
        open: {},
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/map/list', () => {
  it('answers the caller organisation only, in columns, with state positions and the warehouse fallback', async () => {
    const a = await ok(ts.a, '/map/list');
    const idsA = decodeIds(a.carriers.id);
    expect(idsA).toEqual([ids.cA1, ids.cA2]);
    expect(a.carriers.lng).toEqual([121.5, 121.6]);
    expect(a.carriers.st).toEqual([0, 20]);
    expect(a.warehouses).toEqual([expect.objectContaining({ id: ids.whA, name: 'Warehouse A', fence: 300 })]);
    const b = await ok(ts.b, '/map/list');
    // B-2 has no warehouse and no state: counted, not placed
    expect(decodeIds(b.carriers.id)).toEqual([ids.cB1]);
    expect(b.unplaced).toBeGreaterThanOrEqual(1);
  });

  it('filters by status and warehouse', async () => {
    expect(decodeIds((await ok(ts.a, '/map/list', { transportStatus: [20] })).carriers.id)).toEqual([ids.cA2]);
    expect(decodeIds((await ok(ts.a, '/map/list', { warehouseId: ids.whA })).carriers.id)).toEqual([ids.cA1]);
  });

  it('keeps /map/list/admin to the current organisation for a non-platform user', async () => {
    const a = await ok(ts.a, '/map/list/admin');
    expect(decodeIds(a.carriers.id)).toEqual([ids.cA1, ids.cA2]);
  });
});

describe('/map/log', () => {
  it('gives the detail card of an own carrier and 10002 for another organisation', async () => {
    const d = await ok(ts.a, '/map/log', { carrierId: ids.cA2 });
    expect(d).toMatchObject({ kind: 'carrier', transportStatus: 20, position: { lng: 121.6, lat: 31.3 } });
    expect(d.carrier.sn).toBe('A-2');
    const foreign = await ts.a.call('/map/log', { carrierId: ids.cB1 });
    expect(foreign.body.code).toBe(10002);
  });
});

describe('/map/log with points', () => {
  it('names several points of the own organisation only (the list of a stack)', async () => {
    const got = await ok(ts.a, '/map/log', {
      points: [
        { kind: 1, id: ids.cA1 },
        { kind: 1, id: ids.cB1 },
        { kind: 2, id: ids.gpsA },
      ],
    });
    expect(got.list).toEqual([
      { kind: 1, id: ids.cA1, sn: 'A-1', name: null },
      { kind: 2, id: ids.gpsA, sn: 'G-A', name: 'Tracker A' },
    ]);
    const tooMany = await ts.a.call('/map/log', { points: Array.from({ length: 201 }, (_, i) => ({ kind: 1, id: i + 1 })) });
    expect(tooMany.body.code).toBe(10001);
  });
});

describe('/map/history', () => {
  it('returns the GPS track with stops and exports it', async () => {
    const start = Date.now() - 3 * 3600_000;
    const rows = [];
    for (let i = 0; i < 60; i++)
      rows.push({
        org: ts.orgA,
        sn: 'G-A',
        time: start + i * 60_000,
        dataType: 10,
        longitude: i < 30 ? 121 + i * 0.01 : 121.29,
        latitude: 31,
        speed: i < 30 ? 40 : 0,
        temperature1: 4 + i / 10,
      });
    rows.push({ org: ts.orgA, sn: 'G-A', time: start + 61 * 60_000, dataType: 20, eventCode: '018', eventValue: '1' });
    await rt.store!.write([{ series: 'gps', rows }]);
    const h = await ok(ts.a, '/map/history', { gpsId: ids.gpsA, time: [start - 1000, Date.now()] });
    expect(h.total).toBe(60);
    expect(h.track.t).toHaveLength(60);
    expect(h.stops).toHaveLength(1);
    expect(h.events).toEqual([expect.objectContaining({ code: '018' })]);
    expect(h.sensors.temp[0]).toBe(4);
    const foreign = await ts.b.call('/map/history', { gpsId: ids.gpsA });
    expect(foreign.body.code).toBe(10002);
    const bad = await ts.a.call('/map/history', { gpsId: ids.gpsA, time: [Date.now(), Date.now() - 1000] });
    expect(bad.body.code).toBe(10001);
    // no subject: the one validation helper, the field by its label, in the caller's language
    expect((await ts.a.call('/map/history', {}, { language: 'ja-JP' })).body).toMatchObject({ code: 10001, message: 'シリアル番号を入力してください' });
    expect((await ts.a.call('/map/history', {})).body).toMatchObject({ code: 10001, message: 'Please input SN' });
    const res = await ts.a.fetch('/map/history/export', { gpsId: ids.gpsA, time: [start - 1000, Date.now()] });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.subarray(0, 2).toString()).toBe('PK');
  });

  it('names the subject and, for a period without positions, gives the newest known one', async () => {
    // the track of the previous test lies 1-3 h back; a period a week earlier holds nothing
    const weekAgo = Date.now() - 7 * 86_400_000;
    const empty = await ok(ts.a, '/map/history', { gpsId: ids.gpsA, time: [weekAgo - 86_400_000, weekAgo] });
    expect(empty.track.t).toHaveLength(0);
    expect(empty.subject).toMatchObject({ gpsSn: 'G-A', gpsName: 'Tracker A' });
    expect(empty.last).toMatchObject({ lng: 121.29, lat: 31 });
    expect(empty.last.t).toBeGreaterThan(weekAgo);
    // a carrier without a tracker: its derived state's placement
    const carrier = await ok(ts.a, '/map/history', { carrierId: ids.cA2, time: [weekAgo - 86_400_000, weekAgo] });
    expect(carrier.subject).toMatchObject({ carrierSn: 'A-2', carrierName: null });
    expect(carrier.last).toMatchObject({ lng: 121.6, lat: 31.3 });
    // with a track there is no need for it
    const full = await ok(ts.a, '/map/history', { gpsId: ids.gpsA, time: [Date.now() - 4 * 3600_000, Date.now()] });
    expect(full.last).toBeNull();
  });

  it('exports the history as a server-drawn PDF in the caller language and per sensor as xlsx', async () => {
    // a carrier with its own code carrying tracker G-A (whose track the previous test stored)
    const project = (await ok(ts.a, '/project/create', { name: 'PDF' })).id;
    const code = (await ok(ts.a, '/carrier-code/create', { projectId: project, code: 'BOX-PDF-60', name: 'Pallet box', type: 10, available: true })).id;
    const carrierId = (await ok(ts.a, '/carrier/create', { sn: 'PDF-1', carrierCodeId: code, transportStatus: 20 })).id;
    await ts.server.db.models.carrier.update({ gpsId: ids.gpsA }, { where: { id: carrierId } });
    const body = { carrierId, time: [Date.now() - 4 * 3600_000, Date.now()], utcOffset: 480 };
    for (const [call, lang, title] of [
      ['/map/history/export/pdf', 'en-US', 'Track history report'],
      ['/map/history/export/itext', 'zh-CN', '历史轨迹报告'],
    ] as const) {
      const res = await ts.a.fetch(call, body, { language: lang });
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfPages(pdf)).toBe(2);
      // kept for review beside the screenshots
      fs.mkdirSync(path.resolve(__dirname, '../../../test-output'), { recursive: true });
      fs.writeFileSync(path.resolve(__dirname, `../../../test-output/map-history-report-${lang}.pdf`), pdf);
      const text = pdfText(pdf);
      expect(text).toContain('BOX-PDF-60');
      expect(text).toContain('PDF-1');
      expect(text).toContain('G-A');
      if (fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc')) expect(text).toContain(title);
    }
    // another organisation's carrier is refused like the history itself
    const foreign = await ts.b.call('/map/history/export/pdf', { carrierId });
    expect(foreign.body.code).toBe(10002);
    const temp = await ts.a.fetch('/map/history/export/temperature', body);
    expect(temp.headers.get('content-type')).toContain('spreadsheetml');
    expect(
      Buffer.from(await temp.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });
});
