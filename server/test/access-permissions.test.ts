/**
 * Casbin access over every registered call (generated, account, permission and plugin
 * calls): deny by default, each call needs exactly its own code, role changes apply without a
 * restart (also on a second server instance), the organisation's set bounds every grant, and
 * user extras grant on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceApiPath } from '@rti/metadata';
import { createServer, type RtiServer } from '../src/index';
import { callPermission } from '../src/http/registry';
import type { CallDef } from '../src/http/types';
import { ReportRegistry } from '../src/reports/registry';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
let coded: Array<CallDef & { code: string }>;
let emptyRole: number;
let carol: Caller;
/** a platform (sys-org) user: only such users may change an organisation's permission set */
let platform: Caller;

beforeAll(async () => {
  // open-api: a plugin call with its own code; monitor and reports: report definitions' calls; shipping: document calls
  ts = await startTestServer({ plugins: ['open-api', 'monitor', 'master-data', 'shipping', 'inventory', 'reports', 'pool-analytics'] });
  coded = ts.server.calls
    .list()
    .map((c) => ({ ...c, code: callPermission(c)! }))
    .filter((c) => c.code);
  platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
  const role = await ts.a.call('/role/create', { name: 'nothing', pcPermissions: [], pdaPermissions: [] });
  expect(role.body.code, role.body.message).toBe(0);
  emptyRole = role.body.data.id;
  carol = await ts.callerFor(await ts.addUser(ts.orgA, 'carol', { roleIds: [emptyRole] }), ts.orgA);
});
afterAll(() => ts?.close());

/** HTTP status and envelope code of a call (exports answer a file: code 0). */
async function attempt(caller: Caller, path: string, body: unknown = {}): Promise<{ status: number; code: number }> {
  const res = await caller.fetch(path, body);
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) {
    await res.arrayBuffer();
    return { status: res.status, code: 0 };
  }
  return { status: res.status, code: ((await res.json()) as { code: number }).code };
}

const setRole = async (roleId: number, codes: string[]) => {
  const got = await ts.a.call('/role/update', { id: roleId, pcPermissions: codes });
  expect(got.body.code, got.body.message).toBe(0);
};

describe('permission codes', () => {
  it('covers generated, account and plugin calls', () => {
    const paths = coded.map((c) => c.path);
    expect(paths).toContain('/permission/all');
    expect(paths).toContain('/organization-token/create');
    // report definitions' list and export calls, each with its own code
    for (const p of ['/inventory-report/list', '/inventory-report/export', '/device-alert/gps/report/list', '/device-alert/gps/report/export'])
      expect(paths).toContain(p);
    // pool analytics: its reports' calls and the statement's PDF
    for (const p of [
      '/pool-analytics/turns/list',
      '/pool-analytics/partner-statement/export',
      '/pool-analytics/partner-statement/pdf',
      '/pool-analytics/pool-size/list',
    ])
      expect(paths).toContain(p);
    for (const res of Object.values(ts.server.metadata.resources)) {
      if (res.calls?.list !== false) expect(paths).toContain(resourceApiPath(res, 'list'));
    }
    expect(paths).not.toContain('/account/login');
    expect(paths).not.toContain('/permission/list');
  });

  it('refuses every call to a user without its code (10005, HTTP 403)', async () => {
    for (const call of coded) {
      const got = await attempt(carol, call.path);
      expect(got, call.path).toEqual({ status: 403, code: 10005 });
    }
  }, 240_000); // every registered call, one by one: minutes on a loaded MariaDB

  it('grants each call exactly through its own code, and a role change applies at once', async () => {
    const needsInput = new Set(
      ts.server.reports
        .list()
        .filter((d) => d.parameters.some((p) => 'required' in p && p.required))
        .flatMap((d) => {
          const { list, exports } = ReportRegistry.paths(d);
          return [...(list ? [list] : []), ...exports];
        }),
    );
    // split by code, not by call: some calls share one (an import's preview is the import's code)
    const codes = [...new Set(coded.map((c) => c.code))];
    for (const parity of [0, 1]) {
      const granted = new Set(codes.filter((_, i) => i % 2 === parity));
      await setRole(emptyRole, [...granted]);
      for (const call of coded) {
        const got = await attempt(carol, call.path);
        if (granted.has(call.code)) {
          expect(got.code, call.path).not.toBe(10005);
          expect(got.status, call.path).not.toBe(403);
          // a report with a required parameter (a day) refuses an empty body as input, not as a permission
          if (/\/(list|all|export)$/.test(call.path)) expect(got.code, call.path).toBe(needsInput.has(call.path) ? 10001 : 0);
        } else {
          expect(got.code, call.path).toBe(10005);
        }
      }
    }
    await setRole(emptyRole, []);
    expect((await attempt(carol, coded[0].path)).code).toBe(10005);
  }, 480_000);
});

describe('policy sources', () => {
  const listCall = () => coded.find((c) => c.resource && c.path.endsWith('/list'))!;

  it("bounds role grants by the organisation's permission set", async () => {
    const target = listCall();
    await setRole(emptyRole, [target.code]);
    expect((await attempt(carol, target.path)).code).toBe(0);
    const all = coded.map((c) => c.code);
    const narrowed = await platform.call('/organization/update', { id: ts.orgA, pcPermissions: all.filter((c) => c !== target.code) });
    expect(narrowed.body.code, narrowed.body.message).toBe(0);
    expect((await attempt(carol, target.path)).code).toBe(10005);
    expect((await attempt(ts.a, target.path)).code).toBe(10005); // the org's full-access role too
    const restored = await platform.call('/organization/update', { id: ts.orgA, pcPermissions: all });
    expect(restored.body.code, restored.body.message).toBe(0);
    expect((await attempt(carol, target.path)).code).toBe(0);
    await setRole(emptyRole, []);
  });

  it("grants a user's extra permissions (PC and PDA), also bounded by the organisation", async () => {
    const [pc, pda] = coded.filter((c) => c.resource && c.path.endsWith('/list'));
    const dave = await ts.callerFor(await ts.addUser(ts.orgA, 'dave', { roleIds: [], pcPermissions: [pc.code], pdaPermissions: [pda.code] }), ts.orgA);
    expect((await attempt(dave, pc.path)).code).toBe(0);
    expect((await attempt(dave, pda.path)).code).toBe(0);
    expect((await attempt(dave, '/role/list')).code).toBe(10005);
    const all = coded.map((c) => c.code);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: all.filter((c) => c !== pc.code) });
    expect((await attempt(dave, pc.path)).code).toBe(10005);
    await platform.call('/organization/update', { id: ts.orgA, pcPermissions: all });
    expect((await attempt(dave, pc.path)).code).toBe(0);
  });

  it("lets only platform users change an organisation's permission set", async () => {
    const all = coded.map((c) => c.code);
    const raised = await ts.a.call('/organization/update', { id: ts.orgA, pcPermissions: all.slice(1) });
    expect(raised.status).toBe(403);
    expect(raised.body.code).toBe(10005);
    const kept = await ts.a.call<any>('/organization/get', { id: ts.orgA });
    expect(kept.body.data?.pcPermissions ?? all).toEqual(expect.arrayContaining(all));
    // other fields of the organisation stay editable by its administrator
    expect((await ts.a.call('/organization/update', { id: ts.orgA, remark: 'edited by its admin' })).body.code).toBe(0);
    expect((await platform.call('/organization/update', { id: ts.orgA, pcPermissions: all })).body.code).toBe(0);
  });

  it('ignores roles of another organisation', async () => {
    const bRoles = await ts.b.call('/role/list', { limit: 100 });
    const bFull = (bRoles.body.data.list as Array<{ id: number }>).map((r) => r.id);
    const erin = await ts.callerFor(await ts.addUser(ts.orgA, 'erin', { roleIds: bFull }), ts.orgA);
    expect((await attempt(erin, listCall().path)).code).toBe(10005);
  });

  it('reaches a second server instance on the same database within seconds', async () => {
    let second: RtiServer | null = null;
    try {
      second = await createServer({ databaseUrl: ts.db.url, plugins: false, logError: () => undefined });
      const { url } = await second.listen(0);
      const target = listCall();
      const viaSecond = async () => {
        const res = await fetch(url + '/api' + target.path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Token: carol.token, OrgId: String(ts.orgA) },
          body: '{}',
        });
        return ((await res.json()) as { code: number }).code;
      };
      expect(await viaSecond()).toBe(10005);
      await setRole(emptyRole, [target.code]); // written through the first instance
      const started = Date.now();
      let code = await viaSecond();
      while (code !== 0 && Date.now() - started < 6000) {
        await new Promise((r) => setTimeout(r, 200));
        code = await viaSecond();
      }
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await setRole(emptyRole, []);
      await second?.close();
    }
  });
});
