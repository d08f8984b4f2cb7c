// After saving (issue 10): back on the list as it was left (filters, page), the saved row
// highlighted, the create tab closed; a refusal that names a field is said once, under the
// field, not also as a toast; a format refusal says the format.
import { act } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MetaList } from '../src/meta/pages/list';
import { MetaCreate } from '../src/meta/pages/create';
import { clearListReturn } from '../src/meta/lib/list-return';
import { TabsContext } from '../src/components/tabs/tabs-context';
import { createTabStore, type TabStore } from '../src/components/tabs/tab-store';
import { cleanup, fakeData, initTestI18n, metaOf, mount as mountScreen, type Mounted, thingsResource, typeInto as type, waitFor } from './support/render';

const widget = thingsResource('widget', [
  { name: 'sn', type: 'string', required: true, maxLength: 64, pattern: 'code', search: 'like', list: { sortable: true } },
]);
const meta = metaOf(widget);
const REFUSAL = 'Serial: letters, digits, - _ and . (starting with a letter or digit), up to 64 characters';

let refuseNext = false;
const data = fakeData(
  { widget: [{ id: 1, sn: 'W-1' }] },
  {
    create: async ({ variables }) => {
      if (refuseNext) {
        refuseNext = false;
        throw Object.assign(new Error(REFUSAL), { statusCode: 10001 });
      }
      data.rows.widget.unshift({ id: 9, ...(variables as { sn: string }) });
      return { data: { id: 9 } as never };
    },
  },
);

let view: Mounted;
let host: HTMLElement;
let notified: Mounted['notified'];
let tabs: TabStore;
const here = () => view.url();

async function mount(path: string) {
  tabs = createTabStore('7', { key: '/home', path: '/home', title: 'home' }, (t) => t);
  view = await mountScreen({
    path,
    meta,
    dataProvider: data.provider,
    syncWithLocation: true,
    wrap: (app) => <TabsContext.Provider value={tabs}>{app}</TabsContext.Provider>,
    element: (
      <Routes>
        <Route path={widget.route} element={<MetaList resource={widget} />} />
        <Route path={`${widget.route}/create`} element={<MetaCreate resource={widget} />} />
      </Routes>
    ),
  });
  host = view.host;
  notified = view.notified;
}
const text = () => view.text();

beforeAll(() =>
  initTestI18n({
    'en-US': {
      fields: { sn: 'Serial' },
      validation: {
        required: 'Please input {{name}}',
        codeMax: '{{name}}: letters, digits, - _ and . (starting with a letter or digit), up to {{max}} characters',
      },
    },
  }),
);
afterEach(() => {
  cleanup();
  data.reset();
  clearListReturn();
});

describe('after saving', () => {
  it('comes back to the list as it was left, highlights the saved row and closes the create tab; a field refusal is said once', async () => {
    const listUrl = `${widget.route}?currentPage=1&pageSize=10&filters[0][field]=sn&filters[0][operator]=contains&filters[0][value]=W`;
    await mount(listUrl);
    await waitFor(() => text().includes('W-1'));
    const left = here();
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
    await waitFor(() => here() === left && text().includes('W-9'));
    const row = await waitFor(() => host.querySelector('tr[data-row-key="9"]'));
    expect(row.className).toContain('meta-row-saved');
    expect(host.querySelector('tr[data-row-key="1"]')!.className).not.toContain('meta-row-saved');
    expect(tabs.get().tabs.map((t) => t.key)).not.toContain(`${widget.route}/create`);
    expect(notified.map((n) => n.type)).toEqual(['success']);
  });
});
