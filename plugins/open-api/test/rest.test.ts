/**
 * The REST API as an integrator meets it: `@refinedev/simple-rest`'s data provider, unchanged,
 * lists, reads, creates, updates and deletes through /rest/v1 with a named token; bad input
 * answers proper statuses with a JSON error in the caller's language.
 */
import dataProvider, { axiosInstance } from '@refinedev/simple-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let token: string;
const RES = 'supplier-customer';

const rest = (path: string, init: RequestInit & { token?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  const tk = init.token === undefined ? token : init.token;
  if (tk) headers.set('Authorization', `Bearer ${tk}`);
  if (init.body && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return fetch(`${ts.url}/rest/v1${path}`, { ...init, headers });
};

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['open-api'] });
  const made = await ts.a.call<any>('/open-api-token/create', { name: 'portal' });
  expect(made.body.code, made.body.message).toBe(0);
  token = made.body.data.token;
  for (let i = 1; i <= 25; i++) {
    const r = await ts.a.call(`/${RES}/create`, { type: 10, name: `Partner ${String(i).padStart(2, '0')}`, entCode: `P${i}` });
    expect(r.body.code, r.body.message).toBe(0);
  }
  await ts.b.call(`/${RES}/create`, { type: 10, name: 'Partner of B', entCode: 'PB' });
});
afterAll(() => ts?.close());

describe('simple-rest data provider, unchanged', () => {
  // the provider with its own HTTP client (and its error mapping: message, statusCode), given the token as any integrator would
  const client = () => {
    axiosInstance.defaults.headers.common.Authorization = `Bearer ${token}`;
    return dataProvider(`${ts.url}/rest/v1`);
  };

  it('lists pages with totals, sorts and filters', async () => {
    const dp = client();
    const page = await dp.getList({ resource: RES, pagination: { currentPage: 2, pageSize: 10 }, sorters: [{ field: 'name', order: 'asc' }] });
    expect(page.total).toBe(25);
    expect(page.data.map((r: any) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Partner ${String(i + 11).padStart(2, '0')}`));
    const desc = await dp.getList({ resource: RES, pagination: { currentPage: 1, pageSize: 5 }, sorters: [{ field: 'name', order: 'desc' }] });
    expect(desc.data[0].name).toBe('Partner 25');
    const filtered = await dp.getList({
      resource: RES,
      filters: [{ field: 'name', operator: 'contains', value: 'ner 2' }],
      pagination: { currentPage: 1, pageSize: 10 },
    });
    expect(filtered.total).toBe(6);
    // never another organisation's rows
    const all = await dp.getList({ resource: RES, pagination: { currentPage: 1, pageSize: 100 } });
    expect(all.data.some((r: any) => r.name === 'Partner of B')).toBe(false);
  });

  it('gets one, creates (201, then reads it back), updates, deletes', async () => {
    const dp = client();
    const created = await dp.create({ resource: RES, variables: { type: 10, name: 'New partner', entCode: 'NEW1' } });
    expect(created.data).toMatchObject({ id: expect.any(Number), name: 'New partner' });
    const one = await dp.getOne({ resource: RES, id: created.data.id as number });
    expect(one.data.name).toBe('New partner');
    const many = await dp.getMany!({ resource: RES, ids: [created.data.id as number] });
    expect(many.data).toHaveLength(1);
    const updated = await dp.update({ resource: RES, id: created.data.id as number, variables: { ...one.data, name: 'Renamed partner' } });
    expect(updated.data.name).toBe('Renamed partner');
    await dp.deleteOne({ resource: RES, id: created.data.id as number });
    await expect(dp.getOne({ resource: RES, id: created.data.id as number })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('reports a refused create as an error (not a success), naming the field', async () => {
    const dp = client();
    await expect(dp.create({ resource: RES, variables: { type: 10 } })).rejects.toMatchObject({ statusCode: 422, message: expect.stringContaining('Name') });
  });
});

describe('REST conventions', () => {
  it('answers CORS with X-Total-Count exposed, and the preflight', async () => {
    const res = await rest(`/${RES}?_start=0&_end=3`, { headers: { Origin: 'https://portal.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('25');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Total-Count');
    expect(await res.json()).toHaveLength(3);
    const pre = await rest(`/${RES}`, { method: 'OPTIONS', token: null });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('filters by _gte/_lte and equality', async () => {
    const res = await rest(`/${RES}?available=true&_end=100`);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-total-count'))).toBe(25);
  });

  it('refuses bad filters, sorts and ranges with 400 naming them', async () => {
    const unknown = await rest(`/${RES}?colour=red`);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain('colour');
    const notFilterable = await rest(`/${RES}?shortName=x`, { headers: { 'Accept-Language': 'en-US' } });
    expect(notFilterable.status).toBe(400);
    const badSort = await rest(`/${RES}?_sort=remark`);
    expect(badSort.status).toBe(400);
    const badOp = await rest(`/${RES}?available_like=x`);
    expect(badOp.status).toBe(400);
    expect((await rest(`/${RES}?_start=5&_end=2`)).status).toBe(400);
    expect((await rest(`/${RES}?_start=-1`)).status).toBe(400);
    expect((await rest(`/${RES}?_end=5000`)).status).toBe(400);
  });

  it('refuses unknown fields (422) and names fields by label in the caller language', async () => {
    const res = await rest(`/${RES}`, { method: 'POST', body: JSON.stringify({ type: 10, name: 'X', colour: 'red' }) });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toContain('colour');
    const zh = await rest(`/${RES}`, { method: 'POST', body: JSON.stringify({ type: 10 }), headers: { 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.5' } });
    expect(zh.status).toBe(422);
    const body = await zh.json();
    expect(body.code).toBe(10001);
    expect(body.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers 404 for other organisations ids (never a leak), 409 for duplicates, 413 for oversized bodies, 400 for malformed JSON', async () => {
    const bRow = (await ts.b.call<any>(`/${RES}/list`, {})).body.data.list[0];
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await rest(`/${RES}/${bRow.id}`, { method, body: method === 'PATCH' ? JSON.stringify({ name: 'stolen' }) : undefined });
      expect(res.status, method).toBe(404);
      expect(JSON.stringify(await res.json())).not.toContain('Partner of B');
    }
    expect((await rest(`/${RES}/99999999`)).status).toBe(404);
    expect((await ts.b.call<any>(`/${RES}/list`, {})).body.data.list[0].name).toBe('Partner of B');
    const dup = await rest(`/${RES}`, { method: 'POST', body: JSON.stringify({ type: 10, name: 'Partner 01' }) });
    expect(dup.status).toBe(409);
    const big = await rest(`/${RES}`, { method: 'POST', body: JSON.stringify({ type: 10, name: 'x', remark: 'y'.repeat(2 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    const bad = await rest(`/${RES}`, { method: 'POST', body: '{"type":' });
    expect(bad.status).toBe(400);
    expect((await rest('/no-such-thing')).status).toBe(404);
    expect((await rest(`/${RES}/abc`)).status).toBe(404);
  });

  it('answers 401 without a valid token', async () => {
    const none = await rest(`/${RES}`, { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await rest(`/${RES}`, { token: 'rtk_nope' })).status).toBe(401);
  });
});

describe('OpenAPI document and docs page', () => {
  it('describes every resource from the metadata', async () => {
    const res = await fetch(`${ts.url}/rest/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const name of Object.keys(ts.server.metadata.resources)) expect(Object.keys(doc.components.schemas)).toContain(name);
    expect(doc.paths[`/${RES}`].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['_start', '_end', '_sort', '_order', 'name', 'name_like']),
    );
    const page = await fetch(`${ts.url}/rest/v1/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('openapi.json');
    expect(html).not.toMatch(/<script[^>]+src=/);
  });
});
