// Issue 11: a document's detail page shows its lines read-only (server-paged) and sends line
// edits to the one-page editor, offered only while the header's status lets the lines change
// (editableWhen); no drawer editor, no add button on a frozen document. Plain sub-rows keep
// their drawer, and lose their add button when the parent's status freezes them.
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

const order: ResourceDef = {
  name: 'order',
  module: 'things',
  route: '/things/order',
  orgScoped: true,
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string' },
    { name: 'status', type: 'int' },
    { name: 'total', type: 'int' },
  ],
  children: [
    { resource: 'order-line', foreignKey: 'orderId', inline: true, cascade: true, editableWhen: { field: 'status', values: [10] }, rollUps: [{ field: 'total', kind: 'sum', of: 'qty' }] },
    { resource: 'order-note', foreignKey: 'orderId', editableWhen: { field: 'status', values: [10] } },
  ],
} as ResourceDef;
const line: ResourceDef = { name: 'order-line', module: 'things', route: '/things/order-line', orgScoped: true, titleField: 'item', fields: [{ name: 'orderId', type: 'ref', ref: { resource: 'order' } }, { name: 'item', type: 'string' }, { name: 'qty', type: 'int' }] } as ResourceDef;
// notes can also be imported from a file (a ship plan's cubing plan): the card offers it while they may change
const note: ResourceDef = { name: 'order-note', module: 'things', route: '/things/order-note', orgScoped: true, titleField: 'text', import: { key: 'text', columns: ['text'] }, fields: [{ name: 'orderId', type: 'ref', ref: { resource: 'order' } }, { name: 'text', type: 'string' }] } as ResourceDef;
const meta: Metadata = { resources: { order, 'order-line': line, 'order-note': note }, enums: {}, menu: { groups: [] } };

let status = 10;
const lists: Array<{ resource: string; filters: unknown }> = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ resource, filters }) => {
    lists.push({ resource, filters });
    if (resource === 'order-line') return { data: [{ id: 1, orderId: 7, item: 'WIDGET-A', qty: 2 }, { id: 2, orderId: 7, item: 'WIDGET-B', qty: 3 }] as never, total: 2 };
    return { data: [{ id: 5, orderId: 7, text: 'a note' }] as never, total: 1 };
  },
  getOne: async ({ id }) => ({ data: { id, no: 'SO-7', status, total: 5 } as never }),
  create: async ({ variables }) => ({ data: variables as never }),
  update: async ({ variables }) => ({ data: variables as never }),
  deleteOne: async ({ id }) => ({ data: { id } as never }),
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
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: { ...metaEn, fields: { total: 'Total' } } } }, interpolation: { escapeValue: false } });
});

async function until(probe: () => unknown, ms = 5000) {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out');
    await act(async () => void (await new Promise((r) => setTimeout(r, 25))));
  }
}

async function showOrder() {
  const host = document.createElement('div');
  document.body.appendChild(host);
  let path = '';
  function Where() {
    path = useLocation().pathname;
    return null;
  }
  const app = (
    <Refine
      dataProvider={dataProvider}
      routerProvider={routerProvider}
      accessControlProvider={{ can: async () => ({ can: true }) }}
      resources={[order, line, note].map((r) => ({ name: r.name, list: r.route, show: `${r.route}/detail/:id`, edit: `${r.route}/edit/:id` }))}
      options={{ disableTelemetry: true }}
    >
      <MetaShow resource={order} />
      <Where />
    </Refine>
  );
  const router = createMemoryRouter([{ path: '/things/order/detail/:id', element: app }, { path: '*', element: <Where /> }], { initialEntries: ['/things/order/detail/7'] });
  const root = createRoot(host);
  await act(async () => root.render(<AntApp><MetadataProvider value={meta}><RouterProvider router={router} /></MetadataProvider></AntApp>));
  await until(() => host.textContent?.includes('WIDGET-B') && host.textContent?.includes('a note'));
  // access answers arrive after the rows
  await act(async () => void (await new Promise((r) => setTimeout(r, 100))));
  const done = () => {
    act(() => root.unmount());
    host.remove();
  };
  return { host, path: () => path, done };
}

it('a new document: its lines read-only with the roll-up, edited on the one-page editor, no drawer', async () => {
  status = 10;
  lists.length = 0;
  const { host, path, done } = await showOrder();
  const lines = host.querySelector('[data-testid=document-lines-order-line]')!;
  expect(lines).toBeTruthy();
  expect(lines.textContent).toContain('WIDGET-A');
  expect(lines.querySelector('[data-testid=document-lines-summary]')!.textContent).toBe('2 lines · Total: 5');
  // read-only: no inputs, no per-line edit or delete, no drawer add
  expect(lines.querySelectorAll('input').length).toBe(0);
  expect(lines.querySelector('[data-testid=child-add], [data-testid=child-row-edit], [data-testid=child-row-delete]')).toBeNull();
  expect(lines.querySelector('[data-testid=document-lines-frozen]')).toBeNull();
  // the lines were asked of the server for this document only
  expect(lists.find((l) => l.resource === 'order-line')!.filters).toEqual([{ field: 'orderId', operator: 'eq', value: 7 }]);
  const edit = lines.querySelector<HTMLAnchorElement>('[data-testid=document-lines-edit]')!;
  expect(edit.getAttribute('href')).toBe('/things/order/edit/7');
  // plain sub-rows keep their drawer while the status allows
  expect(host.querySelector('[data-testid=children-order-note] [data-testid=child-add]')).toBeTruthy();
  expect(host.querySelector('[data-testid=children-order-note] [data-testid=meta-import]')).toBeTruthy();
  await act(async () => edit.click());
  await until(() => path() === '/things/order/edit/7');
  done();
});

it('a released document: lines frozen, no edit-lines and no add button anywhere', async () => {
  status = 20;
  const { host, done } = await showOrder();
  const lines = host.querySelector('[data-testid=document-lines-order-line]')!;
  expect(lines.textContent).toContain('WIDGET-B');
  expect(lines.querySelector('[data-testid=document-lines-frozen]')!.textContent).toBe('The lines can no longer change in this status');
  expect(lines.querySelector('[data-testid=document-lines-edit]')).toBeNull();
  const notes = host.querySelector('[data-testid=children-order-note]')!;
  expect(notes.textContent).toContain('a note');
  expect(notes.querySelector('[data-testid=child-add], [data-testid=child-row-edit], [data-testid=child-row-delete], [data-testid=meta-import]')).toBeNull();
  done();
});
