/**
 * The SQL backend's guarantees with several servers on one database: a persisted job is
 * picked up by the next server after a restart, a due job is locked by exactly one of two
 * racing processes, and two live servers run each occurrence of a job once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RtiServer } from '@rti/server';
import { createTestDatabase, type TestDatabase } from '../../../server/test/support/test-database';
import { schedulerOf } from '../server';
import { SqlJobRepository } from '../server/sql-job-repository';
import { defineTables } from '../server/tables';
import { sleep, until } from './support';

let db: TestDatabase;
let dir: string;
let orgId: number;
const open: RtiServer[] = [];

const start = async () => {
  const s = await createServer({ databaseUrl: db.url, plugins: ['scheduler'], config: { dataDir: dir }, logError: () => undefined });
  open.push(s);
  return s;
};
const stop = async (s: RtiServer) => {
  open.splice(open.indexOf(s), 1);
  await s.close();
};
const runsOf = async (s: RtiServer, taskId: number) =>
  (await defineTables(s.db.sequelize).runs.findAll({ where: { taskId }, order: [['startedAt', 'ASC']], raw: true })) as unknown as Array<{
    instance: string;
    startedAt: number;
    status: string;
  }>;

beforeAll(async () => {
  Object.assign(process.env, { SCHEDULER_PROCESS_EVERY_MS: '300', SCHEDULER_TIMEZONE: 'UTC', SMTP_URL: '' });
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-'));
});

afterAll(async () => {
  for (const s of [...open]) await s.close();
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('several servers on one database', () => {
  let taskId: number;

  it('keeps a job across a restart: the next server runs the persisted job', async () => {
    const first = await start();
    orgId = Number((await first.db.models.organization.create({ code: 'ORGS', name: 'Org S', entryCode: 'orgs' })).get('id'));
    // a customer task: its run ends "skipped" at once, which is all this test needs
    const row = await first.repo('task-config', first.systemContext(orgId)).create({ name: 1, type: 10, cron: '*/1 * * * * *', available: true });
    taskId = Number(row.id);
    const job = await until(() => schedulerOf(first.db)!.jobs.jobOf(taskId), 3000, 'the job');
    expect(job.nextRunAt).toBeInstanceOf(Date);
    const before = (await runsOf(first, taskId)).length;
    await stop(first);
    const second = await start();
    const instance = schedulerOf(second.db)!.instance;
    const runs = await until(async () => (await runsOf(second, taskId)).filter((r) => r.instance === instance).length, 5000, 'a run by the new server');
    expect(runs).toBeGreaterThan(0);
    // the same stored job, not a new one made at start
    expect((await schedulerOf(second.db)!.jobs.jobOf(taskId))!._id).toBe(job._id);
    expect((await runsOf(second, taskId)).length).toBeGreaterThan(before);
    expect((await runsOf(second, taskId)).every((r) => r.status === 'skipped')).toBe(true);
  });

  it('locks a due job for exactly one of two racing processes', async () => {
    const [a, b] = [open[0], await start()];
    const repoA = new SqlJobRepository(defineTables(a.db.sequelize).jobs);
    const repoB = new SqlJobRepository(defineTables(b.db.sequelize).jobs);
    for (let i = 0; i < 8; i++) {
      const name = `race-${i}`;
      await repoA.saveJob({ name, priority: 0, type: 'normal', nextRunAt: new Date(Date.now() - 1000), data: { i } }, undefined);
      const scanAt = new Date(Date.now() + 1000);
      const deadline = new Date(Date.now() - 600_000);
      const got = await Promise.all([
        repoA.getNextJobToRun(name, scanAt, deadline, undefined, { lastModifiedBy: 'A' }),
        repoB.getNextJobToRun(name, scanAt, deadline, undefined, { lastModifiedBy: 'B' }),
      ]);
      expect(got.filter(Boolean)).toHaveLength(1);
      expect(got.find(Boolean)!.lockedAt).toBeInstanceOf(Date);
      await repoA.removeJobs({ name });
    }
  });

  it('runs each occurrence once while two servers poll the same jobs', async () => {
    const [a, b] = open;
    await a.repo('task-config', a.systemContext(orgId)).update({ id: taskId, cron: '*/2 * * * * *' });
    await until(async () => (await schedulerOf(a.db)!.jobs.jobOf(taskId))?.repeatInterval === '*/2 * * * * *', 3000, 'the new cron');
    await sleep(500); // a run of the old cron under way ends
    const from = Date.now();
    await sleep(4500);
    const runs = (await runsOf(a, taskId)).filter((r) => Number(r.startedAt) >= from);
    // 2 or 3 occurrences fall in 4.5 s of an every-2-seconds cron; none ran twice
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(3);
    const seconds = runs.map((r) => Math.floor(Number(r.startedAt) / 2000));
    expect(new Set(seconds).size).toBe(seconds.length);
    expect(schedulerOf(b.db)!.instance).not.toBe(schedulerOf(a.db)!.instance);
  });
});
