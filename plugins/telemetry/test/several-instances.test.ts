/**
 * Several API instances on one database and one broker (issue 22; TELEMETRY_INGEST=off,
 * MQTT_URL): one reading gives ONE alert row however many instances run (only the holder of
 * the database lease writes what the engines derive), every instance's subscribers see every
 * event once (relayed through the broker), a master-data write on one instance reaches the
 * others' engines, and when the writer stops another takes over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { createServer, type RtiServer } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveBinary, MOSQUITTO, startMosquitto, type RunningMosquitto } from '../../../ingest/test/helpers/services';
import type { LiveEvent } from '../server/event-bus';
import { telemetryRuntime, type TelemetryRuntime } from '../server/runtime';
import { ok, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

const available = haveBinary(MOSQUITTO);
let broker: RunningMosquitto;
let rig: Rig;
let fleet: Fleet;
const extra: Array<{ server: RtiServer; rt: TelemetryRuntime; url: string; dir: string }> = [];
const seen = new Map<TelemetryRuntime, LiveEvent[]>();

async function addInstance() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-telemetry-n-'));
  const server = await createServer({ databaseUrl: rig.ts.db.url, plugins: ['telemetry'], logError: () => undefined, config: { dataDir: dir } });
  const { url } = await server.listen(0);
  const rt = telemetryRuntime(server.db)!;
  await rt.ready;
  const i = { server, rt, url, dir };
  extra.push(i);
  listen(rt);
  return i;
}

function listen(rt: TelemetryRuntime) {
  const list: LiveEvent[] = [];
  seen.set(rt, list);
  rt.bus.subscribe(rig.ts.orgA, (e) => list.push(e));
}

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return true;
  return check();
};

const runtimes = () => [rig.rt, ...extra.map((x) => x.rt)].filter((rt) => seen.has(rt));
const alertRows = async () => (await ok(rig.ts.a, '/device-alert/gps/list', { code: '036', limit: 100 })).list as Array<{ reportTime: string }>;

/** A normal reading (clears an open alert) then a hot one, published on the broker; answers the alert rows the hot one made. */
async function hotReading(ts: number): Promise<number> {
  const before = runtimes().map((rt) => rt.engine.stats.readings);
  const c = await mqtt.connectAsync(broker.url, { clientId: `gps-${Math.random()}` });
  await c.publishAsync(
    `rti/ORGA/gps/GT-A/report`,
    JSON.stringify([
      { sn: 'GT-A', ts: ts - 1000, dataType: 30, temperature1: 20 },
      { sn: 'GT-A', ts, dataType: 30, temperature1: 75 },
    ]),
    { qos: 1 },
  );
  await c.endAsync();
  // every instance hears it (each keeps its engine current)
  expect(await until(() => runtimes().every((rt, i) => rt.engine.stats.readings > before[i]))).toBe(true);
  for (const rt of runtimes()) await rt.flush();
  return (await alertRows()).filter((a) => Date.parse(a.reportTime) === ts).length;
}

beforeAll(async () => {
  if (!available) return;
  broker = await startMosquitto();
  Object.assign(process.env, { TELEMETRY_INGEST: 'off', MQTT_URL: broker.url, TELEMETRY_LEADER_TTL_MS: '1500' });
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
  listen(rig.rt);
}, 60_000);

afterAll(async () => {
  for (const x of extra) {
    await x.server.close().catch(() => undefined);
    fs.rmSync(x.dir, { recursive: true, force: true });
  }
  await rig?.close();
  await broker?.cleanup();
  for (const k of ['TELEMETRY_INGEST', 'MQTT_URL', 'TELEMETRY_LEADER_TTL_MS']) delete process.env[k];
});

describe.skipIf(!available)('several API instances (TELEMETRY_INGEST=off, one broker, one database)', () => {
  it('one reading gives one alert row with 1, 2 and 3 instances; every instance sees the event once', async () => {
    const figures: string[] = [];
    let t = Date.now() - 600_000;
    for (let n = 1; n <= 3; n++) {
      if (n > 1) await addInstance();
      expect(runtimes().filter((rt) => rt.writer()).length).toBe(1);
      for (const list of seen.values()) list.length = 0;
      t += 10_000;
      const rows = await hotReading(t);
      // the relayed event reaches the other instances' subscribers
      await until(() => runtimes().every((rt) => seen.get(rt)!.some((e) => e.type === 'alert')), 5000);
      const perSubscriber = runtimes().map(
        (rt) => seen.get(rt)!.filter((e) => e.type === 'alert' && new Date((e.data as { reportTime: string | Date }).reportTime).getTime() === t).length,
      );
      figures.push(`${n} instance(s): ${rows} alert row(s), alert events per subscriber ${JSON.stringify(perSubscriber)}`);
      expect(rows, figures.join('; ')).toBe(1);
      expect(perSubscriber).toEqual(runtimes().map(() => 1));
    }
    console.log(`[several-instances] ${figures.join('; ')}`);
  });

  it("a master-data write on one instance reaches the other instances' engines", async () => {
    const target = extra[0];
    let refreshedAt = 0;
    const refresh = rig.rt.refresh.bind(rig.rt);
    rig.rt.refresh = async () => {
      await refresh();
      refreshedAt = Date.now();
    };
    try {
      const started = Date.now();
      const res = await fetch(`${target.url}/api/device-gps/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: rig.ts.a.token, OrgId: String(rig.ts.orgA) },
        body: JSON.stringify({
          sn: 'GT-NEW',
          name: 'New truck',
          deviceModelId: (await ok(rig.ts.a, '/device-gps/list', {})).list[0].deviceModelId,
          useStatus: 20,
        }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
      expect(await until(() => refreshedAt > 0, 5000)).toBe(true);
      console.log(`[several-instances] master-data write on one instance → the other's engine refreshed in ${refreshedAt - started} ms`);
    } finally {
      rig.rt.refresh = refresh;
    }
  });

  it('when the writer stops, another instance takes over within the lease lifetime and writes once', async () => {
    const writer = extra.find((x) => x.rt.writer());
    const stopped = writer ?? null;
    if (stopped) {
      seen.delete(stopped.rt);
      await stopped.server.close();
      extra.splice(extra.indexOf(stopped), 1);
    } else {
      // the rig's own instance is the writer: give its lease up (its server keeps running)
      await rig.rt.lease!.stop();
    }
    const started = Date.now();
    expect(await until(() => runtimes().filter((rt) => rt.writer()).length === 1, 5000)).toBe(true);
    console.log(`[several-instances] writer stopped → another writes after ${Date.now() - started} ms`);
    expect(await hotReading(Date.now() - 1000)).toBe(1);
    expect(fleet.gpsId).toBeGreaterThan(0);
  });
});
