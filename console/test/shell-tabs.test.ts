import { beforeEach, describe, expect, it } from 'vitest';
import {
  closeAll,
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  initialTabs,
  openTab,
  restoreTabs,
  type Tab,
  type TabsState,
} from '../src/components/tabs/tab-rules';
import { createTabStore, tabsStorageKey } from '../src/components/tabs/tab-store';

const tab = (key: string, extra: Partial<Tab> = {}): Tab => ({ key, path: key, title: `t${key}`, ...extra });
const INDEX = tab('/dashboard-home');
const keys = (s: TabsState) => s.tabs.map((t) => t.key);

/** index, /a, /b, /c, /d with `active` current */
function five(active: string): TabsState {
  let s = initialTabs(INDEX);
  for (const k of ['/a', '/b', '/c', '/d']) s = openTab(s, tab(k));
  return { ...s, active };
}

describe('tab rules', () => {
  it('opens new tabs at the end and re-activates existing ones without duplicating', () => {
    let s = openTab(initialTabs(INDEX), tab('/a'));
    s = openTab(s, tab('/b'));
    s = openTab(s, tab('/a', { path: '/a?page=2' }));
    expect(keys(s)).toEqual(['/dashboard-home', '/a', '/b']);
    expect(s.active).toBe('/a');
    expect(s.tabs[1].path).toBe('/a?page=2');
  });

  it('never closes the index tab', () => {
    const s = five('/dashboard-home');
    expect(closeTab(s, '/dashboard-home')).toBe(s);
  });

  it('closing the current tab moves to the next tab', () => {
    const s = closeTab(five('/b'), '/b');
    expect(keys(s)).toEqual(['/dashboard-home', '/a', '/c', '/d']);
    expect(s.active).toBe('/c');
  });

  it('closing the current last tab moves to the previous one', () => {
    const s = closeTab(five('/d'), '/d');
    expect(s.active).toBe('/c');
  });

  it('closing the only page tab goes back to the index', () => {
    const s = closeTab(openTab(initialTabs(INDEX), tab('/a')), '/a');
    expect(keys(s)).toEqual(['/dashboard-home']);
    expect(s.active).toBe('/dashboard-home');
  });

  it('closing another tab keeps the current one', () => {
    const s = closeTab(five('/b'), '/d');
    expect(s.active).toBe('/b');
    expect(keys(s)).toEqual(['/dashboard-home', '/a', '/b', '/c']);
  });

  it('close left keeps the index and the tabs from the target on', () => {
    const s = closeLeft(five('/a'), '/c');
    expect(keys(s)).toEqual(['/dashboard-home', '/c', '/d']);
    expect(s.active).toBe('/c'); // the current tab was closed, the target becomes current
    expect(closeLeft(five('/d'), '/c').active).toBe('/d');
  });

  it('close right keeps the tabs up to the target', () => {
    const s = closeRight(five('/d'), '/b');
    expect(keys(s)).toEqual(['/dashboard-home', '/a', '/b']);
    expect(s.active).toBe('/b');
    expect(closeRight(five('/a'), '/b').active).toBe('/a');
  });

  it('close others keeps the index and the target, which becomes current', () => {
    const s = closeOthers(five('/a'), '/c');
    expect(keys(s)).toEqual(['/dashboard-home', '/c']);
    expect(s.active).toBe('/c');
  });

  it('close all leaves the index tab, current', () => {
    const s = closeAll(five('/c'));
    expect(keys(s)).toEqual(['/dashboard-home']);
    expect(s.active).toBe('/dashboard-home');
  });

  it('restores only saved tabs whose page still exists and is accessible, index first', () => {
    const saved = [tab('/gone'), tab('/a'), tab('/dashboard-home'), tab('/secret'), tab('/a'), { junk: true }, tab('/b')];
    const s = restoreTabs(INDEX, saved, (t) => (t.key === '/a' || t.key === '/b' ? { ...t, title: 'fresh' } : undefined));
    expect(keys(s)).toEqual(['/dashboard-home', '/a', '/b']);
    expect(s.tabs[1].title).toBe('fresh');
    expect(s.active).toBe('/dashboard-home');
    expect(keys(restoreTabs(INDEX, 'not a list', () => undefined))).toEqual(['/dashboard-home']);
  });
});

describe('tab store', () => {
  beforeEach(() => localStorage.clear());

  it('saves tabs per user and restores them through the resolver', () => {
    const s1 = createTabStore('7', INDEX, (t) => t);
    s1.open(tab('/a'));
    s1.open(tab('/b'));
    expect(JSON.parse(localStorage.getItem(tabsStorageKey('7'))!).map((t: Tab) => t.key)).toEqual(['/dashboard-home', '/a', '/b']);
    expect(localStorage.getItem(tabsStorageKey('8'))).toBeNull();

    const s2 = createTabStore('7', INDEX, (t) => (t.key === '/b' ? t : undefined));
    expect(keys(s2.get())).toEqual(['/dashboard-home', '/b']);
  });

  it('runs every action and persists the result', () => {
    const s = createTabStore('1', INDEX, (t) => t);
    for (const k of ['/a', '/b', '/c']) s.open(tab(k));
    s.act('closeLeft', '/b');
    expect(keys(s.get())).toEqual(['/dashboard-home', '/b', '/c']);
    s.act('closeRight', '/b');
    expect(keys(s.get())).toEqual(['/dashboard-home', '/b']);
    s.open(tab('/x'));
    s.act('closeOthers', '/x');
    expect(keys(s.get())).toEqual(['/dashboard-home', '/x']);
    s.act('close', '/x');
    expect(s.get().active).toBe('/dashboard-home');
    s.open(tab('/y'));
    s.act('closeAll', '/y');
    expect(keys(s.get())).toEqual(['/dashboard-home']);
    expect(JSON.parse(localStorage.getItem(tabsStorageKey('1'))!)).toHaveLength(1);
  });

  it('bumps a tab version to re-mount it and forgets versions of closed tabs', () => {
    const s = createTabStore('1', INDEX, (t) => t);
    s.open(tab('/a'));
    expect(s.version('/a')).toBe(0);
    s.bump('/a');
    s.bump('/a');
    expect(s.version('/a')).toBe(2);
    s.act('close', '/a');
    expect(s.version('/a')).toBe(0);
  });
});
