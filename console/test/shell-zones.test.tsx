// Console zones: plugins place components in named zones of the generated screens
// (`<resource>.show.before|after`, `.lines.toolbar`, `.list.toolbar`). The registry picks, guards
// and orders them; the detail page renders them with the record and a refresh that reads the
// record and its lines again (also after a workflow step: lines never stay stale until a reload).
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import type { ConsolePlugin, LinesZoneProps, ZoneProps } from '../src/plugin-api';
import { unknownZones, zoneEntries, zoneName } from '../src/lib/zones';
import { MetaShow } from '../src/meta/pages/show';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle, waitFor } from './support/render';

const comp = (name: string) => async () => ({ default: () => <span>{name}</span> });

describe('zone registry', () => {
  const a = comp('a');
  const b = comp('b');
  const c = comp('c');
  const guarded = comp('guarded');
  const plugins: ConsolePlugin[] = [
    { id: 'zeta', zones: { 'receipt.show.after': [a, { component: b, order: 10 }] } },
    { id: 'alpha', zones: { 'receipt.show.after': c, 'receipt.lines.toolbar': { component: guarded, viewCode: 'ApiReceiptDetailReceive' } } },
    { id: 'none' },
  ];

  it('names zones by resource and slot', () => {
    expect(zoneName('receipt', 'show.after')).toBe('receipt.show.after');
    expect(zoneName('ship-order', 'lines.toolbar')).toBe('ship-order.lines.toolbar');
  });

  it('collects every plugin’s entries of a zone, by order, then plugin id, then declaration', () => {
    const got = zoneEntries(plugins, 'receipt.show.after', () => true);
    expect(got.map((e) => e.component)).toEqual([b, c, a]);
    expect(got.map((e) => e.key)).toEqual(['zeta:1', 'alpha:0', 'zeta:0']);
    expect(zoneEntries(plugins, 'carrier.show.after', () => true)).toEqual([]);
  });

  it('leaves out entries whose view code the user lacks', () => {
    expect(zoneEntries(plugins, 'receipt.lines.toolbar', () => false)).toEqual([]);
    const held = new Set(['ApiReceiptDetailReceive']);
    expect(zoneEntries(plugins, 'receipt.lines.toolbar', (code) => held.has(code)).map((e) => e.component)).toEqual([guarded]);
  });

  it('leaves out entries whose `when` refuses the record; without a record `when` is not asked', () => {
    const open = comp('open');
    const withWhen: ConsolePlugin[] = [{ id: 'p', zones: { 'receipt.lines.toolbar': { component: open, when: (r) => r.status === 10 } } }];
    expect(zoneEntries(withWhen, 'receipt.lines.toolbar', () => true, { status: 10 }).map((e) => e.component)).toEqual([open]);
    expect(zoneEntries(withWhen, 'receipt.lines.toolbar', () => true, { status: 30 })).toEqual([]);
    expect(zoneEntries(withWhen, 'receipt.lines.toolbar', () => true).map((e) => e.component)).toEqual([open]);
  });

  it('reports zone names no screen renders', () => {
    const typo = { id: 'typo', zones: { 'receipt.show.afterr': a, 'show.after': a } } as unknown as ConsolePlugin;
    expect(unknownZones([...plugins, typo])).toEqual(['typo: receipt.show.afterr', 'typo: show.after']);
    expect(unknownZones(plugins)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// on the detail page

const order: ResourceDef = {
  name: 'order',
  module: 'things',
  route: '/things/order',
  orgScoped: true,
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string' },
    { name: 'status', type: 'int' },
  ],
  children: [{ resource: 'order-line', foreignKey: 'orderId', inline: true, cascade: true, editableWhen: { field: 'status', values: [5] } }],
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
  ],
} as ResourceDef;
const meta = metaOf(order, line);

let seen: { before?: ZoneProps; after?: ZoneProps; toolbar?: LinesZoneProps } = {};
const zonePlugin: ConsolePlugin = {
  id: 'zones',
  zones: {
    'order.show.before': async () => ({
      default: (p: ZoneProps) => {
        seen.before = p;
        return <div data-testid="zone-before">before {String(p.record.no)}</div>;
      },
    }),
    'order.show.after': async () => ({
      default: (p: ZoneProps) => {
        seen.after = p;
        return <div data-testid="zone-after">after {p.resource.name}</div>;
      },
    }),
    'order.lines.toolbar': async () => ({
      default: (p: LinesZoneProps) => {
        seen.toolbar = p;
        return (
          <div data-testid="zone-toolbar">
            {p.lines.name}: {p.selectedIds.length} ticked
          </div>
        );
      },
    }),
  },
};
const shell = (plugins: ConsolePlugin[]): Shell => ({ meta, plugins, routes: [], sideMenu: [], access: new Set(), user: { id: 7 } as never });

beforeAll(() => initTestI18n());
afterEach(() => {
  cleanup();
  seen = {};
});

async function showOrder(
  plugins: ConsolePlugin[],
  data = fakeData({
    order: [{ id: 7, no: 'SO-7', status: 10 }],
    'order-line': [
      { id: 1, orderId: 7, item: 'WIDGET-A' },
      { id: 2, orderId: 7, item: 'WIDGET-B' },
    ],
  }),
) {
  const view = await mount({
    path: '/things/order/detail/7',
    route: '/things/order/detail/:id',
    meta,
    dataProvider: data.provider,
    element: <MetaShow resource={order} />,
    wrap: (app) => <ShellProvider value={shell(plugins)}>{app}</ShellProvider>,
  });
  await waitFor(() => view.text().includes('WIDGET-B'));
  return { view, data };
}

describe('zones on the detail page', () => {
  it('renders the zones with the record, the resource and the ticked lines', async () => {
    const { view } = await showOrder([zonePlugin]);
    const host = view.host;
    await waitFor(() => host.querySelector('[data-testid=zone-toolbar]'));
    await waitFor(() => host.querySelector('[data-testid=zone-after]'));
    expect(host.querySelector('[data-testid=zone-before]')!.textContent).toBe('before SO-7');
    expect(host.querySelector('[data-testid=zone-after]')!.textContent).toBe('after order');
    // before the fields, after them, and the toolbar inside the lines' card above the table
    const all = [
      ...host.querySelectorAll('[data-testid=zone-before], [data-testid=meta-show], [data-testid=zone-after], [data-testid=document-lines-order-line]'),
    ].map((e) => e.getAttribute('data-testid'));
    expect(all).toEqual(['zone-before', 'meta-show', 'zone-after', 'document-lines-order-line']);
    const card = host.querySelector('[data-testid=document-lines-order-line]')!;
    expect(card.querySelector('[data-testid=zone-toolbar]')!.textContent).toBe('order-line: 0 ticked');
    // the lines can be ticked because a toolbar acts on them
    const boxes = card.querySelectorAll<HTMLInputElement>('tr.ant-table-row .ant-checkbox-input');
    expect(boxes.length).toBe(2);
    await act(async () => boxes[1].click());
    await waitFor(() => seen.toolbar?.selectedIds.length === 1);
    expect(seen.toolbar!.selectedIds).toEqual([2]);
    // a frozen document's lines acted on by a toolbar do not say they can no longer change
    expect(card.querySelector('[data-testid=document-lines-frozen]')).toBeNull();
    expect(seen.toolbar!.record.no).toBe('SO-7');
    await act(async () => seen.toolbar!.clearSelection());
    await waitFor(() => seen.toolbar?.selectedIds.length === 0);
  });

  it('refresh() reads the record and its lines again', async () => {
    const { data } = await showOrder([zonePlugin]);
    await waitFor(() => seen.after);
    await settle(100);
    const lists = data.of('getList', 'order-line').length;
    const ones = data.of('getOne', 'order').length;
    data.rows['order-line'][0].item = 'WIDGET-A2';
    data.rows.order[0].no = 'SO-7b';
    await act(async () => seen.after!.refresh());
    await waitFor(() => data.of('getList', 'order-line').length > lists && data.of('getOne', 'order').length > ones);
    await waitFor(() => seen.before?.record.no === 'SO-7b');
  });

  it('a toolbar whose entries do not apply to the record (its `when`) leaves the lines without checkboxes', async () => {
    const closedOnly: ConsolePlugin = { id: 'z', zones: { 'order.lines.toolbar': { component: comp('toolbar'), when: (r) => r.status === 30 } } };
    const { view } = await showOrder([closedOnly]);
    await settle(100);
    expect(view.host.querySelector('[data-zone]')).toBeNull();
    expect(view.host.querySelectorAll('.ant-checkbox-input').length).toBe(0);
  });

  it('without plugins the page has no zones and no line checkboxes', async () => {
    const { view } = await showOrder([]);
    await settle(100);
    expect(view.host.querySelector('[data-testid=document-lines-frozen]')).toBeTruthy();
    expect(view.host.querySelector('[data-zone]')).toBeNull();
    expect(view.host.querySelectorAll('.ant-checkbox-input').length).toBe(0);
  });
});
