import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { HOME_PATH } from '../../constants';
import { canOpen, matchRoute } from '../../lib/routes';
import { recordEvents } from '../../lib/record-events';
import { useShell } from '../../providers/shell-context';
import { createTabStore, type TabStore } from './tab-store';
import type { Tab, TabsState } from './tab-rules';

/** exported for screens tested without the shell */
export const TabsContext = createContext<TabStore | undefined>(undefined);

export const INDEX_TAB: Tab = { key: HOME_PATH, path: HOME_PATH, title: 'pages.home' };

/** One tab store per signed-in user and organisation session. */
export function TabsProvider({ children }: { children: ReactNode }) {
  const { user, routes, access } = useShell();
  const store = useMemo(
    () =>
      createTabStore(String(user.userId), INDEX_TAB, (t) => {
        const pathname = t.key;
        const m = matchRoute(pathname, routes);
        if (!m || !canOpen(m.route, access)) return undefined;
        const title = typeof t.titleArgs?.title === 'string' ? t.titleArgs.title : undefined;
        return { key: pathname, path: t.path, title: m.route.title, cached: m.route.cached, ...(title ? { titleArgs: { title } } : {}) };
      }),
    [user.userId, routes, access],
  );
  // a deleted record's detail and edit tabs close: reopening them would only fetch a missing row
  useEffect(
    () =>
      recordEvents.onDeleted((resource, ids) => {
        const pages = routes.filter((r) => r.resource?.name === resource && (r.screen === 'show' || r.screen === 'edit'));
        store.drop(pages.flatMap((r) => ids.map((id) => r.path.replace(':id', encodeURIComponent(id)))));
      }),
    [routes, store],
  );
  return <TabsContext.Provider value={store}>{children}</TabsContext.Provider>;
}

export function useTabStore(): TabStore {
  const s = useContext(TabsContext);
  if (!s) throw new Error('useTabStore() outside TabsProvider');
  return s;
}

/** The tab store, or undefined outside the shell (screens rendered on their own, tests). */
export function useOptionalTabStore(): TabStore | undefined {
  return useContext(TabsContext);
}

/**
 * The record title a page's tab saved (kept across reloads): names a restored record page in
 * its breadcrumb and window title before its row is read again. Undefined outside the shell.
 */
export function useSavedTabTitle(pathname: string): string | undefined {
  const store = useOptionalTabStore();
  const state = useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.get ?? noState);
  return state?.tabs.find((t) => t.key === pathname)?.titleArgs?.title;
}
const noSubscribe = () => () => undefined;
const noState = () => undefined;

export function useTabsState(): TabsState {
  const store = useTabStore();
  return useSyncExternalStore(store.subscribe, store.get);
}

/** Every visited page becomes (or activates) its tab. */
export function useTrackTabs(): void {
  const store = useTabStore();
  const { routes } = useShell();
  const location = useLocation();
  useEffect(() => {
    const m = matchRoute(location.pathname, routes);
    if (!m) return;
    store.open({ key: location.pathname, path: location.pathname + location.search, title: m.route.title, cached: m.route.cached });
  }, [location.pathname, location.search, routes, store]);
}
