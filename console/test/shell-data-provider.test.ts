import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { createDataProvider, filtersToBody, sortersToBody } from '../src/providers/data-provider';
import { ApiError, request, setInvalidSessionHandler } from '../src/providers/http-client';
import { initI18n } from '../src/i18n';
import { setCookie } from '../src/lib/cookies';
import { countedErrors, errorLog } from '../src/lib/error-log';

interface Call {
  url: string;
  body: unknown;
  headers: Record<string, string>;
}
let calls: Call[] = [];

function answer(status: number, body: unknown, type = 'application/json'): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined, headers: init.headers as Record<string, string> });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': type } });
    }),
  );
}
const ok = (data: unknown) => answer(200, { code: 0, message: 'Success', data });

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  calls = [];
  vi.unstubAllGlobals();
});

const gpsDef = { name: 'device-gps', calls: { basePath: 'get' } } as unknown as ResourceDef;
const dp = createDataProvider((n) => (n === 'device-gps' ? gpsDef : undefined));

describe('list mapping', () => {
  it('maps filters by operator: eq/contains as value, in as list, ranges as [from, to]', () => {
    expect(
      filtersToBody([
        { field: 'sn', operator: 'contains', value: 'B00' },
        { field: 'status', operator: 'in', value: [10, 20] },
        { field: 'useStatus', operator: 'eq', value: 20 },
        { field: 'createdAt', operator: 'gte', value: '2026-01-01' },
        { field: 'createdAt', operator: 'lte', value: '2026-02-01' },
        { field: 'startTime', operator: 'between', value: ['a', null] },
        { field: 'empty', operator: 'eq', value: '' },
        { field: 'none', operator: 'in', value: [] },
        { operator: 'or', value: [{ field: 'x', operator: 'eq', value: 1 }] },
      ]),
    ).toEqual({ sn: 'B00', status: [10, 20], useStatus: 20, createdAt: ['2026-01-01', '2026-02-01'], startTime: ['a', null] });
    expect(filtersToBody([{ field: 'createdAt', operator: 'lte', value: 5 }])).toEqual({ createdAt: [null, 5] });
  });

  it('maps sorters to sortBy<Field> booleans (asc = true)', () => {
    expect(
      sortersToBody([
        { field: 'sn', order: 'asc' },
        { field: 'createdAt', order: 'desc' },
      ]),
    ).toEqual({ sortBySn: true, sortByCreatedAt: false });
  });

  it('posts /<resource>/list with page, limit, filters and sorts; reads list and total', async () => {
    ok({ list: [{ id: 1 }], total: 31 });
    const res = await dp.getList({
      resource: 'device-beacon',
      pagination: { currentPage: 3, pageSize: 20 },
      filters: [{ field: 'sn', operator: 'contains', value: 'X' }],
      sorters: [{ field: 'sn', order: 'desc' }],
    });
    expect(calls[0].url).toBe('/api/device-beacon/list');
    expect(calls[0].body).toEqual({ sn: 'X', sortBySn: false, page: 3, limit: 20 });
    expect(res).toEqual({ data: [{ id: 1 }], total: 31 });
  });

  it('passes on a capped total (a lower bound the list shows as "more than")', async () => {
    ok({ list: [{ id: 1 }], total: 10000, totalCapped: true });
    expect(await dp.getList({ resource: 'device-beacon' })).toEqual({ data: [{ id: 1 }], total: 10000, totalCapped: true });
  });

  it('defaults to page 1 and 10 rows; pagination off uses /all', async () => {
    ok({ list: [], total: 0 });
    await dp.getList({ resource: 'role' });
    expect(calls[0].body).toEqual({ page: 1, limit: 10 });
    ok([{ id: 1 }, { id: 2 }]);
    const all = await dp.getList({ resource: 'role', pagination: { mode: 'off' } });
    expect(calls[1].url).toBe('/api/role/all');
    expect(all.total).toBe(2);
  });
});

describe('single-row calls', () => {
  it('getOne posts {id} to the base path, honouring calls.basePath', async () => {
    ok({ id: 4 });
    await dp.getOne({ resource: 'device-beacon', id: 4 });
    await dp.getOne({ resource: 'device-gps', id: 5 });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['/api/device-beacon', { id: 4 }],
      ['/api/device-gps/get', { id: 5 }],
    ]);
  });

  it('create, update, delete and custom call their paths', async () => {
    ok({ id: 9 });
    await dp.create({ resource: 'role', variables: { name: 'r' } });
    await dp.update({ resource: 'role', id: 9, variables: { name: 's' } });
    await dp.deleteOne({ resource: 'role', id: 9 });
    await dp.deleteMany!({ resource: 'role', ids: [1, 2] });
    await dp.custom!({ url: '/organization-token/create', method: 'post' });
    await dp.custom!({ url: '/api/organization-token', method: 'post', payload: { a: 1 } });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['/api/role/create', { name: 'r' }],
      ['/api/role/update', { name: 's', id: 9 }],
      ['/api/role/delete', { id: 9 }],
      ['/api/role/delete', { ids: [1, 2] }],
      ['/api/organization-token/create', undefined],
      ['/api/organization-token', { a: 1 }],
    ]);
  });
});

describe('transport', () => {
  it('sends Language, Token and OrgId headers', async () => {
    setCookie('token', 'tok');
    setCookie('org-id', '2');
    ok(null);
    await request('/x', {});
    expect(calls[0].headers).toMatchObject({ Language: 'en-US', Token: 'tok', OrgId: '2', 'Content-Type': 'application/json' });
  });

  it('turns a non-zero code into an ApiError with the server message and logs it', async () => {
    const before = errorLog.entries().length;
    answer(200, { code: 10003, message: 'SN already exists', data: null });
    const err = await request('/device-beacon/create', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('SN already exists');
    expect((err as ApiError).code).toBe(10003);
    expect(errorLog.entries().length).toBe(before + 1);
    expect(errorLog.entries()[0].message).toContain('SN already exists');
  });

  it('logs a validation refusal the user was shown without counting it as an error in the badge', async () => {
    const counted = countedErrors(errorLog.entries());
    const before = errorLog.entries().length;
    answer(200, { code: 10001, message: 'The format of SN is wrong', data: null });
    await expect(request('/device-beacon/create', {})).rejects.toMatchObject({ code: 10001 });
    expect(errorLog.entries().length).toBe(before + 1);
    expect(countedErrors(errorLog.entries())).toBe(counted);
    answer(500, { code: 10000, message: 'boom', data: null });
    await expect(request('/device-beacon/create', {})).rejects.toMatchObject({ statusCode: 500 });
    expect(countedErrors(errorLog.entries())).toBe(counted + 1);
  });

  it('code 10006 calls the invalid-session handler', async () => {
    const handler = vi.fn();
    setInvalidSessionHandler(handler);
    answer(401, { code: 10006, message: 'Session expired', data: null });
    await expect(request('/account/info')).rejects.toMatchObject({ code: 10006, statusCode: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    setInvalidSessionHandler(() => undefined);
  });

  it('HTTP failures carry the SPEC §8 message, the 404 one with the URL', async () => {
    answer(404, 'nope', 'text/plain');
    await expect(request('/missing')).rejects.toMatchObject({ statusCode: 404, message: 'Request address wrong: /api/missing' });
    answer(502, '', 'text/html');
    await expect(request('/x')).rejects.toMatchObject({ statusCode: 502, message: 'Bad gateway' });
    answer(403, { code: 10005, message: 'No permission for ApiRoleDelete', data: null });
    await expect(request('/role/delete')).rejects.toMatchObject({ statusCode: 403, code: 10005, message: 'Access denied: No permission for ApiRoleDelete' });
  });

  it('times out after the request time-out with the 408 message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))))),
    );
    await expect(request('/slow', {}, { timeoutMs: 20 })).rejects.toMatchObject({ statusCode: 408, message: 'Request timeout' });
  });

  it('a request cancelled by its caller is not logged as an error', async () => {
    const before = errorLog.entries().length;
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))))),
    );
    const ctrl = new AbortController();
    const pending = request('/device-beacon/list', {}, { signal: ctrl.signal });
    ctrl.abort();
    await expect(pending).rejects.toMatchObject({ message: 'aborted' });
    expect(errorLog.entries().length).toBe(before);
  });

  it('calls cut because the page is being left are not logged; after coming back they are again', async () => {
    const before = errorLog.entries().length;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    window.dispatchEvent(new Event('pagehide'));
    await expect(request('/dashboard', {})).rejects.toMatchObject({ statusCode: 0 });
    expect(errorLog.entries().length).toBe(before);
    window.dispatchEvent(new Event('pageshow'));
    await expect(request('/dashboard', {})).rejects.toMatchObject({ statusCode: 0 });
    expect(errorLog.entries().length).toBe(before + 1);
  });

  it('returns blobs for file answers', async () => {
    answer(200, 'xlsx-bytes', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const blob = await request<Blob>('/role/export', {}, { blob: true });
    expect(await blob.text()).toBe('xlsx-bytes');
  });
});

describe('resources under an API prefix', () => {
  const logDef = { name: 'operation-log', apiPath: '/log/operation' } as unknown as ResourceDef;
  const logs = createDataProvider((n) => (n === 'operation-log' ? logDef : undefined));

  it('calls list/create/update/delete under apiPath, with integer ids from route params', async () => {
    ok({ list: [], total: 0 });
    await logs.getList({ resource: 'operation-log' });
    expect(calls[0].url).toBe('/api/log/operation/list');
    ok({ id: 7 });
    await logs.update({ resource: 'operation-log', id: '7', variables: { remark: 'x' } });
    expect(calls[1]).toMatchObject({ url: '/api/log/operation/update', body: { remark: 'x', id: 7 } });
    ok({ deleted: 2 });
    await logs.deleteMany!({ resource: 'operation-log', ids: ['8', '9'] });
    expect(calls[2]).toMatchObject({ url: '/api/log/operation/delete', body: { ids: [8, 9] } });
    ok({ id: 5 });
    await logs.getOne({ resource: 'operation-log', id: '5' });
    expect(calls[3]).toMatchObject({ url: '/api/log/operation', body: { id: 5 } });
  });
});
