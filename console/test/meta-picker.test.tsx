import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResourcePicker } from '../src/meta/components/resource-picker';
import { cleanup, fakeData, initTestI18n, metaOf, mount, thingsResource, waitFor } from './support/render';

const widget = thingsResource('widget', [{ name: 'sn', type: 'string', search: 'like' }]);
const meta = metaOf(widget);
const data = fakeData({ widget: Array.from({ length: 25 }, (_, i) => ({ id: i + 1, sn: `W-${i + 1}` })) });
/** the pages the picker asked for */
const asked = () => data.of('getList').map(({ pagination }) => ({ page: pagination?.currentPage ?? 1, size: pagination?.pageSize ?? 10 }));

afterEach(cleanup);

beforeAll(() => initTestI18n({ 'en-US': { fields: { sn: 'Serial' }, resources: { widget: 'Widget' } } }));

const rowCheckbox = (sn: string) =>
  [...document.querySelectorAll<HTMLTableRowElement>('[data-testid=resource-picker] tbody tr.ant-table-row')]
    .find((tr) => tr.textContent?.includes(sn) && !tr.textContent.includes(sn + '0'))
    ?.querySelector<HTMLInputElement>('input[type=checkbox]');

describe('ResourcePicker', () => {
  it('pages by 20 and keeps the selection across pages', async () => {
    let picked: unknown[] | undefined;
    await mount({
      path: widget.route,
      meta,
      dataProvider: data.provider,
      element: <ResourcePicker resource="widget" open value={[{ id: 3, sn: 'W-3' }]} onCancel={() => undefined} onOk={(ids) => (picked = ids)} />,
    });
    await waitFor(() => rowCheckbox('W-1'));
    expect(asked().at(-1)).toEqual({ page: 1, size: 20 });
    expect(document.querySelectorAll('[data-testid=resource-picker] tbody tr.ant-table-row')).toHaveLength(20);
    expect(rowCheckbox('W-3')!.checked).toBe(true);
    await act(async () => rowCheckbox('W-1')!.click());
    // to page 2 and pick a row there
    await act(async () => document.querySelector<HTMLElement>('.ant-pagination-item-2')!.click());
    await waitFor(() => rowCheckbox('W-21'));
    await act(async () => rowCheckbox('W-21')!.click());
    expect(document.querySelector('[data-testid=picker-count]')!.textContent).toContain('3');
    // back to page 1: its choices are still checked
    await act(async () => document.querySelector<HTMLElement>('.ant-pagination-item-1')!.click());
    await waitFor(() => rowCheckbox('W-1'));
    expect(rowCheckbox('W-1')!.checked).toBe(true);
    await act(async () => document.querySelector<HTMLElement>('[data-testid=picker-ok]')!.click());
    expect(picked).toEqual([3, 1, 21]);
  });
});
