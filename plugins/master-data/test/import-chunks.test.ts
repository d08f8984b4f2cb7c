/**
 * Carrier imports go through the plugin's chunk handler (one query per device kind and chunk,
 * logs in one insert): the same SPEC §8 reasons and the same rows, devices and logs as single
 * creates — and a chunk redone row by row after an unforeseen refusal writes each log once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError, ErrorCode } from '@rti/server/plugin-api';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer } from '../../../server/test/support/test-server';
import { ok, seedBasics, type Basics, type TestServer } from './fixtures';

let ts: TestServer;
let a: Basics;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['master-data'], config: { dataDir: tempDataDir() } });
  a = await seedBasics(ts, ts.a, 'A');
  await ok(ts.a, '/carrier/create', { sn: 'HOLDER', carrierCodeId: a.carrierCodeId, gpsId: a.gpsId });
});
afterAll(() => ts?.close());

const carrierBySn = async (sn: string) => (await ok(ts.a, '/carrier/list', { sn })).list.find((c: any) => c.sn === sn);
/** [event, carrierId] of a beacon's log: register when created, then one bind. */
const beaconLog = async (beaconId: number) =>
  (await ok(ts.a, '/device-beacon-log/list', { beaconId, limit: 10, sortById: true })).list.map((r: any) => [r.event, r.carrierId ?? null]);
const events = async (carrierId: number) => (await ok(ts.a, '/carrier-log/list', { carrierId, limit: 20, sortById: true })).list.map((r: any) => r.event);

it('binds free devices, refuses bound and already-claimed ones (80/100), and a refused row claims nothing', async () => {
  const file = await xlsx(
    ['sn', 'carrierCodeId', 'beaconId', 'gpsId'],
    [
      ['CK-1', 'CC-A', 'B-A-1', 'G-A'], // row 2: GPS of HOLDER → 100, so B-A-1 stays free
      ['CK-2', 'CC-A', 'B-A-1'], // row 3: binds B-A-1
      ['CK-3', 'CC-A', 'B-A-1'], // row 4: B-A-1 claimed by row 3 → 80
      ['CK-4', 'CC-A'], // row 5: no device
      ['CK-5', 'CC-A', 'B-A-2'], // row 6: binds B-A-2
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier', file);
  expect(codesByRow(result)).toEqual({ 2: 100, 4: 80 });
  expect(result.successVolume).toBe(3);
  const [ck2, ck4, ck5] = [await carrierBySn('CK-2'), await carrierBySn('CK-4'), await carrierBySn('CK-5')];
  expect(await carrierBySn('CK-1')).toBeUndefined();
  expect(await carrierBySn('CK-3')).toBeUndefined();
  expect((await ok(ts.a, '/device-beacon', { id: a.beacons[0] })).carrierId).toBe(ck2.id);
  expect((await ok(ts.a, '/device-beacon', { id: a.beacons[1] })).carrierId).toBe(ck5.id);
  expect(await events(ck2.id)).toEqual([10, 20]);
  expect(await events(ck4.id)).toEqual([10]);
  expect(await beaconLog(a.beacons[0])).toEqual([
    [10, null],
    [20, ck2.id],
  ]);
  // The GPS stays with HOLDER.
  expect((await ok(ts.a, '/device-gps', { id: a.gpsId })).carrierIdLabel).toBe('HOLDER');
});

it('a chunk redone row by row (a per-row hook refusing one row) writes every log once and nothing for the refused row', async () => {
  const stop = ts.server.hooks.before('create', 'carrier', (e) => {
    if (e.data?.sn === 'RR-2') throw new ApiError(ErrorCode.validation, 'rules.licenceCarrierLimit', { limit: 1, importCode: 60 });
  });
  try {
    const file = await xlsx(
      ['sn', 'carrierCodeId', 'beaconId'],
      [
        ['RR-1', 'CC-A', 'B-A-3'],
        ['RR-2', 'CC-A'],
        ['RR-3', 'CC-A'],
      ],
    );
    const result = await importFile(ts, ts.a, 'carrier', file);
    expect(codesByRow(result)).toEqual({ 3: 60 });
    const rr1 = await carrierBySn('RR-1');
    expect(await carrierBySn('RR-2')).toBeUndefined();
    expect(await events(rr1.id)).toEqual([10, 20]);
    expect(await events((await carrierBySn('RR-3')).id)).toEqual([10]);
    expect((await ok(ts.a, '/device-beacon', { id: a.beacons[2] })).carrierId).toBe(rr1.id);
    expect(await beaconLog(a.beacons[2])).toEqual([
      [10, null],
      [20, rr1.id],
    ]);
  } finally {
    stop();
  }
});

it('imported beacons get their register log from the chunk handler', async () => {
  const file = await xlsx(
    ['sn', 'mac', 'deviceModelId'],
    [
      ['NB-1', 'AA:BB:CC:00:00:01', 'Model A'],
      ['NB-2', 'AA:BB:CC:00:00:02', 'Model A'],
    ],
  );
  const result = await importFile(ts, ts.a, 'device-beacon', file);
  expect(result.successVolume).toBe(2);
  const nb1 = (await ok(ts.a, '/device-beacon/list', { sn: 'NB-1' })).list[0];
  expect((await ok(ts.a, '/device-beacon-log/list', { beaconId: nb1.id, limit: 10 })).list.map((r: any) => r.event)).toEqual([10]);
});
