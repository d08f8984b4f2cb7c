/**
 * Import jobs are owned by their instance (issue 22): a job records the instance that took it
 * and a heartbeat; a start closes only dead instances' jobs (its own previous life's, or one
 * whose heartbeat stopped), never a job another live instance is running; a live instance
 * closes a killed instance's jobs once their heartbeat is stale. These jobs keep no file (as
 * jobs from before files were kept), so they are closed; a job with its file is resumed
 * instead (import-takeover.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model, ModelStatic } from 'sequelize';
import { createServer, type RtiServer } from '../src/index';
import { IMPORT_STALE_MS } from '../src/import';
import { startTestServer, type TestServer } from './support/test-server';
import { importFile, metadataWithCodes, tempDataDir, xlsx } from './import-fixtures';

let ts: TestServer;
let jobs: ModelStatic<Model>;
const started: RtiServer[] = [];

const instance = (instanceId: string) =>
  createServer({
    databaseUrl: ts.db.url,
    plugins: false,
    logError: () => undefined,
    metadata: metadataWithCodes(),
    config: { dataDir: tempDataDir(), instanceId },
  }).then((s) => (started.push(s), s));

const job = (instanceId: string | null, heartbeatAgoMs: number | null) =>
  jobs.create({
    orgId: ts.orgA,
    userId: ts.a.userId,
    resource: 'device-beacon',
    fileName: 'x.xlsx',
    language: 'en-US',
    status: 10,
    processedVolume: 100,
    successVolume: 100,
    instanceId,
    heartbeatAt: heartbeatAgoMs === null ? null : new Date(Date.now() - heartbeatAgoMs),
  });
const statusOf = async (j: Model) => Number((await jobs.findByPk(j.get('id') as number))!.get('status'));

beforeAll(async () => {
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir(), instanceId: 'api-1' } });
  jobs = ts.server.db.sequelize.models.importJob;
});
afterAll(async () => {
  for (const s of started) await s.close().catch(() => undefined);
  await ts?.close();
});

describe('import jobs owned by their instance', () => {
  it('an upload records the instance that took it and a heartbeat', async () => {
    const done = await importFile(ts, ts.a, 'device-beacon', await xlsx(['sn', 'mac', 'deviceModelId'], [['OWN-1', 'AA:00:00:00:70:01', 'nope']]));
    const row = await jobs.findByPk(done.importId);
    expect(row!.get('instanceId')).toBe('api-1');
    expect(row!.get('heartbeatAt')).toBeInstanceOf(Date);
  });

  it("a start closes its own previous life's jobs and dead instances', never a live instance's", async () => {
    const live = await job('api-1', 1_000);
    const mine = await job('api-2', 1_000);
    const dead = await job('api-3', IMPORT_STALE_MS + 5_000);
    const legacy = await job(null, null);
    const other = await instance('api-2');
    expect(await statusOf(live)).toBe(10);
    expect(await statusOf(mine)).toBe(20);
    expect(await statusOf(dead)).toBe(20);
    expect(await statusOf(legacy)).toBe(20);
    const closed = await jobs.findByPk(dead.get('id') as number);
    expect(closed!.get('message')).toMatch(/interrupted/);
    // restarting it again still leaves the live instance's job alone
    await other.close();
    await instance('api-2');
    expect(await statusOf(live)).toBe(10);
    await jobs.update({ status: 20 }, { where: { id: live.get('id') as number } });
  });

  it("the heartbeat keeps this instance's jobs alive and closes a killed instance's once stale", async () => {
    const ownOld = await job('api-1', IMPORT_STALE_MS + 5_000);
    const killed = await job('api-9', IMPORT_STALE_MS + 5_000);
    const fresh = await job('api-8', 2_000);
    await ts.server.imports.heartbeat();
    expect(await statusOf(ownOld)).toBe(10);
    expect(Date.now() - ((await jobs.findByPk(ownOld.get('id') as number))!.get('heartbeatAt') as Date).getTime()).toBeLessThan(5_000);
    expect(await statusOf(killed)).toBe(20);
    expect(await statusOf(fresh)).toBe(10);
    await jobs.update({ status: 20 }, { where: { id: [ownOld.get('id') as number, fresh.get('id') as number] } });
  });

  it('a job queued on an instance that stops is closed at once, not left to the stale bound', async () => {
    const other = await instance('api-4');
    const queued = await job('api-4', 0);
    await other.close();
    expect(await statusOf(queued)).toBe(20);
  });
});
