/**
 * Tenancy over every generated call of every resource: a user of organisation A never
 * reads, lists, exports, changes or deletes a row of organisation B, whatever ids, filters
 * or headers it sends; rows it creates always land in A.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_UPDATE_STEP, documentSavePath, loadMetadata, resourceApiPath, resourceTransitions, statusCalls, type ResourceDef } from '@rti/metadata';
import { enabledCalls } from '../src/resources/calls';
import { callSuffix, rowsInBothOrgs, type OrgRows, type Row } from './access-fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const metadata = loadMetadata();
const resources = Object.values(metadata.resources);
// resources whose generated calls are all switched off (served by a plugin) have none to check
const withCalls = resources.filter((r) => enabledCalls(r).length > 0);
const orgFieldOf = (res: ResourceDef) => res.orgField ?? (res.orgScoped ? 'orgId' : null);

let ts: TestServer;
let rows: OrgRows;

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  rows = await rowsInBothOrgs(ts);
});
afterAll(() => ts?.close());

async function exported(path: string, body: unknown): Promise<{ text: string; rows: number }> {
  const res = await ts.a.fetch(path, body);
  expect(res.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const cells: string[] = [];
  let rows = 0;
  wb.eachSheet((ws) =>
    ws.eachRow(() => {
      rows++;
    }),
  );
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => void cells.push(String(c.text ?? c.value)))));
  return { text: cells.join('\n'), rows };
}

/** Uploads the resource's (empty) import template as the caller; answers the import job id. */
async function upload(caller: Caller, path: string, templatePath: string): Promise<number> {
  const template = await caller.fetch(templatePath, {});
  expect(template.status).toBe(200);
  const form = new FormData();
  form.append('file', new Blob([await template.arrayBuffer()]), 'template.xlsx');
  const res = await fetch(ts.url + '/api' + path, { method: 'POST', headers: { Token: caller.token, OrgId: String(caller.orgId) }, body: form });
  const body = (await res.json()) as { code: number; message: string; data: { importId: number } };
  expect(body.code, body.message).toBe(0);
  return body.data.importId;
}

/** Filters that match B's row exactly on each searchable field (plus an id filter). */
function foreignFilters(res: ResourceDef, b: Row): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{ id: b.id }, { ids: [b.id] }];
  const orgField = orgFieldOf(res);
  if (orgField) out.push({ [orgField]: orgField === 'id' ? b.id : b[orgField] });
  for (const f of res.fields) {
    const v = b[f.name];
    if (!f.search || v === null || v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    out.push({ [f.name]: f.search === 'range' ? [v, v] : f.search === 'in' ? list : v });
  }
  return out;
}

describe.each(withCalls.map((r) => [r.name, r] as const))('tenancy of %s', (name, res) => {
  it('keeps every generated call inside the caller organisation', async () => {
    const calls = ts.server.calls.list().filter((c) => c.resource === name);
    expect(calls.length).toBeGreaterThan(0);
    const a = rows.a[name];
    const b = rows.b[name];
    const orgField = orgFieldOf(res);
    const title = res.titleField;

    for (const call of calls) {
      // workflow steps: B's row is neither moved alone nor in a batch with A's own row
      const step = resourceTransitions(res).find((t) => t.path === call.path && t.name !== STATUS_UPDATE_STEP);
      if (step) {
        expect((await ts.a.call(call.path, { id: b.id })).body.code, call.path).toBe(10002);
        expect((await ts.a.call(call.path, { ids: [a.id, b.id] })).body.code, call.path).toBe(10002);
        expect((await ts.b.call(resourceApiPath(res, 'base'), { id: b.id })).body.data[step.field]).toEqual(b[step.field]);
        continue;
      }
      // a shared status call (statusCall): B's row is not moved through any of its targets
      const shared = statusCalls(res).get(call.path);
      if (shared) {
        for (const t of shared) {
          expect((await ts.a.call(call.path, { id: b.id, [t.field]: t.to })).body.code, call.path).toBe(10002);
          expect((await ts.a.call(call.path, { ids: [a.id, b.id], [t.field]: t.to })).body.code, call.path).toBe(10002);
        }
        expect((await ts.b.call(resourceApiPath(res, 'base'), { id: b.id })).body.data[shared[0].field]).toEqual(b[shared[0].field]);
        continue;
      }
      // a document's atomic save: not into B's document; a new one lands in A whatever orgId says
      if (call.path === documentSavePath(res)) {
        expect((await ts.a.call(call.path, { id: b.id, lines: {} })).body.code, call.path).toBe(10002);
        const refs: Record<string, number> = { organization: ts.orgA };
        for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
        const made = await ts.a.call(call.path, { ...sampleBody(res, metadata, 9500 + resources.indexOf(res), refs, rows.second.a), orgId: ts.orgB, lines: {} });
        expect(made.body.code, made.body.message).toBe(0);
        expect(made.body.data.orgId).toBe(ts.orgA);
        expect((await ts.b.call(resourceApiPath(res, 'base'), { id: made.body.data.id })).body.code).toBe(10002);
        continue;
      }
      const suffix = callSuffix(res, call.path);
      switch (suffix) {
        case 'list':
        case 'all':
          for (const filter of [{}, ...foreignFilters(res, b)]) {
            const got = await ts.a.call(call.path, { ...filter, page: 1, limit: 1000 });
            expect(got.body.code, `${call.path} ${JSON.stringify(filter)}`).toBe(0);
            const list = (suffix === 'list' ? got.body.data.list : got.body.data) as Row[];
            expect(list.map((r) => r.id)).not.toContain(b.id);
            if (orgField === 'orgId') for (const r of list) expect(r.orgId).toBe(ts.orgA);
            if (orgField === 'id') for (const r of list) expect([ts.orgA]).toContain(r.id);
          }
          {
            // oldest first: logs the suite's own calls write (listed newest first) outgrow one page as modules are added
            const own = await ts.a.call(call.path, { sortById: true, page: 1, limit: 1000 });
            const list = (suffix === 'list' ? own.body.data.list : own.body.data) as Row[];
            expect(list.map((r) => r.id)).toContain(a.id);
          }
          break;
        case 'export': {
          // a text value only B's row carries (ids and numbers would match by chance)
          const mark = res.fields.find((f) => ['string', 'text'].includes(f.type) && !f.writeOnly && typeof b[f.name] === 'string' && (b[f.name] as string).length >= 3 && a[f.name] !== b[f.name])?.name;
          const listed = async () => {
            const got = (await ts.a.call(resourceApiPath(res, res.calls?.list === false ? 'all' : 'list'), { limit: 1000 })).body.data;
            return Array.isArray(got) ? got.length : (got.total as number);
          };
          // rows of A only: as many lines as A lists (system-written logs may grow meanwhile)
          const before = await listed();
          const { text, rows: count } = await exported(call.path, {});
          expect(count - 1, `${call.path}: one line per row of A`).toBeGreaterThanOrEqual(before);
          expect(count - 1, `${call.path}: one line per row of A`).toBeLessThanOrEqual(await listed());
          if (mark) {
            expect(text).toContain(String(a[mark]));
            expect(text).not.toContain(String(b[mark]));
            // exports share the list's query; the id and organisation filters are the ones that could leak
            for (const filter of foreignFilters(res, b).slice(0, 3)) expect((await exported(call.path, filter)).text).not.toContain(String(b[mark]));
          }
          break;
        }
        case '':
        case 'get':
          expect((await ts.a.call(call.path, { id: a.id })).body.code).toBe(0);
          expect((await ts.a.call(call.path, { id: b.id })).body.code).toBe(10002);
          break;
        case 'update':
          expect((await ts.a.call(call.path, { id: b.id, [title]: a[title] })).body.code).toBe(10002);
          break;
        case 'status/update': {
          const field = res.rules!.statusUpdate!.field;
          expect((await ts.a.call(call.path, { id: b.id, [field]: b[field] })).body.code).toBe(10002);
          break;
        }
        case 'delete':
          expect((await ts.a.call(call.path, { id: b.id })).body.code).toBe(10002);
          expect((await ts.a.call(call.path, { ids: [b.id] })).body.code).toBe(10002);
          break;
        case 'create': {
          if (orgField !== 'orgId') break; // the organisation resource owns itself: no foreign org to claim
          const refs: Record<string, number> = { organization: ts.orgA };
          for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
          // a line's unique key within its document (children.uniqueKeys) takes A's second row
          for (const key of resources.flatMap((p) => (p.children ?? []).filter((c) => c.resource === name).flatMap((c) => c.uniqueKeys ?? []))) {
            const target = res.fields.find((f) => f.name === key)?.ref?.resource;
            if (target && rows.second.a[target] !== undefined) refs[target] = rows.second.a[target];
          }
          const body = { ...sampleBody(res, metadata, 9000 + resources.indexOf(res), refs, rows.second.a), orgId: ts.orgB };
          const made = await ts.a.call(call.path, body);
          expect(made.body.code, made.body.message).toBe(0);
          expect(made.body.data.orgId).toBe(ts.orgA);
          expect((await ts.b.call(resourceApiPath(res, 'base'), { id: made.body.data.id })).body.code).toBe(10002);
          break;
        }
        case 'import': {
          // B's import job stays B's: A cannot read its status; A's own job is readable
          const statusPath = resourceApiPath(res, 'import/status');
          const bJob = await upload(ts.b, call.path, resourceApiPath(res, 'import/template'));
          const aJob = await upload(ts.a, call.path, resourceApiPath(res, 'import/template'));
          expect((await ts.a.call(statusPath, { importId: bJob })).body.code).toBe(10002);
          expect((await ts.a.call(statusPath, { importId: aJob })).body.code).toBe(0);
          expect((await ts.b.call(statusPath, { importId: bJob })).body.code).toBe(0);
          break;
        }
        case 'import/status': // with import above
          expect(calls.map((c) => c.path)).toContain(resourceApiPath(res, 'import'));
          break;
        case 'import/result': {
          // the refused rows of B's job stay B's; A's own come back as a workbook
          const bJob = await upload(ts.b, resourceApiPath(res, 'import'), resourceApiPath(res, 'import/template'));
          const aJob = await upload(ts.a, resourceApiPath(res, 'import'), resourceApiPath(res, 'import/template'));
          expect((await ts.a.call(call.path, { importId: bJob })).body.code).toBe(10002);
          const own = await ts.a.fetch(call.path, { importId: aJob });
          expect(own.headers.get('content-type')).toContain('spreadsheetml');
          await own.arrayBuffer();
          break;
        }
        case 'import/template': {
          const res2 = await ts.a.fetch(call.path, {});
          expect(res2.status).toBe(200);
          expect(res2.headers.get('content-type')).not.toContain('json');
          await res2.arrayBuffer();
          break;
        }
        default:
          throw new Error(`${call.path}: a generated call this test does not know; add its tenancy check`);
      }
    }
    // B's row survived every attempt unchanged
    const again = await ts.b.call(resourceApiPath(res, 'base'), { id: b.id });
    expect(again.body.code).toBe(0);
    expect(again.body.data[title]).toEqual(b[title]);
  });
});

describe('organisation header', () => {
  it('refuses a foreign OrgId on every call with 10007', async () => {
    const calls = ts.server.calls.list().filter((c) => !c.public);
    expect(calls.length).toBeGreaterThan(resources.length * 5);
    for (const call of calls) {
      const got = await ts.a.call(call.path, {}, { orgId: ts.orgB });
      expect(got.status, call.path).toBe(403);
      expect(got.body.code, call.path).toBe(10007);
    }
    for (const bad of ['abc', '-1', '1.5']) {
      const got = await ts.a.call('/permission/list', {}, { orgId: null, headers: { OrgId: bad } });
      expect(got.body.code).toBe(10007);
    }
  });
});
