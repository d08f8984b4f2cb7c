import { act, useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Metadata } from '@rti/metadata/browser';
import { KeepAliveOutlet } from '../src/components/tabs/keep-alive-outlet';
import { TabsProvider, useTabStore, useTrackTabs } from '../src/components/tabs/tabs-context';
import type { TabStore } from '../src/components/tabs/tab-store';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import type { PageRoute } from '../src/lib/routes';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounts: Record<string, number> = {};

/** A page that counts its mounts and keeps typed state, to see whether it was kept alive. */
function Page({ name }: { name: string }) {
  const [text, setText] = useState('');
  useEffect(() => {
    mounts[name] = (mounts[name] ?? 0) + 1;
  }, [name]);
  return <input data-page={name} value={text} onChange={(e) => setText(e.target.value)} />;
}

const route = (path: string, cached = false): PageRoute => ({ key: path, path, title: path, kind: 'builtin', cached });
const shell = {
  meta: { resources: {}, enums: {}, menu: { groups: [] } } as Metadata,
  plugins: [],
  routes: [route('/dashboard-home'), route('/a', true), route('/b')],
  sideMenu: [],
  access: new Set<string>(),
  user: { userId: 'u1' },
} satisfies Shell;

let store: TabStore;
function Layout() {
  useTrackTabs();
  store = useTabStore();
  return <KeepAliveOutlet />;
}

let root: Root;
let router: ReturnType<typeof createMemoryRouter>;
const go = async (path: string) => act(async () => void (await router.navigate(path)));
const present = (name: string) => document.querySelector(`[data-page="${name}"]`);
const visible = (name: string) => {
  const el = present(name);
  return Boolean(el && !el.closest('[hidden]'));
};

beforeEach(async () => {
  localStorage.clear();
  for (const k of Object.keys(mounts)) delete mounts[k];
  router = createMemoryRouter(
    [
      {
        element: (
          <ShellProvider value={shell}>
            <TabsProvider>
              <Layout />
            </TabsProvider>
          </ShellProvider>
        ),
        children: [
          { path: '/dashboard-home', element: <Page name="home" /> },
          { path: '/a', element: <Page name="a" /> },
          { path: '/b', element: <Page name="b" /> },
        ],
      },
    ],
    { initialEntries: ['/dashboard-home'] },
  );
  const div = document.createElement('div');
  document.body.append(div);
  root = createRoot(div);
  await act(async () => root.render(<RouterProvider router={router} />));
});

afterEach(async () => {
  await act(async () => root.unmount());
  document.body.innerHTML = '';
});

describe('keep-alive pages', () => {
  it('keeps a cached page mounted (hidden) while its tab is open; others re-mount', async () => {
    await go('/a');
    await go('/b');
    expect(present('a')).not.toBeNull();
    expect(visible('a')).toBe(false);
    expect(visible('b')).toBe(true);
    await go('/a');
    await go('/b');
    await go('/a');
    expect(mounts.a).toBe(1);
    expect(mounts.b).toBe(2);
    expect(present('b')).toBeNull();
  });

  it('drops a cached page when its tab closes, so it mounts afresh next time', async () => {
    await go('/a');
    await go('/b');
    await act(async () => store.act('close', '/a'));
    expect(present('a')).toBeNull();
    await go('/a');
    expect(mounts.a).toBe(2);
  });

  it('re-mounts the current page when its tab is reloaded', async () => {
    await go('/b');
    await act(async () => store.bump('/b'));
    expect(mounts.b).toBe(2);
    await go('/a');
    await act(async () => store.bump('/a'));
    expect(mounts.a).toBe(2);
  });
});
