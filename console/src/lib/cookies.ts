import { COOKIE_DAYS, COOKIE_PREFIX } from '../constants';

/** Session cookies are all `admin-` prefixed and expire after one day (SPEC §9). */
export function setCookie(name: string, value: string, days = COOKIE_DAYS): void {
  const expires = new Date(Date.now() + days * 864e5).toUTCString();
  document.cookie = `${COOKIE_PREFIX}${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

export function getCookie(name: string): string | undefined {
  const key = `${COOKIE_PREFIX}${name}=`;
  for (const part of document.cookie.split(';')) {
    const p = part.trim();
    if (p.startsWith(key)) return decodeURIComponent(p.slice(key.length));
  }
  return undefined;
}

export function removeCookie(name: string): void {
  document.cookie = `${COOKIE_PREFIX}${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
