/**
 * `npm run new:report-plugin` (scripts/new-report-plugin.mjs): its output, generated into a
 * plugins folder beside the real ones (symbolic links), starts with the server and works — list,
 * export, scheduler task type, permission catalogue, the per-organisation switch, a restricted
 * planner holding only the page — and its codes reach an organisation's administrator when the
 * plugin is installed into a running installation. Bad names are refused with nothing written.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, menuCode, routeName, viewCode } from '@rti/metadata';
import { createServer } from '../src/index';
import { startTestServer, type TestServer } from './support/test-server';
import { createTestDatabase } from './support/test-database';

const root = resolve(__dirname, '../..');
// inside the repository, so the generated files resolve @rti/* through its node_modules
const tmp = join(root, 'node_modules', '.cache', `scaffold-test-${process.pid}`, 'plugins');
const scaffold = (...args: string[]) => spawnSync(process.execPath, [join(root, 'scripts/new-report-plugin.mjs'), ...args, '--dir', tmp], { encoding: 'utf8' });
const NAME = 'acme-daily';
const BASE = ['shipping', 'inventory', 'scheduler'];
let ts: TestServer;
let page: { menu: string; view: string };

beforeAll(async () => {
  mkdirSync(tmp, { recursive: true });
  for (const id of readdirSync(join(root, 'plugins'))) symlinkSync(join(root, 'plugins', id), join(tmp, id));
  const made = scaffold(NAME);
  expect(made.status, made.stderr).toBe(0);
  const metadata = loadMetadata(undefined, tmp);
  const name = routeName(`/report/${NAME}/list`, metadata.menu);
  page = { menu: menuCode(name), view: viewCode(name) };
  ts = await startTestServer({ plugins: [...BASE, NAME], metadata, config: { pluginsDir: tmp } });
  // the test organisations hold every Api code; menus need the Menu and View codes as well
  const all = [...ts.server.access.catalogue().codes];
  for (const id of [ts.orgA, ts.orgB]) {
    await ts.server.db.models.organization.update({ pcPermissions: all }, { where: { id } });
    await ts.server.db.models.role.update({ pcPermissions: all }, { where: { orgId: id } });
  }
  await ts.server.access.policies.changed([ts.orgA, ts.orgB]);
  await new Promise((r) => setTimeout(r, 1200));
});
afterAll(async () => {
  await ts?.close();
  rmSync(join(tmp, '..'), { recursive: true, force: true });
});

describe('the scaffold', () => {
  it('writes a plugin of under 60 lines of code, and says so', () => {
    const out = execFileSync('ls', [join(tmp, NAME, 'metadata', 'locales')], { encoding: 'utf8' });
    expect(out.split('\n').filter(Boolean).sort()).toEqual(['en-US.json', 'ja-JP.json', 'zh-CN.json']);
    const again = scaffold('acme-weekly');
    const lines = Number(/(\d+) lines of plugin code/.exec(again.stdout)?.[1]);
    expect(lines).toBeGreaterThan(20);
    expect(lines).toBeLessThan(60);
    // a second plugin takes the next task name value
    expect(again.stdout).toContain('value 1001');
  });

  it('refuses a name that is taken or not an id, writing nothing', () => {
    const before = readdirSync(tmp).sort();
    for (const [bad, why] of [
      ['reports', 'exists already'],
      [NAME, 'exists already'],
      ['Acme_Daily', 'not a valid id'],
      ['acme--daily', 'not a valid id'],
      ['../evil', 'not a valid id'],
      ['inventory-report', 'call prefix'],
      ['carrier-code', 'call prefix'],
    ]) {
      const r = scaffold(bad);
      expect(r.status, bad).toBe(1);
      expect(r.stderr).toContain(why);
      expect(r.stderr).toContain('nothing written');
    }
    expect(scaffold().stderr).toContain('give the plugin');
    expect(readdirSync(tmp).sort()).toEqual(before);
    expect(existsSync(join(tmp, '..', 'evil'))).toBe(false);
  });
});

describe('the generated plugin', () => {
  it('lists, exports, is a scheduler task type and is in the permission catalogue', async () => {
    const list = await ts.a.call(`/${NAME}/list`, {});
    expect(list.body.code, list.text).toBe(0);
    expect(list.body.data.list).toEqual([]);
    const exp = await ts.a.fetch(`/${NAME}/export`, {});
    expect(exp.headers.get('content-type')).toContain('spreadsheet');
    expect(ts.server.reports.task('acmeDailyReport')?.report).toBe(NAME);
    expect(ts.server.metadata.enums.taskName.find((e) => e.label === 'enums.taskName.acmeDailyReport')?.value).toBe(1000);
    const codes = ts.server.access.catalogue().codes;
    for (const c of [page.menu, page.view, 'ApiAcmeDailyList', 'ApiAcmeDailyExport']) expect(codes.has(c), c).toBe(true);
    const def = await ts.a.call('/report/definition', { name: NAME }, { language: 'ja-JP' });
    expect(JSON.stringify(def.body.data)).toContain('在庫');
  });

  it('is switched on per organisation: off, its menu entry and calls are absent (10005)', async () => {
    const menu = async () => ((await ts.a.call('/permission/list', {})).body.data.permissions as string[]).includes(`/report/${NAME}/list`);
    expect(await menu()).toBe(true);
    const off = await ts.a.call('/organization/plugin/update', { plugin: NAME, enabled: false });
    expect(off.body.code, off.text).toBe(0);
    expect((await ts.a.call(`/${NAME}/list`, {})).body.code).toBe(10005);
    expect(await menu()).toBe(false);
    // organisation B is not affected
    expect((await ts.b.call(`/${NAME}/list`, {})).body.code).toBe(0);
    const listed = await ts.a.call('/organization/plugin/list', {});
    expect(listed.body.data).toContainEqual({ plugin: NAME, title: 'Acme Daily', enabled: false });
    expect((await ts.a.call('/organization/plugin/update', { plugin: 'reports', enabled: true })).body.code).toBe(10002);
    // its mail task skips there, saying why
    const task = await ts.a.call('/task-config/create', { name: 1000, type: 20, cron: '0 8 * * *', available: true, mailTo: 'a@example.com' });
    expect(task.body.code, task.text).toBe(0);
    const run = await ts.a.call('/task-config/run', { id: task.body.data.id }, { language: 'ja-JP' });
    expect(run.body.data).toMatchObject({ status: 'skipped', error: expect.stringContaining('この組織でオフ') });
    await ts.a.call('/organization/plugin/update', { plugin: NAME, enabled: true });
    expect((await ts.a.call(`/${NAME}/list`, {})).body.code).toBe(0);
    expect(await menu()).toBe(true);
  });

  it('a role holding the page without its export may use it with its warehouse picker, but exports only with the export code', async () => {
    const models = ts.server.db.models;
    const only = async (codes: string[]) => {
      const role = Number((await models.role.create({ orgId: ts.orgA, name: `r${codes.length}`, pcPermissions: codes })).get('id'));
      return ts.callerFor(await ts.addUser(ts.orgA, `planner${codes.length}`, { roleIds: [role] }), ts.orgA);
    };
    // the page's node ticked without its export: the warehouse picker comes with the page's View code
    const planner = await only(['MenuReport', page.menu, page.view, 'ApiAcmeDailyList']);
    expect((await planner.call(`/${NAME}/list`, {})).body.code).toBe(0);
    expect((await planner.call('/warehouse/list', {})).body.code).toBe(0);
    expect((await planner.call(`/${NAME}/export`, {})).body.code).toBe(10005);
    const exporter = await only(['MenuReport', page.menu, page.view, 'ApiAcmeDailyList', 'ApiAcmeDailyExport', 'x']);
    expect((await exporter.fetch(`/${NAME}/export`, {})).headers.get('content-type')).toContain('spreadsheet');
  });
});

describe('installing a plugin into a running installation', () => {
  it('gives its codes to every organisation and to the roles holding its menu group, once', async () => {
    const db = await createTestDatabase();
    // before: the installation's own plugins; then the new one is added to the folder
    const start = (plugins: string[]) =>
      plugins.includes(NAME)
        ? createServer({ databaseUrl: db.url, plugins, metadata: loadMetadata(undefined, tmp), config: { pluginsDir: tmp }, logError: () => undefined })
        : createServer({ databaseUrl: db.url, plugins, logError: () => undefined });
    try {
      let server = await start(BASE);
      const codes = server.listPermissionCodes().concat([...server.access.catalogue().codes]);
      const org = Number((await server.db.models.organization.create({ code: 'O1', name: 'O1', entryCode: 'o1', pcPermissions: codes })).get('id'));
      const role = (name: string, pc: string[]) => server.db.models.role.create({ orgId: org, name, pcPermissions: pc }).then((r) => Number(r.get('id')));
      const admin = await role('Administrator', codes);
      const reporter = await role('Reporter', ['MenuReport', 'MenuHome']);
      const clerk = await role('Clerk', ['MenuHome']);
      await server.close();

      server = await start([...BASE, NAME]);
      const perms = async (model: 'organization' | 'role', id: number) => (await server.db.models[model].findByPk(id))!.get('pcPermissions') as string[];
      expect(await perms('organization', org)).toContain('ApiAcmeDailyList');
      for (const c of [page.menu, page.view, 'ApiAcmeDailyList', 'ApiAcmeDailyExport']) expect(await perms('role', admin), c).toContain(c);
      expect(await perms('role', reporter)).toContain(page.view);
      expect(await perms('role', clerk)).not.toContain(page.view);
      // an administrator takes the export away: a restart does not give it back
      await server.db.models.role.update({ pcPermissions: (await perms('role', admin)).filter((c) => c !== 'ApiAcmeDailyExport') }, { where: { id: admin } });
      await server.close();
      server = await start([...BASE, NAME]);
      expect(await perms('role', admin)).not.toContain('ApiAcmeDailyExport');
      expect(await perms('role', admin)).toContain('ApiAcmeDailyList');
      await server.close();
    } finally {
      await db.drop();
    }
  });
});
