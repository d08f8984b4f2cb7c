/**
 * Warehouse restriction: a user assigned to some warehouses sees, changes and exports only
 * rows of those warehouses in every resource that declares a warehouse field.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, resourceApiPath } from '@rti/metadata';
import { enabledCalls } from '../src/resources/calls';
import { createRow, rowsInBothOrgs, type OrgRows, type Row } from './access-fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const metadata = loadMetadata();
const restricted = Object.values(metadata.resources).filter((r) => r.warehouseField);

let ts: TestServer;
let rows: OrgRows;
let w1: number;
let w2: number;
let wendy: Caller;

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  rows = await rowsInBothOrgs(ts);
  w1 = rows.a.warehouse.id;
  const second = await ts.a.call('/warehouse/create', sampleBody(metadata.resources.warehouse, metadata, 777, { organization: ts.orgA }));
  expect(second.body.code, second.body.message).toBe(0);
  w2 = second.body.data.id;
  wendy = await ts.callerFor(await ts.addUser(ts.orgA, 'wendy', { warehouseIds: [w1] }), ts.orgA);
});
afterAll(() => ts?.close());

it('has resources with a warehouse field to check', () => {
  expect(restricted.map((r) => r.name)).toContain('warehouse');
  expect(restricted.length).toBeGreaterThan(1);
});

describe.each(restricted.map((r) => [r.name, r] as const))('warehouse restriction of %s', (name, res) => {
  it('shows and changes only rows of the assigned warehouses', async () => {
    const field = res.warehouseField!;
    let inside: Row;
    let outside: Row;
    if (field === 'id') {
      inside = rows.a[name];
      outside = (await ts.a.call(resourceApiPath(res, 'base'), { id: w2 })).body.data;
    } else {
      inside = rows.a[name];
      expect(inside[field]).toBe(w1);
      const refs: Record<string, number> = { organization: ts.orgA };
      for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
      outside = await createRow(ts, ts.a, res, { ...sampleBody(res, metadata, 4321, refs, rows.second.a), [field]: w2 });
    }
    expect(outside[field === 'id' ? 'id' : field]).toBe(w2);

    // the unrestricted caller sees both: the filter below is the restriction, not missing data
    const everything = await ts.a.call(resourceApiPath(res, 'list'), { limit: 1000 });
    expect(everything.body.data.list.map((r: Row) => r.id)).toEqual(expect.arrayContaining([inside.id, outside.id]));

    const enabled = enabledCalls(res);
    const listCalls = (['list', 'all'] as const).filter((c) => enabled.includes(c));
    expect(listCalls.length).toBeGreaterThan(0);
    for (const call of listCalls) {
      // asking for the other warehouse by filter changes nothing
      const got = await wendy.call(resourceApiPath(res, call), { limit: 1000, [field]: w2 });
      expect(got.body.code, got.body.message).toBe(0);
      const list: Row[] = call === 'list' ? got.body.data.list : got.body.data;
      for (const r of list) expect([w1]).toContain(r[field]);
      const plain = await wendy.call(resourceApiPath(res, call), { limit: 1000 });
      const ids = (call === 'list' ? plain.body.data.list : plain.body.data).map((r: Row) => r.id);
      expect(ids).toContain(inside.id);
      expect(ids).not.toContain(outside.id);
    }
    if (enabled.includes('base')) {
      expect((await wendy.call(resourceApiPath(res, 'base'), { id: inside.id })).body.code).toBe(0);
      expect((await wendy.call(resourceApiPath(res, 'base'), { id: outside.id })).body.code).toBe(10002);
    }
    if (enabled.includes('update')) {
      expect((await wendy.call(resourceApiPath(res, 'update'), { id: outside.id, [res.titleField]: inside[res.titleField] })).body.code).toBe(10002);
    }
    if (enabled.includes('delete')) expect((await wendy.call(resourceApiPath(res, 'delete'), { id: outside.id })).body.code).toBe(10002);

    if (enabled.includes('export')) {
      // a text value only the outside row carries (ids and numbers would match by chance)
      const mark = res.fields.find((f) => ['string', 'text'].includes(f.type) && !f.writeOnly && typeof outside[f.name] === 'string' && (outside[f.name] as string).length >= 3 && inside[f.name] !== outside[f.name])?.name;
      const exported = await wendy.fetch(resourceApiPath(res, 'export'), {});
      expect(exported.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await exported.arrayBuffer()) as never);
      let lines = 0;
      const cells: string[] = [];
      wb.eachSheet((ws) => ws.eachRow((row) => void (lines++, row.eachCell((c) => void cells.push(String(c.text ?? c.value))))));
      const visible = (await wendy.call(resourceApiPath(res, listCalls[0]), { limit: 1000 })).body.data;
      expect(lines - 1).toBe(Array.isArray(visible) ? visible.length : visible.total); // header + the rows of the assigned warehouse
      if (mark) {
        expect(cells).toContain(String(inside[mark]));
        expect(cells).not.toContain(String(outside[mark]));
      }
    }
  });
});
