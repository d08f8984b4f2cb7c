/**
 * A real server with the telemetry plugin (embedded broker on a free port, segment store and
 * journal in a temp directory), and a small fleet created through the API: two warehouses
 * with locations and gate/hall gateways, a route, a beacon bound to a carrier, a GPS tracker.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime, type TelemetryRuntime } from '../server/runtime';

export type { Caller, TestServer };

export async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Rig {
  ts: TestServer;
  rt: TelemetryRuntime;
  dir: string;
  mqttUrl: string;
  close(): Promise<void>;
}

/** `plugins`: more plugins beside telemetry (open-api for the organisation token of HTTP pushes) */
export async function startRig(opts: { plugins?: string[] } = {}): Promise<Rig> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-telemetry-'));
  const port = await freePort();
  Object.assign(process.env, {
    MQTT_PORT: String(port),
    MQTT_HOST: '127.0.0.1',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    SIMULATOR_DEVICES: '0',
    TELEMETRY_STORE: 'segments',
  });
  const ts = await startTestServer({ plugins: ['telemetry', ...(opts.plugins ?? [])], config: { dataDir: dir } });
  const rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  return {
    ts,
    rt,
    dir,
    mqttUrl: `mqtt://127.0.0.1:${port}`,
    async close() {
      await ts.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const GATE_A = 'AC233FC0A002';
export const HALL_A = 'AC233FC0A001';
export const GATE_B = 'AC233FC0B002';
export const BEACON_MAC = 'E2C56DB5DF01';
export const GW_PASSWORD = 'Gateway123';

export interface Fleet {
  orgCode: string;
  warehouseA: number;
  warehouseB: number;
  beaconId: number;
  carrierId: number;
  gpsId: number;
  gateA: number;
}

/** The fleet of organisation A (code ORGA). */
export async function seedFleet(rig: Rig, caller: Caller, tag = 'A'): Promise<Fleet> {
  const modelId = (await ok(caller, '/device-model/create', { name: `Tag ${tag}`, batteryThreshold: 20, offlineCheckTime: 30 })).id;
  const loc = async (name: string, lng: number) => (await ok(caller, '/location/create', { name, longitude: lng, latitude: 50, fenceRadius: 500, type: 0 })).id;
  const wh = async (code: string, lng: number) =>
    (
      await ok(caller, '/warehouse/create', {
        code,
        name: `Warehouse ${code}`,
        locationId: await loc(`Site ${code}`, lng),
        idleCheckTime: 120,
        bleInboundEnabled: true,
        bleOutboundEnabled: true,
        bleDeDup: true,
        gpsInboundEnabled: true,
        gpsOutboundEnabled: true,
      })
    ).id;
  const warehouseA = await wh(`${tag}1`, 11);
  const warehouseB = await wh(`${tag}2`, 12);
  await ok(caller, '/route/create', {
    routeName: `${tag}1 → ${tag}2`,
    fromWarehouseId: warehouseA,
    toWarehouseId: warehouseB,
    transportTime: 180,
    transportType: 20,
  });
  const gw = async (sn: string, mac: string, warehouseId: number, purpose: number) =>
    (
      await ok(caller, '/device-slave-gateway/create', {
        sn,
        name: sn,
        mac,
        deviceModelId: modelId,
        warehouseId,
        purpose,
        useStatus: 20,
        mqttClientId: `c-${tag}-${mac}`,
        mqttUsername: `u-${tag}-${mac}`,
        mqttPassword: GW_PASSWORD,
      })
    ).id;
  const gateA = await gw(`GATE-${tag}1`, GATE_A, warehouseA, 20);
  await gw(`HALL-${tag}1`, HALL_A, warehouseA, 10);
  await gw(`GATE-${tag}2`, GATE_B, warehouseB, 20);
  const beaconId = (await ok(caller, '/device-beacon/create', { sn: `B-${tag}`, mac: BEACON_MAC, deviceModelId: modelId, useStatus: 20 })).id;
  const projectId = (await ok(caller, '/project/create', { name: `P ${tag}` })).id;
  const carrierCodeId = (await ok(caller, '/carrier-code/create', { code: `CC-${tag}`, name: 'Box', projectId, type: 10, available: true })).id;
  const gpsId = (await ok(caller, '/device-gps/create', { sn: `GT-${tag}`, name: 'Truck', deviceModelId: modelId, useStatus: 20 })).id;
  const carrierId = (
    await ok(caller, '/carrier/create', {
      sn: `C-${tag}`,
      name: `Box ${tag}`,
      carrierCodeId,
      projectId,
      type: 10,
      status: 10,
      beaconId,
      gpsId,
      warehouseId: warehouseA,
    })
  ).id;
  // master-data's binding hook mirrors this in production; the test loads the telemetry plugin alone
  await rig.ts.server.db.models['device-beacon'].update({ carrierId }, { where: { id: beaconId } });
  await rig.ts.server.db.models['device-gps'].update({ carrierId }, { where: { id: gpsId } });
  await rig.rt.refresh();
  return { orgCode: tag === 'A' ? 'ORGA' : 'ORGB', warehouseA, warehouseB, beaconId, carrierId, gpsId, gateA };
}

export function connectGateway(url: string, username: string): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(url, { username, password: GW_PASSWORD, clientId: `${username}-${Math.random()}`, reconnectPeriod: 0 });
    c.once('connect', () => resolve(c));
    c.once('error', (err) => {
      c.end(true);
      reject(err);
    });
  });
}

/** Pushes a frame through the real intake (decoders, journal, store, engine) and waits until it is applied and flushed. */
export async function push(rig: Rig, topic: string, payload: unknown): Promise<void> {
  const r = rig.rt.ingest!.intake.handleMqtt(topic, Buffer.from(JSON.stringify(payload)));
  if (r.status !== 'accepted') throw new Error(`${topic}: ${r.status} ${'reason' in r ? r.reason : ''}`);
  await settle(rig);
}

export async function settle(rig: Rig): Promise<void> {
  await rig.rt.ingest!.pipeline.drained();
  await rig.rt.flush();
}

export const scan = (gw: string, time: number, extra: Record<string, unknown> = {}) => ({
  gatewayMac: gw,
  time,
  readings: [{ mac: BEACON_MAC, rssi: -60, time, ...extra }],
});

/** An open-API token of the caller's organisation (open-api plugin). */
export async function orgToken(caller: Caller): Promise<string> {
  return (await ok<{ token: string }>(caller, '/organization-token/create')).token;
}

/** A push to /api/ingest/* with an organisation token (raw body as sent). */
export function pushHttp(rig: Rig, path: string, body: string | Buffer, token: string | null, language?: string) {
  return rig.ts.call(`/ingest/${path}`, undefined, { token, orgId: null, language, rawBody: typeof body === 'string' ? body : body.toString('utf8') });
}
