/**
 * /maritime/data: a vessel's position and voyage by MMSI/IMO. The embedded default derives the
 * position from the GPS trackers travelling with the vessel's containers (real telemetry
 * runtime: a report through the intake); with AIS_URL set the HTTP adapter asks the feed (a
 * local fake feed here), and a failing feed falls back to the trackers saying so.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Enums } from '@rti/metadata';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let vesselId: number;
let orderNo: string;
const FIX_TIME = Date.now() - 5 * 60_000;

async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/** a fake AIS feed: answers `reply(url, headers)` and records the requests */
async function fakeFeed(reply: (u: URL) => { status: number; body?: unknown }) {
  const seen: Array<{ url: URL; auth: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    seen.push({ url, auth: req.headers.authorization });
    const r = reply(url);
    res.writeHead(r.status, { 'Content-Type': 'application/json' });
    res.end(r.body === undefined ? '' : JSON.stringify(r.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/vessels/position`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-maritime-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  delete process.env.AIS_URL;
  ts = await startTestServer({ plugins: ['telemetry', 'shipping'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  const modelId = (await ok(ts.a, '/device-model/create', { name: 'Tracker', offlineCheckTime: 600 })).id;
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-M', name: 'Box', projectId, type: 10, available: true })).id;
  const port = (await ok(ts.a, '/warehouse/create', { code: 'SHP', name: 'Shanghai Port' })).id;
  const osaka = (await ok(ts.a, '/warehouse/create', { code: 'OSP', name: 'Osaka Port' })).id;
  vesselId = (await ok(ts.a, '/shipper/create', { name: 'Pacific Star', mmsi: '477123456', imo: '9876543' })).id;
  await ok(ts.a, '/shipper/create', { name: 'Idle Queen', mmsi: '477000001', imo: '9000001' });
  const lines = [];
  for (let i = 0; i < 3; i++) {
    // one tracker in container 1, none in container 2
    const gpsId =
      i === 0 ? (await ok(ts.a, '/device-gps/create', { sn: 'GT-SEA-1', name: 'Container tracker', deviceModelId: modelId, useStatus: 20 })).id : null;
    const carrierId = (await ok(ts.a, '/carrier/create', { sn: `SEA-${i}`, carrierCodeId: codeId, warehouseId: port, status: 10, gpsId })).id;
    if (gpsId) await ts.server.db.models['device-gps'].update({ carrierId }, { where: { id: gpsId } });
    lines.push({ carrierId, containerNo: i < 2 ? 'MSCU1234565' : 'MSCU7654321' });
  }
  const doc = await ok(ts.a, '/ship-order/save', {
    type: 2,
    transportType: Enums.transportType.sea,
    vesselId,
    shipperWarehouseId: port,
    receiverWarehouseId: osaka,
    lines,
  });
  orderNo = doc.orderNo;
  await ok(ts.a, '/ship-order/release', { id: doc.id });
  await rt.refresh();
  // the tracker in the container reports from the East China Sea
  const r = rt.ingest!.intake.handleMqtt(
    'rti/ORGA/gps/GT-SEA-1/report',
    Buffer.from(JSON.stringify({ sn: 'GT-SEA-1', reports: [{ ts: FIX_TIME, dataType: 10, longitude: 125.5, latitude: 30.25, speed: 28 }] })),
  );
  if (r.status !== 'accepted') throw new Error(`report refused: ${r.status}`);
  await rt.ingest!.pipeline.drained();
  await rt.flush();
});
afterEach(() => {
  delete process.env.AIS_URL;
  delete process.env.AIS_TOKEN;
});
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/maritime/data', () => {
  it("embedded default: the position of the trackers travelling with the vessel's containers, and its voyage", async () => {
    for (const key of [{ mmsi: '477123456' }, { imo: '9876543' }, { vesselId }]) {
      const data = await ok(ts.a, '/maritime/data', key);
      expect(data.vessel).toMatchObject({ id: vesselId, name: 'Pacific Star', mmsi: '477123456', imo: '9876543' });
      expect(data.source).toBe('trackers');
      expect(data.position).toMatchObject({ longitude: 125.5, latitude: 30.25, trackerSn: 'GT-SEA-1', trackers: 1, time: new Date(FIX_TIME).toISOString() });
      expect(data.voyage).toEqual([
        expect.objectContaining({
          orderNo,
          status: Enums.shipOrderStatus.released,
          shipperWarehouseIdLabel: 'Shanghai Port',
          receiverWarehouseIdLabel: 'Osaka Port',
        }),
      ]);
    }
    // a vessel without shipments on board: known, no position
    const idle = await ok(ts.a, '/maritime/data', { mmsi: '477000001' });
    expect(idle).toMatchObject({ source: null, position: null, voyage: [] });
  });

  it("refuses an unknown vessel, a missing key, and another organisation's vessel", async () => {
    const unknown = await ts.a.call<any>('/maritime/data', { mmsi: '999999999' });
    expect(unknown.body.code).toBe(10002);
    expect(unknown.body.message).toContain('999999999');
    const ja = await ts.a.call<any>('/maritime/data', { mmsi: '999999999' }, { language: 'ja-JP' });
    expect(ja.body.message).toContain('船舶');
    expect((await ts.a.call('/maritime/data', {})).body.code).toBe(10001);
    expect((await ts.b.call('/maritime/data', { mmsi: '477123456' })).body.code).toBe(10002);
    expect((await ts.b.call('/maritime/data', { vesselId })).body.code).toBe(10002);
  });

  it('AIS adapter: with AIS_URL the feed answers (MMSI, IMO and token sent); a failing feed falls back to the trackers', async () => {
    const feed = await fakeFeed((u) =>
      u.searchParams.get('mmsi') === '477123456'
        ? {
            status: 200,
            body: {
              data: [
                {
                  mmsi: 477123456,
                  lat: 33.9,
                  lon: 135.1,
                  sog: 14.2,
                  cog: 78,
                  timestamp: Math.floor(FIX_TIME / 1000) + 60,
                  destination: 'JPOSA',
                  eta: '2026-11-26T08:00:00Z',
                },
              ],
            },
          }
        : { status: 404 },
    );
    try {
      process.env.AIS_URL = feed.url;
      process.env.AIS_TOKEN = 'feed-secret';
      const data = await ok(ts.a, '/maritime/data', { mmsi: '477123456' });
      expect(data.source).toBe('ais');
      expect(data.position).toMatchObject({
        latitude: 33.9,
        longitude: 135.1,
        speed: 14.2,
        course: 78,
        destination: 'JPOSA',
        eta: '2026-11-26T08:00:00Z',
        time: new Date(Math.floor(FIX_TIME / 1000) * 1000 + 60_000).toISOString(),
      });
      expect(feed.seen[0].url.pathname).toBe('/vessels/position');
      expect(Object.fromEntries(feed.seen[0].url.searchParams)).toEqual({ mmsi: '477123456', imo: '9876543' });
      expect(feed.seen[0].auth).toBe('Bearer feed-secret');
      // the feed does not know the idle vessel (404) and it has nothing on board: no position
      expect(await ok(ts.a, '/maritime/data', { mmsi: '477000001' })).toMatchObject({ source: null, position: null });
    } finally {
      await feed.close();
    }

    const broken = await fakeFeed(() => ({ status: 502, body: { error: 'upstream' } }));
    try {
      process.env.AIS_URL = broken.url;
      const data = await ok(ts.a, '/maritime/data', { mmsi: '477123456' });
      expect(data.source).toBe('trackers');
      expect(data.position).toMatchObject({ longitude: 125.5, latitude: 30.25 });
      expect(data.feedError).toContain('ais');
      expect(broken.seen).toHaveLength(1);
      const zh = await ts.a.call<any>('/maritime/data', { mmsi: '477123456' }, { language: 'zh-CN' });
      expect(zh.body.data.feedError).toContain('AIS 数据源');
    } finally {
      await broken.close();
    }
  });
});
