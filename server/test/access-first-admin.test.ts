/**
 * The first administrator of a new organisation (issue 23, "Tenant onboarding in one flow"):
 * System → Organisation → Create names an existing user or a new one; a new one is mailed a
 * single-use, expiring activation link (through the platform mail service: the scheduler's
 * file outbox here) that sets a SPEC §5 password, after which they sign in at the
 * organisation's entry code as its administrator. Reused, expired and unknown links are refused
 * in the caller's language; a refused create writes nothing and mails nobody.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/resources/password';
import { startTestServer, type Caller, type TestServer } from './support/test-server';
import { nextOutboxMail, outboxFiles } from './support/outbox';

const PASSWORD = 'Platform@12345';
const NEW = 'Nordic@2026!';
let ts: TestServer;
let dataDir: string;
let platform: Caller;

const tokenOf = (text: string) => {
  const m = /\/activate\?token=([\w-]+)/.exec(text);
  if (!m) throw new Error(`no activation link in: ${text}`);
  return m[1];
};
const activate = (token: string, password = NEW, language = 'en-US', confirm = password) =>
  ts.call<any>('/account/activate', { token, newPassword: password, confirmPassword: confirm }, { language });

/** Creates an organisation with a new first administrator; answers the created row and the mail's link. */
async function onboard(code: string, entryCode: string, username: string, email: string) {
  const before = outboxFiles(dataDir).length;
  const created = await platform.call('/organization/create', {
    code,
    name: `${code} pool`,
    entryCode,
    firstAdmin: { username, email, realName: `${username} admin`, origin: 'https://console.example' },
  });
  expect(created.body.code, created.body.message).toBe(0);
  const mail = await nextOutboxMail(dataDir, before);
  return { org: created.body.data, mail, token: tokenOf(mail.text) };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rti-first-admin-'));
  ts = await startTestServer({ plugins: ['scheduler'], config: { dataDir, trustProxy: ['loopback'] } });
  const id = await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true, password: await hashPassword(PASSWORD) });
  platform = await ts.callerFor(id, ts.orgA);
}, 60_000);
afterAll(async () => {
  await ts?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a new first administrator', () => {
  let nordic: Record<string, any>;
  let token: string;

  it('is created with the organisation and mailed an activation link to its entry code', async () => {
    const done = await onboard('NCP', 'nordic', 'nina', 'nina@nordic.example');
    nordic = done.org;
    token = done.token;
    expect(done.mail.to).toContain('nina@nordic.example');
    expect(done.mail.subject).toContain('NCP pool');
    expect(done.mail.text).toContain('https://console.example/nordic/activate?token=');
    expect(done.mail.text).toContain('nina');
    // write-only: the organisation never hands it back
    expect(nordic).not.toHaveProperty('firstAdmin');
    const users = (await platform.call('/user/list', { name: 'nina' }, { orgId: nordic.id })).body.data.list;
    expect(users).toEqual([expect.objectContaining({ name: 'nina', email: 'nina@nordic.example', realName: 'nina admin' })]);
    expect(users[0].roleIdsLabels ?? users[0].roleIdsLabel ?? ['Administrator']).toEqual(expect.arrayContaining(['Administrator']));
  });

  it('cannot sign in before the link is opened', async () => {
    const login = await ts.call<any>('/account/login', { username: 'nina', password: NEW, entryCode: 'nordic' });
    expect(login.body.code).toBe(10009);
  });

  it('stores the link hashed, never in clear', async () => {
    const rows = await ts.server.db.sequelize.models.SysOneTimeCode.findAll({ where: { purpose: 'activation' } });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(JSON.stringify(r.get({ plain: true }))).not.toContain(token);
  });

  it('says whose account the link opens', async () => {
    const info = await ts.call<any>('/account/activation', { token });
    expect(info.body.code, info.body.message).toBe(0);
    expect(info.body.data).toEqual({ username: 'nina', realName: 'nina admin', organization: { name: 'NCP pool', entryCode: 'nordic' } });
  });

  it('refuses a password outside SPEC §5 and two that differ, keeping the link', async () => {
    const weak = await activate(token, 'password');
    expect(weak.body.code).toBe(10001);
    expect(weak.body.message).toMatch(/8 to 50 characters/);
    const differ = await activate(token, NEW, 'en-US', NEW + 'x');
    expect(differ.body.code).toBe(10001);
    expect((await ts.call<any>('/account/activation', { token })).body.code).toBe(0);
  });

  it('sets the password once; the new administrator signs in at the entry code and administers the organisation', async () => {
    const done = await activate(token);
    expect(done.body.code, done.body.message).toBe(0);
    expect(done.body.data).toEqual({ username: 'nina', entryCode: 'nordic' });
    const login = await ts.call<any>('/account/login', { username: 'nina', password: NEW, entryCode: 'NORDIC' });
    expect(login.body.code, login.body.message).toBe(0);
    expect(login.body.data).toMatchObject({ loginOrgId: nordic.id, orgId: nordic.id });
    const nina = { token: login.body.data.token as string };
    const codes = (await ts.call<any>('/permission/list', {}, { token: nina.token, orgId: nordic.id })).body.data.access;
    expect(codes).toEqual(expect.arrayContaining(['ApiWarehouseCreate', 'ApiUserCreate', 'ApiRoleCreate']));
    const wh = await ts.call<any>('/warehouse/create', { code: 'OSL', name: 'Oslo' }, { token: nina.token, orgId: nordic.id });
    expect(wh.body.code, wh.body.message).toBe(0);
  });

  it('refuses the link used again, plainly and in the caller language', async () => {
    const again = await activate(token, 'Other@2026!');
    expect(again.body.code).toBe(10015);
    expect(again.body.message).toMatch(/already been used/);
    const zh = await ts.call<any>('/account/activation', { token }, { language: 'zh-CN' });
    expect(zh.body.code).toBe(10015);
    expect(zh.body.message).toContain('已被使用');
    // the password set first still holds
    expect((await ts.call<any>('/account/login', { username: 'nina', password: NEW, entryCode: 'nordic' })).body.code).toBe(0);
  });

  it('refuses an expired link and an unknown one, in each language', async () => {
    await ts.server.db.sequelize.models.SysThrottle?.destroy({ where: {} });
    const late = await onboard('LATE', 'late-pool', 'leo', 'leo@late.example');
    await ts.server.db.sequelize.models.SysOneTimeCode.update(
      { expiresAt: new Date(Date.now() - 1000) },
      { where: { purpose: 'activation', userId: (await ts.server.access.directory.userByName('leo'))!.id } },
    );
    const expired = await activate(late.token);
    expect(expired.body.code).toBe(10015);
    expect(expired.body.message).toMatch(/expired/);
    const ja = await ts.call<any>('/account/activation', { token: late.token }, { language: 'ja-JP' });
    expect(ja.body.message).toContain('期限切れ');
    const unknown = await ts.call<any>('/account/activation', { token: 'x'.repeat(43) });
    expect(unknown.body.code).toBe(10015);
    expect(unknown.body.message).toMatch(/not valid/);
    expect((await ts.call<any>('/account/login', { username: 'leo', password: NEW, entryCode: 'late-pool' })).body.code).toBe(10009);
    // what the refusal advises: "Forgot password?" sets the first password through a code by mail
    const before = outboxFiles(dataDir).length;
    expect((await ts.call<any>('/account/send-captcha', { username: 'leo', entryCode: 'late-pool' })).body.code).toBe(0);
    const code = /(\d{6})/.exec((await nextOutboxMail(dataDir, before)).subject)![1];
    const reset = await ts.call<any>('/account/forget-password', {
      username: 'leo',
      entryCode: 'late-pool',
      captcha: code,
      newPassword: NEW,
      confirmPassword: NEW,
    });
    expect(reset.body.code, reset.body.message).toBe(0);
    expect((await ts.call<any>('/account/login', { username: 'leo', password: NEW, entryCode: 'late-pool' })).body.code).toBe(0);
  });
});

describe('naming the first administrator', () => {
  it('makes an existing user member and Administrator of the new organisation', async () => {
    const carol = await ts.addUser(ts.orgA, 'carol', { password: await hashPassword(NEW) });
    const before = outboxFiles(dataDir).length;
    const created = await platform.call('/organization/create', { code: 'EXI', name: 'Existing admin pool', entryCode: 'exi', firstAdmin: { userId: carol } });
    expect(created.body.code, created.body.message).toBe(0);
    const orgId = created.body.data.id;
    const login = await ts.call<any>('/account/login', { username: 'carol', password: NEW, entryCode: 'exi' });
    expect(login.body.code, login.body.message).toBe(0);
    const codes = (await ts.call<any>('/permission/list', {}, { token: login.body.data.token, orgId })).body.data.access;
    expect(codes).toEqual(expect.arrayContaining(['ApiWarehouseCreate', 'ApiUserCreate']));
    // an existing user already has a password: no activation mail
    expect(outboxFiles(dataDir).length).toBe(before);
  });

  it('refuses a login already taken, a missing e-mail and an unknown user before anything is written, mailing nobody', async () => {
    const before = outboxFiles(dataDir).length;
    const count = async () => (await platform.call('/organization/list', { limit: 100 })).body.data.total;
    const orgs = await count();
    const taken = await platform.call('/organization/create', {
      code: 'T1',
      name: 'Taken',
      entryCode: 't-one',
      firstAdmin: { username: 'nina', email: 'x@y.example', realName: 'X' },
    });
    expect(taken.body.code).toBe(10003);
    expect(taken.body.message).toContain('nina');
    const noMail = await platform.call(
      '/organization/create',
      { code: 'T2', name: 'No mail', entryCode: 't-two', firstAdmin: { username: 'nomail', realName: 'No Mail' } },
      { language: 'zh-CN' },
    );
    expect(noMail.body.code).toBe(10001);
    expect(noMail.body.message).toContain('邮箱');
    const badMail = await platform.call('/organization/create', {
      code: 'T3',
      name: 'Bad mail',
      entryCode: 't-three',
      firstAdmin: { username: 'badmail', email: 'not-an-address', realName: 'Bad' },
    });
    expect(badMail.body.message).toContain('not-an-address');
    const unknown = await platform.call('/organization/create', { code: 'T4', name: 'Unknown', entryCode: 't-four', firstAdmin: { userId: 999999 } });
    expect(unknown.body.code).toBe(10001);
    expect(await count()).toBe(orgs);
    expect(await ts.server.access.directory.userByName('nomail')).toBeNull();
    expect(outboxFiles(dataDir).length).toBe(before);
  });

  it('is ignored on update (named once, on create)', async () => {
    const org = (await platform.call('/organization/list', { code: 'EXI' })).body.data.list[0];
    const upd = await platform.call('/organization/update', { id: org.id, remark: 'x', firstAdmin: { username: 'late', email: 'l@x.example', realName: 'L' } });
    expect(upd.body.code, upd.body.message).toBe(0);
    expect(await ts.server.access.directory.userByName('late')).toBeNull();
  });
});

describe('users imported from a file', () => {
  it('are created without a known password; those with an e-mail get an activation link and sign in after it', async () => {
    const role = (await ts.a.call('/role/list', { limit: 1 })).body.data.list[0] as { name: string };
    const csv = `Login;Full name;Mail;Roles\nuimp.one;User One;one@import.example;${role.name}\nuimp.two;User Two;;${role.name}\n`;
    const form = new FormData();
    form.append('mapping', JSON.stringify({ Login: 'name', 'Full name': 'realName', Mail: 'email', Roles: 'roleIds' }));
    form.append('file', new Blob([csv]), 'users.csv');
    const before = outboxFiles(dataDir).length;
    const up = (await (
      await fetch(`${ts.url}/api/user/import`, { method: 'POST', headers: { Token: ts.a.token, OrgId: String(ts.orgA) }, body: form })
    ).json()) as { code: number; message: string; data: { importId: number } };
    expect(up.code, up.message).toBe(0);
    await ts.server.imports.idle();
    const status = (await ts.a.call('/user/import/status', { importId: up.data.importId })).body.data;
    expect(status.importErrors).toEqual([]);
    expect(status.successVolume).toBe(2);
    const mail = await nextOutboxMail(dataDir, before);
    expect(mail.to).toContain('one@import.example');
    expect(mail.text).toContain('uimp.one');
    // one mail only: the user without an address is activated by an administrator
    expect(outboxFiles(dataDir).length).toBe(before + 1);
    const token = tokenOf(mail.text);
    const entryCode = (await ts.a.call('/organization/list', { id: ts.orgA })).body.data.list[0].entryCode as string;
    expect((await ts.call<any>('/account/login', { username: 'uimp.one', password: NEW, entryCode })).body.code).toBe(10009);
    expect((await activate(token)).body.code).toBe(0);
    const login = await ts.call<any>('/account/login', { username: 'uimp.one', password: NEW, entryCode });
    expect(login.body.code, login.body.message).toBe(0);
    const row = (await ts.a.call('/user/list', { name: 'uimp.one' })).body.data.list[0];
    expect(row).toMatchObject({ realName: 'User One', email: 'one@import.example' });
    expect(row.roleIdsLabels ?? row.roleIdsLabel).toEqual([role.name]);
  });
});
