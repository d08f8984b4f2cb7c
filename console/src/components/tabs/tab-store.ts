import { createStore, type Store } from '../../lib/store';
import { closeAll, closeLeft, closeOthers, closeRight, closeTab, dropTabs, openTab, restoreTabs, type Tab, type TabsState } from './tab-rules';

export type TabAction = 'close' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';

export const tabsStorageKey = (userId: string): string => `admin-tabs:${userId}`;

export interface TabStore extends Store<TabsState> {
  open(tab: Tab): void;
  act(action: TabAction, key: string): void;
  /** closes these tabs if open (pages that no longer exist) */
  drop(keys: string[]): void;
  /** re-mount counter per tab: the reload button bumps it */
  version(key: string): number;
  bump(key: string): void;
  /** records the record title a tab shows, so a restored tab names it before its row is read again */
  retitle(key: string, title: string): void;
}

/** Tabs of one user, saved in localStorage under `admin-tabs:<userId>`. */
export function createTabStore(userId: string, index: Tab, resolve: (t: Tab) => Tab | undefined): TabStore {
  let saved: unknown;
  try {
    saved = JSON.parse(localStorage.getItem(tabsStorageKey(userId)) ?? '[]');
  } catch {
    saved = [];
  }
  const store = createStore<TabsState>(restoreTabs(index, saved, resolve));
  const versions = new Map<string, number>();
  const persist = (): void => localStorage.setItem(tabsStorageKey(userId), JSON.stringify(store.get().tabs));
  persist();

  const apply = (fn: (s: TabsState) => TabsState): void => {
    const next = fn(store.get());
    if (next === store.get()) return;
    for (const k of versions.keys()) if (!next.tabs.some((t) => t.key === k)) versions.delete(k);
    store.set(next);
    persist();
  };

  return {
    ...store,
    open: (tab) => apply((s) => openTab(s, tab)),
    act(action, key) {
      switch (action) {
        case 'close':
          return apply((s) => closeTab(s, key));
        case 'closeLeft':
          return apply((s) => closeLeft(s, key));
        case 'closeRight':
          return apply((s) => closeRight(s, key));
        case 'closeOthers':
          return apply((s) => closeOthers(s, key));
        case 'closeAll':
          return apply(closeAll);
      }
    },
    drop: (keys) => apply((s) => dropTabs(s, keys)),
    version: (key) => versions.get(key) ?? 0,
    retitle: (key, title) =>
      apply((s) => {
        const i = s.tabs.findIndex((t) => t.key === key);
        if (i < 0 || s.tabs[i].titleArgs?.title === title) return s;
        const tabs = [...s.tabs];
        tabs[i] = { ...tabs[i], titleArgs: { ...tabs[i].titleArgs, title } };
        return { ...s, tabs };
      }),
    bump(key) {
      versions.set(key, (versions.get(key) ?? 0) + 1);
      store.set({ ...store.get() });
    },
  };
}
