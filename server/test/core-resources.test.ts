/**
 * Every generated call over every metadata resource, driven by the metadata itself:
 * create, base, list (paging, every declared filter, every sort), update, all, export,
 * status/update, delete — and the other organisation sees none of it.
 */
import ExcelJS from 'exceljs';
import { fieldLabelKey, resourceApiPath, type FieldDef, type ResourceDef } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledCalls } from '../src/resources/calls';
import { exportFields } from '../src/resources/export';
import { isSortable, sortKey } from '../src/resources/query';
import { isSecret } from '../src/resources/validate';
import { createSample, sourceReady } from './support/fixtures';
import { creationOrder, forbiddenValues, sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const path = (res: ResourceDef, call: string) => resourceApiPath(res, call);
const ok = <T>(r: { body: { code: number; message: string; data: T } }, what: string): T => {
  if (r.body.code !== 0) throw new Error(`${what}: code ${r.body.code} ${r.body.message}`);
  return r.body.data;
};

/** A filter value that must match `row` for the field's search kind. */
function filterFor(f: FieldDef, row: Record<string, unknown>): unknown {
  const v = row[f.name];
  if (v === null || v === undefined || (Array.isArray(v) && !v.length)) return undefined;
  const one = Array.isArray(v) && (f.type === 'refs' || f.type === 'enums') ? v[0] : v;
  switch (f.search) {
    case 'like':
      return String(v).slice(1, Math.max(2, String(v).length - 1));
    case 'eq':
      return one;
    case 'in':
      return [one];
    case 'range':
      return [v, v];
  }
}

const compare = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en', { sensitivity: 'variant' });

async function readXlsx(res: Response) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}

describe('generated calls over every resource', () => {
  const refIds: Record<string, number> = {};
  const otherRefIds: Record<string, number> = {};

  it('covers every declared resource', () => {
    expect(creationOrder(ts.server.metadata).length).toBe(Object.keys(ts.server.metadata.resources).length);
    refIds.organization = ts.orgA;
  });

  // One test per resource, in ref order, so later resources point at earlier rows.
  for (const name of Object.keys(loadNames())) {
    it(`${name}: create, base, list/filters/sorts, update, all, export, status, delete, other org`, async () => {
      const meta = ts.server.metadata;
      const res = meta.resources[name];
      const calls = enabledCalls(res);
      const a: Caller = ts.a;
      const ownOrgOnly = res.orgField === 'id';

      // create (through the call, or through the repository when the call is not offered)
      const ctxA = {
        language: 'en-US' as const,
        user: { id: a.userId, username: 'alice', sysOrgUser: false },
        orgId: ts.orgA,
        orgIds: [ts.orgA],
        warehouseIds: null,
        via: 'session' as const,
      };
      const create = async (body: Record<string, unknown>, what: string): Promise<Record<string, unknown>> =>
        calls.includes('create') ? ok<Record<string, unknown>>(await a.call(path(res, 'create'), body), what) : ts.server.repo(name, ctxA).create(body);
      for (const call of ['list', 'base', 'create', 'update', 'delete', 'all', 'export'] as const) {
        if (!calls.includes(call)) expect(ts.server.calls.has(path(res, call)), `${name} ${call} is not offered`).toBe(false);
      }
      // a document made from another (metadata source) is made from a source of its own in an
      // allowed status, and takes the header values the source gives (left empty here)
      const refIdsHere = await sourceReady(ts, a, name, refIds, otherRefIds, 77);
      const body1 = sampleBody(res, meta, 11, refIdsHere, otherRefIds);
      // a second line of the same document names another row for its unique key (children.uniqueKeys)
      const refs2 = { ...refIdsHere };
      for (const key of Object.values(meta.resources).flatMap((p) =>
        (p.children ?? []).filter((c) => c.resource === name).flatMap((c) => c.uniqueKeys ?? []),
      )) {
        const target = res.fields.find((f) => f.name === key)?.ref?.resource;
        if (target && otherRefIds[target] !== undefined) refs2[target] = otherRefIds[target];
      }
      const body2 = sampleBody(res, meta, 22, refs2, otherRefIds);
      const created1 = await create({ ...body1, orgId: ts.orgB }, `${name} create`);
      expect(created1.id).toEqual(expect.any(Number));
      for (const f of res.fields) {
        if (isSecret(f)) expect(created1).not.toHaveProperty(f.name);
        if (f.type === 'ref' && !isSecret(f)) expect(created1).toHaveProperty(`${f.name}Label`);
      }
      refIds[name] ??= created1.id as number;
      if (ownOrgOnly) {
        // The organisation resource: callers see the organisations they belong to only.
        refIds[name] = ts.orgA;
        expect((await a.call(path(res, 'base'), { id: created1.id })).body.code).toBe(10002);
        const own = ok<Record<string, unknown>>(await a.call(path(res, 'base'), { id: ts.orgA }), `${name} base`);
        expect(own.id).toBe(ts.orgA);
        const list = ok<{ list: Array<{ id: number }>; total: number }>(await a.call(path(res, 'list'), {}), `${name} list`);
        expect(list.list.map((r) => r.id)).toEqual([ts.orgA]);
        const upd = ok<Record<string, unknown>>(await a.call(path(res, 'update'), { id: ts.orgA, remark: 'updated' }), `${name} update`);
        expect(upd.remark).toBe('updated');
        expect((await a.call(path(res, 'delete'), { id: ts.orgB })).body.code).toBe(10002);
        return;
      }
      expect(created1.orgId).toBe(ts.orgA); // the client's orgId is ignored
      // Rows the fixture made (its role and user) stay out of the counts.
      const before = (await ts.server.repo(name, ctxA).findAll()).map((r) => Number(r.get('id'))).filter((id) => id !== created1.id);
      const created2 = await create(body2, `${name} create 2`);
      refIds[name] = created1.id as number;
      otherRefIds[name] = created2.id as number;
      const ids = [created1.id, created2.id];
      if (!calls.includes('list')) return;

      // base
      if (calls.includes('base')) {
        const got = ok<Record<string, unknown>>(await a.call(path(res, 'base'), { id: created1.id }), `${name} base`);
        expect(got).toEqual(created1);
      }

      // list: paging
      const total = before.length + 2;
      const seen: unknown[] = [];
      // Ascending ids: rows the system appends meanwhile (audit logs of these very calls) come last.
      for (let page = 1; page <= total; page++) {
        const p = ok<{ list: Array<Record<string, unknown>>; total: number }>(
          await a.call(path(res, 'list'), { page, limit: 1, sortById: true }),
          `${name} list`,
        );
        expect(p.total).toBeGreaterThanOrEqual(total);
        expect(p.list).toHaveLength(1);
        seen.push(p.list[0].id);
      }
      expect(new Set(seen).size).toBe(total);
      expect(seen).toEqual(expect.arrayContaining(ids));
      expect((await a.call(path(res, 'list'), { limit: 1001 })).body.code).toBe(10001);
      expect((await a.call(path(res, 'list'), { page: 0 })).body.code).toBe(10001);

      // list: every declared filter matches its own row
      for (const f of res.fields.filter((x) => x.search && !isSecret(x))) {
        const value = filterFor(f, created1);
        if (value === undefined) continue;
        const r = ok<{ list: Array<{ id: number }>; total: number }>(
          await a.call(path(res, 'list'), { [f.name]: value, limit: 1000 }),
          `${name} filter ${f.name}`,
        );
        expect(
          r.list.map((x) => x.id),
          `${name} filter ${f.name}=${JSON.stringify(value)}`,
        ).toContain(created1.id);
        expect(r.total).toBeGreaterThanOrEqual(r.list.length);
      }

      // list: every sortable field, both directions, in the right order
      for (const f of res.fields.filter((x) => isSortable(x) && !isSecret(x))) {
        const only = (l: Array<Record<string, unknown>>) => l.filter((r) => ids.includes(r.id));
        const asc = only(
          ok<{ list: Array<Record<string, unknown>> }>(await a.call(path(res, 'list'), { [sortKey(f.name)]: true, limit: 1000 }), `${name} sort ${f.name}`)
            .list,
        );
        const desc = only(
          ok<{ list: Array<Record<string, unknown>> }>(await a.call(path(res, 'list'), { [sortKey(f.name)]: false, limit: 1000 }), `${name} sort ${f.name}`)
            .list,
        );
        const [x, y] = asc.map((r) => r[f.name]);
        if (x !== null && y !== null && x !== undefined && y !== undefined && JSON.stringify(x) !== JSON.stringify(y) && !Array.isArray(x)) {
          expect(compare(x, y), `${name} sort ${f.name}`).toBeLessThan(0);
          expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
        }
      }

      // update (partial, every writable field re-sampled)
      if (calls.includes('update')) {
        const body3 = sampleBody(res, meta, 33, refIds, otherRefIds);
        const updated = ok<Record<string, unknown>>(await a.call(path(res, 'update'), { id: created1.id, ...body3 }), `${name} update`);
        for (const f of res.fields) {
          if (isSecret(f) || f.readOnly || !(f.name in body3)) continue;
          const expected = f.type === 'datetime' ? new Date(body3[f.name] as string).toISOString() : body3[f.name];
          expect(updated[f.name], `${name}.${f.name}`).toEqual(expected);
        }
        expect(updated.orgId).toBe(ts.orgA);
      }

      // all
      if (calls.includes('all')) {
        const all = ok<Array<{ id: number }>>(await a.call(path(res, 'all'), {}), `${name} all`);
        expect(all.map((r) => r.id).sort()).toEqual([...before, ...ids].sort());
      }

      // export: a real xlsx, header row translated, one line per row
      if (calls.includes('export')) {
        const resp = await a.fetch(path(res, 'export'), {}, { language: 'zh-CN' });
        expect(resp.status).toBe(200);
        expect(resp.headers.get('content-type')).toContain('spreadsheetml');
        const rows = await readXlsx(resp);
        const headers = exportFields(res).map((f) => ts.server.t('zh-CN', fieldLabelKey(f)));
        expect(rows[0]).toEqual(headers);
        for (const h of headers) expect(h).not.toMatch(/^fields\./);
        // Exactly the listed rows (the audit log may have grown by this test's own calls).
        expect(rows.length).toBeGreaterThanOrEqual(total + 1);
        if (calls.includes('all')) expect(rows).toHaveLength(total + 1);
      }

      // status/update: one allowed transition
      if (calls.includes('status/update')) {
        const rule = res.rules!.statusUpdate!;
        const current = ok<Record<string, unknown>>(await a.call(path(res, 'base'), { id: created2.id }), 'base')[rule.field];
        const avoid = forbiddenValues(res, rule.field);
        const next = (rule.transitions?.[String(current)] ?? meta.enums[res.fields.find((f) => f.name === rule.field)!.enum!].map((e) => e.value)).find(
          (v) => !avoid.has(String(v)) && String(v) !== String(current),
        );
        if (next !== undefined) {
          const changed = ok<Record<string, unknown>>(await a.call(path(res, 'status/update'), { id: created2.id, [rule.field]: next }), `${name} status`);
          expect(changed[rule.field]).toBe(next);
        }
      }

      // another organisation sees and touches nothing
      const b = ts.b;
      const bList = ok<{ list: Array<{ id: number; orgId: number }> }>(await b.call(path(res, 'list'), { limit: 1000 }), 'b list').list;
      expect(bList.filter((r) => ids.includes(r.id) || r.orgId !== ts.orgB)).toEqual([]);
      if (calls.includes('base')) expect((await b.call(path(res, 'base'), { id: created1.id })).body.code).toBe(10002);
      if (calls.includes('update')) expect((await b.call(path(res, 'update'), { id: created1.id })).body.code).toBe(10002);
      if (calls.includes('delete')) expect((await b.call(path(res, 'delete'), { ids: ids })).body.code).toBe(10002);
      if (calls.includes('all'))
        expect(ok<Array<{ orgId: number }>>(await b.call(path(res, 'all'), {}), 'b all').filter((r) => r.orgId !== ts.orgB)).toEqual([]);

      // delete
      if (calls.includes('delete')) {
        // a third line goes to the second document (its key is taken in the first)
        const refs3 = { ...refIdsHere };
        for (const p of Object.values(meta.resources))
          if (p.children?.some((c) => c.resource === name && c.uniqueKeys?.length) && otherRefIds[p.name] !== undefined) refs3[p.name] = otherRefIds[p.name];
        // a key exclusive to one open document (a carrier on one open order) needs a row of its own there
        for (const p of Object.values(meta.resources)) {
          const ex = p.children?.find((c) => c.resource === name)?.exclusive;
          const target = ex && res.fields.find((f) => f.name === ex.key)?.ref?.resource;
          // its own sample number: several documents' lines (shipping list, adjustment) each need one
          if (target) refs3[target] = (await createSample(ts, a, target, exclusiveSeq++, refIds)).id;
        }
        const doomed = await create(sampleBody(res, meta, 44, refs3, otherRefIds), `${name} create 3`);
        expect(ok(await a.call(path(res, 'delete'), { ids: [doomed.id] }), `${name} delete`)).toEqual({ deleted: 1 });
        expect((await a.call(path(res, 'base'), { id: doomed.id })).body.code).toBe(10002);
        expect((await a.call(path(res, 'delete'), { id: doomed.id })).body.code).toBe(10002);
      }
    });
  }
});

/** sample numbers of rows made for an exclusive line key, one per resource that needs one */
let exclusiveSeq = 4400;

/** Resource names in creation order, read before the server starts (test names are static). */
function loadNames(): Record<string, true> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return Object.fromEntries(creationOrder(metaForNames).map((r) => [r.name, true]));
}
import { loadMetadata } from '@rti/metadata';
const metaForNames = loadMetadata();
