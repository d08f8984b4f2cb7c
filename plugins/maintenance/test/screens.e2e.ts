/**
 * The repair of a rack in headless chromium on a real server (temp SQLite), as the people who do
 * it (issue 20) — never as an administrator, each holding only the screens and calls of their day:
 *
 * - a worker who may only apply scans the code on a rack with a phone (390×844): the public page
 *   /info/mainten shows the rack, and the worker applies for a repair from it;
 * - a maintainer who may not audit starts the repair (the carrier goes to maintenance), is told
 *   which findings are missing when completing without them, completes it with a picture uploaded
 *   in the step's dialog, and is offered no audit step;
 * - an auditor audits it: the carrier is back in use, the asset counts the maintenance;
 * - a maintenance supervisor holding only the top-10 page sees its chart and table;
 * - anyone scanning the code without signing in reads the rack in Chinese on a phone.
 *
 * Every wait is for a state (an element, a value), never a fixed time. Screenshots go to
 * test-output/screenshots/.
 */
import fs from 'node:fs';
import { Enums } from '@rti/metadata';
import { Jimp } from 'jimp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../server/test/import-fixtures';
import { narrowOperator, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { carrier, dictionary, ok, pool, type Pool } from './support';

const WAIT = { timeout: 30000 };
const FIRST = { timeout: 60000 };
const R = '/carrier-asset-maintenance-record';
const PAGE = '/maintenance/carrier-asset-maintenance-record';
const TOP = '/maintenance/maintenance-record-top';
const C = Enums.carrierStatus;
const M = Enums.maintenanceStatus;
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1600, height: 1000 };

let dir: string;
let ts: TestServer;
let p: Pool;
let cb: ConsoleBrowser;
let page: Page;
let worker: Caller;
let maintainer: Caller;
let auditor: Caller;
let supervisor: Caller;
let keeper: Caller;
let rack: { id: number; sn: string };
let infoPath: string;
let recordId: number;
let recordNo: string;

/** The browser signs in as `c` (its session cookies), or signs out with no caller. */
async function signInAs(c: Caller | null): Promise<void> {
  const context = page.context();
  await context.clearCookies();
  if (!c) return;
  const domain = new URL(ts.url).hostname;
  await context.addCookies(
    [
      ['admin-token', c.token],
      ['admin-user-id', String(c.userId)],
      ['admin-org-id', String(c.orgId)],
    ].map(([name, value]) => ({ name, value, domain, path: '/' })),
  );
}

const record = () => ok(ts.a, R, { id: recordId });
const carrierStatus = async () => (await ok(ts.a, '/carrier', { id: rack.id })).status as number;
const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

beforeAll(async () => {
  dir = tempDataDir();
  ts = await startTestServer({ plugins: ['maintenance'], config: { dataDir: dir } });
  p = await pool(ts.a, 'E2E');
  const rootCause = await dictionary(ts.a, Enums.dictionaryCategory.rootCause, 'Fatigue crack');
  rack = await carrier(ts.a, p, C.inUse);
  const often = await carrier(ts.a, p, C.inUse);
  const once = await carrier(ts.a, p, C.standby);
  await ok(ts.a, '/carrier-asset/refresh', {});
  const asset = (await ok(ts.a, '/carrier-asset/list', { carrierId: rack.id, page: 1, limit: 1 })).list[0];
  // the code fixed to the rack (printed by the asset team)
  infoPath = (await ok(ts.a, '/carrier-asset/info/link', { id: asset.id })).path;

  const warehouseIds = [p.warehouseId];
  // the shop floor: may apply for a repair and nothing else (no screen of the console)
  worker = await narrowOperator(ts, 'worker.li', { screens: [], calls: new RegExp(`^${R}/create$`), warehouseIds });
  maintainer = await narrowOperator(ts, 'maint.wang', {
    screens: [PAGE, `${PAGE}/detail`],
    calls: new RegExp(`^${R}(/(list|base|start|complete|timeline))?$|^/dictionary/(list|all)$|^/carrier/(list|all)$`),
    warehouseIds,
  });
  auditor = await narrowOperator(ts, 'audit.sato', {
    screens: [PAGE, `${PAGE}/detail`],
    calls: new RegExp(`^${R}(/(list|base|audit|reject|timeline))?$|^/carrier/(list|all)$`),
    warehouseIds,
  });
  keeper = await narrowOperator(ts, 'keeper.zhao', {
    screens: ['/maintenance/carrier-asset'],
    calls: /^\/carrier-asset\/(list|refresh)$|^\/(carrier|carrier-code|dictionary)\/(list|all)$/,
    warehouseIds,
  });
  supervisor = await narrowOperator(ts, 'super.kim', {
    screens: [TOP],
    calls: new RegExp(`^${R}/top(/export)?$|^/(carrier-code|dictionary)/(list|all)$`),
    warehouseIds,
  });

  // earlier repairs this month: one rack twice, another once (the top-10's history)
  const repair = async (c: { id: number }) => {
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, type: Enums.maintenanceType.repair, breakdownDescription: 'Wheel lock broken' });
    await ok(maintainer, `${R}/start`, { id: r.id });
    await ok(maintainer, `${R}/complete`, {
      id: r.id,
      rootCauseId: rootCause,
      strategy: 'New lock',
      hours: 1,
      cost: 40,
      maintainPictures: ['repair/lock.jpg'],
    });
    await ok(auditor, `${R}/audit`, { id: r.id });
  };
  await repair(often);
  await repair(often);
  await repair(once);

  cb = await openConsole(ts, worker, PHONE);
  page = cb.page;
  // refused calls are echoed to the test output
  page.on('response', (r) => {
    if (r.status() >= 400) console.error('[http]', r.status(), r.url());
    else if (r.url().includes('/api/') && r.request().method() === 'POST')
      r.json()
        .then((b: { code?: number; message?: string }) => b?.code && console.error('[api]', r.url(), b.code, b.message))
        .catch(() => undefined);
  });
}, 180_000);
afterAll(async () => {
  await cb?.close();
  await ts?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a rack repaired from the shop floor to the audit, by the people who do it', () => {
  it('a worker scans the rack with a phone and applies for a repair from the public page', async () => {
    // least privilege: the worker applies, nothing more
    expect((await worker.call(`${R}/list`, { page: 1, limit: 1 })).body.code).toBe(10005);
    await page.setViewportSize(PHONE);
    await page.goto(`${ts.url}${infoPath}`);
    const info = page.getByTestId('info-mainten');
    await info.getByText(rack.sn).first().waitFor(FIRST);
    await info.getByText('In use').first().waitFor(WAIT);
    const form = page.getByTestId('info-mainten-apply');
    await form.waitFor(WAIT);
    // nothing described: the form says what is missing, nothing is sent
    await page.getByTestId('info-mainten-apply-submit').click();
    await form.getByText('Describe what broke').waitFor(WAIT);
    await form.locator('textarea').fill('Upright bent at the fork pocket');
    await cb.shot('maintenance-info-apply-phone');
    await page.getByTestId('info-mainten-apply-submit').click();
    await page
      .getByTestId('info-mainten-applied')
      .getByText(/^Application MR\d{12} sent$/)
      .waitFor(WAIT);
    // the page now shows the open application, and offers no second one
    await info.getByText(/^Under maintenance: MR\d{12} \(New\)$/).waitFor(WAIT);
    await expect.poll(() => form.count(), WAIT).toBe(0);
    expect(await overflow()).toBeLessThanOrEqual(1);
    await cb.shot('maintenance-info-applied-phone');

    const made = (await ok(ts.a, `${R}/list`, { carrierId: rack.id, status: [M.new], page: 1, limit: 5 })).list;
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      status: M.new,
      applicant: 'worker.li',
      breakdownDescription: 'Upright bent at the fork pocket',
      type: Enums.maintenanceType.repair,
    });
    recordId = made[0].id;
    recordNo = made[0].recordNo;
    expect(await carrierStatus()).toBe(C.inUse);
    // the asset shows the application
    expect((await ok(ts.a, '/carrier-asset/list', { carrierId: rack.id, page: 1, limit: 1 })).list[0].maintenanceStatus).toBe(M.new);
  });

  it('a maintainer who may not audit starts it, is told the missing findings, completes it with a picture', async () => {
    await signInAs(maintainer);
    await page.setViewportSize(DESK);
    await page.goto(`${ts.url}${PAGE}/detail/${recordId}`);
    const show = page.getByTestId('meta-show');
    await show.getByText(recordNo).first().waitFor(FIRST);
    await page.getByTestId('meta-step-start').click();
    await page.getByTestId('meta-step-warning').waitFor(WAIT);
    await page.getByTestId('meta-step-ok').click();
    await expect.poll(async () => (await record()).status, WAIT).toBe(M.inProgress);
    expect(await carrierStatus()).toBe(C.maintenance);
    expect((await record()).maintainer).toBe('maint.wang');

    // completing without findings: refused, naming the record and what is missing
    await page.getByTestId('meta-step-complete').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('meta-step-ok') });
    await dialog.locator('#strategy').waitFor(WAIT);
    await page.getByTestId('meta-step-ok').click();
    const refusal = page.locator('.ant-message').getByText(`Complete is not possible for maintenance record ${recordNo}: please fill in`);
    await refusal.waitFor(WAIT);
    const said = await refusal.innerText();
    for (const f of ['Root cause', 'Strategy', 'Hours', 'Maintenance pictures']) expect(said).toContain(f);
    expect((await record()).status).toBe(M.inProgress);

    // the findings, and a picture of the repaired upright through the image upload
    const rootCause = dialog.locator('.ant-form-item:has(#rootCauseId) .ant-select').first();
    await rootCause.click();
    const listId = await rootCause.locator('input').getAttribute('aria-controls');
    await page.locator(`.ant-select-dropdown:has([id="${listId}"]) .ant-select-item-option`).filter({ hasText: 'Fatigue crack' }).first().click();
    await rootCause.locator('.ant-select-selection-item').filter({ hasText: 'Fatigue crack' }).waitFor(WAIT);
    await dialog.locator('#strategy').fill('Straightened and welded the upright');
    await dialog.locator('#hours').fill('2.5');
    await dialog.locator('#cost').fill('180');
    const png = await new Jimp({ width: 320, height: 200, color: 0x447799ff }).getBuffer('image/png');
    await dialog.locator('.ant-form-item:has(#maintainPictures) input[type=file]').setInputFiles({ name: 'welded.png', mimeType: 'image/png', buffer: png });
    await dialog
      .locator('.ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading):not(.ant-upload-list-item-error)')
      .first()
      .waitFor(WAIT);
    await cb.shot('maintenance-complete-dialog');
    await page.getByTestId('meta-step-ok').click();
    await expect.poll(async () => (await record()).status, WAIT).toBe(M.completed);
    const done = await record();
    expect(done).toMatchObject({ strategy: 'Straightened and welded the upright', hours: 2.5 });
    expect(String(done.maintainPictures)).toMatch(/\.png/);

    // not the maintainer's to audit: no audit step on the page, and the call is refused
    await show.getByText('Completed').first().waitFor(WAIT);
    await page.getByTestId('meta-step-complete').waitFor({ state: 'detached', ...WAIT });
    expect(await page.getByTestId('meta-step-audit').count()).toBe(0);
    expect((await maintainer.call(`${R}/audit`, { id: recordId })).body.code).toBe(10005);
    await cb.shot('maintenance-completed-maintainer');
  });

  it('an auditor audits it: the carrier is back in use and the asset counts the maintenance', async () => {
    await signInAs(auditor);
    await page.goto(`${ts.url}${PAGE}/detail/${recordId}`);
    await page.getByTestId('meta-show').getByText(recordNo).first().waitFor(FIRST);
    await page.getByTestId('meta-step-audit').click();
    await page.getByTestId('meta-step-warning').waitFor(WAIT);
    await page.locator('.ant-modal #auditRemark').fill('Weld checked');
    await page.getByTestId('meta-step-ok').click();
    await expect.poll(async () => (await record()).status, WAIT).toBe(M.audited);
    expect(await record()).toMatchObject({ auditor: 'audit.sato', auditRemark: 'Weld checked' });
    expect(await carrierStatus()).toBe(C.inUse);
    const asset = (await ok(ts.a, '/carrier-asset/list', { carrierId: rack.id, page: 1, limit: 1 })).list[0];
    expect(asset).toMatchObject({ maintenanceCount: 1, maintenanceStatus: M.audited });
    await page.getByTestId('meta-show').getByText('Audited').first().waitFor(WAIT);
    await cb.shot('maintenance-audited');
  });

  it("the supervisor's top-10 page shows the month's most repaired racks in its chart and table", async () => {
    await signInAs(supervisor);
    await page.goto(`${ts.url}${TOP}`);
    await page.getByTestId('report-page').waitFor(FIRST);
    const rows = page.locator('[data-testid="report-table"] tbody tr.ant-table-row');
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    // one bar per rack: twice, once, once
    await expect.poll(() => page.locator('[data-testid="report-chart"] svg rect').count(), WAIT).toBe(3);
    const first = await rows.first().innerText();
    expect(first).toMatch(/RACK-/);
    expect(first).toContain('RK-E2E');
    expect(first).toContain('4'); // the code's four repairs
    const bars = await page.locator('[data-testid="report-chart"] svg rect title').allTextContents();
    expect(bars.map((b) => b.split(': ').pop())).toEqual(['2', '1', '1']);
    expect(bars.some((b) => b.startsWith(rack.sn))).toBe(true);
    await cb.shot('maintenance-top10');
  });

  it('without signing in, anyone scanning the code reads the rack in Chinese on a phone', async () => {
    await signInAs(null);
    await page.setViewportSize(PHONE);
    await page.goto(`${ts.url}${infoPath}`);
    const info = page.getByTestId('info-mainten');
    await info.getByText(rack.sn).first().waitFor(FIRST);
    // the visitor picks the language of the page
    await page.locator('.ant-select[aria-label="Language"]').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '中文' }).click();
    await info.getByText('维修记录（1）').waitFor(WAIT);
    const text = await info.innerText();
    for (const label of ['下次维保日期', '维保次数', '使用中', '已审核']) expect(text).toContain(label);
    expect(text).toContain(recordNo);
    // read-only: no application without a session
    expect(await page.getByTestId('info-mainten-apply').count()).toBe(0);
    expect(await overflow()).toBeLessThanOrEqual(1);
    await cb.shot('maintenance-info-phone-zh');
  });

  it('the asset keeper refreshes the assets from the carriers and watches its progress', async () => {
    // a delivery of 400 new racks, registered as carriers in bulk
    // eslint-disable-next-line rti/no-raw-models -- the test registers a delivery of racks at once
    await ts.server.db.models.carrier.bulkCreate(
      Array.from({ length: 400 }, (_, i) => ({
        orgId: ts.orgA,
        sn: `NEW-${String(i).padStart(3, '0')}`,
        carrierCodeId: p.codeId,
        warehouseId: p.warehouseId,
        status: C.new,
      })),
    );
    // two carriers per transaction: two hundred chunks, so the refresh runs long enough to watch
    // (seconds even on an idle machine; the console asks every 0.7 s)
    process.env.REFRESH_CHUNK = '2';
    try {
      await signInAs(keeper);
      // the keeper works in English (the visitor before chose Chinese on this browser)
      await page.evaluate((uid) => localStorage.setItem(`admin-locale:${uid}`, 'en-US'), String(keeper.userId));
      await page.setViewportSize(DESK);
      await page.goto(`${ts.url}/maintenance/carrier-asset`);
      const button = page.getByTestId('maintenance-refresh-assets');
      await button.waitFor(FIRST);
      await page.getByTestId('meta-table').getByText(rack.sn).first().waitFor(WAIT);
      await button.click();
      // how far it got, from the server's run row: part of the 403 racks of the code
      const progress = page.getByTestId('maintenance-refresh-progress');
      await progress.waitFor(WAIT);
      expect(await progress.getAttribute('data-carriers')).toBe('403');
      expect(await progress.innerText()).toMatch(/^\d+%\s*[\d,]+ of 403 carriers read\s*Cancel$/);
      await cb.shot('maintenance-refresh-progress');
      await page.locator('.ant-message').getByText('403 carriers read: 400 assets made, 0 updated').waitFor(FIRST);
      await progress.waitFor({ state: 'detached', ...WAIT });
      await expect.poll(async () => (await ok(keeper, '/carrier-asset/list', { page: 1, limit: 1 })).total, WAIT).toBe(403);
    } finally {
      delete process.env.REFRESH_CHUNK;
    }
  });

  it('the asset keeper cancels a refresh part-way, after confirming; what was made stays', async () => {
    // eslint-disable-next-line rti/no-raw-models -- the test registers a delivery of racks at once
    await ts.server.db.models.carrier.bulkCreate(
      Array.from({ length: 5000 }, (_, i) => ({
        orgId: ts.orgA,
        sn: `MORE-${String(i).padStart(4, '0')}`,
        carrierCodeId: p.codeId,
        warehouseId: p.warehouseId,
        status: C.new,
      })),
    );
    // one carrier per transaction: five thousand chunks, time enough to read the question and confirm
    process.env.REFRESH_CHUNK = '1';
    try {
      await page.goto(`${ts.url}/maintenance/carrier-asset`);
      const button = page.getByTestId('maintenance-refresh-assets');
      await button.waitFor(FIRST);
      await button.click();
      const progress = page.getByTestId('maintenance-refresh-progress');
      await progress.waitFor(WAIT);
      await page.getByTestId('maintenance-refresh-cancel').click();
      await page.getByText('Stop the refresh? The assets made so far stay.').waitFor(WAIT);
      await cb.shot('maintenance-refresh-cancel');
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Stop' }).click();
      const told = page.locator('.ant-message').getByText(/^Refresh cancelled: \d+ carriers read, \d+ assets made, 0 updated$/);
      await told.waitFor(FIRST);
      await progress.waitFor({ state: 'detached', ...WAIT });
      const made = Number(/(\d+) assets made/.exec(await told.innerText())![1]);
      expect(made).toBeLessThan(5000);
      expect((await ok(keeper, '/carrier-asset/list', { page: 1, limit: 1 })).total).toBe(403 + made);
      expect(await ok(keeper, '/carrier-asset/refresh/progress', {})).toMatchObject({ running: false, cancelled: true, created: made });
    } finally {
      delete process.env.REFRESH_CHUNK;
    }
  });
});
