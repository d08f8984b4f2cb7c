/**
 * Chunk handlers (import validators in their chunk form): one call per chunk with the rows in
 * file order, refusals reported with their code while the other rows are written with one
 * insert, rows handed on with their ids; any other failure redoes the chunk row by row, so
 * every row is saved whole or reported — never half-written.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ApiError, ErrorCode } from '../src/http/api-error';
import type { Row } from '../src/resources/serialize';
import { codesByRow, importFile, metadataWithCodes, tempDataDir, xlsx } from './import-fixtures';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
/** what the server logged (shown when an expectation about a job fails) */
const logged: string[] = [];
const stops: Array<() => void> = [];

beforeAll(async () => {
  ts = await startTestServer({
    metadata: metadataWithCodes(),
    config: { dataDir: tempDataDir() },
    logError: (m, e) => void logged.push(`${m} ${(e as Error)?.stack ?? ''}`),
  });
  await ts.a.call('/device-model/create', { name: 'DM-1' });
});
afterAll(() => ts?.close());
afterEach(() => stops.splice(0).forEach((stop) => stop()));

const mac = (n: number) => `AA:00:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
const beacons = (from: number, count: number, sn = (i: number) => `CH-${i}`) =>
  xlsx(
    ['sn', 'mac', 'deviceModelId'],
    Array.from({ length: count }, (_, k) => [sn(from + k), mac(from + k), 'DM-1']),
  );
const sns = async (prefix: string) =>
  (await ts.server.db.models['device-beacon'].findAll({ where: { orgId: ts.orgA }, raw: true }))
    .map((r: any) => String(r.sn))
    .filter((s) => s.startsWith(prefix))
    .sort();

it('runs once per chunk in file order; refused rows answer its code, the others are inserted and handed on with ids', async () => {
  const seen: Array<{ before: number[]; after: Row[] }> = [];
  stops.push(
    ts.server.imports.validators.add('device-beacon', {
      beforeCreateMany: (e) => {
        seen.push({ before: e.rows.map((r) => r.row), after: [] });
        return e.rows.map((r) => (String(r.values.sn).endsWith('7') ? 20 : null));
      },
      afterCreateMany: (e) => void seen[seen.length - 1].after.push(...e.rows.map((r) => ({ ...r.values, sheetRow: r.row }))),
    }),
  );
  const perRow: string[] = [];
  stops.push(ts.server.hooks.after('create', 'device-beacon', (e) => void perRow.push(String(e.row!.sn))));
  const result = await importFile(ts, ts.a, 'device-beacon', await beacons(1000, 1205));
  // 1,205 rows = chunks of 1,000 and 205; every sn ending in 7 (120 of them) refused with 20.
  expect(seen.map((c) => c.before.length)).toEqual([1000, 205]);
  expect(seen[0].before.slice(0, 3)).toEqual([2, 3, 4]);
  expect(result.failedVolume).toBe(120);
  expect(result.successVolume).toBe(1085);
  expect(codesByRow(result)[2 + 7]).toBe(20);
  const handed = seen.flatMap((c) => c.after);
  expect(handed).toHaveLength(1085);
  expect(perRow).toHaveLength(1085);
  const stored = new Map((await ts.server.db.models['device-beacon'].findAll({ raw: true })).map((r: any) => [Number(r.id), String(r.sn)]));
  for (const row of handed) expect(stored.get(row.id as number)).toBe(row.sn);
  expect(handed[0]).toMatchObject({ sn: 'CH-1000', sheetRow: 2, deviceModelIdLabel: 'DM-1' });
  expect((await sns('CH-')).some((s) => s.endsWith('7'))).toBe(false);
});

it('a failure the handler did not foresee redoes the chunk row by row: the bad row is reported, nothing of it written', async () => {
  let chunkCalls = 0;
  stops.push(ts.server.imports.validators.add('device-beacon', { beforeCreateMany: () => void chunkCalls++ }));
  // A per-row before hook refusing one row (a licence limit, a rule): the chunk's insert is rolled back.
  stops.push(
    ts.server.hooks.before('create', 'device-beacon', (e) => {
      if (e.data?.sn === 'RB-5') throw new ApiError(ErrorCode.validation, 'server.validation.required', { field: 'sn', importCode: 70 });
    }),
  );
  const afterHook: string[] = [];
  stops.push(ts.server.hooks.after('create', 'device-beacon', (e) => void afterHook.push(String(e.row!.sn))));
  const result = await importFile(ts, ts.a, 'device-beacon', await beacons(3000, 10, (i) => `RB-${i - 3000}`));
  expect(chunkCalls).toBe(1);
  expect(codesByRow(result)).toEqual({ 7: 70 });
  expect(result.successVolume).toBe(9);
  expect(await sns('RB-')).toEqual(['RB-0', 'RB-1', 'RB-2', 'RB-3', 'RB-4', 'RB-6', 'RB-7', 'RB-8', 'RB-9']);
  // After hooks of the rolled-back chunk attempt ran too; what counts is what was committed.
  expect(afterHook.filter((s) => s === 'RB-5')).toEqual([]);
});

it('a dry run reads and checks every row and writes nothing', async () => {
  const file = await beacons(5000, 50, (i) => `DRY-${i}`);
  const { writeFile } = await import('node:fs/promises');
  const path = `${tempDataDir()}/dry.xlsx`;
  await writeFile(path, file);
  const counts = await ts.server.imports.dryRun('device-beacon', ts.server.systemContext(ts.orgA), path);
  expect({ ...counts, logged }).toMatchObject({ processed: 50, success: 50, failed: 0, message: null, logged: [] });
  expect(await sns('DRY-')).toEqual([]);
});

it('rows inserted by an import are stored exactly like rows created through the API (dates, JSON, decimals, defaults)', async () => {
  const raw = async (table: string, sn: string) => {
    const [rows] = await ts.server.db.sequelize.query(`SELECT * FROM ${table} WHERE sn = ?`, { replacements: [sn] });
    const { id: _id, sn: _sn, imei: _imei, mac: _mac, created_at: created, updated_at: updated, ...rest } = rows[0] as Record<string, unknown>;
    // Timestamps differ in value, not in how they are stored.
    const shape = (v: unknown) => (v instanceof Date ? 'Date' : String(v).replace(/\d/g, 'd'));
    return { ...rest, created: shape(created), updated: shape(updated) };
  };
  const gps = {
    name: 'Tracker',
    deviceModelId: 'DM-1',
    useStatus: 10,
    reportCycle: 4,
    sensorSampleCycle: 5,
    sensorRecordCycle: 10,
    sensorReportCycle: 30,
    locateModel: 10,
    highTempThreshold: 60.5,
    lowTempThreshold: -20,
    shakeThreshold: 2,
    highHumidityThreshold: 90,
    lowHumidityThreshold: 10,
    remark: 'r',
  };
  const modelId = (await ts.a.call('/device-model/list', { name: 'DM-1' })).body.data.list[0].id;
  const viaApi = await ts.a.call('/device-gps/create', { ...gps, deviceModelId: modelId, sn: 'API-GPS', imei: '860000000000001' });
  expect(viaApi.body.code).toBe(0);
  const header = ['sn', 'imei', ...Object.keys(gps)];
  const imported = await importFile(ts, ts.a, 'device-gps', await xlsx(header, [['IMP-GPS', '860000000000002', ...Object.values(gps)]]));
  expect(imported.successVolume).toBe(1);
  expect(await raw('device_gps', 'IMP-GPS')).toEqual(await raw('device_gps', 'API-GPS'));

  expect(
    (await ts.a.call('/device-beacon/create', { sn: 'API-B', mac: 'AB:00:00:00:00:01', deviceModelId: modelId, startTime: '2026-01-01T08:00:00.000Z' })).body
      .code,
  ).toBe(0);
  const beacon = await importFile(
    ts,
    ts.a,
    'device-beacon',
    await xlsx(['sn', 'mac', 'deviceModelId', 'startTime'], [['IMP-B', 'AB:00:00:00:00:02', 'DM-1', '2026-01-01 08:00:00']]),
  );
  expect(beacon.successVolume).toBe(1);
  expect(await raw('device_beacon', 'IMP-B')).toEqual(await raw('device_beacon', 'API-B'));
});
