// Issue 11: a document's detail page shows its lines read-only (server-paged) and sends line
// edits to the one-page editor, offered only while the header's status lets the lines change
// (editableWhen); no drawer editor, no add button on a frozen document. Plain sub-rows keep
// their drawer, and lose their add button when the parent's status freezes them.
import { act } from 'react';
import { beforeAll, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '../src/meta/pages/show';
import { fakeData, initTestI18n, metaOf, mount, settle, waitFor } from './support/render';

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
    {
      resource: 'order-line',
      foreignKey: 'orderId',
      inline: true,
      cascade: true,
      editableWhen: { field: 'status', values: [10] },
      rollUps: [{ field: 'total', kind: 'sum', of: 'qty' }],
    },
    { resource: 'order-note', foreignKey: 'orderId', editableWhen: { field: 'status', values: [10] } },
  ],
} as ResourceDef;
const line: ResourceDef = {
  name: 'order-line',
  module: 'things',
  route: '/things/order-line',
  orgScoped: true,
  titleField: 'item',
  fields: [
    { name: 'orderId', type: 'ref', ref: { resource: 'order' } },
    { name: 'item', type: 'string' },
    { name: 'qty', type: 'int' },
  ],
} as ResourceDef;
// notes can also be imported from a file (a ship plan's cubing plan): the card offers it while they may change
const note: ResourceDef = {
  name: 'order-note',
  module: 'things',
  route: '/things/order-note',
  orgScoped: true,
  titleField: 'text',
  import: { key: 'text', columns: ['text'] },
  fields: [
    { name: 'orderId', type: 'ref', ref: { resource: 'order' } },
    { name: 'text', type: 'string' },
  ],
} as ResourceDef;
const meta = metaOf(order, line, note);

const data = fakeData({
  order: [{ id: 7, no: 'SO-7', status: 10, total: 5 }],
  'order-line': [
    { id: 1, orderId: 7, item: 'WIDGET-A', qty: 2 },
    { id: 2, orderId: 7, item: 'WIDGET-B', qty: 3 },
  ],
  'order-note': [{ id: 5, orderId: 7, text: 'a note' }],
});
/** the document opens in this status */
const openIn = (status: number) => {
  data.reset();
  data.rows.order[0].status = status;
};

beforeAll(() => initTestI18n({ 'en-US': { fields: { total: 'Total' } } }));

async function showOrder() {
  const view = await mount({
    path: '/things/order/detail/7',
    route: '/things/order/detail/:id',
    meta,
    dataProvider: data.provider,
    element: <MetaShow resource={order} />,
  });
  await waitFor(() => view.text().includes('WIDGET-B') && view.text().includes('a note'));
  // access answers arrive after the rows
  await settle(100);
  return { host: view.host, path: view.pathname, done: view.unmount };
}

it('a new document: its lines read-only with the roll-up, edited on the one-page editor, no drawer', async () => {
  openIn(10);
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
  expect(data.of('getList', 'order-line')[0].filters).toEqual([{ field: 'orderId', operator: 'eq', value: 7 }]);
  const edit = lines.querySelector<HTMLAnchorElement>('[data-testid=document-lines-edit]')!;
  expect(edit.getAttribute('href')).toBe('/things/order/edit/7');
  // plain sub-rows keep their drawer while the status allows
  expect(host.querySelector('[data-testid=children-order-note] [data-testid=child-add]')).toBeTruthy();
  expect(host.querySelector('[data-testid=children-order-note] [data-testid=meta-import]')).toBeTruthy();
  await act(async () => edit.click());
  await waitFor(() => path() === '/things/order/edit/7');
  done();
});

it('a released document: lines frozen, no edit-lines and no add button anywhere', async () => {
  openIn(20);
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
