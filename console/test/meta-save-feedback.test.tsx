// After saving (issue 10): back on the list as it was left (filters, page), the saved row
// highlighted, the create tab closed; a refusal that names a field is said once, under the
// field, not also as a toast; a format refusal says the format.
import { act } from 'react';
import qs from 'qs';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Link, Route, RouterProvider, Routes, useLocation, useNavigate } from 'react-router';
import { Refine, type DataProvider, type RouterProvider as RefineRouter } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { routerProvider as consoleRouter } from '../src/providers/router-provider';
import { MetaList } from '../src/meta/pages/list';
import { MetaCreate } from '../src/meta/pages/create';
import { clearListReturn } from '../src/meta/lib/list-return';
import { TabsContext } from '../src/components/tabs/tabs-context';
import { createTabStore, type TabStore } from '../src/components/tabs/tab-store';
import metaEn from '../src/meta/locales/en-US.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const widget: ResourceDef = {
  name: 'widget',
  module: 'things',
  route: '/things/widget',
  orgScoped: true,
  titleField: 'sn',
  fields: [{ name: 'sn', type: 'string', required: true, maxLength: 64, pattern: 'code', search: 'like', list: { sortable: true } }],
};
const meta: Metadata = { resources: { widget }, enums, menu: { groups: [] } };
const REFUSAL = 'Serial: letters, digits, - _ and . (starting with a letter or digit), up to 64 characters';

let rows = [{ id: 1, sn: 'W-1' }];
let refuseNext = false;
const notified: Array<{ type: string; message: string }> = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async () => ({ data: rows as never, total: rows.length }),
  getOne: async () => ({ data: rows[0] as never }),
  create: async ({ variables }) => {
    if (refuseNext) {
      refuseNext = false;
      throw Object.assign(new Error(REFUSAL), { statusCode: 10001 });
    }
    const row = { id: 9, ...(variables as { sn: string }) };
    rows = [row, ...rows];
    return { data: { id: 9 } as never };
  },
  update: async ({ variables }) => ({ data: variables as never }),
  deleteOne: async ({ id }) => ({ data: { id } as never }),
};
const router: RefineRouter = {
  go: () => {
    const navigate = useNavigate();
    return ({ to, query, type }) => {
      const search = query ? '?' + qs.stringify(query, { skipNulls: true }) : '';
      if (type === 'path') return `${to ?? ''}${search}`;
      void navigate(`${to ?? ''}${search}`, { replace: type === 'replace' });
      return undefined;
    };
  },
  back: () => {
    const navigate = useNavigate();
    return () => void navigate(-1);
  },
  parse: consoleRouter.parse,
  Link: ({ to, ...rest }: { to: string }) => <Link to={to} {...rest} />,
};

let root: Root | undefined;
let host: HTMLElement;
let here = '';
let tabs: TabStore;
function Where() {
  const l = useLocation();
  here = l.pathname + l.search;
  return null;
}

async function mount(path: string) {
  host = document.createElement('div');
  document.body.appendChild(host);
  tabs = createTabStore('7', { key: '/home', path: '/home', title: 'home' }, (t) => t);
  const app = (
    <Refine
      dataProvider={dataProvider}
      routerProvider={router}
      notificationProvider={{ open: (n) => void notified.push({ type: n.type, message: n.message }), close: () => undefined }}
      resources={[{ name: 'widget', list: widget.route, create: `${widget.route}/create` }]}
      options={{ disableTelemetry: true, syncWithLocation: true }}
    >
      <Where />
      <Routes>
        <Route path={widget.route} element={<MetaList resource={widget} />} />
        <Route path={`${widget.route}/create`} element={<MetaCreate resource={widget} />} />
      </Routes>
    </Refine>
  );
  const memory = createMemoryRouter([{ path: '*', element: app }], { initialEntries: [path] });
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <AntApp>
        <TabsContext.Provider value={tabs}>
          <MetadataProvider value={meta}>
            <RouterProvider router={memory} />
          </MetadataProvider>
        </TabsContext.Provider>
      </AntApp>,
    );
  });
}

async function waitFor<T>(probe: () => T | null | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 25));
    });
  }
}
async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
const text = () => host.textContent ?? '';

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: {
      'en-US': {
        translation: {
          ...metaEn,
          fields: { sn: 'Serial' },
          validation: { required: 'Please input {{name}}', codeMax: '{{name}}: letters, digits, - _ and . (starting with a letter or digit), up to {{max}} characters' },
        },
      },
    },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = undefined;
  rows = [{ id: 1, sn: 'W-1' }];
  notified.length = 0;
  clearListReturn();
  localStorage.clear();
});

describe('after saving', () => {
  it('comes back to the list as it was left, highlights the saved row and closes the create tab; a field refusal is said once', async () => {
    const listUrl = `${widget.route}?currentPage=1&pageSize=10&filters[0][field]=sn&filters[0][operator]=contains&filters[0][value]=W`;
    await mount(listUrl);
    await waitFor(() => text().includes('W-1'));
    const left = here;
    expect(decodeURIComponent(left)).toContain('filters[0][value]=W');

    await act(async () => host.querySelector<HTMLElement>('[data-testid=meta-create]')!.click());
    const sn = await waitFor(() => host.querySelector<HTMLInputElement>('input#sn'));
    tabs.open({ key: `${widget.route}/create`, path: `${widget.route}/create`, title: 'create' });

    // the form's own check says the format and the length in one message
    await type(sn, 'W 9');
    await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-save]')!.click());
    await waitFor(() => text().includes('Serial: letters, digits, - _ and . (starting with a letter or digit), up to 64 characters'));

    // the server's refusal naming the field: under the field, no toast
    refuseNext = true;
    await type(sn, 'W-9');
    await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-save]')!.click());
    await waitFor(() => !refuseNext && text().includes(REFUSAL));
    expect(host.querySelector('.ant-form-item-explain-error')?.textContent).toBe(REFUSAL);
    expect(notified.filter((n) => n.type === 'error')).toEqual([]);

    // saved: back on the filtered list, the new row highlighted, the create tab gone
    await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-save]')!.click());
    await waitFor(() => here === left && text().includes('W-9'));
    const row = await waitFor(() => host.querySelector('tr[data-row-key="9"]'));
    expect(row.className).toContain('meta-row-saved');
    expect(host.querySelector('tr[data-row-key="1"]')!.className).not.toContain('meta-row-saved');
    expect(tabs.get().tabs.map((t) => t.key)).not.toContain(`${widget.route}/create`);
    expect(notified.map((n) => n.type)).toEqual(['success']);
  });
});
