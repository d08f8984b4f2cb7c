/**
 * task-config rows as scheduled jobs over a real server (scheduler plugin, SQLite, file
 * outbox): an every-second task runs and mails its xlsx; disabling, deleting and bad input;
 * run now; runs stay inside their organisation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { schedulerOf } from '../server';
import { defineTables } from '../server/tables';
import { ok, sleep, until, xlsxAttachment } from './support';

let ts: TestServer;
let dir: string;

const runsOf = async (taskId: number) => (await ok<{ list: any[]; total: number }>(ts.a, '/task-config/run/list', { taskId, limit: 100 })).list;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-'));
  Object.assign(process.env, { SCHEDULER_PROCESS_EVERY_MS: '300', SCHEDULER_TIMEZONE: 'UTC', SMTP_URL: '', MAIL_LANGUAGE: 'en-US' });
  // the GPS alert mail is the monitor plugin's report, the inventory mails the reports plugin's (on inventory's closing snapshots)
  ts = await startTestServer({ plugins: ['scheduler', 'monitor', 'master-data', 'shipping', 'inventory', 'reports'], config: { dataDir: dir } });
  const alerts = ts.server.db.models['device-gps-alert'];
  const now = Date.now();
  // A: one low-battery alert (matches battery ≤ 20), one healthy reading, one already solved
  await alerts.create({
    orgId: ts.orgA,
    gpsSn: 'G-LOW',
    code: '048',
    reportTime: new Date(now - 3600_000),
    status: 0,
    message: 'battery 5% below 20%',
    rawData: { battery: 5, temperature1: 21 },
  });
  await alerts.create({
    orgId: ts.orgA,
    gpsSn: 'G-OK',
    code: '036',
    reportTime: new Date(now - 3600_000),
    status: 0,
    message: 'temperature',
    rawData: { battery: 80, temperature1: 65 },
  });
  await alerts.create({
    orgId: ts.orgA,
    gpsSn: 'G-DONE',
    code: '048',
    reportTime: new Date(now - 3600_000),
    status: 10,
    message: 'solved',
    rawData: { battery: 3 },
  });
  // B: a matching alert that A's mail must never show
  await alerts.create({
    orgId: ts.orgB,
    gpsSn: 'G-B',
    code: '048',
    reportTime: new Date(now - 3600_000),
    status: 0,
    message: 'other org',
    rawData: { battery: 1 },
  });
}, 60_000);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a GPS alert mail task on an every-second cron', () => {
  let id: number;

  it('runs and writes an .eml with the matching alerts as an xlsx attachment', async () => {
    id = (
      await ok(ts.a, '/task-config/create', {
        name: 70,
        type: 60,
        cron: '*/1 * * * * *',
        available: true,
        mailTo: 'ops@example.com, lead@example.com',
        subject: 'GPS alerts today',
        text: 'Please check.',
        battery: 20,
        validityPeriod: 1,
      })
    ).id;
    const runs = await until(
      async () => {
        const done = (await runsOf(id)).filter((r) => r.status === 'succeeded');
        return done.length ? done : null;
      },
      8000,
      'a succeeded run',
    );
    const run = runs[runs.length - 1];
    expect(run).toMatchObject({
      taskId: id,
      orgId: ts.orgA,
      via: 'schedule',
      status: 'succeeded',
      error: null,
      recipients: ['ops@example.com', 'lead@example.com'],
      rowCount: 1,
    });
    expect(run.messageId).toMatch(/^<.+>$/);
    expect(path.dirname(run.outboxFile)).toBe(path.join(dir, 'outbox'));
    expect(path.basename(run.outboxFile)).toMatch(/^\d{8}-\d{9}-[\w-]+\.eml$/);
    const eml = fs.readFileSync(run.outboxFile, 'utf8');
    expect(eml).toContain('Subject: GPS alerts today');
    expect(eml).toMatch(/To: ops@example.com, lead@example.com/);
    expect(eml).toContain('Please check.');
    const { filename, rows } = await xlsxAttachment(eml);
    expect(filename).toMatch(/^gps-alerts-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(rows[0]).toEqual([
      'GPS SN',
      'Alert code',
      'Report time',
      'Warehouse',
      'Message',
      'Battery (%)',
      'Temperature (°C)',
      'Humidity (%)',
      'Acceleration (G)',
    ]);
    // only A's unsolved alert whose battery is at or below 20 %
    expect(rows.slice(1).map((r) => r[0])).toEqual(['G-LOW']);
    expect(rows[1][5]).toBe(5);
  });

  it('stops running once disabled (the job is removed)', async () => {
    await ok(ts.a, '/task-config/update', { id, available: false });
    await until(async () => !(await schedulerOf(ts.server.db)!.jobs.jobOf(id)), 3000, 'the job to go');
    await sleep(600); // a run already under way may still finish
    const before = (await runsOf(id)).length;
    await sleep(2000);
    expect((await runsOf(id)).length).toBe(before);
  });

  it('is scheduled again when re-enabled, and deleting the row removes the job', async () => {
    await ok(ts.a, '/task-config/update', { id, available: true });
    const job = await until(() => schedulerOf(ts.server.db)!.jobs.jobOf(id), 3000, 'the job');
    expect(job).toMatchObject({ repeatInterval: '*/1 * * * * *', repeatTimezone: 'UTC', data: { taskId: id, orgId: ts.orgA, language: 'en-US' } });
    await ok(ts.a, '/task-config/delete', { id });
    await until(async () => !(await schedulerOf(ts.server.db)!.jobs.jobOf(id)), 3000, 'the job to go');
  });
});

it('reads the cron in the organisation time zone, and a new zone reschedules its tasks at once', async () => {
  const jobOf = (taskId: number) => schedulerOf(ts.server.db)!.jobs.jobOf(taskId);
  const id = (await ok(ts.a, '/task-config/create', { name: 1, type: 10, cron: '0 0 8 * * *', available: true })).id;
  try {
    expect((await until(() => jobOf(id), 3000, 'the job')).repeatTimezone).toBe('UTC');
    await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'Asia/Shanghai' });
    const moved = await until(async () => ((await jobOf(id))?.repeatTimezone === 'Asia/Shanghai' ? jobOf(id) : null), 3000, 'the job in Shanghai time');
    // 08:00 in Shanghai is midnight UTC
    expect(new Date(moved!.nextRunAt!).getUTCHours()).toBe(0);
  } finally {
    await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
    await ok(ts.a, '/task-config/delete', { id });
  }
});

it('drops the job of a row deleted outside the API at its next run', async () => {
  const id = (await ok(ts.a, '/task-config/create', { name: 1, type: 10, cron: '*/1 * * * * *', available: true })).id;
  await until(() => schedulerOf(ts.server.db)!.jobs.jobOf(id), 3000, 'the job');
  await ts.server.db.models['task-config'].destroy({ where: { id } });
  await until(async () => !(await schedulerOf(ts.server.db)!.jobs.jobOf(id)), 5000, 'the job to go');
  const runs = (await defineTables(ts.server.db.sequelize).runs.findAll({ where: { taskId: id }, raw: true })) as unknown as Array<{
    status: string;
    error: string | null;
  }>;
  expect(runs.at(-1)).toMatchObject({ status: 'skipped', error: 'The record does not exist' });
});

describe('run now, history and tenancy', () => {
  let inventoryTask: number;

  beforeAll(async () => {
    const project = (await ok(ts.a, '/project/create', { name: 'P' })).id;
    const code = (await ok(ts.a, '/carrier-code/create', { projectId: project, code: 'BOX', name: 'Box', type: 10, available: true })).id;
    const low = (await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Low', minInventory: 2, maxInventory: 5, theoryInventory: 3 })).id;
    await ok(ts.a, '/warehouse/create', { code: 'W2', name: 'Empty ok', minInventory: 0 });
    await ok(ts.a, '/carrier/create', { sn: 'C-1', carrierCodeId: code, warehouseId: low });
    // yesterday's close, as inventory's closing job writes it: the daily mail reports that day
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    // eslint-disable-next-line rti/no-raw-models -- the test writes what the closing job would
    await ts.server.db.models['inventory-snapshot'].create({ orgId: ts.orgA, day, warehouseId: low, carrierCodeId: code, inStock: 1 });
    inventoryTask = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'stock@example.com' })).id;
  });

  it("runs a daily inventory mail now: yesterday's close per warehouse against min/max/theory", async () => {
    const run = await ok(ts.a, '/task-config/run', { id: inventoryTask });
    expect(run).toMatchObject({ taskId: inventoryTask, via: 'manual', status: 'succeeded', rowCount: 2, recipients: ['stock@example.com'] });
    const eml = fs.readFileSync(run.outboxFile, 'utf8');
    // no subject on the row: the task name is the subject
    expect(eml).toContain('Subject: Daily inventory report');
    const { rows } = await xlsxAttachment(eml);
    // code, name, in stock … min, max, theory, against theory, level
    expect(rows.slice(1).map((r) => [r[0], r[2], r[13], r[14]])).toEqual([
      ['W1', 1, -2, 'Below min'],
      ['W2', 0, undefined, 'Normal'],
    ]);
    const history = await ok(ts.a, '/task-config/run/list', { taskId: inventoryTask });
    expect(history.total).toBe(1);
    expect(history.list[0].id).toBe(run.id);
  });

  it('keeps the report of a non-mail task as a file instead of mailing it', async () => {
    const id = (await ok(ts.a, '/task-config/create', { name: 2, type: 10, cron: '0 8 * * *', available: true })).id;
    const run = await ok(ts.a, '/task-config/run', { id });
    expect(run).toMatchObject({ status: 'succeeded', messageId: null, recipients: [], rowCount: 2 });
    expect(path.dirname(run.outboxFile)).toBe(path.join(dir, 'reports', String(ts.orgA)));
    expect(run.outboxFile).toMatch(/daily-inventory-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(fs.statSync(run.outboxFile).size).toBeGreaterThan(1000);
  });

  it('ends a task without a data source as skipped, with the reason in the caller language', async () => {
    const id = (await ok(ts.a, '/task-config/create', { name: 50, type: 20, cron: '0 8 * * *', available: true, mailTo: 'x@example.com' })).id;
    const run = (await ts.a.call('/task-config/run', { id }, { language: 'zh-CN' })).body.data as any;
    expect(run.status).toBe('skipped');
    expect(run.error).toContain('维修记录');
    expect(run.messageId).toBeNull();
  });

  it('keeps runs and run-now inside the organisation', async () => {
    const list = await ts.b.call('/task-config/run/list', { taskId: inventoryTask });
    expect(list.body.code).toBe(10002);
    const all = await ok(ts.b, '/task-config/run/list', {});
    expect(all).toEqual({ list: [], total: 0 });
    expect((await ts.b.call('/task-config/run', { id: inventoryTask })).body.code).toBe(10002);
    expect((await ok(ts.a, '/task-config/run/list', {})).total).toBeGreaterThan(0);
  });

  it('refuses a cron the scheduler cannot read, and bad recipients, in the caller language', async () => {
    const base = { name: 70, type: 60, available: true, mailTo: 'a@example.com' };
    const zh = await ts.a.call('/task-config/create', { ...base, cron: '61 * * * *' }, { language: 'zh-CN' });
    expect(zh.body.code).toBe(10001);
    expect(zh.body.message).toBe('Cron表达式格式错误');
    const en = await ts.a.call('/task-config/update', { id: inventoryTask, cron: '* * * 13 *' });
    expect(en.body).toMatchObject({ code: 10001, message: 'The format of Cron expression is wrong' });
    const mail = await ts.a.call('/task-config/create', { ...base, cron: '0 8 * * *', mailTo: 'a@example.com; not-an-address' });
    expect(mail.body).toMatchObject({ code: 10001, message: 'Mail recipients must be an e-mail address' });
    const dated = await ts.a.call('/task-config/create', { ...base, type: 50, cron: '0 8 * * *' });
    expect(dated.body.code).toBe(10001);
    expect(dated.body.message).toMatch(/Assign/i);
  });
});
