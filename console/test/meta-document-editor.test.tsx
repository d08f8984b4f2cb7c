// The one-page editor's lines table (DocumentLines): a repeated unique key is marked on the
// repeating line only, naming the line it repeats, as the server's refusal does ("Line 3:
// Carrier repeats line 1"), and the mark goes when that line does; the line count and roll-ups
// follow the edits; a frozen document shows its lines with the notice and nothing to change.
import { act, useState } from 'react';
import { beforeAll, expect, it } from 'vitest';
import type { ChildrenDef, FieldDef, ResourceDef } from '@rti/metadata/browser';
import { DocumentLines } from '../src/meta/components/document-lines';
import type { EditorLine } from '../src/meta/lib/document-lines';
import { fakeData, initTestI18n, metaOf, mount } from './support/render';

const order = {
  name: 'order',
  route: '/things/order',
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string' },
    { name: 'total', type: 'int', readOnly: true },
  ],
} as unknown as ResourceDef;
const fields: FieldDef[] = [
  { name: 'item', type: 'string', required: true },
  { name: 'qty', type: 'int', min: 1, default: 1 },
];
const line = {
  name: 'order-line',
  route: '/things/order-line',
  titleField: 'item',
  fields: [{ name: 'orderId', type: 'ref', ref: { resource: 'order' } }, ...fields],
} as unknown as ResourceDef;
const def: ChildrenDef = {
  resource: 'order-line',
  foreignKey: 'orderId',
  uniqueKeys: ['item'],
  inline: true,
  rollUps: [{ field: 'total', kind: 'sum', of: 'qty' }],
};
const meta = metaOf(order, line);

beforeAll(() => initTestI18n({ 'en-US': { fields: { total: 'Total' }, resources: { 'order-line': 'Order line' } } }));

async function editor(initial: Array<Record<string, unknown>>, readOnly = false) {
  const Editor = () => {
    const [lines, setLines] = useState<EditorLine[]>(initial.map((values, i) => ({ key: `k${i}`, values })));
    return <DocumentLines parent={order} def={def} child={line} fields={fields} lines={lines} onChange={setLines} readOnly={readOnly} />;
  };
  const view = await mount({ path: '/things/order/create', meta, dataProvider: fakeData().provider, element: <Editor /> });
  const rows = () => [...view.host.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
  const marks = () => rows().map((r) => r.querySelector('[data-testid=document-line-duplicate]')?.textContent ?? '');
  const summary = () => view.host.querySelector('[data-testid=document-lines-summary]')!.textContent;
  return { ...view, rows, marks, summary };
}

it('marks the repeating line only, naming the line it repeats; the mark goes with that line', async () => {
  const view = await editor([
    { item: 'A', qty: 1 },
    { item: 'B', qty: 4 },
    { item: 'A', qty: 2 },
  ]);
  expect(view.marks()).toEqual(['', '', 'Repeats line 1']);
  expect(view.summary()).toBe('3 lines · Total: 7');
  await act(async () => view.rows()[2].querySelector<HTMLButtonElement>('[data-testid=document-line-remove]')!.click());
  expect(view.marks()).toEqual(['', '']);
  expect(view.summary()).toBe('2 lines · Total: 5');
  // a new line takes the defaults and counts at once
  await act(async () => view.host.querySelector<HTMLButtonElement>('[data-testid=document-line-add]')!.click());
  expect(view.rows()).toHaveLength(3);
  expect(view.summary()).toBe('3 lines · Total: 6');
  expect(view.host.querySelector('[data-testid=document-lines-frozen]')).toBeNull();
  view.unmount();
});

it('a frozen document: the notice, disabled inputs, no add or remove', async () => {
  const view = await editor([{ item: 'A', qty: 2 }], true);
  expect(view.host.querySelector('[data-testid=document-lines-frozen]')).toBeTruthy();
  expect(view.host.querySelector('[data-testid=document-line-add], [data-testid=document-line-remove]')).toBeNull();
  expect([...view.host.querySelectorAll('tbody input')].every((i) => (i as HTMLInputElement).disabled)).toBe(true);
  expect(view.summary()).toBe('1 line · Total: 2');
  view.unmount();
});
