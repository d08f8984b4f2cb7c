import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Refine, type DataProvider } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { ResourcePicker } from '../src/meta/components/resource-picker';
import metaEn from '../src/meta/locales/en-US.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const widget: ResourceDef = {
  name: 'widget',
  module: 'things',
  route: '/things/widget',
  orgScoped: true,
  titleField: 'sn',
  fields: [{ name: 'sn', type: 'string', search: 'like' }],
};
const meta: Metadata = { resources: { widget }, enums, menu: { groups: [] } };
const all = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, sn: `W-${i + 1}` }));
const asked: Array<{ page?: number; size?: number }> = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ pagination }) => {
    const page = pagination?.currentPage ?? 1;
    const size = pagination?.pageSize ?? 10;
    asked.push({ page, size });
    return { data: all.slice((page - 1) * size, page * size) as never, total: all.length };
  },
  getOne: async () => ({ data: {} as never }),
  create: async () => ({ data: {} as never }),
  update: async () => ({ data: {} as never }),
  deleteOne: async () => ({ data: {} as never }),
};

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

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
    resources: { 'en-US': { translation: { ...metaEn, fields: { sn: 'Serial' }, resources: { widget: 'Widget' } } } },
    interpolation: { escapeValue: false },
  });
});

const rowCheckbox = (sn: string) =>
  [...document.querySelectorAll<HTMLTableRowElement>('[data-testid=resource-picker] tbody tr.ant-table-row')]
    .find((tr) => tr.textContent?.includes(sn) && !tr.textContent.includes(sn + '0'))
    ?.querySelector<HTMLInputElement>('input[type=checkbox]');

describe('ResourcePicker', () => {
  it('pages by 20 and keeps the selection across pages', async () => {
    let picked: unknown[] | undefined;
    const host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    await act(async () => {
      root!.render(
        <AntApp>
          <MetadataProvider value={meta}>
            <Refine dataProvider={dataProvider} resources={[{ name: 'widget' }]} options={{ disableTelemetry: true }}>
              <ResourcePicker resource="widget" open value={[{ id: 3, sn: 'W-3' }]} onCancel={() => undefined} onOk={(ids) => (picked = ids)} />
            </Refine>
          </MetadataProvider>
        </AntApp>,
      );
    });
    await waitFor(() => rowCheckbox('W-1'));
    expect(asked.at(-1)).toEqual({ page: 1, size: 20 });
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
