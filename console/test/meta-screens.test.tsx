import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MetaList } from '../src/meta/pages/list';
import { MetaCreate } from '../src/meta/pages/create';
import { cleanup, fakeData, initTestI18n, metaOf, mount as mountScreen, type Mounted, thingsResource, typeInto, waitFor } from './support/render';

/** A small generic resource: text, enum, ref, with a status rule and one required field. */
const gadget = thingsResource('gadget', [
  { name: 'sn', type: 'string', required: true, search: 'like', list: { sortable: true } },
  { name: 'level', type: 'enum', enum: 'level', search: 'in' },
  { name: 'ownerId', type: 'ref', ref: { resource: 'owner', label: 'name' }, required: true },
  { name: 'remark', type: 'text' },
]);
const meta = metaOf(gadget);

const rows = [
  { id: 1, sn: 'G-1', level: 10, ownerId: 5, ownerIdLabel: 'Owner Five' },
  { id: 2, sn: 'G-2', level: 20, ownerId: 6, ownerIdLabel: 'Owner Six' },
];
const data = fakeData({ gadget: rows });
const calls = data.calls;

let view: Mounted;
let host: HTMLElement;
async function mount(path: string, element: React.ReactNode, denied: string[] = []) {
  view = await mountScreen({ path, element, meta, dataProvider: data.provider, denied });
  host = view.host;
}

beforeAll(() =>
  initTestI18n({
    'en-US': {
      fields: { sn: 'Serial', level: 'Level', ownerId: 'Owner', remark: 'Remark' },
      enums: { level: { low: 'Low', high: 'High' } },
      validation: { required: 'Please input {{name}}', select: 'Please select {{name}}' },
    },
  }),
);

afterEach(() => {
  cleanup();
  data.reset();
});

const text = () => view.text();

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
    expect(calls.map((c) => `${c.method} ${c.resource}`)).toEqual(['getList gadget']);
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
    view.unmount();
    await mount('/things/gadget', <MetaList resource={importable} />, ['import']);
    await waitFor(() => text().includes('G-1'));
    expect(host.querySelector('[data-testid=meta-import]')).toBeNull();
  });

  it('searches with the typed value and stores column choices per user', async () => {
    await mount('/things/gadget', <MetaList resource={gadget} />);
    await waitFor(() => text().includes('G-1'));
    const input = host.querySelector<HTMLInputElement>('input#sn')!;
    await typeInto(input, 'G-2');
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
