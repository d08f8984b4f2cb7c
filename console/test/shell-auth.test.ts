import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authProvider, safeRedirect } from '../src/providers/auth-provider';
import { initI18n } from '../src/i18n';
import { getCookie } from '../src/lib/cookies';
import { isLoginPath, loginPath, session } from '../src/lib/session';

const paths: string[] = [];
function serve(routes: Record<string, { code: number; message?: string; data?: unknown }>): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      paths.push(url);
      const body = routes[url] ?? { code: 10013, message: 'unknown call' };
      return new Response(JSON.stringify({ message: '', data: null, ...body }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  vi.unstubAllGlobals();
  paths.length = 0;
  session.clear();
});

const answer = { userId: 7, token: 'tok-1', loginOrgId: 2, loginEntryCode: 'acme', sysOrgUser: false, organizations: [] };

describe('auth provider', () => {
  it('logs in, keeps token, user, organisation and entry code in admin- cookies and follows the redirect', async () => {
    serve({ '/api/account/login': { code: 0, data: answer } });
    const r = await authProvider.login({ username: 'op', password: 'pw', entryCode: 'acme', redirect: '/device/device-beacon?page=2' });
    expect(r).toEqual({ success: true, redirectTo: '/device/device-beacon?page=2' });
    expect(document.cookie).toContain('admin-token=tok-1');
    expect([getCookie('user-id'), getCookie('org-id'), getCookie('entry-code')]).toEqual(['7', '2', 'acme']);
    expect(await authProvider.check()).toEqual({ authenticated: true });
  });

  it('a refused login returns the server message and stores nothing', async () => {
    serve({ '/api/account/login': { code: 10009, message: 'Wrong user name or password' } });
    const r = await authProvider.login({ username: 'op', password: 'bad' });
    expect(r.success).toBe(false);
    expect(r.error?.message).toBe('Wrong user name or password');
    expect(session.token()).toBeUndefined();
  });

  it('logout calls the server, clears the session and goes to the login page of the entry code', async () => {
    serve({ '/api/account/login': { code: 0, data: answer }, '/api/account/logout': { code: 0 } });
    await authProvider.login({ username: 'op', password: 'pw', entryCode: 'acme' });
    const r = await authProvider.logout({});
    expect(paths).toContain('/api/account/logout');
    expect(r).toEqual({ success: true, redirectTo: '/acme/login' });
    expect(session.token()).toBeUndefined();
  });

  it('without a token, check sends to the login page of the last entry code with the full path as redirect', async () => {
    history.replaceState(null, '', '/system/user?page=3');
    const r = await authProvider.check();
    expect(r.authenticated).toBe(false);
    // the earlier tests logged in through /acme/login; the entry code outlives the session
    expect(r.redirectTo).toBe('/acme/login?redirect=%2Fsystem%2Fuser%3Fpage%3D3');
  });

  it('only same-site paths are followed after login', () => {
    expect(safeRedirect('/map')).toBe('/map');
    expect(safeRedirect('//evil.example/x')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });

  it('builds and recognises login paths with and without entry code', () => {
    expect(loginPath('demo', '/a b')).toBe('/demo/login?redirect=%2Fa%20b');
    expect(loginPath(undefined)).toBe('/login');
    expect([isLoginPath('/login'), isLoginPath('/demo/login'), isLoginPath('/demo/login/x'), isLoginPath('/device/x')]).toEqual([true, true, false, false]);
  });
});
