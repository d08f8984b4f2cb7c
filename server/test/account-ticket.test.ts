/**
 * Ticket login (issue 21 #2): an integrator holding its organisation's open-API token asks
 * /account/authLogin for a one-time ticket for one of that organisation's users;
 * /account/login { ticket } signs that user in, confined to the organisation. Expired, reused
 * and foreign tickets are refused, as are locked and platform users and callers without the
 * organisation's token.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TICKET_TTL_MS } from '../src/auth/one-time-codes';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
let tokenA: string;
let tokenB: string;
let frank: number;

const ask = (token: string, body: Record<string, unknown>, language = 'en-US') => ts.call<any>('/account/authLogin', body, { token, language });
const redeem = (ticket: string, entryCode?: string) => ts.call<any>('/account/login', { ticket, entryCode });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['open-api'] });
  tokenA = (await ts.a.call<any>('/organization-token/create')).body.data.token;
  tokenB = (await ts.b.call<any>('/organization-token/create')).body.data.token;
  frank = await ts.addUser(ts.orgA, 'frank');
});
afterAll(() => ts?.close());
beforeEach(() => ts.server.db.models.user.update({ locked: false }, { where: { id: frank }, hooks: false }));

describe('login tickets', () => {
  it('sign the user into the organisation without a password, once', async () => {
    const asked = await ask(tokenA, { username: 'frank' });
    expect(asked.body.code, asked.body.message).toBe(0);
    const { ticket, loginPath, expiresAt } = asked.body.data;
    expect(loginPath).toBe(`/orga/login?ticket=${ticket}`);
    const life = new Date(expiresAt).getTime() - Date.now();
    expect(life).toBeGreaterThan(0);
    expect(life).toBeLessThanOrEqual(TICKET_TTL_MS);
    const signed = await redeem(ticket, 'orga');
    expect(signed.body.code, signed.body.message).toBe(0);
    expect(signed.body.data).toMatchObject({ userId: frank, username: 'frank', loginOrgId: ts.orgA, loginEntryCode: 'orga' });
    const info = await ts.call<any>('/account/info', {}, { token: signed.body.data.token });
    expect(info.body.data.userId).toBe(frank);
    // reused
    const again = await redeem(ticket, 'orga');
    expect(again.body.code).toBe(10015);
    expect(again.body.data).toBeNull();
    // the ticket is stored only as a hash
    expect(JSON.stringify(await ts.server.db.sequelize.models.SysOneTimeCode.findAll({ raw: true }))).not.toContain(ticket);
  });

  it('also by user id, and without the entry code in the body', async () => {
    const asked = await ask(tokenA, { userId: frank });
    expect(asked.body.code, asked.body.message).toBe(0);
    const signed = await redeem(asked.body.data.ticket);
    expect(signed.body.data.loginEntryCode).toBe('orga');
    // confined to the ticket's organisation
    expect((await ts.call('/permission/list', {}, { token: signed.body.data.token, orgId: ts.orgB })).body.code).toBe(10007);
  });

  it('refuses an expired ticket', async () => {
    const { ticket } = (await ask(tokenA, { username: 'frank' })).body.data;
    await ts.server.db.sequelize.models.SysOneTimeCode.update({ expiresAt: new Date(Date.now() - 1) }, { where: { purpose: 'ticket', usedAt: null } });
    const got = await redeem(ticket, 'orga');
    expect(got.body.code).toBe(10015);
    expect(got.body.message).toBe('The login ticket is invalid, has been used or has expired');
  });

  it('refuses foreign tickets: another organisation’s user, another organisation’s login page, made-up tickets', async () => {
    const bob = await ask(tokenA, { username: 'bob' });
    expect(bob.body.code).toBe(10002);
    expect(bob.body.message).toBe((await ask(tokenA, { username: 'no-such-user' })).body.message);
    expect((await ask(tokenA, { userId: ts.b.userId })).body.code).toBe(10002);
    // B's token cannot name A's user either
    expect((await ask(tokenB, { username: 'frank' })).body.code).toBe(10002);
    // A's ticket shown at B's login page: refused, and spent
    const { ticket } = (await ask(tokenA, { username: 'frank' })).body.data;
    expect((await redeem(ticket, 'orgb')).body.code).toBe(10015);
    expect((await redeem(ticket, 'orga')).body.code).toBe(10015);
    for (const fake of ['x'.repeat(43), 'short', '../../etc']) expect((await redeem(fake, 'orga')).body.code).toBe(10015);
  });

  it('refuses locked users, when asked and when redeemed', async () => {
    const { ticket } = (await ask(tokenA, { username: 'frank' })).body.data;
    await ts.server.db.models.user.update({ locked: true }, { where: { id: frank }, hooks: false });
    const asked = await ask(tokenA, { username: 'frank' }, 'zh-CN');
    expect(asked.body.code).toBe(10008);
    expect(asked.body.message).toBe('该账号已被锁定，请联系管理员');
    expect((await redeem(ticket, 'orga')).body.code).toBe(10008);
  });

  it('refuses platform users and callers without the organisation token', async () => {
    await ts.addUser(ts.orgA, 'root', { sysOrgUser: true });
    expect((await ask(tokenA, { username: 'root' })).body.code).toBe(10002);
    const bySession = await ts.a.call<any>('/account/authLogin', { username: 'frank' });
    expect(bySession.body.code).toBe(10001);
    expect(bySession.body.message).toContain('open-API token');
    const none = await ts.call<any>('/account/authLogin', { username: 'frank' });
    expect(none.status).toBe(401);
    expect((await ask(tokenA, {}, 'ja-JP')).body.message).toBe('ユーザー名（username）またはユーザー ID（userId）を入力してください');
  });

  it('needs the Api code in the organisation set, like every token call', async () => {
    const full = ts.server.listPermissionCodes();
    expect(full).toContain('ApiAccountAuthLogin');
    const platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: full.filter((c) => c !== 'ApiAccountAuthLogin') });
    expect((await ask(tokenA, { username: 'frank' })).body.code).toBe(10005);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: full });
    expect((await ask(tokenA, { username: 'frank' })).body.code).toBe(0);
  });

  it('logs the ticket and the sign-in in the organisation’s admin log, the ticket masked', async () => {
    const { ticket } = (await ask(tokenA, { username: 'frank' })).body.data;
    expect((await redeem(ticket, 'orga')).body.code).toBe(0);
    await ts.server.audit.flush();
    const rows = (await ts.server.db.models['admin-log'].findAll({
      where: { orgId: ts.orgA },
      order: [['id', 'DESC']],
      limit: 2,
      raw: true,
    })) as unknown as Array<Record<string, any>>;
    expect(rows.map((r) => [r.path, r.operator, r.responseCode])).toEqual([
      ['/account/login', 'frank', 0],
      ['/account/authLogin', `org-token:${ts.orgA}`, 0],
    ]);
    expect(JSON.stringify(rows)).not.toContain(ticket);
  });
});
