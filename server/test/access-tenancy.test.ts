/**
 * Tenancy over every generated call of every resource: a user of organisation A never
 * reads, lists, exports, changes or deletes a row of organisation B, whatever ids, filters
 * or headers it sends; rows it creates always land in A. Every plugin call (all plugins
 * loaded) is re-run by the other organisation with the first one's ids in its body, and its
 * figures (counts, sums) must not move when the first organisation grows.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATUS_UPDATE_STEP,
  documentSavePath,
  loadMetadata,
  parentOf,
  resourceApiPath,
  resourceApiPrefix,
  resourceTransitions,
  statusCalls,
  type ResourceDef,
} from '@rti/metadata';
import { enabledCalls } from '../src/resources/calls';
import { callSuffix, createRow, rowsInBothOrgs, type OrgRows, type Row } from './access-fixtures';
import { creationOrder, sampleBody } from './support/samples';
import { sourceReady } from './support/fixtures';
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
        const refsHere = await sourceReady(ts, ts.a, res.name, refs, rows.second.a, 9700 + resources.indexOf(res));
        const made = await ts.a.call(call.path, {
          ...sampleBody(res, metadata, 9500 + resources.indexOf(res), refsHere, rows.second.a),
          orgId: ts.orgB,
          lines: {},
        });
        expect(made.body.code, made.body.message).toBe(0);
        expect(made.body.data.orgId).toBe(ts.orgA);
        expect((await ts.b.call(resourceApiPath(res, 'base'), { id: made.body.data.id })).body.code).toBe(10002);
        continue;
      }
      // a public one-record page (metadata publicLink): B's link opens B's row only, A gets no link
      // to it, and nothing but the token selects the row (an id of either side finds nothing)
      if (res.publicLink && (call.path === res.publicLink.page || call.path === `${resourceApiPrefix(res)}/info/link`)) {
        if (call.path !== res.publicLink.page) continue;
        const link = `${resourceApiPrefix(res)}/info/link`;
        expect((await ts.a.call(link, { id: b.id })).body.code, link).toBe(10002);
        const own = await ts.b.call(link, { id: b.id });
        expect(own.body.code, own.body.message).toBe(0);
        const token = new URL(own.body.data.path as string, 'http://x').searchParams.get('token');
        // the page's content is its module's reader (not loaded here: then "not found")
        expect([0, 10002]).toContain((await ts.call(call.path, { token })).body.code);
        for (const id of [a.id, b.id]) expect((await ts.a.call(call.path, { token: String(id), id })).body.code, call.path).not.toBe(0);
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
          const mark = res.fields.find(
            (f) =>
              ['string', 'text'].includes(f.type) &&
              !f.writeOnly &&
              typeof b[f.name] === 'string' &&
              (b[f.name] as string).length >= 3 &&
              a[f.name] !== b[f.name],
          )?.name;
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
          const refsHere = await sourceReady(ts, ts.a, res.name, refs, rows.second.a, 9800 + resources.indexOf(res));
          const body = { ...sampleBody(res, metadata, 9000 + resources.indexOf(res), refsHere, rows.second.a), orgId: ts.orgB };
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
        case 'import/preview': {
          // reads only the file sent (the mapping step): answers its header, writes nothing anywhere
          const template = await ts.a.fetch(resourceApiPath(res, 'import/template'), {});
          const form = new FormData();
          form.append('file', new Blob([await template.arrayBuffer()]), 'template.xlsx');
          const model = ts.server.db.models[res.name];
          const before = await model.count();
          const answer = await fetch(ts.url + '/api' + call.path, { method: 'POST', headers: { Token: ts.a.token, OrgId: String(ts.a.orgId) }, body: form });
          const body = (await answer.json()) as { code: number; message: string; data: { header: unknown[]; rows: unknown[] } };
          expect(body.code, body.message).toBe(0);
          expect(body.data.header.length).toBeGreaterThan(0);
          expect(await model.count()).toBe(before);
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
        case 'prefill': {
          // a document's source of another organisation is not found, and gives nothing
          const src = res.source!;
          expect((await ts.a.call(call.path, { [src.field]: rows.b[src.resource].id })).body.code, call.path).toBe(10002);
          break;
        }
        case 'scan':
        case 'batch/add': {
          // not onto B's document, whatever the keys
          const parent = parentOf(metadata, res.name)!;
          const got = await ts.a.call(call.path, {
            [parent.child.foreignKey]: rows.b[parent.header.name].id,
            keys: ['X-1'],
            sns: ['X-1'],
            carrierIds: [rows.b.carrier?.id ?? 1],
          });
          expect(got.body.code, call.path).toBe(10002);
          break;
        }
        case 'batch/update': {
          // B's lines keep their values
          const parent = parentOf(metadata, res.name)!;
          const value = parent.child.batch?.values?.[0] ?? 'remark';
          expect((await ts.a.call(call.path, { ids: [b.id], [value]: 'A-WAS-HERE' })).body.code, call.path).toBe(10002);
          break;
        }
        case 'batch/candidates': {
          // what B's document may take is B's business; A's picker offers none of B's rows
          const parent = parentOf(metadata, res.name)!;
          const fk = parent.child.foreignKey;
          expect((await ts.a.call(call.path, { [fk]: rows.b[parent.header.name].id, page: 1, limit: 100 })).body.code, call.path).toBe(10002);
          const own = await ts.a.call(call.path, { [fk]: rows.a[parent.header.name].id, page: 1, limit: 100 });
          expect(own.body.code, own.body.message).toBe(0);
          const target = res.fields.find((f) => f.name === parent.child.batch!.by.field)!.ref!.resource;
          expect((own.body.data.list as Row[]).map((r) => r.id)).not.toContain(rows.b[target]?.id);
          for (const r of own.body.data.list as Row[]) if (r.orgId !== undefined) expect(r.orgId).toBe(ts.orgA);
          break;
        }
        case 'print': {
          // B's document prints for B only; A's own comes back as a PDF
          expect((await ts.a.call(call.path, { id: b.id })).body.code, call.path).toBe(10002);
          const pdf = await ts.a.fetch(call.path, { id: a.id });
          expect(pdf.headers.get('content-type'), call.path).toBe('application/pdf');
          await pdf.arrayBuffer();
          break;
        }
        case 'timeline':
          // who ran which step when: only of a row in the caller's scope, like base
          expect((await ts.a.call(call.path, { id: a.id })).body.code, call.path).toBe(0);
          expect((await ts.a.call(call.path, { id: b.id })).body.code, call.path).toBe(10002);
          break;
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

/**
 * Every plugin call, re-run as organisation B with organisation A's ids in the body: each body
 * key a handler reads is filled from A's rows (ids of the call's resource and of the resources
 * `<name>Id(s)` refers to, A's texts for text fields such as sn), round after round while the
 * handler reads keys not yet filled. No answer may carry a row of A (its organisation or a
 * text only A's rows hold), and no row of A may change.
 */
describe('plugin calls as another organisation', () => {
  let tp: TestServer;
  let prow: OrgRows;
  /** body keys each plugin handler read */
  const readKeys = new Map<string, Set<string>>();
  /** the body each plugin call was last sent with (B's ids and A's, filled from what it read) */
  const finalBodies = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    // the demo fleet simulator provisions rows into the first organisation a few seconds after start
    const simulator = process.env.SIMULATOR_DEVICES;
    process.env.SIMULATOR_DEVICES = '0';
    try {
      tp = await startTestServer({ metadata, plugins: true });
    } finally {
      if (simulator === undefined) delete process.env.SIMULATOR_DEVICES;
      else process.env.SIMULATOR_DEVICES = simulator;
    }
    for (const def of tp.server.calls.list()) {
      if (!def.plugin) continue;
      const handler = def.handler;
      const seen = readKeys.set(def.path, new Set()).get(def.path)!;
      const note = (key: string | symbol) => void (typeof key === 'string' && seen.add(key));
      def.handler = (input) =>
        handler({
          ...input,
          body: new Proxy(input.body, {
            get: (target, key, receiver) => (note(key), Reflect.get(target, key, receiver)),
            has: (target, key) => (note(key), Reflect.has(target, key)),
            getOwnPropertyDescriptor: (target, key) => (note(key), Reflect.getOwnPropertyDescriptor(target, key)),
          }),
        });
    }
    prow = await tolerantRows(tp);
    // the plugins' own domain rules may refuse a generic sample row; most resources still have one
    expect(Object.keys(prow.a).length).toBeGreaterThan(resources.length * 0.8);
  }, 180_000);

  /** A sample body without its optional references (a domain rule may refuse the ones it names). */
  function bareOf(res: ResourceDef, body: Record<string, unknown>): Record<string, unknown> {
    for (const f of res.fields)
      if ((f.type === 'ref' || f.type === 'refs') && !f.required && !(res.rules?.compare ?? []).some((r) => r.left === f.name || r.right === f.name))
        delete body[f.name];
    return body;
  }

  /**
   * Two rows of every resource in each organisation, like rowsInBothOrgs, but with the plugins'
   * domain rules live: a body a rule refuses (a device bound twice, a line naming its header's
   * carrier) is retried on the second rows of its references, then without optional references.
   */
  async function tolerantRows(t: TestServer): Promise<OrgRows> {
    const out: OrgRows = { a: {}, b: {}, second: { a: {}, b: {} } };
    const refs: Record<'a' | 'b', Record<string, number>> = { a: { organization: t.orgA }, b: { organization: t.orgB } };
    let n = 1;
    for (const res of creationOrder(metadata)) {
      for (const side of ['a', 'b'] as const) {
        const caller = t[side];
        if (res.orgField === 'id') {
          out[side][res.name] = (await caller.call(resourceApiPath(res, 'base'), { id: caller.orgId })).body.data as Row;
          continue;
        }
        for (const which of ['first', 'second'] as const) {
          const seed = n++ * 7 + (side === 'a' ? 0 : 3);
          const second = out.second[side];
          const bare = (body: Record<string, unknown>) => bareOf(res, body);
          const attempts = [
            () => sampleBody(res, metadata, seed, refs[side], second),
            () => sampleBody(res, metadata, seed + 1, { ...refs[side], ...second }, refs[side]),
            () => bare(sampleBody(res, metadata, seed + 2, { ...refs[side], ...second }, refs[side])),
          ];
          let row: Row | null = null;
          for (const attempt of attempts) {
            // a resource whose required reference could not be made is skipped (sampleBody throws)
            row = await (async () => createRow(t, caller, res, attempt()))().catch(() => null);
            if (row) break;
          }
          if (!row) continue;
          if (which === 'first') {
            out[side][res.name] = row;
            refs[side][res.name] = row.id;
          } else second[res.name] = row.id;
        }
      }
    }
    return out;
  }
  afterAll(() => tp?.close());

  /** Every row of an organisation, per resource, as the database holds it. */
  async function snapshot(orgId: number): Promise<Record<string, Row[]>> {
    await tp.server.audit.flush(); // request and operation logs are written in batches
    const out: Record<string, Row[]> = {};
    for (const res of resources) {
      const orgField = orgFieldOf(res);
      if (!orgField) continue;
      const model = tp.server.db.models[res.name];
      out[res.name] = (await model.findAll({ where: { [orgField]: orgId }, order: [['id', 'ASC']], raw: true })) as unknown as Row[];
    }
    return out;
  }

  /** The resource whose rows a key names: `carrierId` → carrier, `gpsIds` → device-gps (the metadata's refs). */
  const refTargets = new Map<string, string>();
  for (const res of resources) for (const f of res.fields) if (f.ref && f.type === 'ref' && !refTargets.has(f.name)) refTargets.set(f.name, f.ref.resource);
  const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

  /** A's value for a body key, or undefined when the key names nothing of A. */
  function fill(key: string, own: string | undefined): unknown {
    const a = prow.a;
    const idOf = (resource: string | undefined) => (resource && a[resource] ? a[resource].id : undefined);
    if (key === 'orgId') return tp.orgA;
    if (key === 'id') return idOf(own);
    if (key === 'ids') return own && a[own] ? [a[own].id] : undefined;
    const one = /^(.+)Ids$/.exec(key);
    if (one) {
      const id = idOf(refTargets.get(`${one[1]}Id`) ?? kebab(one[1]));
      return id === undefined ? undefined : [id];
    }
    if (key.endsWith('Id')) return idOf(refTargets.get(key) ?? kebab(key.slice(0, -2)));
    // a list of rows of a resource (`carriers: [{ sn, … }]`): A's row by its id and identifying texts
    const listed = key.endsWith('s') ? kebab(key.slice(0, -1)) : null;
    if (listed && a[listed] && metadata.resources[listed]) {
      const res = metadata.resources[listed];
      const keys = res.fields.filter((f) => f.name === res.titleField || f.unique).map((f) => f.name);
      return [Object.fromEntries([['id', a[listed].id], ...keys.map((k) => [k, a[listed][k]])])];
    }
    // texts that identify a row (sn, code, orderNo…): the call's own resource first
    const plural = key.endsWith('s') ? key.slice(0, -1) : null;
    for (const res of [own, ...Object.keys(a)]) {
      const row = res ? a[res] : undefined;
      const def = res ? metadata.resources[res] : undefined;
      if (!row || !def) continue;
      for (const name of [key, plural]) {
        const f = name && def.fields.find((x) => x.name === name && (x.type === 'string' || x.type === 'text'));
        if (f && typeof row[f.name] === 'string' && row[f.name]) return name === key ? row[f.name] : [row[f.name]];
      }
    }
    return undefined;
  }

  /**
   * Strings that identify a row of A and no row of B (titles and unique texts: sn, codes, names,
   * order numbers, user names — the operator of A's log rows), to find A's rows in any answer.
   * Free texts and logs' titles (paths, messages) are shared by both organisations' rows.
   */
  function marksOf(a: Record<string, Row[]>, b: Record<string, Row[]>): Set<string> {
    const texts = (snap: Record<string, Row[]>) => {
      const out = new Set<string>();
      for (const [name, list] of Object.entries(snap)) {
        const res = metadata.resources[name];
        if (res.calls?.create === false) continue; // system-written logs: their titles (request paths) are shared
        const fields = res.fields.filter((f) => (f.type === 'string' || f.type === 'text') && !f.writeOnly && (f.name === res.titleField || f.unique));
        for (const r of list) for (const f of fields) if (typeof r[f.name] === 'string' && (r[f.name] as string).length >= 4) out.add(r[f.name] as string);
      }
      return out;
    };
    const fromB = texts(b);
    return new Set([...texts(a)].filter((t) => !fromB.has(t)));
  }

  /** Every string value and organisation id in an answer (JSON, or the cells of a workbook). */
  async function answerOf(res: Response): Promise<{ kind: string; strings: string[]; orgIds: number[]; code?: number }> {
    const type = res.headers.get('content-type') ?? '';
    const strings: string[] = [];
    const orgIds: number[] = [];
    if (type.includes('json')) {
      const body = (await res.json()) as { code: number };
      const walk = (v: unknown, key?: string) => {
        if (typeof v === 'string') strings.push(v);
        else if (typeof v === 'number' && key === 'orgId') orgIds.push(v);
        else if (Array.isArray(v)) for (const x of v) walk(x, key);
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
      };
      walk(body);
      return { kind: 'json', strings, orgIds, code: body.code };
    }
    if (type.includes('spreadsheetml')) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => void strings.push(String(c.text ?? c.value)))));
      return { kind: 'xlsx', strings, orgIds };
    }
    await res.body?.cancel();
    return { kind: type.split(';')[0] || 'empty', strings, orgIds };
  }

  it('answers no row of the first organisation and changes nothing of it', async () => {
    const calls = tp.server.calls.list().filter((c) => c.plugin && !c.public);
    expect(calls.length).toBeGreaterThan(50);
    const before = await snapshot(tp.orgA);
    const marks = marksOf(before, await snapshot(tp.orgB));
    expect(marks.size).toBeGreaterThan(20);
    const tally = { calls: 0, requests: 0, filled: 0, refused: 0, answered: 0, files: 0, other: 0 };
    for (const call of calls) {
      tally.calls++;
      const own = call.resource ?? call.path.split('/')[1];
      const body: Record<string, unknown> = {};
      // round after round: fill what the handler read, until it reads nothing new that names A's rows
      for (let round = 0; round < 5; round++) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 15_000);
        let answer: Awaited<ReturnType<typeof answerOf>>;
        try {
          const headers = { 'Content-Type': 'application/json', Token: tp.b.token, OrgId: String(tp.b.orgId) };
          answer = await answerOf(await fetch(`${tp.url}/api${call.path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal }));
        } catch (err) {
          if (controller.signal.aborted) break; // a stream (live events) or a slow call: nothing came back
          throw err;
        } finally {
          clearTimeout(timer);
        }
        tally.requests++;
        if (answer.kind === 'json') tally[answer.code === 0 ? 'answered' : 'refused']++;
        else if (answer.kind === 'xlsx') tally.files++;
        else tally.other++;
        // what B itself sent may come back (a refusal naming the sn it did not find)
        const sent = new Set<string>();
        const collect = (v: unknown): void => void (typeof v === 'string' ? sent.add(v) : v && typeof v === 'object' && Object.values(v).forEach(collect));
        collect(body);
        const leaked = answer.strings.filter((s) => marks.has(s) && !sent.has(s));
        expect(leaked, `${call.path} ${JSON.stringify(body)}`).toEqual([]);
        expect(answer.orgIds, `${call.path} ${JSON.stringify(body)}`).not.toContain(tp.orgA);
        let added = false;
        for (const key of readKeys.get(call.path) ?? []) {
          if (key in body) continue;
          const v = fill(key, own);
          if (v === undefined) continue;
          body[key] = v;
          added = true;
          tally.filled++;
        }
        if (!added) break;
      }
      finalBodies.set(call.path, body);
    }
    // B's caller still works, and nothing of A changed (nor was anything added to A)
    expect((await tp.b.call('/permission/list', {})).body.code).toBe(0);
    const after = await snapshot(tp.orgA);
    for (const name of Object.keys(before)) expect(after[name], `${name} of the first organisation`).toEqual(before[name]);
    console.info(`[tenancy] plugin calls as organisation B: ${JSON.stringify(tally)}`);
    expect(tally.filled).toBeGreaterThan(calls.length / 4);
  }, 600_000);

  /** Every number of a JSON answer by its path (and every list's length), null for a refusal or a file. */
  async function numbersOf(path: string, body: Record<string, unknown>): Promise<Map<string, number> | null> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      const headers = { 'Content-Type': 'application/json', Token: tp.b.token, OrgId: String(tp.b.orgId) };
      const res = await fetch(`${tp.url}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
      if (!(res.headers.get('content-type') ?? '').includes('json')) {
        await res.body?.cancel();
        return null;
      }
      const answer = (await res.json()) as { code: number; data: unknown };
      if (answer.code !== 0) return null;
      const out = new Map<string, number>();
      const walk = (v: unknown, at: string) => {
        if (typeof v === 'number') out.set(at, v);
        else if (Array.isArray(v)) {
          out.set(`${at}.length`, v.length);
          v.forEach((x, i) => walk(x, `${at}[${i}]`));
        } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
      };
      walk(answer.data, '');
      return out;
    } catch {
      return null; // a stream (live events) or a slow call: no figures to compare
    } finally {
      clearTimeout(timer);
    }
  }

  /** One more row of every resource in the first organisation (what it may create), through the calls. */
  async function growFirstOrganisation(): Promise<{ made: number; missed: string[] }> {
    let made = 0;
    const missed: string[] = [];
    const refs: Record<string, number> = { organization: tp.orgA };
    for (const [name, row] of Object.entries(prow.a)) refs[name] = row.id;
    const fresh: Record<string, number> = {};
    let n = 0;
    for (const res of creationOrder(metadata)) {
      if (res.orgField === 'id' || !prow.a[res.name]) continue;
      const seed = 7001 + n * 13;
      const second = prow.second.a;
      // as tolerantRows: the plugins' rules may refuse a sample (a beacon bound twice); the rows this
      // pass made first (a new carrier has no open maintenance record, bind order or asset transfer
      // yet; a new carrier code no route line), then other references, then none
      const attempts = [
        () => sampleBody(res, metadata, seed, { ...refs, ...fresh }, second),
        () => sampleBody(res, metadata, seed, refs, second),
        () => sampleBody(res, metadata, seed + 1, { ...refs, ...second }, refs),
        () => bareOf(res, sampleBody(res, metadata, seed + 2, { ...refs, ...second }, refs)),
      ];
      let row: Row | null = null;
      for (const attempt of attempts) {
        row = await (async () => createRow(tp, tp.a, res, attempt()))().catch(() => null);
        if (row) break;
      }
      if (row) {
        made++;
        fresh[res.name] = Number(row.id);
      } else missed.push(res.name);
      n++;
    }
    return { made, missed };
  }

  /**
   * Counts, sums and other figures a plugin call answers are under tenancy too: a grouped count
   * rewritten as raw SQL without the organisation filter carries no row of A (no text, no
   * organisation id) but changes when A grows. Each call is asked as B twice (the figures that
   * move on their own — times, B's own logs — are left out), then the first organisation gets
   * one more row of every resource, and B's figures must not move.
   */
  it('answers the same counts and sums whatever the first organisation holds', async () => {
    // the server machine's own figures (disk, memory, CPU samples) move on their own and are no organisation's
    const HOST_FIGURES = /^\/system-inspection\//;
    const calls = tp.server.calls.list().filter((c) => c.plugin && !c.public && !HOST_FIGURES.test(c.path));
    const probes = calls.flatMap((c) => {
      const last = finalBodies.get(c.path);
      return [{ path: c.path, body: {} as Record<string, unknown> }, ...(last && Object.keys(last).length ? [{ path: c.path, body: last }] : [])];
    });
    const pass = async () => {
      const out = new Map<number, Map<string, number> | null>();
      for (const [i, p] of probes.entries()) out.set(i, await numbersOf(p.path, p.body));
      return out;
    };
    const first = await pass();
    const second = await pass();
    const { made: grown, missed } = await growFirstOrganisation();
    expect(grown).toBeGreaterThan(resources.length * 0.5);
    // the resources plugins count most must have grown
    for (const name of ['carrier', 'warehouse', 'device-beacon', 'ship-order']) expect(missed, name).not.toContain(name);
    // and every resource: a figure over one that did not grow could leak unseen
    expect(missed).toEqual([]);
    await tp.server.audit.flush();
    const third = await pass();
    const leaks: string[] = [];
    const compared = new Set<string>();
    for (const [i, p] of probes.entries()) {
      const [a, b, c] = [first.get(i), second.get(i), third.get(i)];
      if (!a || !b || !c) continue;
      for (const [at, v] of b) {
        if (a.get(at) !== v || !c.has(at)) continue; // moves on its own, or gone
        compared.add(p.path);
        if (c.get(at) !== v) leaks.push(`${p.path} ${JSON.stringify(p.body).slice(0, 120)} ${at || '(data)'}: ${v} → ${c.get(at)}`);
      }
    }
    console.info(
      `[tenancy] figures of ${compared.size} plugin calls compared before and after the first organisation grew by ${grown} rows (not grown: ${missed.join(', ') || 'none'})`,
    );
    expect(leaks.slice(0, 20), 'figures of organisation B that moved when organisation A grew').toEqual([]);
    expect(compared.size).toBeGreaterThan(20);
  }, 600_000);
});
