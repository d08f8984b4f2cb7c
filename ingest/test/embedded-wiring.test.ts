import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadMetadata } from '@rti/metadata';
import { createDatabase, type Database } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestFromEnv, type EmbeddedIngest } from '../src/embedded';
import { tempDir } from './helpers/services';

let db: Database;
let ingest: EmbeddedIngest;
let dir: string;
let orgId: number;

beforeAll(async () => {
  dir = tempDir('wiring');
  db = createDatabase('sqlite::memory:', { metadata: loadMetadata(), log: () => undefined });
  await db.migrate();
  orgId = (await db.models.organization.create({ code: 'ACME', name: 'Acme', available: true })).get('id') as number;
  await db.models['device-gps'].create({ orgId, sn: 'GT-1', name: 'Truck 1', useStatus: 20 });
  ingest = await startIngestFromEnv({
    database: db,
    dataDir: dir,
    env: { MQTT_PORT: '0', TELEMETRY_STORE: 'segments' },
    resolveToken: async (t) => (t === 'rti_ok' ? orgId : null),
  });
});

afterAll(async () => {
  await ingest?.stop();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('in-process wiring from the environment', () => {
  it('starts on the embedded store without a broker (MQTT_PORT=0) and takes HTTP pushes', async () => {
    expect(ingest.config).toMatchObject({ store: 'segments', mqttPort: null });
    expect(ingest.service.broker).toBeUndefined();
    const server = http.createServer((req, res) => ingest.http(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gps/GT-1`;
    const res = await fetch(url, { method: 'POST', headers: { Token: 'rti_ok' }, body: JSON.stringify({ longitude: 8.5, latitude: 47.4 }) });
    expect(await res.json()).toEqual({ code: 0, message: 'ok', data: { accepted: 1, dropped: {} } });
    await ingest.service.pipeline.drained();
    expect((await ingest.service.store.latest('gps', orgId, ['GT-1']))[0]).toMatchObject({ longitude: 8.5, latitude: 47.4, dataType: 10 });
    await new Promise((r) => server.close(r));
  });

  it('explains a bad setting', async () => {
    const { ingestConfigFromEnv } = await import('../src/config');
    expect(() => ingestConfigFromEnv({ TELEMETRY_STORE: 'mongo' }, dir)).toThrow(/TELEMETRY_STORE must be segments, sqlite or influxdb/);
    expect(() => ingestConfigFromEnv({ MQTT_PORT: 'x' }, dir)).toThrow(/MQTT_PORT must be an integer/);
  });
});
