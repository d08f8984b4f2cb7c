import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfluxTelemetryStore } from '../src/store/influx-store';
import { SegmentTelemetryStore } from '../src/store/segment-store';
import { SqliteTelemetryStore } from '../src/store/sqlite-store';
import type { TelemetryStore } from '../src/store/telemetry-store';
import type { SeriesRow } from '../src/store/series';
import { haveBinary, INFLUXD, startInfluxdb, tempDir, type RunningInflux } from './helpers/services';

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);
const beacon = (org: number, mac: string, i: number, extra: Partial<SeriesRow> = {}): SeriesRow => ({
  org,
  mac,
  time: T0 + i * 1000,
  gatewayMac: 'AC233FC0A1B2',
  rssi: -60 - (i % 20),
  battery: 90 - i / 10,
  temperature: 20.5,
  humidity: 40,
  uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
  major: 1,
  minor: i,
  txPower: -59,
  ...extra,
});

const influxAvailable = haveBinary(INFLUXD);

// One contract, two engines: the embedded default and InfluxDB (v1 API, real influxd 1.6.7).
const engines: Array<[string, () => Promise<{ store: TelemetryStore; done: () => Promise<void> }>]> = [
  [
    'segments',
    async () => {
      const dir = tempDir('segment-store');
      // tiny segments so the contract runs across sealed (indexed on disk) and active segments
      const store = new SegmentTelemetryStore({ dir, segmentBytes: 8 * 1024 });
      await store.init();
      return { store, done: async () => (await store.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  ],
  [
    'sqlite',
    async () => {
      const dir = tempDir('sqlite-store');
      const store = new SqliteTelemetryStore({ file: path.join(dir, 'telemetry.db') });
      await store.init();
      return { store, done: async () => (await store.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  ],
];
let influx: RunningInflux | undefined;
if (influxAvailable)
  engines.push([
    'influxdb',
    async () => {
      influx = await startInfluxdb();
      const store = new InfluxTelemetryStore({ url: influx.url, database: 'rti_test' });
      await store.init();
      return { store, done: async () => influx!.cleanup() };
    },
  ]);

describe.each(engines)('TelemetryStore on %s', (_name, open) => {
  let store: TelemetryStore;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ store, done } = await open());
    const rows = Array.from({ length: 250 }, (_, i) => beacon(1, i % 2 ? 'E2C56DB5DFFB' : 'E2C56DB5DFFC', i));
    await store.write(
      [
        { series: 'beacon', rows },
        { series: 'beacon', rows: [beacon(2, 'E2C56DB5DFFB', 999)] },
      ],
      17,
    );
    await store.write([
      {
        series: 'gps',
        rows: [
          { org: 1, sn: 'GT-1', time: T0, dataType: 10, longitude: 121.47, latitude: 31.23, altitude: 12, battery: 76, location: 'Dock "7", Pudong\\East' },
          { org: 1, sn: 'GT-1', time: T0 + 5000, dataType: 20, eventCode: '018', eventValue: '1' },
          { org: 1, sn: 'GT 2,x=y', time: T0 + 6000, dataType: 30, temperature1: 4.5, humidity1: 61 },
        ],
      },
      { series: 'gateway', rows: [{ org: 1, mac: 'AC233FC0A1B2', time: T0, connection: 10, uptime: 5, firmware: '2.1.7' }] },
    ]);
  });
  afterAll(async () => done?.());

  it('pages one device newest first with the total', async () => {
    const p1 = await store.query({ series: 'beacon', org: 1, key: 'E2C56DB5DFFB', page: 1, limit: 50 });
    expect(p1.total).toBe(125);
    expect(p1.list).toHaveLength(50);
    expect(p1.list[0]).toMatchObject({
      mac: 'E2C56DB5DFFB',
      time: T0 + 249000,
      rssi: -69,
      minor: 249,
      gatewayMac: 'AC233FC0A1B2',
      uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
    });
    const p3 = await store.query({ series: 'beacon', org: 1, key: 'E2C56DB5DFFB', page: 3, limit: 50 });
    expect(p3.list).toHaveLength(25);
    expect(p3.list[24].time).toBe(T0 + 1000);
  });

  it('filters by time range (inclusive) and sorts ascending on request', async () => {
    const r = await store.query({
      series: 'beacon',
      org: 1,
      key: ['E2C56DB5DFFB', 'E2C56DB5DFFC'],
      from: T0 + 10000,
      to: T0 + 19000,
      order: 'asc',
      limit: 100,
    });
    expect(r.total).toBe(10);
    expect(r.list.map((x) => x.minor)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('keeps organisations apart', async () => {
    const r = await store.query({ series: 'beacon', org: 2, limit: 100 });
    expect(r.total).toBe(1);
    expect(r.list[0]).toMatchObject({ org: 2, minor: 999 });
    expect((await store.query({ series: 'beacon', org: 3 })).total).toBe(0);
  });

  it('answers the newest row per device, also for long device lists', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `E2C5${String(i).padStart(8, '0')}`);
    const rows = await store.latest('beacon', 1, ['E2C56DB5DFFB', 'E2C56DB5DFFC', 'UNKNOWN00000', ...many]);
    const byMac = Object.fromEntries(rows.map((r) => [r.mac, r.minor]));
    expect(byMac).toEqual({ E2C56DB5DFFB: 249, E2C56DB5DFFC: 248 });
  });

  it('round-trips GPS rows of every data type, with awkward strings and keys', async () => {
    const r = await store.query({ series: 'gps', org: 1, order: 'asc', limit: 10 });
    expect(r.total).toBe(3);
    expect(r.list[0]).toMatchObject({ sn: 'GT-1', dataType: 10, longitude: 121.47, latitude: 31.23, location: 'Dock "7", Pudong\\East' });
    expect(r.list[1]).toMatchObject({ dataType: 20, eventCode: '018', eventValue: '1' });
    expect(r.list[2]).toMatchObject({ sn: 'GT 2,x=y', dataType: 30, temperature1: 4.5, humidity1: 61 });
    const latest = await store.latest('gateway', 1, ['AC233FC0A1B2']);
    expect(latest[0]).toMatchObject({ mac: 'AC233FC0A1B2', connection: 10, firmware: '2.1.7' });
  });

  it('keeps readings of one beacon heard by two gateways in the same millisecond', async () => {
    await store.write([
      {
        series: 'beacon',
        rows: [beacon(9, 'E2C56DB5DFFB', 1, { gatewayMac: 'AC233FC0A1B2' }), beacon(9, 'E2C56DB5DFFB', 1, { gatewayMac: 'AC233FC0A1B3', rssi: -80 })],
      },
    ]);
    const r = await store.query({ series: 'beacon', org: 9 });
    expect(r.total).toBe(2);
    expect(r.list.map((x) => x.gatewayMac).sort()).toEqual(['AC233FC0A1B2', 'AC233FC0A1B3']);
  });

  it('refuses unknown series', async () => {
    await expect(store.write([{ series: 'nope', rows: [] }])).rejects.toThrow(/unknown series/);
  });

  it('reports its liveness', async () => {
    expect(await store.ping()).toBe(true);
  });
});

describe('SQLite store marks', () => {
  it('stores the journal mark in the batch transaction and rolls both back on failure', async () => {
    const dir = tempDir('sqlite-mark');
    const store = new SqliteTelemetryStore({ file: path.join(dir, 't.db') });
    await store.init();
    await store.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 1)] }], 5);
    expect(await store.appliedMark()).toBe(5);
    // a row violating NOT NULL makes the whole batch (and its mark) roll back
    await expect(store.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 2), { org: 1, time: T0 } as SeriesRow] }], 9)).rejects.toThrow();
    expect(await store.appliedMark()).toBe(5);
    expect((await store.query({ series: 'beacon', org: 1 })).total).toBe(1);
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(influxAvailable)('InfluxDB store outage', () => {
  it('fails writes while influxd is down and succeeds again after it returns', async () => {
    const db = await startInfluxdb();
    try {
      const store = new InfluxTelemetryStore({ url: db.url, database: 'rti_outage', timeoutMs: 2000 });
      await store.init();
      await store.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 1)] }]);
      await db.stop();
      expect(await store.ping()).toBe(false);
      await expect(store.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 2)] }])).rejects.toThrow();
      await db.start();
      await store.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 2)] }]);
      expect((await store.query({ series: 'beacon', org: 1 })).total).toBe(2);
    } finally {
      await db.cleanup();
    }
  });
});

describe('segment store durability', () => {
  it('reopens sealed and active segments, keeps the mark and cuts a torn batch', async () => {
    const dir = tempDir('segment-crash');
    const a = new SegmentTelemetryStore({ dir, segmentBytes: 4096 });
    await a.init();
    for (let i = 0; i < 20; i++)
      await a.write(
        [{ series: 'beacon', rows: Array.from({ length: 10 }, (_, k) => beacon(1, `E2C56DB5DF${String(k).padStart(2, '0')}`, i * 10 + k)) }],
        i + 1,
      );
    await a.close();
    // a crash mid-write leaves half a batch without its mark line
    const day = fs.readdirSync(dir)[0];
    const files = fs
      .readdirSync(path.join(dir, day))
      .filter((f) => f.endsWith('.dat'))
      .sort((x, y) => parseInt(x) - parseInt(y));
    fs.appendFileSync(path.join(dir, day, files[files.length - 1]), '0\t1\tE2C56DB5DF00\t12');
    const b = new SegmentTelemetryStore({ dir, segmentBytes: 4096 });
    await b.init();
    expect(await b.appliedMark()).toBe(20);
    const all = await b.query({ series: 'beacon', org: 1, limit: 1000 });
    expect(all.total).toBe(200);
    expect(new Set(all.list.map((r) => r.minor)).size).toBe(200);
    expect((await b.query({ series: 'beacon', org: 1, key: 'E2C56DB5DF03', order: 'asc', limit: 3 })).list.map((r) => r.minor)).toEqual([3, 13, 23]);
    await b.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DF03', 500)] }], 21);
    expect((await b.latest('beacon', 1, ['E2C56DB5DF03']))[0].minor).toBe(500);
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('segment store days', () => {
  it('rolls over at midnight UTC, answers across days and after a restart, and prunes old days', async () => {
    const dir = tempDir('segment-days');
    let clock = Date.UTC(2026, 10, 20, 23, 59, 0);
    const open = async () => {
      const s = new SegmentTelemetryStore({ dir, retentionDays: 2, now: () => clock });
      await s.init();
      return s;
    };
    let s = await open();
    await s.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 0, { time: clock })] }], 1);
    clock += 120_000; // 2026-11-21 00:01
    await s.write([{ series: 'beacon', rows: [beacon(1, 'E2C56DB5DFFB', 1, { time: clock })] }], 2);
    expect(fs.readdirSync(dir).sort()).toEqual(['2026-11-20', '2026-11-21']);
    expect(fs.existsSync(path.join(dir, '2026-11-20', '1.idx'))).toBe(true); // sealed at rollover
    expect((await s.query({ series: 'beacon', org: 1, key: 'E2C56DB5DFFB' })).total).toBe(2);
    await s.close();
    s = await open();
    expect((await s.query({ series: 'beacon', org: 1, key: 'E2C56DB5DFFB', order: 'asc' })).list.map((r) => r.minor)).toEqual([0, 1]);
    expect(await s.appliedMark()).toBe(2);
    clock += 2 * 86_400_000; // 2026-11-23: the 20th is out of a two-day window
    await s.prune();
    expect(fs.readdirSync(dir).sort()).toEqual(['2026-11-21']);
    expect((await s.query({ series: 'beacon', org: 1 })).total).toBe(1);
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
