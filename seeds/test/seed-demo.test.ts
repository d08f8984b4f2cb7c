/**
 * The demo seed on a real server: idempotent, the documented logins work, each
 * organisation has its theme, the operator is narrower than the administrator (no System
 * group) and restricted to its warehouses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceApiPath } from '@rti/metadata';
import { createServer, type RtiServer } from '@rti/server';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/test-database';
import { DEMO_LOGINS, isServerEmpty, seedServer } from '../src/index';

let server: RtiServer;
let db: TestDatabase;
let url: string;

const call = async (path: string, body: unknown = {}, headers: Record<string, string> = {}) => {
  const res = await fetch(url + '/api' + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message: string; data: any };
};
const login = async (username: string, password: string, entryCode?: string) => {
  const got = await call('/account/login', { username, password, entryCode });
  expect(got.code, `${username}: ${got.message}`).toBe(0);
  return got.data;
};

beforeAll(async () => {
  db = await createTestDatabase();
  server = await createServer({ databaseUrl: db.url, plugins: ['open-api'], logError: () => undefined });
  ({ url } = await server.listen(0));
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('seedDemo', () => {
  it('seeds an empty database once and changes nothing the second time', async () => {
    expect(await isServerEmpty(server)).toBe(true);
    const first = await seedServer(server);
    expect(first.created).toBeGreaterThan(100);
    expect(Object.keys(first.organizations).sort()).toEqual(['acme', 'demo']);
    expect(await isServerEmpty(server)).toBe(false);
    const again = await seedServer(server);
    expect(again.created).toBe(0);
    expect(again.organizations).toEqual(first.organizations);
  });

  it('lets every documented login in', async () => {
    for (const l of DEMO_LOGINS) await login(l.username, l.password);
    const admin = await login('admin', 'Admin@12345');
    expect(admin.sysOrgUser).toBe(true);
    expect(admin.organizations.map((o: { entryCode: string }) => o.entryCode).sort()).toEqual(['acme', 'demo']);
    expect((await login('operator.acme', 'Operator@12345', 'acme')).loginOrgName).toBe('Acme Returnables');
    expect((await call('/account/login', { username: 'operator.acme', password: 'Operator@12345', entryCode: 'demo' })).code).toBe(10007);
  });

  it('gives each organisation its own theme and logo', async () => {
    const demo = (await call('/organization/basic', { entryCode: 'demo' })).data;
    const acme = (await call('/organization/basic', { entryCode: 'acme' })).data;
    expect(demo.theme.primaryColor).toBe('#F5A623');
    expect(acme.theme.primaryColor).not.toBe(demo.theme.primaryColor);
    for (const t of [demo.theme, acme.theme]) expect(t.largeLogo).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(acme.theme.largeLogo).not.toBe(demo.theme.largeLogo);
  });

  it('keeps the operator out of the System group and inside its warehouses', async () => {
    const admin = await login('admin', 'Admin@12345', 'demo');
    const op = await login('operator.demo', 'Operator@12345', 'demo');
    expect(op.access.length).toBeLessThan(admin.access.length);
    expect(admin.access).toEqual(expect.arrayContaining(['ApiUserList', 'ApiRoleList', 'ApiOrganizationList']));
    const { resources, menu } = server.metadata;
    const system = menu.groups.find((g) => g.key === 'system')!;
    for (const code of op.access as string[]) expect(code.startsWith('MenuSystem') || code.startsWith('ViewSystem')).toBe(false);
    for (const res of Object.values(resources).filter((r) => r.module === 'system')) {
      expect((await call(resourceApiPath(res, 'list'), {}, { Token: op.token })).code, res.name).toBe(10005);
    }
    expect(op.permissions).not.toContain(system.path);
    expect((await call('/device-beacon/list', { limit: 100 }, { Token: op.token })).data.total).toBe(50);
    expect((await call('/device-beacon/delete', { id: 1 }, { Token: op.token })).code).toBe(10005);

    const opWarehouses = (await call('/warehouse/list', { limit: 100 }, { Token: op.token })).data;
    const allWarehouses = (await call('/warehouse/list', { limit: 100 }, { Token: admin.token })).data;
    expect(allWarehouses.total).toBe(5);
    expect(opWarehouses.total).toBe(2);
  });
});
