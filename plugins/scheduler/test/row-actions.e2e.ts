/**
 * The task-config list in headless chromium: "Run now" runs a daily inventory mail and says
 * so; "Runs" shows the run in the history modal. Screenshot: test-output/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok } from './support';

let ts: TestServer;
let dir: string;
let cb: ConsoleBrowser;
let page: Page;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-e2e-'));
  Object.assign(process.env, { SMTP_URL: '' });
  ts = await startTestServer({ plugins: ['scheduler', 'master-data', 'shipping', 'inventory', 'reports'], config: { dataDir: dir } });
  await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Main', minInventory: 1, maxInventory: 10 });
  await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'stock@example.com' });
  await grantWholeCatalogue(ts);
  cb = await openConsole(ts, ts.a);
  page = cb.page;
});

afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('runs a task from its row and shows the run in the history', async () => {
  await page.goto(`${ts.url}/system/task-config`);
  const runNow = page.getByTestId('task-run-now').first();
  await runNow.waitFor({ timeout: 60000 });
  await runNow.click();
  await page.locator('.ant-message').getByText('Succeeded').waitFor({ timeout: 30000 });
  expect(fs.readdirSync(path.join(dir, 'outbox')).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
  // Run now stays inline; the history is one of the row's further actions, under "More"
  await page.getByTestId('meta-row-more').first().click();
  await page.getByTestId('task-run-history').first().click();
  const modal = page.locator('.ant-modal');
  await modal.getByText('Run history').waitFor();
  await modal.locator('.ant-tag').getByText('Succeeded').waitFor();
  await modal.getByText('stock@example.com').waitFor();
  await page.waitForTimeout(500); // the modal's opening animation
  await cb.shot('task-config-runs');
});
