import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBeaconScan, isReject, type DecodedFrame } from '../src/decoders';
import { DeviceSlots, deviceSlots } from '../src/directory/device-slots';
import { Intake } from '../src/intake';
import { Journal } from '../src/journal/journal';
import { IngestPipeline } from '../src/pipeline/pipeline';
import { Fleet } from '../src/state/fleet';
import { StateEngine } from '../src/state/state-engine';
import { SegmentTelemetryStore } from '../src/store/segment-store';
import type { SeriesBatch, TelemetryStore } from '../src/store/telemetry-store';
import type { SeriesRow } from '../src/store/series';
import { directory, GW, ORG, scanPayload, beaconMac } from './helpers/fixtures';
import { tempDir } from './helpers/services';
import { BEACON, GW_IN_A, Rig, snapshot } from './state-helpers/rig';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('device slots', () => {
  it('gives one stable slot per series, organisation and key, and keeps the first key instance', () => {
    const slots = new DeviceSlots();
    const key = ['E2C5', '6DB5DFFB'].join('');
    const a = slots.slot('beacon', 1, key);
    expect(slots.slot('beacon', 1, 'E2C56DB5DFFB')).toBe(a);
    expect(slots.key(a)).toBe(key);
    expect(new Set([a, slots.slot('beacon', 2, key), slots.slot('gateway', 1, key)]).size).toBe(3);
    expect(slots.size).toBe(3);
  });

  it('the decoder stamps each kept reading with its slot and the slot’s long-lived mac; dropped readings leave no slot', () => {
    const dir = directory();
    const keys = dir.knownKeys('beacon', ORG.id);
    const payload = JSON.stringify({
      gatewayMac: GW,
      readings: [
        { mac: beaconMac(3).toLowerCase(), rssi: -60 },
        { mac: 'AABBCCDDEEFF', rssi: -61 },
        { mac: beaconMac(5), rssi: 'loud' },
        { mac: beaconMac(7), rssi: -62 },
      ],
    });
    const f = decodeBeaconScan(Buffer.from(payload), {
      org: ORG.id,
      source: GW,
      receivedAt: Date.now(),
      maxBytes: 65536,
      maxReadings: 100,
      slot: (k) => keys.get(k),
    }) as DecodedFrame;
    expect(isReject(f)).toBe(false);
    expect(f.rows.map((r) => r.mac)).toEqual([beaconMac(3), beaconMac(7)]);
    expect(f.slots).toEqual([keys.get(beaconMac(3)), keys.get(beaconMac(7))]);
    expect(f.slots!.map((s) => deviceSlots.key(s))).toEqual([beaconMac(3), beaconMac(7)]);
    expect(f.dropped).toEqual({ 'unknown-device': 1, 'wrong-type': 1 });
  });

  it('the pipeline hands slots on only when every frame of a series has them', async () => {
    const dir = tempDir('slots-pipe');
    dirs.push(dir);
    const seen: SeriesBatch[][] = [];
    const store: TelemetryStore = {
      engine: 'spy',
      init: async () => {},
      write: async () => {},
      appliedMark: async () => 0,
      query: async () => ({ list: [], total: 0 }),
      latest: async () => [],
      ping: async () => true,
      close: async () => {},
    };
    const journal = new Journal({ dir: path.join(dir, 'journal'), fsyncMs: 0 });
    let intake: Intake | undefined;
    const pipeline = new IngestPipeline({
      store,
      journal,
      redecode: (r) => intake!.redecode(r),
      batchRows: 1000,
      lingerMs: 5,
      onStored: (b) => seen.push([...b]),
    });
    intake = new Intake({ directory: directory(), pipeline, maxFramesPerSecond: 0 });
    const open = new Intake({ directory: directory(), pipeline, maxFramesPerSecond: 0, acceptUnknownDevices: true });
    await pipeline.start();
    intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(0, 20));
    intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(20, 20));
    await pipeline.drained();
    const keys = directory().knownKeys('beacon', ORG.id);
    expect(seen.flat()).toHaveLength(1);
    expect(seen[0][0].slots).toEqual(seen[0][0].rows.map((r) => keys.get(r.mac as string)));
    expect(seen[0][0].slots).toHaveLength(40);
    intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(40, 20));
    open.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(60, 20));
    await pipeline.drained();
    // both frames of one turn go into one batch: one has slots, the other (unknown devices let through) has none
    const mixed = seen.slice(1).flat();
    expect(mixed).toHaveLength(1);
    expect(mixed[0].rows).toHaveLength(40);
    expect(mixed[0].slots).toBeUndefined();
    await pipeline.stop();
  });

  it('the segment store answers the same with and without slots, across sealed and active segments', async () => {
    const T0 = Date.UTC(2026, 10, 22, 8);
    const macs = Array.from({ length: 12 }, (_, i) => beaconMac(100 + i));
    const slotOf = new Map(macs.map((m) => [m, deviceSlots.slot('beacon', 1, m)]));
    const rows = (from: number, n: number): SeriesRow[] =>
      Array.from({ length: n }, (_, i) => ({
        org: 1,
        mac: macs[(from + i) % macs.length],
        time: T0 + (from + i) * 1000,
        gatewayMac: GW,
        rssi: -50 - ((from + i) % 30),
        battery: 80,
        temperature: 20.5,
        humidity: 40,
        uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
        major: 1,
        minor: from + i,
        txPower: -59,
      }));
    const answers: unknown[] = [];
    for (const withSlots of [false, true]) {
      const dir = tempDir('slots-store');
      dirs.push(dir);
      const store = new SegmentTelemetryStore({ dir, segmentBytes: 4 * 1024, fsync: false });
      await store.init();
      for (let b = 0; b < 10; b++) {
        const batch = rows(b * 30, 30);
        await store.write(
          [withSlots ? { series: 'beacon', rows: batch, slots: batch.map((r) => slotOf.get(r.mac as string)!) } : { series: 'beacon', rows: batch }],
          b + 1,
        );
      }
      const one = await store.query({ series: 'beacon', org: 1, key: macs[5], limit: 100 });
      const all = await store.query({ series: 'beacon', org: 1, page: 2, limit: 50, order: 'asc' });
      const latest = await store.latest('beacon', 1, macs);
      await store.close();
      // and again after a restart: the active segment's postings are rebuilt from its lines
      const reopened = new SegmentTelemetryStore({ dir, segmentBytes: 4 * 1024, fsync: false });
      await reopened.init();
      const again = await reopened.query({ series: 'beacon', org: 1, key: macs[5], limit: 100 });
      await reopened.close();
      expect(again).toEqual(one);
      answers.push({ one, all, latest });
    }
    expect(answers[1]).toEqual(answers[0]);
    const { one } = answers[0] as { one: { total: number; list: SeriesRow[] } };
    expect(one.total).toBe(25);
    expect(one.list.every((r) => r.mac === macs[5])).toBe(true);
  });

  it('the rules find a device by slot exactly as by key; a slot the fleet does not know is counted unknown', () => {
    const runs = [true, false].map((slots) => {
      const rig = new Rig(snapshot(), { slots });
      rig.scan(GW_IN_A, [{ battery: 10 }]);
      rig.clock += 60_000;
      rig.scan(GW_IN_A, [{ battery: 90 }]);
      rig.engine.flush();
      return rig.effects.map((e) => ({ ...e }));
    });
    expect(runs[0].length).toBeGreaterThan(2);
    expect(runs[0]).toEqual(runs[1]);

    // registered in the directory after the rules' fleet was loaded: a slot the fleet has no device for
    const late = deviceSlots.slot('beacon', 7, 'E2C56DB5DF99');
    const engine = new StateEngine({ onEffect: () => undefined });
    engine.setFleet(new Fleet(snapshot()));
    const known = deviceSlots.slot('beacon', 7, BEACON);
    engine.applyBatch([
      {
        series: 'beacon',
        rows: [
          { org: 7, mac: 'E2C56DB5DF99', time: Date.now(), gatewayMac: GW_IN_A, rssi: -60 },
          { org: 7, mac: BEACON, time: Date.now(), gatewayMac: GW_IN_A, rssi: -60 },
        ],
        slots: [late, known],
      },
    ]);
    expect(engine.stats).toMatchObject({ readings: 2, unknown: 1 });
  });
});
