import { getCookie, removeCookie, setCookie } from './cookies';

/** What /account/login and /account/info answer (docs/API.md). */
export interface UserInfo {
  userId: number | string;
  realName?: string;
  username?: string;
  name?: string;
  loginOrgId?: number | string;
  loginOrgName?: string;
  orgName?: string;
  loginEntryCode?: string | null;
  sysOrgUser?: boolean;
  organizations?: Array<{ orgId: number | string; name: string; entryCode?: string | null }>;
  access?: string[];
  permissions?: string[];
}

export interface LoginAnswer extends UserInfo {
  token: string;
}

/**
 * The browser side of a session: token, user id, current organisation and the entry code
 * the user logged in with, all in `admin-` cookies (1 day), so a reload keeps the session.
 */
export const session = {
  token: (): string | undefined => getCookie('token'),
  userId: (): string | undefined => getCookie('user-id'),
  orgId: (): string | undefined => getCookie('org-id'),
  /** entry code of the last login page used; logout and expiry go back there */
  entryCode: (): string | undefined => getCookie('entry-code') || undefined,
  setOrgId(orgId: string | number): void {
    setCookie('org-id', String(orgId));
  },
  save(answer: LoginAnswer, entryCode?: string): void {
    setCookie('token', answer.token);
    setCookie('user-id', String(answer.userId));
    if (answer.loginOrgId !== undefined && answer.loginOrgId !== null) setCookie('org-id', String(answer.loginOrgId));
    const code = answer.loginEntryCode || entryCode;
    if (code) setCookie('entry-code', code);
    else removeCookie('entry-code');
  },
  clear(): void {
    removeCookie('token');
    removeCookie('user-id');
    removeCookie('org-id');
  },
};

/** `/{entryCode}/login?redirect=…` (SPEC §2). */
export function loginPath(entryCode?: string | null, redirect?: string): string {
  const base = entryCode ? `/${encodeURIComponent(entryCode)}/login` : '/login';
  return redirect ? `${base}?redirect=${encodeURIComponent(redirect)}` : base;
}

/** the login page and its activation mode (`/{entryCode}/activate?token=…`): public, no session loaded */
export function isLoginPath(pathname: string): boolean {
  return /^(\/[^/]+)?\/(login|activate)\/?$/.test(pathname);
}
