import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/http/api-error';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
const errors: unknown[] = [];

beforeAll(async () => {
  ts = await startTestServer({ logError: (_m, err) => void errors.push(err) });
  ts.server.calls.add({
    path: '/test/boom',
    permission: null,
    handler: () => {
      throw new Error('secret internal detail');
    },
  });
  ts.server.calls.add({
    path: '/test/refuse',
    permission: null,
    handler: () => {
      throw new ApiError(10004, 'rules.deviceEnabledNoDelete');
    },
  });
  ts.server.calls.add({ path: '/test/echo', permission: null, handler: ({ body, ctx }) => ({ body, orgId: ctx.orgId, language: ctx.language }) });
  ts.server.calls.add({ path: '/test/guarded', permission: 'ApiTestGuardedCode', handler: () => 'never' });
  // an export that fails before its first byte, and one that fails after it
  ts.server.calls.add({
    path: '/test/export-early',
    permission: null,
    handler: ({ res }) => {
      res.setHeader('Content-Disposition', 'attachment; filename="x.xlsx"');
      throw new Error('failed before the first byte');
    },
  });
  ts.server.calls.add({
    path: '/test/export-late',
    permission: null,
    handler: async ({ res }) => {
      res.status(200).setHeader('Content-Type', 'application/octet-stream');
      res.write(Buffer.alloc(64 * 1024, 1));
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('failed after the first byte');
    },
  });
});
afterAll(() => ts?.close());

const noStack = (text: string) => {
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toMatch(/<html|<!DOCTYPE/i);
};

describe('envelope', () => {
  it('wraps success as {code 0, translated message, data}', async () => {
    const en = await ts.a.call('/test/echo', { x: 1 });
    expect(en.status).toBe(200);
    expect(en.body).toEqual({ code: 0, message: 'Success', data: { body: { x: 1 }, orgId: ts.orgA, language: 'en-US' } });
    const zh = await ts.a.call('/test/echo', {}, { language: 'zh-CN' });
    expect(zh.body.message).toBe('成功');
    expect(zh.body.data.language).toBe('zh-CN');
    const ja = await ts.a.call('/test/echo', {}, { language: 'ja-JP' });
    expect(ja.body.message).toBe('成功しました');
  });

  it('defaults to en-US for a missing or unknown language', async () => {
    expect((await ts.a.call('/test/echo', {}, { language: 'fr-FR' })).body.data.language).toBe('en-US');
  });

  it('answers an unknown call with 404 / 10013 naming the path', async () => {
    const r = await ts.a.call('/no/such/call', {});
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(10013);
    expect(r.body.message).toContain('/api/no/such/call');
    const zh = await ts.a.call('/no/such/call', {}, { language: 'zh-CN' });
    expect(zh.body.message).toContain('未知的接口');
  });

  it('answers GET and other methods under /api with a JSON envelope, never HTML', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      for (const path of ['/metadata', '/device-beacon/list', '/x']) {
        const res = await ts.request(path, undefined, { method, token: ts.a.token });
        const text = await res.text();
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(JSON.parse(text).code).toBe(10013);
        noStack(text);
      }
    }
  });

  it('refuses malformed JSON with 400 / 10012', async () => {
    const r = await ts.a.call('/device-beacon/list', undefined, { rawBody: '{"page": 1,' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10012);
    noStack(r.text);
    const ja = await ts.a.call('/device-beacon/list', undefined, { rawBody: '{oops', language: 'ja-JP' });
    expect(ja.body.message).toContain('JSON');
    expect(ja.body.message).not.toBe(r.body.message);
  });

  it('refuses a body that is not an object with 400 / 10001', async () => {
    const r = await ts.a.call('/device-beacon/list', undefined, { rawBody: '[1,2]' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10001);
  });

  it('refuses an oversized body with 413 / 10011', async () => {
    const big = JSON.stringify({ remark: 'x'.repeat(1024 * 1024 + 10) });
    const r = await ts.a.call('/device-beacon/create', undefined, { rawBody: big });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe(10011);
    expect(r.body.message).toContain('1mb');
    noStack(r.text);
  });

  it('hides unexpected errors behind 10000 and logs them server-side', async () => {
    errors.length = 0;
    const r = await ts.a.call('/test/boom', {});
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 10000, message: 'Internal server error, please try again later', data: null });
    expect(r.text).not.toContain('secret internal detail');
    noStack(r.text);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('secret internal detail');
  });

  it('translates ApiError message keys in the caller language', async () => {
    const en = await ts.a.call('/test/refuse', {});
    const zh = await ts.a.call('/test/refuse', {}, { language: 'zh-CN' });
    expect(en.status).toBe(200);
    expect(en.body.code).toBe(10004);
    expect(en.body.message).toBe(ts.server.t('en-US', 'rules.deviceEnabledNoDelete'));
    expect(zh.body.message).toBe(ts.server.t('zh-CN', 'rules.deviceEnabledNoDelete'));
    expect(zh.body.message).not.toBe(en.body.message);
  });
});

describe('guard', () => {
  it('asks for a session on every non-public call (401 / 10006)', async () => {
    for (const path of ['/metadata', '/device-beacon/list', '/test/echo']) {
      const r = await ts.call(path, {});
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(10006);
    }
    expect((await ts.call('/device-beacon/list', {}, { token: 'not-a-token' })).body.code).toBe(10006);
  });

  it('checks the call permission code (403 / 10005 when not held)', async () => {
    const r = await ts.a.call('/test/guarded', {});
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(10005);
  });

  it('derives a permission code for every call and lists them in one catalogue', () => {
    const codes = ts.server.listPermissionCodes();
    expect(codes).toContain('ApiDeviceBeaconList');
    expect(codes).toContain('ApiDeviceBeaconStatusUpdate');
    expect(codes).toContain('ApiRoleGet');
    expect(codes).toContain('ApiTestGuardedCode');
    expect(codes).not.toContain('ApiMetadata');
    expect(codes).not.toContain('ApiTestEcho');
  });
});

describe('/metadata', () => {
  it('returns resources, enums and menu to any signed-in caller', async () => {
    const r = await ts.a.call('/metadata', {});
    expect(r.body.code).toBe(0);
    expect(Object.keys(r.body.data.resources)).toEqual(Object.keys(ts.server.metadata.resources));
    expect(r.body.data.enums.deviceStatus.length).toBeGreaterThan(0);
    expect(r.body.data.menu.groups.length).toBeGreaterThan(0);
  });
});

describe('streamed answers that fail', () => {
  it('answers a plain envelope, not an attachment, when nothing was sent yet', async () => {
    const r = await ts.a.call('/test/export-early', {});
    expect(r.status).toBe(500);
    expect(r.body.code).toBe(10000);
    expect(r.headers.get('content-disposition')).toBeNull();
  });

  it('cuts the connection once bytes were sent, so the download fails instead of looking whole, and logs it', async () => {
    const before = errors.length;
    const res = await ts.a.fetch('/test/export-late', {});
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(errors.length).toBe(before + 1);
    expect(String(errors[before])).toContain('failed after the first byte');
  });
});
