import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { startIngestFromEnv, type EmbeddedIngest } from '@rti/ingest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveBinary, MOSQUITTO, startMosquitto, type RunningMosquitto } from '../../../ingest/test/helpers/services';
import { GATE_A, ok, orgToken, pushHttp, scan, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

const available = haveBinary(MOSQUITTO);
let broker: RunningMosquitto;
let rig: Rig;
let fleet: Fleet;

beforeAll(async () => {
  if (!available) return;
  broker = await startMosquitto();
  process.env.TELEMETRY_INGEST = 'off';
  process.env.MQTT_URL = broker.url;
  rig = await startRig({ plugins: ['open-api'] });
  fleet = await seedFleet(rig, rig.ts.a);
});

afterAll(async () => {
  await rig?.close();
  await broker?.cleanup();
  delete process.env.TELEMETRY_INGEST;
  delete process.env.MQTT_URL;
});

describe.skipIf(!available)('ingest as separate workers (TELEMETRY_INGEST=off, external broker)', () => {
  it('the server hears every frame on the broker without the workers share group and derives the state', async () => {
    expect(rig.rt.ingest).toBeUndefined(); // no in-process ingest: workers store
    const c = await mqtt.connectAsync(broker.url, { clientId: `gw-${Math.random()}` });
    const t = Date.now();
    const end = Date.now() + 10_000;
    while (rig.rt.engine.stats.readings === 0 && Date.now() < end) {
      await c.publishAsync(`rti/ORGA/gw/${GATE_A}/scan`, JSON.stringify(scan(GATE_A, t)), { qos: 1 });
      await new Promise((r) => setTimeout(r, 200));
    }
    await c.endAsync();
    await rig.rt.flush();
    const rows = await ok(rig.ts.a, '/carrier-inout/list', { carrierId: fleet.carrierId });
    expect(rows.list.map((r: any) => [r.direction, r.warehouseId])).toEqual([[20, fleet.warehouseA]]);
    // a frame of an unknown organisation is dropped, not applied
    expect((await ok(rig.ts.b, '/carrier-inout/list', {})).total).toBe(0);
  });
});

describe.skipIf(!available)('HTTP push with ingest as separate workers', () => {
  let worker: EmbeddedIngest | undefined;
  let workerDir: string | undefined;
  afterAll(async () => {
    await worker?.stop();
    if (workerDir) fs.rmSync(workerDir, { recursive: true, force: true });
  });

  it('a pushed frame reaches a worker store AND the server rules (through the broker)', async () => {
    workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-worker-'));
    worker = await startIngestFromEnv({
      database: rig.ts.server.db,
      dataDir: workerDir,
      env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: `w-${process.pid}`, TELEMETRY_STORE: 'segments' },
    });
    const token = await orgToken(rig.ts.a);
    const T = Date.now() - 60_000;
    const readingsBefore = rig.rt.engine.stats.readings;
    const r = await pushHttp(
      rig,
      'gps',
      JSON.stringify([
        { sn: 'GT-A', ts: T, dataType: 30, temperature1: 75 },
        { sn: 'GT-A', ts: T + 1, longitude: 11, latitude: 50 },
      ]),
      token,
    );
    expect(r.body).toMatchObject({ code: 0, data: { accepted: 2 } });
    const stored = async () => (await worker!.service.store.query({ series: 'gps', org: rig.ts.orgA, key: 'GT-A' })).total;
    const end = Date.now() + 10_000;
    while ((rig.rt.engine.stats.readings < readingsBefore + 2 || (await stored()) < 2) && Date.now() < end) await new Promise((res) => setTimeout(res, 100));
    expect(await stored()).toBe(2);
    expect(rig.rt.engine.stats.readings).toBe(readingsBefore + 2);
    await rig.rt.flush();
    const alerts = await ok(rig.ts.a, '/device-alert/gps/list', { code: '036' });
    expect(alerts.list.map((a: any) => [a.code, Date.parse(a.reportTime)])).toEqual([['036', T]]);
    // checked here before it goes to the broker: bad frames never reach the workers
    expect((await pushHttp(rig, 'gps', '{"sn":', token)).body.code).toBe(10012);
    expect((await pushHttp(rig, 'gps', JSON.stringify({ sn: 'GT-NOPE', longitude: 1, latitude: 1 }), token)).body.code).toBe(10002);
    expect(rig.rt.push).toBeDefined();
  });
});
