/**
 * From readings to webhooks: a gate pass and low-battery readings go through the real ingest
 * pipeline and derived-state engine (telemetry loaded); the carrier's in/out pass and the alert
 * the rules open reach a subscribed receiver as `live.inout` and `live.alert`, after the state
 * flush committed them — the ingest path never waits for a delivery.
 */
import fs from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const GATE_A = 'AC233FC0A002';
const HALL_A = 'AC233FC0A001';
const BEACON_MAC = 'E2C56DB5DF01';
const T = Date.now() - 10 * 60_000;

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let receiver: Server;
let fleet: { warehouseA: number; beaconId: number; carrierId: number };
const received: Array<{ event: string; data: any }> = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
async function ok(caller: Caller, p: string, body: unknown = {}) {
  const r = await caller.call<any>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.message}`);
  return r.body.data;
}
const scan = (gw: string, time: number, extra: Record<string, unknown> = {}) => ({
  gatewayMac: gw,
  time,
  readings: [{ mac: BEACON_MAC, rssi: -60, time, ...extra }],
});
/** a reading through the real intake, pipeline and state engine, flushed (rows committed, events raised) */
async function push(topic: string, payload: unknown) {
  const r = rt.ingest!.intake.handleMqtt(topic, Buffer.from(JSON.stringify(payload)));
  if (r.status !== 'accepted') throw new Error(`${topic}: ${r.status}`);
  await rt.ingest!.pipeline.drained();
  await rt.flush();
}

/** a warehouse with a gate and a hall gateway, a beacon bound to a carrier */
async function seedFleet(caller: Caller) {
  const modelId = (await ok(caller, '/device-model/create', { name: 'Tag', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  const locationId = (await ok(caller, '/location/create', { name: 'Site', longitude: 11, latitude: 50, fenceRadius: 500, type: 0 })).id;
  const warehouseA = (
    await ok(caller, '/warehouse/create', {
      code: 'A1',
      name: 'Warehouse A1',
      locationId,
      idleCheckTime: 120,
      bleInboundEnabled: true,
      bleOutboundEnabled: true,
      bleDeDup: true,
      gpsInboundEnabled: true,
      gpsOutboundEnabled: true,
    })
  ).id;
  const gw = (sn: string, mac: string, purpose: number) =>
    ok(caller, '/device-slave-gateway/create', {
      sn,
      name: sn,
      mac,
      deviceModelId: modelId,
      warehouseId: warehouseA,
      purpose,
      useStatus: 20,
      mqttClientId: `c-${mac}`,
      mqttUsername: `u-${mac}`,
      mqttPassword: 'Gateway123',
    });
  await gw('GATE-A1', GATE_A, 20);
  await gw('HALL-A1', HALL_A, 10);
  const beaconId = (await ok(caller, '/device-beacon/create', { sn: 'B-A', mac: BEACON_MAC, deviceModelId: modelId, useStatus: 20 })).id;
  const projectId = (await ok(caller, '/project/create', { name: 'P' })).id;
  const carrierCodeId = (await ok(caller, '/carrier-code/create', { code: 'CC-A', name: 'Box', projectId, type: 10, available: true })).id;
  const carrierId = (
    await ok(caller, '/carrier/create', { sn: 'C-A', name: 'Box A', carrierCodeId, projectId, type: 10, status: 10, beaconId, warehouseId: warehouseA })
  ).id;
  // master-data's binding hook does this in production; this test loads telemetry and open-api only
  await ts.server.db.models['device-beacon'].update({ carrierId }, { where: { id: beaconId } });
  await rt.refresh();
  return { warehouseA, beaconId, carrierId };
}

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  process.env.WEBHOOK_POLL_MS = '50';
  receiver = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-webhooks-ingest-'));
  Object.assign(process.env, {
    MQTT_PORT: String(await freePort()),
    MQTT_HOST: '127.0.0.1',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    SIMULATOR_DEVICES: '0',
    TELEMETRY_STORE: 'segments',
  });
  ts = await startTestServer({ plugins: ['telemetry', 'open-api'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  fleet = await seedFleet(ts.a);
});
afterAll(async () => {
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  receiver?.close();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

it('delivers carrier in/out passes and opened alerts derived from readings', async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  const sub = await ts.a.call<any>('/webhook/create', { url, events: ['live.inout', 'live.alert'] });
  expect(sub.body.code, sub.body.message).toBe(0);
  await push(`rti/ORGA/gw/${GATE_A}/scan`, scan(GATE_A, T));
  for (let k = 0; k < 3; k++) await push(`rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T + 60_000 + k * 1000, { battery: 12 }));
  const until = Date.now() + 15_000;
  while (!(received.some((r) => r.event === 'live.inout') && received.some((r) => r.event === 'live.alert')) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50));
  const pass = received.find((r) => r.event === 'live.inout');
  expect(pass?.data).toMatchObject({ carrierId: fleet.carrierId, direction: 20, warehouseId: fleet.warehouseA });
  const alert = received.find((r) => r.event === 'live.alert');
  expect(alert?.data).toMatchObject({ beaconId: fleet.beaconId, reason: 10, status: 0 });
});
