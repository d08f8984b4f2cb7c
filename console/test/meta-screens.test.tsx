import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Link, RouterProvider, useLocation, useNavigate } from 'react-router';
import type { RouterProvider as RefineRouter } from '@refinedev/core';
import { Refine, type DataProvider } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { MetaList } from '../src/meta/pages/list';
import { MetaCreate } from '../src/meta/pages/create';
import metaEn from '../src/meta/locales/en-US.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A small generic resource: text, enum, ref, with a status rule and one required field. */
const gadget: ResourceDef = {
  name: 'gadget',
  module: 'things',
  route: '/things/gadget',
  orgScoped: true,
  titleField: 'sn',
  fields: [
    { name: 'sn', type: 'string', required: true, search: 'like', list: { sortable: true } },
    { name: 'level', type: 'enum', enum: 'level', search: 'in' },
    { name: 'ownerId', type: 'ref', ref: { resource: 'owner', label: 'name' }, required: true },
    { name: 'remark', type: 'text' },
  ],
};
const meta: Metadata = { resources: { gadget }, enums, menu: { groups: [] } };

const rows = [
  { id: 1, sn: 'G-1', level: 10, ownerId: 5, ownerIdLabel: 'Owner Five' },
  { id: 2, sn: 'G-2', level: 20, ownerId: 6, ownerIdLabel: 'Owner Six' },
];
const calls: Array<{ resource: string; filters: unknown }> = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ resource, filters }) => {
    calls.push({ resource, filters });
    return { data: resource === 'gadget' ? (rows as never) : [], total: resource === 'gadget' ? rows.length : 0 };
  },
  getOne: async () => ({ data: rows[0] as never }),
  create: async ({ variables }) => ({ data: variables as never }),
  update: async ({ variables }) => ({ data: variables as never }),
  deleteOne: async ({ id }) => ({ data: { id } as never }),
};

/**
 * A minimal Refine router binding over the test's own react-router instance (the packaged
 * binding resolves a second copy of react-router under vitest's node resolution).
 */
const routerProvider: RefineRouter = {
  go: () => {
    const navigate = useNavigate();
    return ({ to, type }) => {
      if (type === 'path') return to;
      if (to) void navigate(to);
      return undefined;
    };
  },
  back: () => {
    const navigate = useNavigate();
    return () => void navigate(-1);
  },
  parse: () => {
    const { pathname } = useLocation();
    return () => ({ pathname, params: {} });
  },
  Link: ({ to, ...rest }: { to: string }) => <Link to={to} {...rest} />,
};

let root: Root | undefined;
let host: HTMLElement;

async function mount(path: string, element: React.ReactNode, denied: string[] = []) {
  host = document.createElement('div');
  document.body.appendChild(host);
  const app = (
    <Refine
      dataProvider={dataProvider}
      routerProvider={routerProvider}
      accessControlProvider={{ can: async ({ action }) => ({ can: !denied.includes(action) }) }}
      authProvider={{
        login: async () => ({ success: true }),
        logout: async () => ({ success: true }),
        check: async () => ({ authenticated: true }),
        onError: async () => ({}),
        getIdentity: async () => ({ id: 7 }),
      }}
      resources={[{ name: 'gadget', list: gadget.route, create: `${gadget.route}/create` }]}
      options={{ disableTelemetry: true }}
    >
      {element}
    </Refine>
  );
  const router = createMemoryRouter([{ path: '*', element: app }], { initialEntries: [path] });
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <AntApp>
        <MetadataProvider value={meta}>
          <RouterProvider router={router} />
        </MetadataProvider>
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

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: {
      'en-US': {
        translation: {
          ...metaEn,
          fields: { sn: 'Serial', level: 'Level', ownerId: 'Owner', remark: 'Remark' },
          enums: { level: { low: 'Low', high: 'High' } },
          validation: { required: 'Please input {{name}}', select: 'Please select {{name}}' },
        },
      },
    },
    interpolation: { escapeValue: false },
  });
});

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  localStorage.clear();
  calls.length = 0;
});

const text = () => host.textContent ?? '';

describe('MetaList', () => {
  it('renders rows with enum labels and ref labels, and removes actions the user may not take', async () => {
    await mount('/things/gadget', <MetaList resource={gadget} />, ['delete', 'export']);
    await waitFor(() => text().includes('G-2'));
    expect(text()).toContain('Owner Six');
    expect(text()).toContain('High');
    expect(host.querySelector('[data-testid=meta-search-form]')).not.toBeNull();
    expect(host.querySelectorAll('[data-testid=meta-row-show]').length).toBe(2);
    expect(host.querySelectorAll('[data-testid=meta-row-edit]').length).toBe(2);
    expect(host.querySelector('[data-testid=meta-row-delete]')).toBeNull();
    expect(host.querySelector('[data-testid=meta-export]')).toBeNull();
    expect(host.querySelector('[data-testid=meta-create]')).not.toBeNull();
    // no lookups for ref labels: the row carries them
    expect(calls.map((c) => c.resource)).toEqual(['gadget']);
  });

  it('groups rows under a header per value when the resource declares listGroupBy', async () => {
    await mount('/things/gadget', <MetaList resource={{ ...gadget, listGroupBy: 'ownerId' }} />);
    await waitFor(() => host.querySelectorAll('[data-testid=meta-group-row]').length === 2);
    const headers = [...host.querySelectorAll('[data-testid=meta-group-row]')].map((e) => e.textContent);
    expect(headers).toEqual(['Owner: Owner Five (1)', 'Owner: Owner Six (1)']);
    // groups start expanded: both rows show under their header
    expect(text()).toContain('G-1');
    expect(text()).toContain('G-2');
  });

  it('shows the import button only for importable resources the user may import', async () => {
    const importable = { ...gadget, import: { key: 'sn', columns: ['sn'] } };
    await mount('/things/gadget', <MetaList resource={importable} />);
    await waitFor(() => text().includes('G-1'));
    expect(host.querySelector('[data-testid=meta-import]')).not.toBeNull();
    act(() => root?.unmount());
    await mount('/things/gadget', <MetaList resource={importable} />, ['import']);
    await waitFor(() => text().includes('G-1'));
    expect(host.querySelector('[data-testid=meta-import]')).toBeNull();
  });

  it('searches with the typed value and stores column choices per user', async () => {
    await mount('/things/gadget', <MetaList resource={gadget} />);
    await waitFor(() => text().includes('G-1'));
    const input = host.querySelector<HTMLInputElement>('input#sn')!;
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, 'G-2');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      host.querySelector<HTMLButtonElement>('[data-testid=meta-search-submit]')!.click();
    });
    const last = await waitFor(() => calls.find((c) => JSON.stringify(c.filters).includes('G-2'))).catch((e: Error) => {
      throw new Error(`${e.message}: input=${input.value} calls=${JSON.stringify(calls)}`);
    });
    expect(last.filters).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'sn', value: 'G-2' })]));

    await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-column-chooser]')!.click());
    const box = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-testid=meta-column-level]');
      return el && (el.tagName === 'INPUT' ? el : el.querySelector('input'));
    });
    await act(async () => box.click());
    expect(JSON.parse(localStorage.getItem('admin-columns:7:gadget')!)).toMatchObject({ level: false, sn: true });
  });
});

describe('MetaCreate', () => {
  it('shows the SPEC messages for required fields instead of calling the API', async () => {
    await mount('/things/gadget/create', <MetaCreate resource={gadget} />);
    const save = await waitFor(() => host.querySelector<HTMLButtonElement>('[data-testid=meta-save]'));
    await act(async () => save.click());
    await waitFor(() => text().includes('Please input Serial'));
    expect(text()).toContain('Please select Owner');
  });
});
