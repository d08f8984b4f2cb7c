/**
 * Every SPEC §8 import reason of carrier (10–120), beacon (10–70), GPS (500–518), carrier
 * code, part (192–195) and carrier bind (300–301), from generated xlsx files through the real
 * upload, background job and status calls. Domain reasons (80/100, 300/301) come from import
 * validators registered the way a plugin does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Op } from 'sequelize';
import { startTestServer, type TestServer } from './support/test-server';
import { codesByRow, importFile, metadataWithCodes, tempDataDir, xlsx } from './import-fixtures';

let ts: TestServer;
const ids: Record<string, number> = {};
const long = 'x'.repeat(201);

const create = async (resource: string, body: Record<string, unknown>) => {
  const r = await ts.a.call(`/${resource}/create`, body);
  if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
  return r.body.data.id as number;
};

beforeAll(async () => {
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir() } });
  ids.model = await create('device-model', { name: 'DM-1' });
  ids.project = await create('project', { name: 'P-1' });
  ids.code = await create('carrier-code', { code: 'CC-1', name: 'Box 1', projectId: ids.project, type: 10 });
  ids.freeBeacon = await create('device-beacon', { sn: 'B-FREE', mac: 'AA:00:00:00:00:01', deviceModelId: ids.model });
  ids.boundBeacon = await create('device-beacon', { sn: 'B-BOUND', mac: 'AA:00:00:00:00:02', deviceModelId: ids.model });
  ids.freeGps = await create('device-gps', { sn: 'G-FREE', name: 'g1', deviceModelId: ids.model });
  ids.boundGps = await create('device-gps', { sn: 'G-BOUND', name: 'g2', deviceModelId: ids.model });
  ids.carrier = await create('carrier', { sn: 'C-EXIST', carrierCodeId: ids.code, beaconId: ids.boundBeacon, gpsId: ids.boundGps });

  // What the domain plugin registers: a device already on another carrier refuses the row.
  const carriers = ts.server.db.models.carrier;
  ts.server.imports.validators.add('carrier', async ({ values, transaction }) => {
    for (const [field, code] of [
      ['beaconId', 80],
      ['gpsId', 100],
    ] as const) {
      if (values[field] && (await carriers.count({ where: { [field]: values[field] }, transaction }))) return code;
    }
  });
  const binds = ts.server.db.models['carrier-bind'];
  ts.server.imports.validators.add('carrier-bind', async ({ values, transaction }) => {
    // 301: an unreleased (new) bind order exists for the carrier; 300: the carrier is already bound (released order).
    const open = await binds.findOne({ where: { carrierId: values.carrierId, status: { [Op.in]: [10, 20] } }, transaction });
    if (open) return Number(open.get('status')) === 10 ? 301 : 300;
  });
});
afterAll(() => ts?.close());

describe('carrier import reasons 10–120', () => {
  it('answers each row with its SPEC code and saves the good rows', async () => {
    const H = ['sn', 'name', 'carrierCodeId', 'limits', 'beaconId', 'gpsId', 'status', 'startTime', 'endTime', 'remark'];
    const file = await xlsx(H, [
      ['C-OK1', 'ok', 'CC-1', '0', 'B-FREE', 'G-FREE', 'New', '2026-01-01 00:00:00', '2026-02-01', 'fine'], // row 2 ok
      ['C-10', 'x', 'NOPE'], // 3
      ['C-10B', 'x', null], // 4 carrier code empty
      ['C-OK1', 'x', 'CC-1'], // 5 duplicate sn in file
      ['C-EXIST', 'x', 'CC-1'], // 6 sn exists
      ['C-40', 'x', 'CC-1', 'sometimes'], // 7
      ['C-50', 'x', 'CC-1', null, null, null, null, 'not a date'], // 8
      ['C-50B', 'x', 'CC-1', null, null, null, null, '2026-03-01', '2026-01-01'], // 9 start after end
      ['C-60', 'x', 'CC-1', null, null, null, null, null, null, long], // 10
      ['C-70', 'x', 'CC-1', null, 'B-NONE'], // 11
      ['C-80', 'x', 'CC-1', null, 'B-BOUND'], // 12
      ['C-90', 'x', 'CC-1', null, null, 'G-NONE'], // 13
      ['C-100', 'x', 'CC-1', null, null, 'G-BOUND'], // 14
      ['C-110', 'x', 'CC-1', null, null, null, 'bogus'], // 15
      [null, 'no sn', 'CC-1'], // 16
    ]);
    const r = await importFile(ts, ts.a, 'carrier', file);
    expect(r.status).toBe(20);
    expect(codesByRow(r)).toEqual({ 3: 10, 4: 10, 5: 20, 6: 30, 7: 40, 8: 50, 9: 50, 10: 60, 11: 70, 12: 80, 13: 90, 14: 100, 15: 110, 16: 120 });
    expect([r.successVolume, r.failedVolume, r.processedVolume]).toEqual([1, 14, 15]);
    expect(r.importErrors.find((e) => e.row === 6)?.reason).toBe('Sn already exists: “C-EXIST”');
    // an end before the start is said as such, not as an invalid start time (issue 23 item 7)
    expect(r.importErrors.find((e) => e.row === 9)?.reason).toMatch(/^Start time must be earlier than End time/);
    const saved = await ts.a.call('/carrier/list', { sn: 'C-OK1' });
    expect(saved.body.data.list).toMatchObject([
      { sn: 'C-OK1', carrierCodeIdLabel: 'CC-1', beaconId: ids.freeBeacon, gpsId: ids.freeGps, limits: 0, status: 0, remark: 'fine' },
    ]);
  });

  it('translates reasons into the caller language', async () => {
    const r = await importFile(ts, ts.a, 'carrier', await xlsx(['sn', 'carrierCodeId'], [['C-EXIST', 'CC-1']]), 'zh-CN');
    expect(r.importErrors).toEqual([{ row: 2, code: 30, reason: 'SN已存在：“C-EXIST”', column: '序列号', value: 'C-EXIST' }]);
  });
});

describe('beacon import reasons 10–70', () => {
  it('answers each row with its SPEC code', async () => {
    const H = ['sn', 'mac', 'deviceModelId', 'startTime', 'endTime', 'remark'];
    const file = await xlsx(H, [
      ['B-OK', 'AA:00:00:00:01:01', 'DM-1'], // 2
      ['B-10', 'AA:00:00:00:01:02', 'DM-NONE'], // 3
      ['B-OK', 'AA:00:00:00:01:03', 'DM-1'], // 4 sn duplicated
      ['B-FREE', 'AA:00:00:00:01:04', 'DM-1'], // 5 sn exists
      ['B-40', 'AA:00:00:00:01:01', 'DM-1'], // 6 mac duplicated
      ['B-50', 'AA:00:00:00:00:01', 'DM-1'], // 7 mac exists
      ['B-60', 'AA:00:00:00:01:07', 'DM-1', '2026-05-01', '2026-04-01'], // 8
      ['B-70', 'AA:00:00:00:01:08', 'DM-1', null, null, long], // 9
      ['B-10B', 'AA:00:00:00:01:09', null], // 10 model empty
    ]);
    const r = await importFile(ts, ts.a, 'device-beacon', file);
    expect(codesByRow(r)).toEqual({ 3: 10, 4: 20, 5: 30, 6: 40, 7: 50, 8: 60, 9: 70, 10: 10 });
    expect(r.successVolume).toBe(1);
  });
});

describe('GPS import reasons 500–518', () => {
  it('answers each row with its SPEC code', async () => {
    const H = [
      'sn',
      'name',
      'deviceModelId',
      'useStatus',
      'reportCycle',
      'sensorSampleCycle',
      'sensorRecordCycle',
      'sensorReportCycle',
      'locateModel',
      'highTempThreshold',
      'lowTempThreshold',
      'shakeThreshold',
      'highHumidityThreshold',
      'lowHumidityThreshold',
      'remark',
    ];
    const good = ['n', 'DM-1', 'Registered', 4, 5, 10, 30, 'LBS', 60, -20, 2, 90, 10, null];
    const without = (i: number, value: unknown = null) => good.map((v, j) => (j === i ? value : v));
    const file = await xlsx(H, [
      ['G-OK', ...good], // 2
      [null, ...good], // 3: 500
      ['G-FREE', ...good], // 4: 501
      ['G-502', ...without(0)], // 5
      ['G-503', ...without(1)], // 6
      ['G-504', ...without(1, 'DM-NONE')], // 7
      ['G-505', ...without(2)], // 8
      ['G-506', ...without(2, 'sleeping')], // 9
      ['G-507', ...without(3)], // 10
      ['G-508', ...without(4)], // 11
      ['G-509', ...without(5)], // 12
      ['G-510', ...without(6)], // 13
      ['G-511', ...without(7)], // 14
      ['G-512', ...without(7, 'radio')], // 15
      ['G-513', ...without(8)], // 16
      ['G-514', ...without(9)], // 17
      ['G-515', ...without(10)], // 18
      ['G-516', ...without(11)], // 19
      ['G-517', ...without(12)], // 20
      ['G-518', ...without(13, long)], // 21
      ['G-OK', ...good], // 22: 501 (repeated in the file)
    ]);
    const r = await importFile(ts, ts.a, 'device-gps', file);
    const expected: Record<number, number> = { 22: 501 };
    for (let row = 3; row <= 21; row++)
      expected[row] = [500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517, 518][row - 3];
    expect(codesByRow(r)).toEqual(expected);
    expect(r.successVolume).toBe(1);
    const saved = await ts.a.call('/device-gps/list', { sn: 'G-OK' });
    expect(saved.body.data.list[0]).toMatchObject({ locateModel: 20, useStatus: 10, lowTempThreshold: -20 });
  });
});

describe('carrier code and part import reasons (shared catalogue)', () => {
  it('carrier code: empty, duplicated, exists, remark', async () => {
    const file = await xlsx(
      ['code', 'name', 'projectId', 'type', 'remark'],
      [
        ['CC-NEW', 'New box', 'P-1', 'Box'], // 2 ok (type by its English label)
        [null, 'No code', 'P-1', 'Box'], // 3: 96
        ['CC-NEW', 'Again', 'P-1', 'Box'], // 4: 60
        ['CC-1', 'Exists', 'P-1', 'Box'], // 5: 94
        ['CC-R', 'Remark', 'P-1', 'Box', long], // 6: 70
      ],
    );
    const r = await importFile(ts, ts.a, 'carrier-code', file);
    expect(codesByRow(r)).toEqual({ 3: 96, 4: 60, 5: 94, 6: 70 });
    expect(r.successVolume).toBe(1);
  });

  it('part: 192–195', async () => {
    const file = await xlsx(
      ['carrierCodeId', 'code', 'name', 'parentCode', 'qty'],
      [
        ['CC-1', 'PT-1', 'Lid', 'ROOT', 2], // 2 ok
        ['CC-1', null, 'No code', 'ROOT', 1], // 3: 192
        ['CC-1', 'PT-3', 'No qty', 'ROOT', null], // 4: 193
        ['CC-1', 'PT-4', 'No parent', null, 1], // 5: 194
        [null, 'PT-5', 'No carrier code', 'ROOT', 1], // 6: 195
        ['CC-NONE', 'PT-6', 'Unknown carrier code', 'ROOT', 1], // 7: 97
      ],
    );
    const r = await importFile(ts, ts.a, 'part', file);
    expect(codesByRow(r)).toEqual({ 3: 192, 4: 193, 5: 194, 6: 195, 7: 97 });
    expect(r.successVolume).toBe(1);
  });
});

describe('carrier bind import reasons 300–301', () => {
  it('refuses carriers with an open or released bind order', async () => {
    const c2 = await create('carrier', { sn: 'C-BIND-2', carrierCodeId: ids.code });
    const c3 = await create('carrier', { sn: 'C-BIND-3', carrierCodeId: ids.code });
    await create('carrier-bind', { bindNo: 'BN-OPEN', carrierId: c2 });
    const released = await create('carrier-bind', { bindNo: 'BN-REL', carrierId: c3 });
    await ts.server.db.models['carrier-bind'].update({ status: 20 }, { where: { id: released } });
    const file = await xlsx(
      ['bindNo', 'carrierId'],
      [
        ['BN-NEW', 'C-EXIST'], // 2 ok
        ['BN-2', 'C-BIND-2'], // 3: 301
        ['BN-3', 'C-BIND-3'], // 4: 300
      ],
    );
    const r = await importFile(ts, ts.a, 'carrier-bind', file);
    expect(codesByRow(r)).toEqual({ 3: 301, 4: 300 });
    expect(r.importErrors.map((e) => e.reason)).toEqual([expect.stringMatching(/bind/i), expect.stringMatching(/bound/i)]);
    expect(r.successVolume).toBe(1);
  });
});
