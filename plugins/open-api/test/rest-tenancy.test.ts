/**
 * Tenancy and permissions over REST, for every resource of the metadata: organisation B's
 * token never lists, reads, changes or deletes organisation A's row (404, nothing leaked, the
 * row unchanged); a token limited to one resource, a read-only token and a signed-in user whose
 * role holds one list code are refused (403) everywhere else — the same codes as the calls.
 */
import { apiCode, resourceApiPath, type ResourceDef } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsInBothOrgs, type OrgRows } from '../../../server/test/access-fixtures';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let rows: OrgRows;
const tokens: Record<string, string> = {};
const orgScoped = (res: ResourceDef) => Boolean(res.orgField ?? res.orgScoped);
const on = (res: ResourceDef, call: string) => (res.calls as Record<string, unknown> | undefined)?.[call] !== false;

const rest = (token: string, path: string, method = 'GET', body?: unknown) =>
  fetch(`${ts.url}/rest/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['open-api'] });
  rows = await rowsInBothOrgs(ts);
  const issue = async (caller: typeof ts.a, body: Record<string, unknown>) =>
    (await caller.call<any>('/open-api-token/create', body)).body.data.token as string;
  tokens.b = await issue(ts.b, { name: 'b full', ratePerMinute: 100_000 });
  tokens.readOnly = await issue(ts.a, { name: 'a read-only', readOnly: true, ratePerMinute: 100_000 });
  tokens.oneResource = await issue(ts.a, { name: 'a one resource', resources: ['warehouse'], ratePerMinute: 100_000 });
  // a person whose role holds a single list code
  const role = await ts.server.db.models.role.create({
    orgId: ts.orgA,
    name: 'one list',
    pcPermissions: [apiCode(resourceApiPath(ts.server.metadata.resources.warehouse, 'list'))],
  });
  const user = await ts.server.db.models.user.create({
    orgId: ts.orgA,
    name: 'narrow',
    realName: 'narrow',
    roleIds: [role.get('id')],
    organizationIds: [ts.orgA],
  });
  await ts.server.access.policies.changed([ts.orgA], undefined);
  tokens.narrowUser = (await ts.callerFor(Number(user.get('id')), ts.orgA)).token;
}, 300_000);
afterAll(() => ts?.close());

describe('another organisation over REST', () => {
  it('never sees, reads, changes or deletes organisation A rows, for every resource', async () => {
    const checked: string[] = [];
    for (const res of Object.values(ts.server.metadata.resources)) {
      const mine = rows.a[res.name];
      if (!mine || !orgScoped(res)) continue;
      if (on(res, 'list')) {
        const list = await rest(tokens.b, `/${res.name}?_end=1000`);
        expect(list.status, res.name).toBe(200);
        const got = (await list.json()) as Array<{ id: number }>;
        expect(
          got.some((r) => r.id === mine.id && rows.b[res.name]?.id !== mine.id),
          res.name,
        ).toBe(false);
        const byId = await rest(tokens.b, `/${res.name}?id=${mine.id}`);
        expect(await byId.json(), res.name).toEqual([]);
      }
      for (const [method, call] of [
        ['GET', 'base'],
        ['PATCH', 'update'],
        ['DELETE', 'delete'],
      ] as const) {
        const answer = await rest(tokens.b, `/${res.name}/${mine.id}`, method, method === 'PATCH' ? {} : undefined);
        expect(answer.status, `${method} ${res.name}`).toBe(on(res, call) ? 404 : 405);
        const text = await answer.text();
        for (const v of Object.values(mine))
          if (typeof v === 'string' && v.length > 6 && !/^\d{4}-\d\d-\d\dT/.test(v)) expect(text, `${method} ${res.name}`).not.toContain(v);
      }
      if (on(res, 'base')) {
        const still = await ts.a.call<any>(resourceApiPath(res, 'base'), { id: mine.id });
        expect(still.body.code, res.name).toBe(0);
      }
      checked.push(res.name);
    }
    expect(checked.length).toBeGreaterThan(20);
  });
});

describe('restricted callers over REST', () => {
  it('a token limited to one resource and a person with one list code are refused every other resource', async () => {
    for (const res of Object.values(ts.server.metadata.resources)) {
      if (!on(res, 'list') || res.name === 'warehouse') continue;
      for (const who of ['oneResource', 'narrowUser']) {
        const answer = await rest(tokens[who], `/${res.name}`);
        expect(answer.status, `${who} ${res.name}`).toBe(403);
        expect((await answer.json()).code).toBe(10005);
      }
    }
    expect((await rest(tokens.oneResource, '/warehouse')).status).toBe(200);
    expect((await rest(tokens.narrowUser, '/warehouse')).status).toBe(200);
  });

  it('a read-only token reads every resource and writes none', async () => {
    for (const res of Object.values(ts.server.metadata.resources)) {
      const mine = rows.a[res.name];
      if (on(res, 'list')) expect((await rest(tokens.readOnly, `/${res.name}`)).status, res.name).toBe(200);
      const create = await rest(tokens.readOnly, `/${res.name}`, 'POST', {});
      expect(create.status, `POST ${res.name}`).toBe(on(res, 'create') ? 403 : 405);
      if (!mine) continue;
      for (const [method, call] of [
        ['PATCH', 'update'],
        ['DELETE', 'delete'],
      ] as const) {
        const answer = await rest(tokens.readOnly, `/${res.name}/${mine.id}`, method, method === 'PATCH' ? {} : undefined);
        expect(answer.status, `${method} ${res.name}`).toBe(on(res, call) ? 403 : 405);
      }
    }
  });
});
