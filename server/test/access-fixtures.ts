/**
 * Shared set-up of the access tests: one row of every resource in each of the two
 * organisations of the test server, created through the real calls.
 */
import { resourceApiPath, resourceApiPrefix, type ResourceDef } from '@rti/metadata';
import { creationOrder, sampleBody } from './support/samples';
import { sourceReady } from './support/fixtures';
import type { Caller, TestServer } from './support/test-server';

export type Row = Record<string, unknown> & { id: number };

export interface OrgRows {
  /** resource name → the row of organisation A / B */
  a: Record<string, Row>;
  b: Record<string, Row>;
  /** second row ids (targets of "must be different" refs) per organisation */
  second: Record<'a' | 'b', Record<string, number>>;
}

const ownsItself = (res: ResourceDef) => res.orgField === 'id';

export async function rowsInBothOrgs(ts: TestServer): Promise<OrgRows> {
  const out: OrgRows = { a: {}, b: {}, second: { a: {}, b: {} } };
  const refs: Record<'a' | 'b', Record<string, number>> = { a: { organization: ts.orgA }, b: { organization: ts.orgB } };
  const others = out.second;
  // targets of "must be different" refs (from/to) need a second row
  const secondNeeded = new Set<string>();
  for (const res of Object.values(ts.server.metadata.resources)) {
    for (const rule of res.rules?.compare ?? []) {
      const f = res.fields.find((x) => x.name === rule.right);
      if (rule.kind === 'different' && f?.ref) secondNeeded.add(f.ref.resource);
    }
    // so do targets of a line's unique key within its document (a second line needs another)
    for (const c of res.children ?? []) {
      const line = ts.server.metadata.resources[c.resource];
      for (const k of c.uniqueKeys ?? []) {
        const target = line?.fields.find((f) => f.name === k)?.ref?.resource;
        if (target) secondNeeded.add(target);
      }
    }
  }
  let n = 1;
  for (const res of creationOrder(ts.server.metadata)) {
    for (const side of ['a', 'b'] as const) {
      const caller: Caller = ts[side];
      if (ownsItself(res)) {
        const got = await caller.call(resourceApiPath(res, 'base'), { id: caller.orgId });
        if (got.body.code !== 0) throw new Error(`${res.name}: own row not readable: ${got.body.message}`);
        out[side][res.name] = got.body.data as Row;
        continue;
      }
      // a document made from a source gets a source row of its own in an allowed status
      const refsHere = await sourceReady(ts, caller, res.name, refs[side], others[side], 9000 + n * 7 + (side === 'a' ? 0 : 3));
      const body = sampleBody(res, ts.server.metadata, n++ * 7 + (side === 'a' ? 0 : 3), refsHere, others[side]);
      const row = await createRow(ts, caller, res, body);
      out[side][res.name] = row;
      refs[side][res.name] = row.id;
      if (secondNeeded.has(res.name)) {
        const extra = await caller.call(resourceApiPath(res, 'create'), sampleBody(res, ts.server.metadata, 5000 + n++, refsHere, others[side]));
        if (extra.body.code !== 0) throw new Error(`${res.name}/create (second row) in org ${side}: ${extra.body.message}`);
        others[side][res.name] = (extra.body.data as Row).id;
      }
    }
  }
  return out;
}

/** The suffix of a generated call of a resource ('' = base call). */
export function callSuffix(res: ResourceDef, path: string): string {
  const base = resourceApiPrefix(res);
  if (path === base) return '';
  return path.slice(base.length + 1);
}

/**
 * Creates a row in the caller's organisation through the create call, or — for rows only the
 * system writes (logs: create disabled) — directly in the table, read back through the list call.
 */
export async function createRow(ts: TestServer, caller: Caller, res: ResourceDef, body: Record<string, unknown>): Promise<Row> {
  if (res.calls?.create !== false) {
    const created = await caller.call(resourceApiPath(res, 'create'), body);
    if (created.body.code !== 0) throw new Error(`${res.name}/create in org ${caller.orgId}: ${created.body.message}`);
    return created.body.data as Row;
  }
  const model = ts.server.db.sequelize.models[res.name];
  const owner = res.orgScoped ? { [res.orgField ?? 'orgId']: caller.orgId } : {};
  const inserted = await model.create({ ...body, ...owner });
  const id = Number(inserted.get('id'));
  if (res.calls?.list === false) return inserted.get({ plain: true }) as Row; // no call reads it: nothing to compare
  const read = await caller.call(resourceApiPath(res, 'list'), { limit: 1000 });
  const row = (read.body.data?.list as Row[] | undefined)?.find((r) => r.id === id);
  if (!row) throw new Error(`${res.name}: inserted row ${id} not listed in org ${caller.orgId}: ${read.body.message}`);
  return row;
}
