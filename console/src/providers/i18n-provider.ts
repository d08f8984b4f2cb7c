import type { I18nProvider } from '@refinedev/core';
import { ensureLocale, i18n, isLocale, storeLocale } from '../i18n';
import { isLoginPath } from '../lib/session';

/**
 * Switches language: stored per user; the page reloads so every screen, the metadata
 * labels and the server's messages come back in the new language — except on the login
 * screen, where it switches in place (SPEC §1).
 */
export async function switchLanguage(lng: string): Promise<void> {
  if (!isLocale(lng)) return;
  storeLocale(lng);
  if (isLoginPath(location.pathname)) {
    await ensureLocale(lng);
    await i18n.changeLanguage(lng);
    document.documentElement.lang = lng;
    return;
  }
  location.reload();
}

export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    const opts = typeof options === 'string' ? { defaultValue: options } : { defaultValue: defaultMessage, ...(options as object) };
    return String(i18n.t(key, opts));
  },
  changeLocale: (lng: string) => switchLanguage(lng),
  getLocale: () => i18n.language,
};
