/**
 * The progress of an asset refresh goes through the database (API instances keep nothing): each
 * chunk's transaction counts what it read on the run's row, and `/carrier-asset/refresh/progress`
 * answers from that row — to the asset keeper who may refresh (the refresh code is its code),
 * while the refresh runs and once it is done; another organisation sees none of it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { narrowUser, ok, pool } from './support';

const AS = '/carrier-asset';
const CARRIERS = 300;
let ts: TestServer;
let keeper: Caller;
const chunkBefore = process.env.REFRESH_CHUNK;

beforeAll(async () => {
  // ten carriers per transaction: thirty chunks for a pool this small
  process.env.REFRESH_CHUNK = '10';
  ts = await startTestServer({ plugins: ['maintenance'] });
  const p = await pool(ts.a, 'PG');
  // eslint-disable-next-line rti/no-raw-models -- the test writes a pool of carriers at once
  await ts.server.db.models.carrier.bulkCreate(
    Array.from({ length: CARRIERS }, (_, i) => ({
      orgId: ts.orgA,
      sn: `PG-${String(i).padStart(4, '0')}`,
      carrierCodeId: p.codeId,
      warehouseId: p.warehouseId,
      status: 10,
    })),
  );
  keeper = await narrowUser(ts, 'keeper-pg', [`${AS}/refresh`], 'Pg Keeper');
}, 120_000);
afterAll(async () => {
  if (chunkBefore === undefined) delete process.env.REFRESH_CHUNK;
  else process.env.REFRESH_CHUNK = chunkBefore;
  await ts?.close();
});

it('counts the carriers read while the refresh runs, then reports it done', async () => {
  expect(await ok(keeper, `${AS}/refresh/progress`, {})).toBeNull();
  const seen: Array<{ done: number; carriers: number; running: boolean }> = [];
  let finished = false;
  const refresh = ok(keeper, `${AS}/refresh`, {}).finally(() => (finished = true));
  while (!finished) {
    const p = await ok(keeper, `${AS}/refresh/progress`, {});
    if (p) seen.push({ done: p.done, carriers: p.carriers, running: p.running });
  }
  const answer = await refresh;
  expect(answer).toMatchObject({ carriers: CARRIERS, created: CARRIERS, updated: 0 });
  // seen part-way: more than none and fewer than all, and never going back
  expect(seen.some((s) => s.running && s.done > 0 && s.done < CARRIERS)).toBe(true);
  for (let i = 1; i < seen.length; i++) expect(seen[i].done).toBeGreaterThanOrEqual(seen[i - 1].done);
  expect(seen.every((s) => s.carriers === CARRIERS)).toBe(true);

  const done = await ok(keeper, `${AS}/refresh/progress`, { runId: answer.runId });
  expect(done).toMatchObject({
    runId: answer.runId,
    running: false,
    stale: false,
    carriers: CARRIERS,
    done: CARRIERS,
    created: CARRIERS,
    updated: 0,
    percent: 100,
    operator: 'Pg Keeper',
    error: null,
  });
  expect(done.endTime).toBeTruthy();
  // the latest run is what the progress shows without an id
  expect((await ok(keeper, `${AS}/refresh/progress`, {})).runId).toBe(answer.runId);
  // the runs are kept as a list
  const runs = await ok(ts.a, '/carrier-asset-refresh-run/list', { page: 1, limit: 5 });
  expect(runs.list[0]).toMatchObject({ id: answer.runId, carriers: CARRIERS, done: CARRIERS, created: CARRIERS });

  // again: nothing to make, the run still counts what it read
  const again = await ok(keeper, `${AS}/refresh`, {});
  expect(again).toMatchObject({ carriers: CARRIERS, created: 0 });
  expect(await ok(keeper, `${AS}/refresh/progress`, {})).toMatchObject({ runId: again.runId, done: CARRIERS, created: 0, percent: 100, running: false });
});

it('shows another organisation none of it, and refuses a user who may not refresh', async () => {
  expect((await ts.b.call(`${AS}/refresh/progress`, {})).body.data).toBeNull();
  const [mine] = (await ok(ts.a, '/carrier-asset-refresh-run/list', { page: 1, limit: 1 })).list;
  expect((await ts.b.call(`${AS}/refresh/progress`, { runId: mine.id })).body.data).toBeNull();
  const reader = await narrowUser(ts, 'reader-pg', [`${AS}/list`]);
  expect((await reader.call(`${AS}/refresh/progress`, {})).body.code).toBe(10005);
});
