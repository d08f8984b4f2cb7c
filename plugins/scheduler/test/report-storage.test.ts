/**
 * Report workbooks kept through the server's storage (issue 22): a non-mail report task run on
 * one instance keeps its workbook in the S3 bucket (a real S3 server process, s3rver) under
 * its organisation's key, and /task-config/run/file serves it through any instance — never to
 * another organisation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RtiServer } from '@rti/server';
import { s3Storage, startS3rver, type RunningS3 } from '../../../server/test/support/s3';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok } from './support';

let s3: RunningS3;
let ts: TestServer;
let other: RtiServer;
let otherUrl: string;
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-s3-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  s3 = await startS3rver();
  Object.assign(process.env, { SCHEDULER_PROCESS_EVERY_MS: '300', SCHEDULER_TIMEZONE: 'UTC', SMTP_URL: '', MAIL_LANGUAGE: 'en-US' });
  const storage = s3Storage(s3, 'rti-reports');
  ts = await startTestServer({
    plugins: ['scheduler', 'monitor', 'master-data', 'shipping', 'inventory', 'reports'],
    config: { dataDir: tempDir(), instanceId: 'api-1', storage },
  });
  other = await createServer({
    databaseUrl: ts.db.url,
    plugins: ['scheduler', 'monitor', 'master-data', 'shipping', 'inventory', 'reports'],
    logError: () => undefined,
    config: { dataDir: tempDir(), instanceId: 'api-2', storage },
  });
  otherUrl = (await other.listen(0)).url;
  const project = (await ok(ts.a, '/project/create', { name: 'P' })).id;
  const code = (await ok(ts.a, '/carrier-code/create', { projectId: project, code: 'BOX', name: 'Box', type: 10, available: true })).id;
  const low = (await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Low', minInventory: 2, maxInventory: 5, theoryInventory: 3 })).id;
  await ok(ts.a, '/carrier/create', { sn: 'C-1', carrierCodeId: code, warehouseId: low });
}, 60_000);

afterAll(async () => {
  await other?.close();
  await ts?.close();
  await s3?.cleanup();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('report workbooks in object storage', () => {
  it('a run on one instance keeps its workbook in the bucket; the other instance serves it; another organisation gets nothing', async () => {
    const id = (await ok(ts.a, '/task-config/create', { name: 2, type: 10, cron: '0 8 * * *', available: true })).id;
    const run = await ok(ts.a, '/task-config/run', { id });
    expect(run).toMatchObject({ status: 'succeeded', messageId: null });
    expect(run.outboxFile).toMatch(new RegExp(`^s3://rti-reports/reports/${ts.orgA}/\\d+-daily-inventory-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    // nothing in either data folder
    expect(fs.existsSync(path.join(ts.server.config.dataDir, 'reports'))).toBe(false);
    const res = await fetch(`${otherUrl}/api/task-config/run/file`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: ts.a.token, OrgId: String(ts.orgA) },
      body: JSON.stringify({ id: run.id }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent(run.attachment));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as ArrayBuffer);
    expect(wb.worksheets.length).toBeGreaterThan(0);
    const theirs = await ts.b.call('/task-config/run/file', { id: run.id });
    expect(theirs.body.code).toBe(10002);
  });

  it('a mailed run has no kept file to download', async () => {
    const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'stock@example.com' })).id;
    const run = await ok(ts.a, '/task-config/run', { id });
    expect(run.status).toMatch(/succeeded|empty/);
    expect((await ts.a.call('/task-config/run/file', { id: run.id })).body.code).toBe(10002);
  });
});
