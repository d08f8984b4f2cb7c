import fs from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@rti/server';
import { SnapshotDirectory } from '../src/directory/device-directory';
import { startIngest, type IngestService } from '../src/ingest-service';
import { GW, GW2, scanPayload, snapshot, sqliteIn, waitUntil } from './helpers/fixtures';
import { tempDir } from './helpers/services';

let svc: IngestService;
let dir: string;
let url: string;

function connect(username: string, password: string, clientId = `${username}-${Math.random()}`): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(url, { username, password, clientId, reconnectPeriod: 0, protocolVersion: 4 });
    c.once('connect', () => resolve(c));
    c.once('error', (err) => {
      c.end(true);
      reject(err);
    });
  });
}

const publish = (c: MqttClient, topic: string, payload: Buffer | string) => c.publishAsync(topic, payload, { qos: 1 });
const end = (c: MqttClient) => c.endAsync();

beforeAll(async () => {
  dir = tempDir('embedded');
  // real slow hashes as stored by the server for mqttPassword
  const snap = snapshot();
  for (const g of snap.gateways) g.mqttPasswordHash = await hashPassword(g.mqttPasswordHash!.slice('plain:'.length));
  const directory = new SnapshotDirectory(verifyPassword, snap);
  svc = await startIngest({
    store: sqliteIn(dir),
    directory,
    dataDir: dir,
    mqttPort: 0,
    mqttHost: '127.0.0.1',
    pipeline: { lingerMs: 5 },
    intake: { maxBytes: 64 * 1024, maxReadings: 500, maxFramesPerSecond: 20 },
  });
  url = `mqtt://127.0.0.1:${svc.broker!.port}`;
});

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('embedded broker', () => {
  it('refuses unknown users and wrong passwords', async () => {
    await expect(connect('nobody', 'Secret123')).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(connect('gw1', 'wrong-password')).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it('acknowledges a scan batch only once it is durably accepted, then stores it', async () => {
    const c = await connect('gw1', 'Secret123');
    const before = svc.pipeline.stats().acceptedRows;
    await publish(c, `rti/ACME/gw/${GW}/scan`, scanPayload(0, 100));
    // PUBACK arrived: the frame is already in the journal
    expect(svc.pipeline.stats().acceptedRows - before).toBe(100);
    await publish(c, `rti/ACME/gw/${GW}/heartbeat`, JSON.stringify({ uptime: 12, firmware: '2.1.7' }));
    await svc.pipeline.drained();
    const rows = await svc.store.query({ series: 'beacon', org: 1, key: 'E2C56D000005', limit: 5 });
    expect(rows.list[0]).toMatchObject({ gatewayMac: GW, minor: 5 });
    const hb = await svc.store.latest('gateway', 1, [GW]);
    expect(hb[0]).toMatchObject({ connection: 10, firmware: '2.1.7' });
    await end(c);
  });

  it('records gateway connection and disconnection', async () => {
    const c = await connect('gw2', 'Secret456');
    await waitUntil(async () => (await svc.pipeline.drained(), (await svc.store.latest('gateway', 1, [GW2]))[0]?.connection === 10), 5000, 'connected row');
    await end(c);
    await waitUntil(async () => (await svc.pipeline.drained(), (await svc.store.latest('gateway', 1, [GW2]))[0]?.connection === 20), 5000, 'disconnected row');
  });

  it('disconnects a slave gateway publishing as another device', async () => {
    const c = await connect('gw1', 'Secret123');
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(`rti/ACME/gw/${GW2}/scan`, scanPayload(0, 1, GW2), { qos: 1 });
    await closed;
    expect(svc.stats().rejectedFrames.forbidden).toBeGreaterThanOrEqual(1);
    c.end(true);
  });

  it('counts and drops bad payloads without dropping the connection or stalling', async () => {
    const c = await connect('gw1', 'Secret123');
    const before = svc.stats();
    await publish(c, `rti/ACME/gw/${GW}/scan`, '{"readings": [');
    await publish(c, `rti/ACME/gw/${GW}/scan`, JSON.stringify({ readings: [{ mac: 'E2C56D000001', rssi: 'strong' }] }));
    await publish(c, `rti/ACME/gw/${GW}/scan`, JSON.stringify({ readings: [{ mac: 'FFFFFFFFFFFF', rssi: -50 }] }));
    await publish(c, `rti/ACME/gw/${GW}/scan`, Buffer.alloc(70 * 1024, 32));
    await publish(c, `rti/ACME/gw/${GW}/unknown`, '{}');
    await publish(c, `rti/NOPE/gw/${GW}/scan`, '{}');
    await publish(c, `rti/ACME/gw/${GW}/scan`, scanPayload(1000, 10));
    const after = svc.stats();
    expect((after.rejectedFrames['malformed-json'] ?? 0) - (before.rejectedFrames['malformed-json'] ?? 0)).toBe(1);
    expect((after.rejectedReadings['wrong-type'] ?? 0) - (before.rejectedReadings['wrong-type'] ?? 0)).toBe(1);
    expect((after.rejectedReadings['unknown-device'] ?? 0) - (before.rejectedReadings['unknown-device'] ?? 0)).toBe(1);
    expect((after.rejectedFrames.oversized ?? 0) - (before.rejectedFrames.oversized ?? 0)).toBe(1);
    expect((after.rejectedFrames['unknown-topic'] ?? 0) - (before.rejectedFrames['unknown-topic'] ?? 0)).toBe(1);
    expect((after.rejectedFrames['unknown-org'] ?? 0) - (before.rejectedFrames['unknown-org'] ?? 0)).toBe(1);
    expect(c.connected).toBe(true);
    expect(after.acceptedRows - before.acceptedRows).toBe(10);
    await end(c);
  });

  it('rate-limits a flooding gateway, counts it, and keeps serving others', async () => {
    const flood = await connect('gw1', 'Secret123');
    const before = svc.stats().rejectedFrames['rate-limited'] ?? 0;
    await Promise.all(Array.from({ length: 300 }, (_, i) => publish(flood, `rti/ACME/gw/${GW}/scan`, scanPayload(i, 1))));
    expect((svc.stats().rejectedFrames['rate-limited'] ?? 0) - before).toBeGreaterThan(200);
    const other = await connect('gw2', 'Secret456');
    const rows = svc.pipeline.stats().acceptedRows;
    await publish(other, `rti/ACME/gw/${GW2}/scan`, scanPayload(5000, 5, GW2));
    expect(svc.pipeline.stats().acceptedRows - rows).toBe(5);
    await end(flood);
    await end(other);
  });

  it('lets a master gateway relay GPS reports and refuses unregistered trackers', async () => {
    const c = await connect('master1', 'Master123');
    await publish(
      c,
      'rti/ACME/gps/GT-1/report',
      JSON.stringify({
        reports: [
          { ts: Date.now(), dataType: 10, longitude: 121.47, latitude: 31.23 },
          { dataType: 20, eventCode: 'Y' },
        ],
      }),
    );
    const before = svc.stats().rejectedReadings['unknown-device'] ?? 0;
    await publish(c, 'rti/ACME/gps/GT-404/report', JSON.stringify({ longitude: 1, latitude: 1 }));
    expect((svc.stats().rejectedReadings['unknown-device'] ?? 0) - before).toBe(1);
    await svc.pipeline.drained();
    const r = await svc.store.query({ series: 'gps', org: 1, key: 'GT-1' });
    expect(r.total).toBe(2);
    await end(c);
  });
});
