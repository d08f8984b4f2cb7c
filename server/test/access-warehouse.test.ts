/**
 * Warehouse restriction: a user assigned to some warehouses sees, changes and exports only
 * rows of those warehouses in every resource that declares a warehouse field.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, resourceApiPath } from '@rti/metadata';
import { enabledCalls } from '../src/resources/calls';
import { createRow, rowsInBothOrgs, type OrgRows, type Row } from './access-fixtures';
import { sourceReady, withoutSourceValues } from './support/fixtures';
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
    // several warehouse fields (a transfer: shipper and receiver): a row is in scope through any of them
    const fields = [res.warehouseField!].flat();
    const field = fields[0];
    const inScope = (r: Row) => fields.some((f) => (f === 'id' ? r.id : r[f]) === w1);
    const refs: Record<string, number> = { organization: ts.orgA };
    for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
    // warehouses other than w1, one per field (rows may require them to differ)
    const others = [w2, rows.second.a.warehouse].filter((w) => w !== undefined && w !== w1);
    // a document made from a source takes its warehouses from a source made with them
    const rowWith = async (values: Record<string, number>, seed: number) => {
      const refsHere = await sourceReady(ts, ts.a, res.name, refs, rows.second.a, seed, values);
      return createRow(ts, ts.a, res, { ...sampleBody(res, metadata, seed, refsHere, rows.second.a), ...withoutSourceValues(ts, res.name, values) });
    };
    let inside: Row;
    let outside: Row;
    if (field === 'id') {
      inside = rows.a[name];
      outside = (await ts.a.call(resourceApiPath(res, 'base'), { id: w2 })).body.data;
    } else {
      inside = rows.a[name];
      expect(inScope(inside)).toBe(true);
      expect(others.length).toBeGreaterThanOrEqual(fields.length);
      outside = await rowWith(Object.fromEntries(fields.map((f, i) => [f, others[i]])), 4321);
    }
    expect(outside[field === 'id' ? 'id' : field]).toBe(w2);
    expect(inScope(outside)).toBe(false);
    // one row in scope through each further field alone
    const through: Row[] = [];
    for (const [i, f] of fields.slice(1).entries()) {
      through.push(await rowWith(Object.fromEntries(fields.map((g, k) => [g, g === f ? w1 : others[k]])), 4400 + i));
    }

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
      for (const r of list) expect(inScope(r)).toBe(true);
      const plain = await wendy.call(resourceApiPath(res, call), { limit: 1000 });
      const ids = (call === 'list' ? plain.body.data.list : plain.body.data).map((r: Row) => r.id);
      expect(ids).toContain(inside.id);
      for (const r of through) expect(ids).toContain(r.id);
      expect(ids).not.toContain(outside.id);
    }
    if (enabled.includes('base')) {
      expect((await wendy.call(resourceApiPath(res, 'base'), { id: inside.id })).body.code).toBe(0);
      for (const r of through) expect((await wendy.call(resourceApiPath(res, 'base'), { id: r.id })).body.code).toBe(0);
      expect((await wendy.call(resourceApiPath(res, 'base'), { id: outside.id })).body.code).toBe(10002);
    }
    if (enabled.includes('update')) {
      expect((await wendy.call(resourceApiPath(res, 'update'), { id: outside.id, [res.titleField]: inside[res.titleField] })).body.code).toBe(10002);
    }
    if (enabled.includes('delete')) expect((await wendy.call(resourceApiPath(res, 'delete'), { id: outside.id })).body.code).toBe(10002);
    if (fields.length > 1 && enabled.includes('create')) {
      // a restricted user writes rows of its warehouses: one warehouse field of its own is enough
      const body = async (values: Record<string, number>, seed: number) => {
        const refsHere = await sourceReady(ts, ts.a, res.name, refs, rows.second.a, seed, values);
        // the source's values are the document's: a source of no warehouse of wendy's is one she cannot see
        return { ...sampleBody(res, metadata, seed, refsHere, rows.second.a), ...(res.source ? {} : values) };
      };
      for (const [i, f] of fields.entries()) {
        const own = await wendy.call(
          resourceApiPath(res, 'create'),
          await body(Object.fromEntries(fields.map((g, k) => [g, g === f ? w1 : others[k]])), 4500 + i),
        );
        expect(own.body.code, own.body.message).toBe(0);
      }
      if (!res.source) {
        const foreign = await wendy.call(resourceApiPath(res, 'create'), await body(Object.fromEntries(fields.map((f, i) => [f, others[i]])), 4600));
        expect(foreign.body.code).toBe(10001);
        expect(foreign.body.message).toContain('you may only use your own warehouses');
      } else {
        // from a source of other warehouses: the source is not found for her, nothing written
        const refsHere = await sourceReady(ts, ts.a, res.name, refs, rows.second.a, 4600, Object.fromEntries(fields.map((f, i) => [f, others[i]])));
        const foreign = await wendy.call(resourceApiPath(res, 'create'), sampleBody(res, metadata, 4600, refsHere, rows.second.a));
        expect(foreign.body.code).toBe(10001);
      }
    }

    if (enabled.includes('export')) {
      // a text value only the outside row carries (ids and numbers would match by chance)
      const mark = res.fields.find(
        (f) =>
          ['string', 'text'].includes(f.type) &&
          !f.writeOnly &&
          typeof outside[f.name] === 'string' &&
          (outside[f.name] as string).length >= 3 &&
          inside[f.name] !== outside[f.name],
      )?.name;
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

/** document lines without a warehouse field of their own: in scope through their header's */
const headerScoped = Object.values(metadata.resources).flatMap((header) =>
  header.warehouseField
    ? (header.children ?? [])
        .map((c) => ({ header, lines: metadata.resources[c.resource], foreignKey: c.foreignKey }))
        .filter((x) => x.lines && !x.lines.warehouseField)
    : [],
);

it('has document lines scoped through their header to check', () => {
  expect(headerScoped.map((x) => x.lines.name)).toContain('ship-order-detail');
});

let headerSeed = 5300;
describe.each(headerScoped.map((x) => [x.lines.name, x] as const))('warehouse restriction of %s through its header', (name, { header, lines, foreignKey }) => {
  it('lists, reads, changes and exports only lines of documents in the assigned warehouses', async () => {
    const seed = (headerSeed += 10);
    const fields = [header.warehouseField!].flat();
    const refs: Record<string, number> = { organization: ts.orgA };
    for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
    const others = [w2, rows.second.a.warehouse].filter((w) => w !== undefined && w !== w1);
    // a header in none of wendy's warehouses, and a line of it
    const outsideValues = Object.fromEntries(fields.map((f, i) => [f, others[i]]));
    const headerRefs = await sourceReady(ts, ts.a, header.name, refs, rows.second.a, seed, outsideValues);
    const outsideHeader = await createRow(ts, ts.a, header, {
      ...sampleBody(header, metadata, seed, headerRefs, rows.second.a),
      ...withoutSourceValues(ts, header.name, outsideValues),
    });
    const inside = rows.a[name];
    expect(inside[foreignKey]).toBe(rows.a[header.name].id);
    const outside = await createRow(ts, ts.a, lines, {
      ...sampleBody(lines, metadata, seed + 1, { ...refs, [header.name]: outsideHeader.id }, rows.second.a),
      [foreignKey]: outsideHeader.id,
    });

    const everything = await ts.a.call(resourceApiPath(lines, 'list'), { limit: 1000 });
    expect(everything.body.data.list.map((r: Row) => r.id)).toEqual(expect.arrayContaining([inside.id, outside.id]));
    const seen = await wendy.call(resourceApiPath(lines, 'list'), { limit: 1000 });
    expect(seen.body.code, seen.body.message).toBe(0);
    const ids = seen.body.data.list.map((r: Row) => r.id);
    expect(ids).toContain(inside.id);
    expect(ids).not.toContain(outside.id);
    // asking by the other document's key finds nothing, exactly as a key nobody has
    const asked = await wendy.call(resourceApiPath(lines, 'list'), { limit: 1000, [foreignKey]: outsideHeader.id });
    expect(asked.body.data.list).toEqual([]);
    const enabled = enabledCalls(lines);
    if (enabled.includes('base')) expect((await wendy.call(resourceApiPath(lines, 'base'), { id: outside.id })).body.code).toBe(10002);
    if (enabled.includes('update')) expect((await wendy.call(resourceApiPath(lines, 'update'), { id: outside.id })).body.code).toBe(10002);
    if (enabled.includes('delete')) expect((await wendy.call(resourceApiPath(lines, 'delete'), { id: outside.id })).body.code).toBe(10002);
    if (enabled.includes('export')) {
      const exported = await wendy.fetch(resourceApiPath(lines, 'export'), {});
      expect(exported.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await exported.arrayBuffer()) as never);
      expect(wb.worksheets[0].actualRowCount - 1).toBe(seen.body.data.total);
    }
    // plugins' set-based reads and writes carry the same scope (UPDATE and DELETE name the table unaliased)
    const repo = ts.server.repo(lines.name, { ...ts.server.systemContext(ts.orgA), warehouseIds: [w1] });
    expect(await repo.count({ id: [inside.id, outside.id] })).toBe(1);
    expect(await repo.updateWhere({ updatedBy: null }, { id: outside.id })).toBe(0);
    expect(await repo.deleteWhere({ id: outside.id })).toBe(0);
    expect(await repo.updateWhere({ updatedBy: null }, { id: inside.id })).toBe(1);
    // the unrestricted caller still reads it: the refusal above is the restriction
    expect((await ts.a.call(resourceApiPath(lines, 'list'), { limit: 1000, [foreignKey]: outsideHeader.id })).body.data.list.map((r: Row) => r.id)).toEqual([
      outside.id,
    ]);
  });
});
