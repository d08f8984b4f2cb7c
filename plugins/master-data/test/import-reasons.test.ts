/**
 * The binding rules answer SPEC §8 import reasons when rows come from a file: the hooks'
 * refusals carry their catalogue code (carrier 80/100, carrier bind 301), and the refused
 * row is not half-written (no carrier, no device change, no log row).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer } from '../../../server/test/support/test-server';
import { ok, seedBasics, type Basics, type TestServer } from './fixtures';

let ts: TestServer;
let a: Basics;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['master-data'], config: { dataDir: tempDataDir() } });
  a = await seedBasics(ts, ts.a, 'A');
  await ok(ts.a, '/carrier/create', { sn: 'HOLDER', carrierCodeId: a.carrierCodeId, beaconId: a.beacons[0], gpsId: a.gpsId });
});
afterAll(() => ts?.close());

it('carrier rows binding a device of another carrier answer 80 / 100; good rows bind and log', async () => {
  const file = await xlsx(
    ['sn', 'carrierCodeId', 'beaconId', 'gpsId'],
    [
      ['IMP-1', 'CC-A', 'B-A-2'], // row 2: free beacon
      ['IMP-2', 'CC-A', 'B-A-1'], // row 3: beacon of HOLDER
      ['IMP-3', 'CC-A', null, 'G-A'], // row 4: GPS of HOLDER
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier', file);
  expect(codesByRow(result)).toEqual({ 3: 80, 4: 100 });
  expect(result.successVolume).toBe(1);
  const sns = (await ok(ts.a, '/carrier/list', { limit: 100 })).list.map((c: any) => c.sn).sort();
  expect(sns).toEqual(['HOLDER', 'IMP-1']);
  const imported = (await ok(ts.a, '/carrier/list', { sn: 'IMP-1' })).list[0];
  expect((await ok(ts.a, '/device-beacon', { id: a.beacons[1] })).carrierId).toBe(imported.id);
  expect((await ok(ts.a, '/carrier-log/list', { carrierId: imported.id, limit: 10, sortById: true })).list.map((r: any) => r.event)).toEqual([10, 20]);
  expect((await ok(ts.a, '/device-beacon', { id: a.beacons[0] })).carrierIdLabel).toBe('HOLDER');
});

it('bind order rows for a carrier with an unreleased order answer 301', async () => {
  await ok(ts.a, '/carrier-bind/create', { bindNo: 'OPEN-1', carrierId: (await ok(ts.a, '/carrier/list', { sn: 'HOLDER' })).list[0].id });
  const file = await xlsx(
    ['bindNo', 'carrierId'],
    [
      ['NEW-1', 'IMP-1'], // row 2 ok
      ['NEW-2', 'HOLDER'], // row 3: HOLDER already has OPEN-1
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier-bind', file);
  expect(codesByRow(result)).toEqual({ 3: 301 });
  expect((await ok(ts.a, '/carrier-bind/list', { limit: 10 })).list.map((b: any) => b.bindNo).sort()).toEqual(['NEW-1', 'OPEN-1']);
});

it('two rows of one file naming the same free device: the first binds, the second answers 80', async () => {
  const file = await xlsx(
    ['sn', 'carrierCodeId', 'beaconId'],
    [
      ['TWIN-1', 'CC-A', 'B-A-3'],
      ['TWIN-2', 'CC-A', 'B-A-3'],
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier', file);
  expect(codesByRow(result)).toEqual({ 3: 80 });
  const twin = (await ok(ts.a, '/carrier/list', { sn: 'TWIN-1' })).list[0];
  expect((await ok(ts.a, '/device-beacon', { id: a.beacons[2] })).carrierId).toBe(twin.id);
  expect((await ok(ts.a, '/carrier/list', { sn: 'TWIN-2' })).total).toBe(0);
});

it("a bound device's reason names its column and value, and refused rows are listed in file order (issue 23 item 7)", async () => {
  const file = await xlsx(
    ['sn', 'carrierCodeId', 'beaconId', 'gpsId', 'status'],
    [
      ['ORD-1', 'CC-A', null, null, 'no such status'], // row 2: refused by the checks (110)
      ['ORD-2', 'CC-A', 'B-A-1'], // row 3: beacon of HOLDER → 80 (found when writing)
      ['ORD-3', 'CC-A', null, 'G-A'], // row 4: GPS of HOLDER → 100
      ['ORD-4', 'CC-A', null, null, 'no such status'], // row 5: refused by the checks
      ['ORD-5', 'CC-A'], // row 6: fine
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier', file);
  expect(result.importErrors.map((e) => e.row)).toEqual([2, 3, 4, 5]);
  expect(result.importErrors[1]).toMatchObject({ row: 3, code: 80, column: 'Beacon', value: 'B-A-1' });
  expect(result.importErrors[2]).toMatchObject({ row: 4, code: 100, column: 'GPS device', value: 'G-A' });
  expect(result.importErrors[1].reason).toContain('B-A-1');
});
