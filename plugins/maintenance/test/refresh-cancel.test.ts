/**
 * Cancelling an asset refresh: `/carrier-asset/refresh/cancel` marks the run's row, the running
 * refresh reads that row between chunks and stops — whichever instance runs it. What it committed
 * stays, whole chunks only (every asset with its log row); the progress says cancelled; a second
 * refresh then makes the rest. Also: the assets refresh makes (set-based) are what the code and
 * the carrier say.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Enums } from '@rti/metadata';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { narrowUser, ok, pool, type Pool } from './support';

const AS = '/carrier-asset';
const CARRIERS = 1200;
const CHUNK = 5;
let ts: TestServer;
let keeper: Caller;
let p: Pool;
const chunkBefore = process.env.REFRESH_CHUNK;

beforeAll(async () => {
  // five carriers per transaction: 240 chunks, time enough to cancel part-way
  process.env.REFRESH_CHUNK = String(CHUNK);
  ts = await startTestServer({ plugins: ['maintenance'] });
  p = await pool(ts.a, 'CX');
  // eslint-disable-next-line rti/no-raw-models -- the test writes a pool of carriers at once
  await ts.server.db.models.carrier.bulkCreate(
    Array.from({ length: CARRIERS }, (_, i) => ({
      orgId: ts.orgA,
      sn: `CX-${String(i).padStart(5, '0')}`,
      carrierCodeId: p.codeId,
      warehouseId: p.warehouseId,
      status: 10,
      cycleCount: i === 0 ? 7 : null,
      startTime: i === 0 ? new Date('2026-03-05T23:30:00.000Z') : null,
    })),
  );
  keeper = await narrowUser(ts, 'keeper-cx', [`${AS}/refresh`], 'Cx Keeper');
}, 120_000);
afterAll(async () => {
  if (chunkBefore === undefined) delete process.env.REFRESH_CHUNK;
  else process.env.REFRESH_CHUNK = chunkBefore;
  await ts?.close();
});

const assets = async () => (await ok(ts.a, `${AS}/list`, { page: 1, limit: 1 })).total as number;
const logRows = async () => (await ok(ts.a, '/log/carrierasset/list', { sn: 'CX-', page: 1, limit: 1 })).total as number;

it('nothing to cancel when nothing runs; another organisation cannot cancel', async () => {
  expect(await ok(keeper, `${AS}/refresh/cancel`, {})).toEqual({ runId: null, cancelled: false });
  const reader = await narrowUser(ts, 'reader-cx', [`${AS}/list`]);
  expect((await reader.call(`${AS}/refresh/cancel`, {})).body.code).toBe(10005);
});

it('stops a running refresh between chunks, keeps whole chunks, says cancelled; a second refresh makes the rest', async () => {
  let finished = false;
  const refresh = ok(keeper, `${AS}/refresh`, {}).finally(() => (finished = true));
  // part-way: some chunks committed, most to come
  let seen: any = null;
  while (!finished) {
    seen = await ok(keeper, `${AS}/refresh/progress`, {});
    if (seen?.running && seen.done >= 10 * CHUNK) break;
  }
  expect(finished).toBe(false);
  expect(seen.cancelled).toBe(false);
  // another organisation does not reach the run
  expect((await ok(ts.b, `${AS}/refresh/cancel`, { runId: seen.runId })).cancelled).toBe(false);
  expect(await ok(keeper, `${AS}/refresh/cancel`, { runId: seen.runId })).toEqual({ runId: seen.runId, cancelled: true });
  const answer = await refresh;
  expect(answer).toMatchObject({ runId: seen.runId, cancelled: true });
  expect(answer.carriers).toBeGreaterThanOrEqual(seen.done);
  expect(answer.carriers).toBeLessThan(CARRIERS);
  // whole chunks: every carrier read has its asset and its log row, nothing more
  expect(answer.carriers % CHUNK).toBe(0);
  expect(answer.created).toBe(answer.carriers);
  expect(await assets()).toBe(answer.created);
  expect(await logRows()).toBe(answer.created);

  const progress = await ok(keeper, `${AS}/refresh/progress`, { runId: answer.runId });
  expect(progress).toMatchObject({
    running: false,
    cancelled: true,
    cancelledBy: 'Cx Keeper',
    done: answer.carriers,
    created: answer.created,
    carriers: CARRIERS,
  });
  expect(progress.percent).toBeLessThan(100);
  expect(progress.endTime).toBeTruthy();
  const [run] = (await ok(ts.a, '/carrier-asset-refresh-run/list', { page: 1, limit: 1 })).list;
  expect(run).toMatchObject({ id: answer.runId, cancelledBy: 'Cx Keeper' });
  expect(run.cancelledAt).toBeTruthy();
  // an ended run is not cancelled again
  expect((await ok(keeper, `${AS}/refresh/cancel`, { runId: answer.runId })).cancelled).toBe(false);

  const second = await ok(keeper, `${AS}/refresh`, {});
  expect(second).toMatchObject({ cancelled: false, carriers: CARRIERS, created: CARRIERS - answer.created, updated: 0 });
  expect(await ok(keeper, `${AS}/refresh/progress`, {})).toMatchObject({ runId: second.runId, running: false, cancelled: false, percent: 100 });
  expect(await assets()).toBe(CARRIERS);
  expect(await logRows()).toBe(CARRIERS);
});

it('makes each asset from its carrier and code: serial, trips, start day, next maintenance, log row', async () => {
  const [first] = (await ok(ts.a, `${AS}/list`, { sn: 'CX-00000', page: 1, limit: 1 })).list;
  expect(first).toMatchObject({
    sn: 'CX-00000',
    carrierCodeId: p.codeId,
    name: 'Rack CX',
    status: Enums.carrierAssetStatus.new,
    fixedAsset: Enums.fixedAsset.no,
    maintenanceCount: 0,
    maintainCycle: 90,
    warnCycle: 10,
    tripsAtLastMaintenance: 7,
    usageTime: '2026-03-05',
    nextMaintenanceDate: '2026-06-03',
  });
  const today = new Date().toISOString().slice(0, 10);
  const [other] = (await ok(ts.a, `${AS}/list`, { sn: 'CX-00001', page: 1, limit: 1 })).list;
  expect(other).toMatchObject({ tripsAtLastMaintenance: 0, usageTime: today });
  const [log] = (await ok(ts.a, '/log/carrierasset/list', { sn: 'CX-00000', page: 1, limit: 5 })).list;
  expect(log).toMatchObject({ sn: 'CX-00000', action: Enums.operationLogAction.create, operator: 'Cx Keeper' });
  expect(JSON.parse(log.content)).toEqual({ step: 'refresh', carrierCodeId: p.codeId });
});
