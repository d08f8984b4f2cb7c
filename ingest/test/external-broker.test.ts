/**
 * Ingest workers on a real external broker (Debian's mosquitto): shared subscriptions split the
 * load without double counting or loss; persistent sessions carry QoS 1 messages across a
 * broker restart and across a worker being killed and restarted.
 */
import fs from 'node:fs';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest, type IngestService } from '../src/ingest-service';
import type { TelemetryStore } from '../src/store/telemetry-store';
import { directory, GW, scanPayload, sqliteIn, waitUntil } from './helpers/fixtures';
import { haveBinary, MOSQUITTO, startMosquitto, tempDir, type RunningMosquitto } from './helpers/services';

const available = haveBinary(MOSQUITTO);

// Each test uses its own share group: mosquitto keeps handing a group's share to members whose
// persistent session is offline (which is what makes a killed worker lose nothing).
async function worker(broker: RunningMosquitto, dataDir: string, clientId: string, store: TelemetryStore, group: string): Promise<IngestService> {
  const svc = await startIngest({
    store,
    directory: directory(),
    dataDir,
    external: { url: broker.url, clientId, group },
    pipeline: { lingerMs: 5 },
    intake: { maxFramesPerSecond: 0 },
  });
  await svc.external!.ready;
  return svc;
}

async function publisher(broker: RunningMosquitto, clientId = `gw-${Math.random()}`): Promise<MqttClient> {
  const c = mqtt.connect(broker.url, { clientId, clean: false, protocolVersion: 4, reconnectPeriod: 200 });
  await new Promise((r) => c.once('connect', r));
  return c;
}

async function rowsIn(store: TelemetryStore): Promise<{ total: number; distinct: number }> {
  const seen = new Set<number>();
  let total = 0;
  for (let page = 1; ; page++) {
    const r = await store.query({ series: 'beacon', org: 1, page, limit: 1000 });
    for (const row of r.list) seen.add((row.major as number) * 65536 + (row.minor as number));
    total = r.total;
    if (r.list.length < 1000) break;
  }
  return { total, distinct: seen.size };
}

describe.runIf(available)('external broker (mosquitto)', () => {
  let broker: RunningMosquitto;
  const dirs: string[] = [];
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker?.cleanup();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('two workers split the load through a shared subscription: no loss, no double counting', async () => {
    const dir = tempDir('ext-share');
    dirs.push(dir);
    // both workers write one store, as two production workers write one InfluxDB
    const storeA = sqliteIn(dir);
    const storeB = sqliteIn(dir);
    const a = await worker(broker, path.join(dir, 'a'), 'ingest-share-a', storeA, 'share');
    const b = await worker(broker, path.join(dir, 'b'), 'ingest-share-b', storeB, 'share');
    const pub = await publisher(broker);
    const frames = 200;
    for (let i = 0; i < frames; i++) await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 20, 20), { qos: 1 });
    await waitUntil(() => a.pipeline.stats().acceptedRows + b.pipeline.stats().acceptedRows >= frames * 20, 15000, 'all frames');
    await a.pipeline.drained();
    await b.pipeline.drained();
    const sa = a.pipeline.stats().acceptedRows;
    const sb = b.pipeline.stats().acceptedRows;
    expect(sa + sb).toBe(frames * 20);
    expect(sa).toBeGreaterThan(0);
    expect(sb).toBeGreaterThan(0);
    expect(await rowsIn(storeA)).toEqual({ total: frames * 20, distinct: frames * 20 });
    await pub.endAsync();
    await a.stop();
    await b.stop();
  });

  it('keeps every QoS 1 message across a broker restart and a killed worker', async () => {
    const dir = tempDir('ext-restart');
    dirs.push(dir);
    const store1 = sqliteIn(dir);
    const w1 = await worker(broker, path.join(dir, 'w'), 'ingest-restart', store1, 'restart');
    const pub = await publisher(broker, 'gw-restart-pub');
    let sent = 0;
    const send = async (n: number) => {
      for (let i = 0; i < n; i++, sent++) await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(100_000 + sent * 10, 10), { qos: 1 });
    };
    await send(50);
    await broker.stop();
    await broker.start();
    await waitUntil(() => pub.connected && w1.external!.client.connected, 10000, 'reconnects');
    await send(50);
    await waitUntil(() => w1.pipeline.stats().acceptedRows >= 1000, 10000, 'after restart');
    // kill the worker: no clean disconnect, its session stays on the broker and queues
    w1.external!.client.end(true);
    await w1.pipeline.stop(0);
    await store1.close();
    await send(50);
    const store2 = sqliteIn(dir);
    const w2 = await worker(broker, path.join(dir, 'w'), 'ingest-restart', store2, 'restart');
    await waitUntil(() => w2.pipeline.stats().acceptedRows >= 500, 10000, 'queued messages after the worker restart');
    await w2.pipeline.drained();
    const got = await rowsIn(store2);
    expect(got.distinct).toBe(1500);
    expect(got.total).toBe(1500);
    await pub.endAsync();
    await w2.stop();
  });

  it('counts and drops malformed and unknown payloads without stalling the worker', async () => {
    const dir = tempDir('ext-bad');
    dirs.push(dir);
    const w = await worker(broker, path.join(dir, 'w'), 'ingest-bad', sqliteIn(dir), 'bad');
    const pub = await publisher(broker);
    await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, 'not json', { qos: 1 });
    await pub.publishAsync(`rti/ACME/gw/AC233FC0A1FF/scan`, scanPayload(0, 5, 'AC233FC0A1FF'), { qos: 1 });
    await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, JSON.stringify([{ mac: 'E2C56D000001', rssi: [] }]), { qos: 1 });
    await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(200_000, 7), { qos: 1 });
    await waitUntil(() => w.pipeline.stats().acceptedRows === 7, 10000, 'the good frame');
    expect(w.stats().rejectedFrames).toMatchObject({ 'malformed-json': 1, 'unknown-device': 1 });
    expect(w.stats().rejectedReadings).toMatchObject({ 'wrong-type': 1 });
    await pub.endAsync();
    await w.stop();
  });
});
