import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { request, setInvalidSessionHandler } from '../src/providers/http-client';
import { initI18n } from '../src/i18n';
import { setCookie, removeCookie } from '../src/lib/cookies';

// What index.html's inline script leaves for the first session calls.
const envelope = (data: unknown, code = 0) =>
  Promise.resolve(new Response(JSON.stringify({ code, message: code ? 'expired' : 'Success', data }), { headers: { 'content-type': 'application/json' } }));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  delete window.__bootCalls;
  removeCookie('token');
  removeCookie('org-id');
  vi.unstubAllGlobals();
});

describe('boot calls started by index.html', () => {
  it('answers the first matching request once, then goes to the network', async () => {
    setCookie('token', 'T1');
    setCookie('org-id', '7');
    window.__bootCalls = {
      headers: { 'Content-Type': 'application/json', Language: 'en-US', Token: 'T1', OrgId: '7' },
      calls: { '/metadata {}': envelope({ from: 'boot' }) },
    };
    const net = vi.fn(async () => new Response(JSON.stringify({ code: 0, data: { from: 'network' } }), { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', net);
    expect(await request('/metadata', {})).toEqual({ from: 'boot' });
    expect(net).not.toHaveBeenCalled();
    expect(await request('/metadata', {})).toEqual({ from: 'network' });
    expect(net).toHaveBeenCalledTimes(1);
  });

  it('ignores an answer sent with other headers (organisation switched) or another body', async () => {
    setCookie('token', 'T1');
    setCookie('org-id', '8');
    window.__bootCalls = {
      headers: { 'Content-Type': 'application/json', Language: 'en-US', Token: 'T1', OrgId: '7' },
      calls: { '/metadata {}': envelope({ from: 'boot' }), '/permission/list {"identification":0}': envelope({ from: 'boot' }) },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 0, data: { from: 'network' } }), { headers: { 'content-type': 'application/json' } })),
    );
    expect(await request('/metadata', {})).toEqual({ from: 'network' });
    setCookie('org-id', '7');
    expect(await request('/permission/list', { identification: 1 })).toEqual({ from: 'network' });
  });

  it('asks the network again when the early call failed', async () => {
    setCookie('token', 'T1');
    window.__bootCalls = {
      headers: { 'Content-Type': 'application/json', Language: 'en-US', Token: 'T1' },
      calls: { '/account/info {}': Promise.reject(new TypeError('network')) },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 0, data: { userId: 1 } }), { headers: { 'content-type': 'application/json' } })),
    );
    expect(await request('/account/info', {})).toEqual({ userId: 1 });
  });
});

describe('an expired session seen before the app mounted', () => {
  it('reaches the handler when the app sets it', async () => {
    setCookie('token', 'T1');
    window.__bootCalls = {
      headers: { 'Content-Type': 'application/json', Language: 'en-US', Token: 'T1' },
      calls: { '/account/info {}': envelope(null, 10006) },
    };
    // (each test file has its own modules: no handler is set yet, as before the app mounts)
    await expect(request('/account/info', {})).rejects.toMatchObject({ code: 10006 });
    const handler = vi.fn();
    setInvalidSessionHandler(handler);
    expect(handler).toHaveBeenCalledTimes(1);
    setInvalidSessionHandler(vi.fn());
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
