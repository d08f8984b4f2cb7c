/**
 * Report mails against a real SMTP server process (smtp-process.mjs: the smtp-server package in
 * a child process on this machine, not an in-process fake): the workbook and a summary in the
 * caller's language arrive; a server that refuses (451) and one that is down fail the scheduled
 * run with the reason, the run is retried and the mail arrives once the server takes it — nothing
 * lost, nothing sent twice; two server instances on one database send each due time once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer, type RtiServer } from '@rti/server';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { defineTables } from '../server/tables';
import { ok, sleep, until, xlsxAttachment } from './support';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

const PLUGINS = ['scheduler', 'master-data', 'shipping', 'inventory', 'reports'];
const mails: Mail[] = [];
let child: ChildProcess | null = null;
let port = 0;
let ts: TestServer;
let second: RtiServer | null = null;
let dir: string;

/** Starts the SMTP server process on the fixed port; resolves once it listens. */
function smtp(mode: 'accept' | 'refuse'): Promise<void> {
  const p = spawn(process.execPath, [path.join(__dirname, 'smtp-process.mjs'), String(port), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  child = p;
  let buf = '';
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === 'ready') resolve();
        else if (line) mails.push(JSON.parse(line) as Mail);
      }
    });
  });
}

/** Stops the SMTP server process: the port answers "connection refused" until the next start. */
async function down(): Promise<void> {
  const p = child;
  child = null;
  if (!p || p.exitCode !== null) return;
  await new Promise((r) => {
    p.once('exit', r);
    p.kill('SIGKILL');
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as net.AddressInfo;
      s.close(() => resolve(p));
    });
  });

/** The text/plain part of a raw message, decoded (nodemailer sends it quoted-printable or base64). */
function textOf(eml: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\nContent-Transfer-Encoding: ([\w-]+)\r?\n\r?\n([^]*?)\r?\n(?:--|$)/i.exec(eml);
  if (!part) return '';
  if (part[1].toLowerCase() === 'base64') return Buffer.from(part[2].replace(/\s/g, ''), 'base64').toString('utf8');
  const bytes = part[2].replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

const runsOf = async (taskId: number) =>
  (await defineTables(ts.server.db.sequelize).runs.findAll({ where: { taskId }, order: [['startedAt', 'ASC']], raw: true })) as unknown as Array<{
    status: string;
    error: string | null;
    via: string;
    instance: string;
    startedAt: number;
  }>;

/** A cron (with seconds) that is due once, `inMs` from now (UTC). */
const onceAt = (inMs: number) => {
  const d = new Date(Date.now() + inMs);
  return `${d.getUTCSeconds()} ${d.getUTCMinutes()} ${d.getUTCHours()} * * *`;
};

beforeAll(async () => {
  port = await freePort();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-smtp-process-'));
  Object.assign(process.env, {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Reports <reports@example.com>',
    SCHEDULER_TIMEZONE: 'UTC',
    SCHEDULER_PROCESS_EVERY_MS: '300',
    SCHEDULER_RETRY_DELAY_MS: '1500',
    SCHEDULER_RETRIES: '4',
  });
  await smtp('accept');
  ts = await startTestServer({ plugins: PLUGINS, config: { dataDir: dir } });
  await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Main', minInventory: 1 });
}, 90_000);

afterAll(async () => {
  await second?.close();
  await ts?.close();
  await down();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("delivers the workbook and a summary in the caller's language to a real SMTP server", async () => {
  const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'stock@example.com' })).id;
  const got = await ts.a.call('/task-config/run', { id }, { language: 'zh-CN' });
  expect(got.body.data).toMatchObject({ status: 'succeeded', recipients: ['stock@example.com'] });
  const mail = await until(() => mails.find((m) => m.data.includes(got.body.data.messageId)), 5000, 'the mail');
  expect(mail).toMatchObject({ from: 'reports@example.com', to: ['stock@example.com'] });
  const workbook = await xlsxAttachment(mail.data);
  expect(workbook.filename).toMatch(/\.xlsx$/);
  expect(workbook.rows.length).toBeGreaterThan(1);
  expect(textOf(mail.data)).toMatch(/[\u4e00-\u9fff]/);
});

it('a server that refuses, then one that is down: the scheduled run fails with the reason, is retried, and the mail arrives once', async () => {
  await down();
  await smtp('refuse');
  const before = mails.length;
  const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: onceAt(2000), available: true, mailTo: 'retry@example.com' })).id;
  const refused = await until(async () => (await runsOf(id)).find((r) => r.status === 'failed'), 15_000, 'a refused run');
  expect(refused.via).toBe('schedule');
  expect(refused.error).toMatch(/451|try again later/i);
  await down();
  const unreachable = await until(async () => (await runsOf(id)).filter((r) => r.status === 'failed')[1], 15_000, 'a run against the stopped server');
  expect(unreachable.error).toMatch(/ECONNREFUSED|connect/i);
  await smtp('accept');
  const delivered = await until(async () => (await runsOf(id)).find((r) => r.status === 'succeeded'), 20_000, 'the retried run delivering');
  expect(delivered.via).toBe('schedule');
  await sleep(500);
  const arrived = mails.slice(before).filter((m) => m.to.includes('retry@example.com'));
  expect(arrived).toHaveLength(1);
  // shown on the task's run list with the reasons
  const list = await ok<{ list: Array<{ status: string; error: string | null }> }>(ts.a, '/task-config/run/list', { taskId: id, limit: 20 });
  expect(list.list.map((r) => r.status).sort()).toEqual(['failed', 'failed', 'succeeded']);
  expect(list.list.filter((r) => r.status === 'failed').every((r) => (r.error ?? '').length > 0)).toBe(true);
}, 60_000);

it('two server instances on one database send each due time exactly once', async () => {
  second = await createServer({ databaseUrl: ts.db.url, plugins: PLUGINS, config: { dataDir: dir }, logError: () => undefined });
  const before = mails.length;
  const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '*/2 * * * * *', available: true, mailTo: 'twice@example.com' })).id;
  await sleep(7000);
  await ok(ts.a, '/task-config/update', { id, available: false });
  await sleep(1500);
  const runs = (await runsOf(id)).filter((r) => r.status === 'succeeded');
  const due = runs.map((r) => Math.floor(Number(r.startedAt) / 2000));
  expect(runs.length).toBeGreaterThanOrEqual(2);
  expect(new Set(due).size).toBe(due.length);
  const arrived = mails.slice(before).filter((m) => m.to.includes('twice@example.com'));
  expect(arrived).toHaveLength(runs.length);
  // nothing failed or ran twice either
  expect((await runsOf(id)).filter((r) => r.status !== 'succeeded')).toEqual([]);
}, 60_000);
