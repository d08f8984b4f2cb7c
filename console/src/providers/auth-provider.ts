import type { AuthProvider } from '@refinedev/core';
import { loginPath, session, type LoginAnswer } from '../lib/session';
import { ensureLocale, i18n, storedLocale } from '../i18n';
import { appState, loadAppState, resetAppState } from './app-state';
import { request } from './http-client';

export interface LoginParams {
  username?: string;
  password?: string;
  /** a one-time login ticket an integrator asked for (`/{entryCode}/login?ticket=…`) instead of a password */
  ticket?: string;
  entryCode?: string;
  redirect?: string;
}

/** Only same-site paths are honoured as a redirect target. */
export function safeRedirect(target: string | null | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : '/';
}

export const authProvider: AuthProvider = {
  async login({ username, password, ticket, entryCode, redirect }: LoginParams) {
    try {
      const body = ticket ? { ticket, entryCode: entryCode || undefined } : { username, password, entryCode: entryCode || undefined };
      const answer = await request<LoginAnswer>('/account/login', body);
      session.save(answer, entryCode);
      resetAppState();
      // The user's own language choice wins once we know who they are (SPEC §1).
      const lng = storedLocale();
      if (lng !== i18n.language) {
        await ensureLocale(lng);
        await i18n.changeLanguage(lng);
      }
      // the session's calls and the first page's chunk and calls start now, not after the redirect has rendered
      void loadAppState(false, safeRedirect(redirect));
      return { success: true, redirectTo: safeRedirect(redirect) };
    } catch (e) {
      return { success: false, error: { name: i18n.t('login.failed'), message: e instanceof Error ? e.message : String(e) } };
    }
  },

  async logout() {
    const entry = appState.get().user?.loginEntryCode ?? session.entryCode();
    if (session.token()) await request('/account/logout', {}).catch(() => undefined);
    session.clear();
    resetAppState();
    return { success: true, redirectTo: loginPath(entry) };
  },

  async check() {
    if (session.token()) return { authenticated: true };
    const here = location.pathname + location.search;
    return { authenticated: false, logout: true, redirectTo: loginPath(session.entryCode(), here) };
  },

  // Code 10006 is handled once, in the transport (clear session, login with redirect);
  // logging out again here would lose the redirect target.
  async onError() {
    return {};
  },

  async getIdentity() {
    const s = await loadAppState();
    if (!s.user) return null;
    return { ...s.user, id: s.user.userId, name: s.user.realName || s.user.username || s.user.name };
  },

  async getPermissions() {
    const s = await loadAppState();
    return { access: [...s.access], permissions: s.permissions };
  },
};
