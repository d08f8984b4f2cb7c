/**
 * /api/metadata/labels: the metadata's labels (metadata/locales and the plugins'
 * metadata/locales) per language, public, revalidated by ETag — the console reads them at run
 * time, so a label change needs no console build.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocales } from '@rti/metadata';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

describe('/metadata/labels', () => {
  it('answers the merged labels of one language without a session, GET or POST', async () => {
    const res = await fetch(`${ts.url}/api/metadata/labels?lng=ja-JP`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const body = (await res.json()) as { code: number; data: Record<string, any> };
    expect(body.code).toBe(0);
    expect(body.data).toEqual(loadLocales()['ja-JP']);
    const post = await ts.request('/metadata/labels', { lng: 'zh-CN' });
    expect(((await post.json()) as any).data.validation.required).toBe((loadLocales()['zh-CN'] as any).validation.required);
    // an unknown language answers en-US
    const other = await fetch(`${ts.url}/api/metadata/labels?lng=xx`);
    expect(((await other.json()) as any).data.validation.required).toBe((loadLocales()['en-US'] as any).validation.required);
  });

  it('a browser holding the answer gets a 304', async () => {
    const first = await fetch(`${ts.url}/api/metadata/labels?lng=en-US`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${ts.url}/api/metadata/labels?lng=en-US`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });
});
