import type { Metadata } from '@rti/metadata/browser';
import { createStore } from '../lib/store';
import { errorLog } from '../lib/error-log';
import { session, type UserInfo } from '../lib/session';
import { recordEvents } from '../lib/record-events';
import { request } from './http-client';
import type { OrgBasic, OrgTheme } from './org-theme';
import type { ConsolePlugin } from '../plugin-contract';
import { loadPlugins } from '../plugins/host';
import { setRuntimeTexts } from '../i18n';
import { preloadPage } from '../routes/preload-page';

/**
 * Everything the signed-in shell needs, loaded once after login and again after an
 * organisation switch: identity, access lists, metadata and the organisation's theme.
 */
export interface AppState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  user?: UserInfo;
  access: Set<string>;
  /** console paths the side menu is narrowed to (empty = no narrowing) */
  permissions: string[];
  metadata?: Metadata;
  theme?: OrgTheme | null;
  plugins: ConsolePlugin[];
  error?: string;
}

const empty: AppState = { status: 'idle', access: new Set(), permissions: [], plugins: [] };
export const appState = createStore<AppState>(empty);

let inflight: Promise<AppState> | undefined;

/** Theme of the current organisation (sys-org users may be in an org other than their login org). */
export async function loadOrgTheme(user: UserInfo | undefined): Promise<OrgTheme | null> {
  const orgId = session.orgId() ?? String(user?.loginOrgId ?? '');
  const org = user?.organizations?.find((o) => String(o.orgId) === orgId);
  const entryCode = org?.entryCode ?? user?.loginEntryCode;
  if (!entryCode) return null;
  try {
    return (await request<OrgBasic>('/organization/basic', { entryCode })).theme ?? null;
  } catch {
    return null;
  }
}

const themeKey = (user: UserInfo): string => `admin-theme:${user.userId}:${session.orgId() ?? String(user.loginOrgId ?? '')}`;

/** The theme seen last time for this user and organisation (undefined: never seen). */
function cachedTheme(user: UserInfo): OrgTheme | null | undefined {
  try {
    const raw = localStorage.getItem(themeKey(user));
    return raw === null ? undefined : (JSON.parse(raw) as OrgTheme | null);
  } catch {
    return undefined;
  }
}

function storeTheme(user: UserInfo, theme: OrgTheme | null): void {
  try {
    localStorage.setItem(themeKey(user), JSON.stringify(theme));
  } catch {
    /* storage full or blocked: the next load asks again */
  }
}

export async function loadPermissions(): Promise<{ access: string[]; permissions: string[] }> {
  const p = await request<{ access?: string[]; permissions?: string[] }>('/permission/list', { identification: 0 });
  return { access: p.access ?? [], permissions: p.permissions ?? [] };
}

/** `path`: the page about to open when it is not the current one (right after login: the redirect target) */
export function loadAppState(force = false, path?: string): Promise<AppState> {
  const cur = appState.get();
  if (!force && cur.status === 'ready') return Promise.resolve(cur);
  if (!force && inflight) return inflight;
  appState.set((s) => ({ ...s, status: 'loading', error: undefined }));
  inflight = (async () => {
    try {
      const who = request<UserInfo>('/account/info', {});
      // the theme call needs only the user: it starts when they are known, beside the other session calls
      const fresh = who.then(async (u) => {
        const t = await loadOrgTheme(u);
        storeTheme(u, t);
        return t;
      });
      fresh.catch(() => undefined);
      const [user, perms, metadata, plugins] = await Promise.all([
        who,
        loadPermissions(),
        request<Metadata & { texts?: Record<string, Record<string, string>> }>('/metadata', {}),
        loadPlugins(),
      ]);
      performance.mark('shell:session');
      setRuntimeTexts(metadata.texts);
      // the page's chunk loads while the theme is asked for and the layout renders
      const opening = path ?? (typeof location === 'undefined' ? undefined : location.pathname + location.search);
      if (opening !== undefined) preloadPage(opening, metadata, plugins, new Set(perms.access));
      // the organisation's colours from the last visit paint the shell now; the answer replaces them
      const cached = cachedTheme(user);
      const theme = cached === undefined ? await fresh : cached;
      if (cached !== undefined) {
        void fresh.then((t) => {
          if (JSON.stringify(t) !== JSON.stringify(cached)) appState.set((s) => (s.status === 'ready' && s.user === user ? { ...s, theme: t } : s));
        });
      }
      errorLog.setUser(user.realName || user.username || String(user.userId));
      const next: AppState = {
        status: 'ready',
        user,
        access: new Set(perms.access),
        permissions: perms.permissions,
        metadata,
        theme,
        plugins,
      };
      appState.set(next);
      return next;
    } catch (e) {
      const next: AppState = { ...empty, status: 'error', error: e instanceof Error ? e.message : String(e) };
      appState.set(next);
      return next;
    } finally {
      inflight = undefined;
    }
  })();
  return inflight;
}

/**
 * Re-reads the metadata in place (after an administrator changed screen settings): open
 * screens re-render with the new labels and columns, without the loading screen of a reload.
 */
export async function reloadMetadata(): Promise<void> {
  const metadata = await request<Metadata & { texts?: Record<string, Record<string, string>> }>('/metadata', {});
  setRuntimeTexts(metadata.texts);
  appState.set((s) => (s.status === 'ready' ? { ...s, metadata } : s));
}

/** Resources whose writes change who the user is where: its organisations (switcher, pickers) and codes. */
export const IDENTITY_RESOURCES: ReadonlySet<string> = new Set(['organization', 'user', 'role']);

/**
 * Re-reads the user's organisations and access lists in place: an organisation a platform
 * administrator just created is in the switcher at once, a role just changed applies at once.
 */
export async function refreshIdentity(): Promise<void> {
  if (appState.get().status !== 'ready') return;
  const [user, perms] = await Promise.all([request<UserInfo>('/account/info', {}), loadPermissions()]);
  appState.set((s) => (s.status === 'ready' ? { ...s, user: { ...s.user, ...user }, access: new Set(perms.access), permissions: perms.permissions } : s));
}

recordEvents.onWritten((resource) => {
  if (IDENTITY_RESOURCES.has(resource)) void refreshIdentity().catch(() => undefined);
});

export function resetAppState(): void {
  appState.set(empty);
}
