/**
 * Tab rules of SPEC §2 as pure functions over the tab list, so every rule is unit-tested.
 * The index tab is always first and never closes.
 */
export interface Tab {
  /** pathname: one tab per page (an edit page per record) */
  key: string;
  /** pathname + search, where the tab navigates back to */
  path: string;
  /** i18n key of the page title */
  title: string;
  /** interpolation for the title: `title`, the record's title (tab-store retitle) */
  titleArgs?: Record<string, string>;
  /** kept mounted while open */
  cached?: boolean;
}

export interface TabsState {
  tabs: Tab[];
  active: string;
}

export function initialTabs(index: Tab): TabsState {
  return { tabs: [index], active: index.key };
}

const isIndex = (s: TabsState, key: string): boolean => s.tabs[0]?.key === key;

/** Activates the tab for a page, adding it at the end when new (its path/title refreshed). */
export function openTab(s: TabsState, tab: Tab): TabsState {
  const i = s.tabs.findIndex((t) => t.key === tab.key);
  if (i < 0) return { tabs: [...s.tabs, tab], active: tab.key };
  const tabs = [...s.tabs];
  tabs[i] = { ...tabs[i], ...tab };
  return { tabs, active: tab.key };
}

/** Closing the current tab moves to the next one, else the previous, else the index. */
export function closeTab(s: TabsState, key: string): TabsState {
  const i = s.tabs.findIndex((t) => t.key === key);
  if (i < 0 || isIndex(s, key)) return s;
  const tabs = s.tabs.filter((t) => t.key !== key);
  if (s.active !== key) return { tabs, active: s.active };
  const next = tabs[i] ?? tabs[i - 1] ?? tabs[0];
  return { tabs, active: next.key };
}

/** Closes the tabs of pages that no longer exist (a deleted record's detail and edit), like closing each. */
export function dropTabs(s: TabsState, keys: string[]): TabsState {
  return keys.reduce(closeTab, s);
}

function keepOnly(s: TabsState, keep: (t: Tab, i: number) => boolean, fallback: string): TabsState {
  const tabs = s.tabs.filter((t, i) => i === 0 || keep(t, i));
  const active = tabs.some((t) => t.key === s.active) ? s.active : fallback;
  return { tabs, active };
}

export function closeLeft(s: TabsState, key: string): TabsState {
  const at = s.tabs.findIndex((t) => t.key === key);
  if (at < 0) return s;
  return keepOnly(s, (_t, i) => i >= at, key);
}

export function closeRight(s: TabsState, key: string): TabsState {
  const at = s.tabs.findIndex((t) => t.key === key);
  if (at < 0) return s;
  return keepOnly(s, (_t, i) => i <= at, key);
}

export function closeOthers(s: TabsState, key: string): TabsState {
  if (!s.tabs.some((t) => t.key === key)) return s;
  return { tabs: s.tabs.filter((t, i) => i === 0 || t.key === key), active: key };
}

/** Close all: only the index tab stays and becomes current. */
export function closeAll(s: TabsState): TabsState {
  return { tabs: s.tabs.slice(0, 1), active: s.tabs[0].key };
}

/**
 * Restores saved tabs after a reload: the index tab first, then each saved tab whose page
 * still exists and that the user may open (`resolve` returns the fresh tab or undefined).
 */
export function restoreTabs(index: Tab, saved: unknown, resolve: (t: Tab) => Tab | undefined): TabsState {
  const list = Array.isArray(saved) ? (saved as Tab[]) : [];
  const tabs: Tab[] = [index];
  for (const t of list) {
    if (!t || typeof t.key !== 'string' || typeof t.path !== 'string' || t.key === index.key) continue;
    if (tabs.some((x) => x.key === t.key)) continue;
    const fresh = resolve(t);
    if (fresh) tabs.push(fresh);
  }
  return { tabs, active: index.key };
}
