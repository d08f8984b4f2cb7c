import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSimFleet } from '@rti/ingest/simulator/sim-fleet';
import { startSimulator, type Simulator } from '@rti/ingest/simulator/simulator';
import { hashPassword } from '@rti/server';
import { ok, settle, startRig, type Rig } from './fixtures';

let rig: Rig;
let sim: Simulator | undefined;
/** trackers the simulated relay refuses configurations for */
const refusing = new Set<string>();

beforeAll(async () => {
  rig = await startRig();
  const a = rig.ts.a;
  const deviceModelId = (await ok(a, '/device-model/create', { name: 'Sim tag', batteryThreshold: 20, offlineCheckTime: 30 })).id;
  await ok(a, '/warehouse/create', { code: 'HH', name: 'Hamburg hub' });
  await ok(a, '/warehouse/create', { code: 'PR', name: 'Prague hub' });
  for (let i = 1; i <= 4; i++) await ok(a, '/device-beacon/create', { sn: `B-${i}`, mac: `C3:00:00:00:00:0${i}`, deviceModelId, useStatus: 20 });
});

afterAll(async () => {
  await sim?.stop();
  await rig?.close();
});

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('fleet simulator against the real server', () => {
  it('provisions its fleet idempotently and drives it over MQTT with the gateways own credentials', async () => {
    sim = await startSimulator({
      database: rig.ts.server.db,
      url: rig.mqttUrl,
      devices: 4,
      stepMs: 200,
      minuteMs: 400,
      refuseConfig: (sn) => refusing.has(sn),
      configDelayMs: 50,
    });
    await rig.rt.refresh(); // the broker's directory learns of the new gateways
    expect(sim.fleet.carriers).toHaveLength(4);
    expect(sim.fleet.gateways.filter((g) => g.orgId === rig.ts.orgA)).toHaveLength(5);
    const carriers = await ok(rig.ts.a, '/carrier/list', { sn: 'SIM-' });
    expect(carriers.total).toBe(4);

    const inouts = await until('gate passes', async () => {
      await settle(rig);
      const rows = await ok(rig.ts.a, '/carrier-inout/list', { limit: 50 });
      return rows.total >= 2 ? rows : undefined;
    });
    expect(new Set(inouts.list.map((r: any) => r.direction))).toContain(20);
    const beacons = await ok(rig.ts.a, '/device-beacon/list', { status: 10 });
    expect(beacons.total).toBeGreaterThan(0);
    expect(sim.stats.frames).toBeGreaterThan(0);
    expect(rig.rt.ingest!.stats().acceptedRows).toBeGreaterThan(0);
    expect(rig.rt.ingest!.stats().rejectedFrames.forbidden ?? 0).toBe(0);
    // provisioning again adds nothing
    const again = await ensureSimFleet(rig.ts.server.db, { devices: 4, hash: hashPassword });
    expect(again.carriers.map((c) => c.id)).toEqual(sim.fleet.carriers.map((c) => c.id));
    expect((await ok(rig.ts.a, '/device-slave-gateway/list', {})).total).toBe(4);
  });

  it('its trackers acknowledge the configurations the server sends, or refuse them when told to', async () => {
    const trackers = (await ok(rig.ts.a, '/device-gps/list', { limit: 10 })).list as Array<{ id: number; sn: string }>;
    expect(trackers.length).toBeGreaterThan(0);
    const [first, second] = trackers;
    if (second) refusing.add(second.sn);
    const sent = await ok(rig.ts.a, '/device-gps/configure', { ids: trackers.slice(0, 2).map((t) => t.id) });
    expect(sent.sent).toBe(Math.min(2, trackers.length));
    const status = async (id: number) => (await ok(rig.ts.a, '/device-gps', { id })).configStatus;
    await until('the first tracker applies it', async () => ((await status(first.id)) === 20 ? true : undefined));
    if (second) {
      await until('the second tracker refuses it', async () => ((await status(second.id)) === 30 ? true : undefined));
      expect((await ok(rig.ts.a, '/device-gps', { id: second.id })).configError).toContain('simulated refusal');
    }
  });
});
