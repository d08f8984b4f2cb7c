/**
 * The open-API plugin's organisation token: shown once, stored masked, authenticates calls
 * for its organisation only (bounded by the organisation's set) and dies on refresh or delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceApiPath } from '@rti/metadata';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
const asToken = (token: string, path: string, body: unknown = {}, orgId: number | null = null) => ts.call<any>(path, body, { token, orgId });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['open-api'] });
});
afterAll(() => ts?.close());

describe('organisation token', () => {
  it('has its calls in the permission catalogue, under the /open-api page', async () => {
    type Node = { code: string; path?: string; children?: Node[] };
    const tree = (await ts.a.call<Node[]>('/permission/all')).body.data;
    const find = (nodes: Node[], path: string): Node | undefined =>
      nodes.map((n) => (n.path === path && n.children?.length ? n : find(n.children ?? [], path))).find(Boolean);
    const page = find(tree, '/open-api')!;
    const codes = JSON.stringify(page);
    for (const code of ['ApiOrganizationTokenCreate', 'ApiOrganizationToken', 'ApiOrganizationTokenDelete']) expect(codes).toContain(`"${code}"`);
  });

  it('is shown once, then only masked', async () => {
    expect((await ts.a.call('/organization-token')).body.data).toBeNull();
    const made = await ts.a.call<any>('/organization-token/create');
    expect(made.body.code).toBe(0);
    const token: string = made.body.data.token;
    expect(token).toMatch(/^rti_[\w-]{40,}$/);
    const shown = await ts.a.call<any>('/organization-token');
    expect(shown.body.data).toMatchObject({ orgId: ts.orgA, createdAt: expect.any(String) });
    expect(shown.body.data.token).toContain('…');
    expect(shown.text).not.toContain(token);
    expect(shown.text).not.toContain(token.slice(8, -4));
    const stored = JSON.stringify(await ts.server.db.sequelize.models.OrgApiToken.findAll({ raw: true }));
    expect(stored).not.toContain(token);
  });

  it('authenticates calls for its organisation only, with the organisation set', async () => {
    const token = (await ts.a.call<any>('/organization-token/create')).body.data.token;
    const roles = await asToken(token, '/role/list', { limit: 100 });
    expect(roles.body.code, roles.body.message).toBe(0);
    expect(roles.body.data.list.length).toBeGreaterThan(0);
    for (const r of roles.body.data.list) expect(r.orgId).toBe(ts.orgA);
    const bRole = (await ts.b.call<any>('/role/list')).body.data.list[0];
    const roleBase = resourceApiPath(ts.server.metadata.resources.role, 'base');
    expect((await asToken(token, roleBase, { id: roles.body.data.list[0].id })).body.code).toBe(0);
    expect((await asToken(token, roleBase, { id: bRole.id })).body.code).toBe(10002);
    const foreign = await asToken(token, '/role/list', {}, ts.orgB);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe(10007);
    expect((await ts.a.call<any>('/organization-token')).body.data.lastUsedAt).not.toBeNull();

    // the organisation's permission set bounds the token
    const full = ts.server.listPermissionCodes();
    const platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: full.filter((c) => c !== 'ApiRoleList') });
    expect((await asToken(token, '/role/list')).body.code).toBe(10005);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: full });
    expect((await asToken(token, '/role/list')).body.code).toBe(0);

    // a token cannot manage tokens
    expect((await asToken(token, '/organization-token/create')).body.code).toBe(10005);
    expect((await asToken(token, '/organization-token/delete')).body.code).toBe(10005);
  });

  it('dies on refresh and on delete', async () => {
    const first = (await ts.a.call<any>('/organization-token/create')).body.data.token;
    expect((await asToken(first, '/role/list')).body.code).toBe(0);
    const second = (await ts.a.call<any>('/organization-token/create')).body.data.token;
    expect(second).not.toBe(first);
    const old = await asToken(first, '/role/list');
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(10006);
    expect((await asToken(second, '/role/list')).body.code).toBe(0);

    // another organisation cannot see or delete it
    expect((await ts.b.call('/organization-token')).body.data).toBeNull();
    await ts.b.call('/organization-token/delete');
    expect((await asToken(second, '/role/list')).body.code).toBe(0);

    expect((await ts.a.call<any>('/organization-token/delete')).body.data).toEqual({ deleted: 1 });
    expect((await asToken(second, '/role/list')).body.code).toBe(10006);
    expect((await ts.a.call('/organization-token')).body.data).toBeNull();
  });

  it('refreshed from several tabs at once: every refresh answers, the last one written is the one that works', async () => {
    // on MariaDB the refreshes meet on the row's gap and InnoDB picks deadlock victims: they run again
    const made = await Promise.all(Array.from({ length: 12 }, () => ts.a.call<any>('/organization-token/create')));
    expect(made.map((m) => m.status)).toEqual(made.map(() => 200));
    const tokens = made.map((m) => m.body.data.token as string);
    const working = [];
    for (const t of tokens) if ((await asToken(t, '/role/list')).body.code === 0) working.push(t);
    expect(working).toHaveLength(1);
    expect((await ts.a.call<any>('/organization-token')).body.data.hint).toBe(made[tokens.indexOf(working[0])].body.data.hint);
    // two organisations at once, neither with a token yet: their deletes lock one shared gap
    await Promise.all([ts.a.call('/organization-token/delete'), ts.b.call('/organization-token/delete')]);
    const both = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? ts.a : ts.b).call<any>('/organization-token/create')));
    expect(both.map((m) => `${m.status} ${m.body.code}`)).toEqual(both.map(() => '200 0'));
  });
});
