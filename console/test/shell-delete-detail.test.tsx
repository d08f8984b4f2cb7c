// Issue 10 defect 9: deleting from a detail page does not fetch the deleted record again
// (Refine drops its cached row on success, which refetched it while the page was mounted).
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, Link, RouterProvider, useLocation, useNavigate } from 'react-router';
import { Refine, type DataProvider, type RouterProvider as RefineRouter } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { MetaShow } from '../src/meta/pages/show';
import metaEn from '../src/meta/locales/en-US.json';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const gadget: ResourceDef = { name: 'gadget', module: 'things', route: '/things/gadget', orgScoped: true, titleField: 'sn', fields: [{ name: 'sn', type: 'string' }] };
const meta: Metadata = { resources: { gadget }, enums: {}, menu: { groups: [] } };

let gone = false;
const calls: string[] = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async () => ({ data: [], total: 0 }),
  getOne: async ({ id }) => {
    calls.push(`getOne:${id}`);
    if (gone) throw Object.assign(new Error('not found'), { statusCode: 404 });
    return { data: { id, sn: 'G-7' } as never };
  },
  create: async ({ variables }) => ({ data: variables as never }),
  update: async ({ variables }) => ({ data: variables as never }),
  deleteOne: async ({ id }) => {
    calls.push(`deleteOne:${id}`);
    gone = true;
    return { data: { id } as never };
  },
};
const routerProvider: RefineRouter = {
  go: () => {
    const navigate = useNavigate();
    return ({ to, type }) => (type === 'path' ? to : (to && void navigate(to), undefined));
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

beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: { ...metaEn } } }, interpolation: { escapeValue: false } });
});

async function until(probe: () => unknown, ms = 5000) {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out');
    await act(async () => void (await new Promise((r) => setTimeout(r, 25))));
  }
}

it('deletes from the detail page, goes to the list, and never asks for the deleted record again', async () => {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const app = (
    <Refine
      dataProvider={dataProvider}
      routerProvider={routerProvider}
      accessControlProvider={{ can: async () => ({ can: true }) }}
      resources={[{ name: 'gadget', list: gadget.route, show: `${gadget.route}/detail/:id` }]}
      options={{ disableTelemetry: true }}
    >
      <MetaShow resource={gadget} />
      <Where />
    </Refine>
  );
  let path = '';
  function Where() {
    path = useLocation().pathname;
    return null;
  }
  const router = createMemoryRouter([{ path: '/things/gadget/detail/:id', element: app }, { path: '*', element: <Where /> }], { initialEntries: ['/things/gadget/detail/7'] });
  const root = createRoot(host);
  await act(async () => root.render(<AntApp><MetadataProvider value={meta}><RouterProvider router={router} /></MetadataProvider></AntApp>));
  await until(() => host.textContent?.includes('G-7'));
  await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-show-delete]')!.click());
  const ok = await (async () => {
    await until(() => document.querySelector('.ant-popconfirm .ant-btn-dangerous'));
    return document.querySelector<HTMLButtonElement>('.ant-popconfirm .ant-btn-dangerous')!;
  })();
  await act(async () => ok.click());
  await until(() => path === '/things/gadget');
  await act(async () => void (await new Promise((r) => setTimeout(r, 200))));
  expect(calls).toEqual(['getOne:7', 'deleteOne:7']);
  act(() => root.unmount());
  host.remove();
});
