/**
 * Two API instances behind a (virtual) load balancer, as docker-compose.yml runs them (issue 22):
 * one database (a throwaway MariaDB when the binary is installed, as in CI; else SQLite), one
 * mosquitto, one S3 store (s3rver), an ingest worker, two API instances with their own data
 * folders and instance ids, TELEMETRY_INGEST=off — all started here on free ports. A user's
 * requests alternate between the instances; an upload through one downloads through the
 * other; a reading raises one alert, seen once by subscribers of both; an import on one
 * survives the restart of the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { Jimp } from 'jimp';
import { startIngestFromEnv, type EmbeddedIngest } from '@rti/ingest';
import { createServer, type RtiServer } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveBinary, MOSQUITTO, startMosquitto, type RunningMosquitto } from '../../../ingest/test/helpers/services';
import { s3Storage, startS3rver, type RunningS3 } from '../../../server/test/support/s3';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
// @ts-expect-error plain ESM helper shared with scripts/ (no declaration file)
import * as services from '../../../scripts/lib/services.mjs';
import type { LiveEvent } from '../server/event-bus';
import { telemetryRuntime, type TelemetryRuntime } from '../server/runtime';
import { ok, seedFleet, type Rig } from './fixtures';

const available = haveBinary(MOSQUITTO);
const startMariadb = (services as { startMariadb(): Promise<{ url: string; stop(): Promise<void> }> }).startMariadb;
const withMariadb = available && (haveBinary('mariadbd') || haveBinary('mysqld'));

let mariadb: { url: string; stop(): Promise<void> } | undefined;
let broker: RunningMosquitto;
let s3: RunningS3;
let one: TestServer;
let two: RtiServer;
let twoUrl: string;
let worker: EmbeddedIngest;
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-two-'));
  dirs.push(d);
  return d;
};
const ENV = [
  'TELEMETRY_INGEST',
  'MQTT_URL',
  'TELEMETRY_LEADER_TTL_MS',
  'STATE_FLUSH_MS',
  'STATE_TICK_MS',
  'SIMULATOR_DEVICES',
  'TELEMETRY_STORE',
  'TEST_MYSQL_URL',
];
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let config: Record<string, unknown>;

const startTwo = async () => {
  two = await createServer({
    databaseUrl: one.db.url,
    plugins: ['telemetry'],
    logError: () => undefined,
    config: { ...config, dataDir: tempDir(), instanceId: 'api-2' },
  });
  twoUrl = (await two.listen(0)).url;
  await telemetryRuntime(two.db)!.ready;
};
/** The user's call, sent to instance 1 or 2 as a load balancer would. */
const via = async (n: 1 | 2, p: string, body: unknown = {}) => {
  const res = await fetch(`${n === 1 ? one.url : twoUrl}/api${p}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: one.a.token, OrgId: String(one.orgA) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: any };
};

beforeAll(async () => {
  if (!available) return;
  if (withMariadb) {
    mariadb = await startMariadb();
    process.env.TEST_MYSQL_URL = mariadb.url;
  }
  broker = await startMosquitto();
  s3 = await startS3rver();
  Object.assign(process.env, {
    TELEMETRY_INGEST: 'off',
    MQTT_URL: broker.url,
    TELEMETRY_LEADER_TTL_MS: '1500',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    SIMULATOR_DEVICES: '0',
    TELEMETRY_STORE: 'segments',
  });
  config = { storage: s3Storage(s3, 'rti-two') };
  one = await startTestServer({ plugins: ['telemetry'], config: { ...config, dataDir: tempDir(), instanceId: 'api-1' } });
  await telemetryRuntime(one.server.db)!.ready;
  await startTwo();
  worker = await startIngestFromEnv({
    database: one.server.db,
    dataDir: tempDir(),
    env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: 'rti-ingest-1', TELEMETRY_STORE: 'segments' },
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await two?.close();
  await one?.close();
  await s3?.cleanup();
  await broker?.cleanup();
  await mariadb?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
}, 60_000);

describe.skipIf(!available)(`two API instances on one ${withMariadb ? 'MariaDB' : 'SQLite database'}, one broker, one S3 store, an ingest worker`, () => {
  it("a user's requests alternate between the instances", async () => {
    const created = await via(1, '/device-model/create', { name: 'Alternating', batteryThreshold: 20, offlineCheckTime: 30 });
    expect(created.code).toBe(0);
    const nameOn = async (n: 1 | 2) =>
      ((await via(n, '/device-model/list', { limit: 100 })).data.list as Array<{ id: number; name: string }>).find((m) => m.id === created.data.id)?.name;
    expect(await nameOn(2)).toBe('Alternating');
    expect((await via(2, '/device-model/update', { id: created.data.id, name: 'Alternated' })).code).toBe(0);
    expect(await nameOn(1)).toBe('Alternated');
  });

  it('an image uploaded through one instance downloads through the other', async () => {
    const png = await new Jimp({ width: 300, height: 200, color: 0x11aa33ff }).getBuffer('image/png');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'photo.png');
    const up = (await (
      await fetch(`${one.url}/api/file/image/upload`, { method: 'POST', headers: { Token: one.a.token, OrgId: String(one.orgA) }, body: form })
    ).json()) as { code: number; data: { fileName: string } };
    expect(up.code).toBe(0);
    const back = await fetch(`${twoUrl}/api/file/download`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: one.a.token, OrgId: String(one.orgA) },
      body: JSON.stringify({ fileName: up.data.fileName }),
    });
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
  });

  it('one reading raises one alert row, seen once by subscribers of both instances', async () => {
    const rts: TelemetryRuntime[] = [telemetryRuntime(one.server.db)!, telemetryRuntime(two.db)!];
    const rig = { ts: one, rt: rts[0] } as unknown as Rig;
    await seedFleet(rig, one.a);
    // the fleet written through instance 1 reaches instance 2's engine
    for (const rt of rts) await rt.refresh();
    await worker.directory.refresh();
    const seen = rts.map(() => [] as LiveEvent[]);
    rts.forEach((rt, i) => rt.bus.subscribe(one.orgA, (e) => seen[i].push(e)));
    const t = Date.now() - 60_000;
    const c = await mqtt.connectAsync(broker.url, { clientId: `gps-${Math.random()}` });
    await c.publishAsync('rti/ORGA/gps/GT-A/report', JSON.stringify([{ sn: 'GT-A', ts: t, dataType: 30, temperature1: 75 }]), { qos: 1 });
    await c.endAsync();
    const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
      for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return true;
      return check();
    };
    expect(await until(() => rts.every((rt) => rt.engine.stats.readings > 0))).toBe(true);
    for (const rt of rts) await rt.flush();
    const isOurs = (e: LiveEvent) => e.type === 'alert' && new Date((e.data as { reportTime: string | Date }).reportTime).getTime() === t;
    expect(await until(() => seen.every((list) => list.some(isOurs)), 5000)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.map((list) => list.filter(isOurs).length)).toEqual([1, 1]);
    const rows = (await ok(one.a, '/device-alert/gps/list', { code: '036' })).list.filter((a: { reportTime: string }) => Date.parse(a.reportTime) === t);
    expect(rows).toHaveLength(1);
    // and the worker stored the reading (shared subscription)
    expect(await until(async () => (await worker.service.store.query({ series: 'gps', org: one.orgA, key: 'GT-A' })).total >= 1)).toBe(true);
  });

  it('an import running on instance 1 survives the restart of instance 2', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => [
      `TWO-${i}`,
      `AA:20:00:00:${String(Math.floor(i / 256).toString(16)).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}`.toUpperCase(),
      'Alternated',
    ]);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['sn', 'mac', 'deviceModelId']);
    for (const r of rows) ws.addRow(r);
    // rows one by one (a before-create hook), so the job runs for a while
    const off = one.server.hooks.before('create', 'device-beacon', async () => new Promise((r) => setTimeout(r, 5)));
    try {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(Buffer.from(await wb.xlsx.writeBuffer()))]), 'beacons.xlsx');
      const up = (await (
        await fetch(`${one.url}/api/device-beacon/import`, { method: 'POST', headers: { Token: one.a.token, OrgId: String(one.orgA) }, body: form })
      ).json()) as { code: number; data: { importId: number } };
      expect(up.code).toBe(0);
      await two.close();
      await startTwo();
      const during = await via(2, '/device-beacon/import/status', { importId: up.data.importId });
      expect(during.data.message).toBeNull();
      await one.server.imports.idle();
      const done = await via(2, '/device-beacon/import/status', { importId: up.data.importId });
      expect(done.data).toMatchObject({ status: 20, message: null, processedVolume: 600 });
    } finally {
      off();
    }
  }, 120_000);
});
