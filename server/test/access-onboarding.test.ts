/**
 * Onboarding a customer organisation (issue 23): what a platform administrator's
 * System → Organisation → Create gives, through the real calls — the new organisation in the
 * creator's switcher and pickers with its permission codes, starter roles and data, theme
 * images stored under it and served to its public login page, entry codes without regard to
 * case and without look-alikes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jimp } from 'jimp';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type Caller, type TestServer } from './support/test-server';
import { tempDataDir, upload } from './import-fixtures';
import { entryCodeSkeleton } from '../src/access/entry-codes';
import { reportLookAlikeEntryCodes } from '../src/access/onboarding';

let ts: TestServer;
let dataDir: string;
let platform: Caller;
let png: Buffer;
let nordic: Record<string, any>;
const PASSWORD = 'Platform@12345';

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ config: { dataDir } });
  const models = ts.server.db.models;
  // the template's starter data: dictionary rows and a device model
  await models.dictionary
    .create({ orgId: ts.orgA, category: 10, name: 'Pallet', value: 'PAL', createdAt: new Date(), updatedAt: new Date() })
    .catch(() => undefined);
  await ts.a.call('/device-model/create', { name: 'GW-100', brand: 'Acme' });
  const id = await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true });
  await ts.server.access.directory.setPasswordHash(id, await ts.server.access.passwords.hash(PASSWORD));
  platform = await ts.callerFor(id, ts.orgA);
  png = await new Jimp({ width: 120, height: 40, color: 0x3366ccff }).getBuffer('image/png');
  const logo = await upload(ts, platform, '/file/image/upload', png, 'nordic-logo.png');
  expect(logo.body.code).toBe(0);
  const created = await platform.call('/organization/create', {
    code: 'NCP',
    name: 'Nordic Crate Pool',
    entryCode: 'NORDIC',
    largeLogo: logo.body.data.fileName,
    loginBackground: logo.body.data.fileName,
  });
  expect(created.body.code, created.body.message).toBe(0);
  nordic = created.body.data;
}, 60_000);
afterAll(() => ts?.close());

describe('a new organisation is reachable by the platform user who created it', () => {
  it('is in the list, the switcher and the session info at once', async () => {
    const list = (await platform.call('/organization/list', { limit: 100 })).body.data.list.map((o: { name: string }) => o.name);
    expect(list).toContain('Nordic Crate Pool');
    const info = (await platform.call('/account/info')).body.data;
    expect(info.organizations.map((o: { name: string }) => o.name)).toContain('Nordic Crate Pool');
  });

  it('holds permission codes there, through an Administrator role of its own', async () => {
    const inside = await platform.call('/permission/list', {}, { orgId: nordic.id });
    expect(inside.body.code, inside.body.message).toBe(0);
    expect(inside.body.data.access).toEqual(expect.arrayContaining(['ApiWarehouseCreate', 'ApiRoleList', 'ApiOrganizationUpdate']));
    const roles = (await platform.call('/role/list', {}, { orgId: nordic.id })).body.data.list;
    expect(roles.map((r: { name: string }) => r.name)).toContain('Administrator');
    const wh = await platform.call('/warehouse/create', { code: 'OSL', name: 'Oslo' }, { orgId: nordic.id });
    expect(wh.body.code, wh.body.message).toBe(0);
  });

  it('can be picked in a user form', async () => {
    const other = await ts.addUser(ts.orgA, 'carol');
    const upd = await platform.call('/user/update', { id: other, organizationIds: [ts.orgA, nordic.id] });
    expect(upd.body.code, upd.body.message).toBe(0);
  });

  it("starts with the template's starter data and a default project", async () => {
    const projects = (await platform.call('/project/list', {}, { orgId: nordic.id })).body.data.list;
    expect(projects).toEqual([expect.objectContaining({ name: 'Default project' })]);
    const models = (await platform.call('/device-model/list', {}, { orgId: nordic.id })).body.data.list;
    expect(models.map((m: { name: string }) => m.name)).toContain('GW-100');
  });

  it('is not handed to a creator who is no platform user', async () => {
    const made = await ts.a.call('/organization/create', { code: 'SIDE', name: 'Side org', entryCode: 'side-org' });
    expect(made.body.code, made.body.message).toBe(0);
    expect((await ts.a.call('/organization/list', {})).body.data.list.map((o: { id: number }) => o.id)).toEqual([ts.orgA]);
  });
});

describe('the first-day checklist', () => {
  it('says what is done in the new organisation and links each step to its list', async () => {
    const before = (await platform.call('/organization/checklist', {}, { orgId: nordic.id })).body.data;
    expect(before.steps.map((s: { key: string }) => s.key)).toEqual(['warehouses', 'carrierCodes', 'devices', 'gateways', 'users']);
    const step = (data: typeof before, key: string) => data.steps.find((s: { key: string }) => s.key === key);
    // the warehouse made above counts; the platform user who created it is no user of the customer's
    expect(step(before, 'warehouses')).toMatchObject({ count: 1, done: true, path: '/basic-info/warehouse' });
    expect(step(before, 'carrierCodes')).toMatchObject({ count: 0, done: false });
    // carol (added above through the user form) is its one user; the platform user is not counted
    expect(step(before, 'users')).toMatchObject({ count: 1, done: true });
    expect(before.done).toBe(false);
    await ts.addUser(nordic.id, 'nordic.admin');
    const after = (await platform.call('/organization/checklist', {}, { orgId: nordic.id })).body.data;
    expect(step(after, 'users')).toMatchObject({ count: 2, done: true });
    // a step whose list the caller may not open is left out
    const roleId = Number((await ts.server.db.models.role.create({ orgId: nordic.id, name: 'wh only', pcPermissions: ['ApiWarehouseList'] })).get('id'));
    const limited = await ts.callerFor(await ts.addUser(nordic.id, 'nordic.wh', { roleIds: [roleId] }), nordic.id);
    const seen = (await limited.call('/organization/checklist')).body.data;
    expect(seen.steps.map((s: { key: string }) => s.key)).toEqual(['warehouses']);
  });
});

describe('entry codes', () => {
  it('are stored in lower case and resolved without regard to case', async () => {
    expect(nordic.entryCode).toBe('nordic');
    for (const code of ['nordic', 'NORDIC', 'Nordic']) {
      const basic = await ts.call('/organization/basic', { entryCode: code });
      expect(basic.body.data).toMatchObject({ id: nordic.id, entryCode: 'nordic' });
      const login = await ts.call('/account/login', { username: 'platform', password: PASSWORD, entryCode: code });
      expect(login.body.code, login.body.message).toBe(0);
      expect(login.body.data).toMatchObject({ loginOrgId: nordic.id, loginEntryCode: 'nordic', orgId: nordic.id });
    }
  });

  it('refuses a code differing only in case or in look-alike characters, naming the organisation', async () => {
    for (const entryCode of ['Nordic', 'n0rdic', 'nord1c', 'nor-dic']) {
      const r = await platform.call('/organization/create', { code: 'NCP2', name: 'Nordic Copy', entryCode });
      expect(r.body.code, entryCode).toBe(10003);
      // a case apart: MariaDB's unique index (case-insensitive) may answer first, as "already exists"
      if (entryCode === 'Nordic') expect(r.body.message).toMatch(/Nordic Crate Pool|already exists/);
      else expect(r.body.message).toContain('Nordic Crate Pool');
    }
    const zh = await platform.call('/organization/create', { code: 'NCP2', name: 'Nordic Copy', entryCode: 'n0rdic' }, { language: 'zh-CN' });
    expect(zh.body.message).toContain('过于相似');
    const ja = await platform.call('/organization/update', { id: ts.orgA, entryCode: 'n0rdic' }, { language: 'ja-JP' });
    expect(ja.body).toMatchObject({ code: 10003, message: expect.stringContaining('Nordic Crate Pool') });
    expect(ja.body.message).toContain('紛らわしすぎます');
    expect((await platform.call('/organization/list', { name: 'Nordic Copy' })).body.data.total).toBe(0);
  });

  it('refuses characters outside the safe set', async () => {
    for (const entryCode of ['a', 'with space', 'dot.ted', 'under_score', '-lead', 'ünïcode']) {
      const r = await platform.call('/organization/create', { code: 'BAD1', name: 'Bad code', entryCode });
      expect(r.body.code, entryCode).not.toBe(0);
    }
    const ok = await platform.call('/organization/update', { id: nordic.id, entryCode: 'Nordic', remark: 'same code, other case' }, { orgId: nordic.id });
    expect(ok.body.code, ok.body.message).toBe(0);
    expect(ok.body.data.entryCode).toBe('nordic');
  });

  it('reads look-alikes the same and reports existing ones at start-up', async () => {
    expect(entryCodeSkeleton('NORDIC')).toBe(entryCodeSkeleton('n0rd1c'));
    expect(entryCodeSkeleton('acme')).not.toBe(entryCodeSkeleton('acmf'));
    // a legacy pair written before codes were compared
    await ts.server.db.models.organization.create({ code: 'LEG1', name: 'Legacy One', entryCode: 'legacy' });
    // (a hyphen apart, not a case apart: MariaDB's unique index already compares without case)
    await ts.server.db.models.organization.create({ code: 'LEG2', name: 'Legacy Two', entryCode: 'lega-cy' });
    const lines: string[] = [];
    expect(await reportLookAlikeEntryCodes(ts.server.db.sequelize, (m) => lines.push(m))).toBe(1);
    expect(lines[0]).toContain('Legacy One, Legacy Two');
  });
});

describe('theme images', () => {
  it("are stored under the new organisation, not the creator's current one", async () => {
    expect(existsSync(join(dataDir, 'uploads', String(nordic.id), nordic.largeLogo))).toBe(true);
    const inside = await platform.fetch('/file/download', { fileName: nordic.largeLogo }, { orgId: nordic.id });
    expect(inside.status).toBe(200);
    expect(Buffer.from(await inside.arrayBuffer()).equals(png)).toBe(true);
  });

  it("are public for the organisation's own login page only, and cacheable", async () => {
    const basic = (await ts.call('/organization/basic', { entryCode: 'NORDIC' })).body.data;
    expect(basic.theme.largeLogo).toMatch(/^\/api\/organization\/theme\?entryCode=nordic&slot=largeLogo&v=[0-9a-f]{32}\.png$/);
    const res = await fetch(ts.url + basic.theme.largeLogo);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('max-age=86400');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const again = await fetch(ts.url + basic.theme.largeLogo, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(ts.url + basic.theme.loginBackground)).status).toBe(200);
    // not another slot, not another organisation's file, not a file name picked by the caller
    expect((await fetch(`${ts.url}/api/organization/theme?entryCode=nordic&slot=remark`)).status).toBe(404);
    expect((await fetch(`${ts.url}/api/organization/theme?entryCode=orga&slot=largeLogo`)).status).toBe(404);
    expect((await fetch(`${ts.url}/api/organization/theme?entryCode=nordic&slot=smallLogo`)).status).toBe(404);
    const other = await fetch(`${ts.url}/api/organization/theme?entryCode=nordic&slot=largeLogo&fileName=../${ts.orgA}/x.png`);
    expect(Buffer.from(await other.arrayBuffer()).equals(png)).toBe(true);
    // other calls stay POST-only
    expect((await fetch(`${ts.url}/api/organization/basic?entryCode=nordic`)).status).toBe(404);
  });

  it("an image name the uploader does not hold is refused, in the caller's language", async () => {
    const r = await platform.call(
      '/organization/update',
      { id: nordic.id, smallLogo: '0123456789abcdef0123456789abcdef.png' },
      { orgId: nordic.id, language: 'ja-JP' },
    );
    expect(r.body.code).toBe(10001);
    expect(r.body.message).toContain('小さいロゴ');
  });
});
