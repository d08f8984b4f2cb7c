// Pickers don't offer what will be refused (issue 10): a beacon bound to another carrier is
// listed marked and disabled, naming that carrier; the carrier's own beacon and free ones stay
// selectable. Derived from metadata: the picked resource's read-only reference back to the
// form's resource.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Refine, type DataProvider } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { RefSelect, backReference } from '../src/meta/components/ref-select';
import metaEn from '../src/meta/locales/en-US.json';
import metaZh from '../src/meta/locales/zh-CN.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const carrier = {
  name: 'carrier',
  route: '/c',
  titleField: 'sn',
  fields: [
    { name: 'sn', type: 'string' },
    { name: 'beaconId', type: 'ref', ref: { resource: 'device-beacon', label: 'sn' } },
    { name: 'projectId', type: 'ref', ref: { resource: 'project', label: 'name' } },
  ],
} as unknown as ResourceDef;
const beacon = {
  name: 'device-beacon',
  route: '/b',
  titleField: 'sn',
  fields: [
    { name: 'sn', type: 'string' },
    { name: 'carrierId', type: 'ref', readOnly: true, ref: { resource: 'carrier', label: 'sn' } },
  ],
} as unknown as ResourceDef;
const project = { name: 'project', route: '/p', titleField: 'name', fields: [{ name: 'name', type: 'string' }] } as unknown as ResourceDef;
const meta: Metadata = { resources: { carrier, 'device-beacon': beacon, project }, enums, menu: { groups: [] } };

const beacons = [
  { id: 1, sn: 'B-1', carrierId: null },
  { id: 2, sn: 'B-2', carrierId: 7, carrierIdLabel: 'C-7' },
  { id: 3, sn: 'B-3', carrierId: 5, carrierIdLabel: 'C-5' },
];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async () => ({ data: beacons as never, total: beacons.length }),
  getOne: async () => ({ data: {} as never }),
  create: async () => ({ data: {} as never }),
  update: async () => ({ data: {} as never }),
  deleteOne: async () => ({ data: {} as never }),
};

let root: Root | undefined;
let host: HTMLElement;
async function mount(ownerId?: number) {
  host = document.createElement('div');
  document.body.appendChild(host);
  const field = carrier.fields[1];
  const app = (
    <Refine dataProvider={dataProvider} options={{ disableTelemetry: true }}>
      <RefSelect field={field} owner={{ resource: 'carrier', id: ownerId }} open virtual={false} />
    </Refine>
  );
  const router = createMemoryRouter([{ path: '*', element: app }], { initialEntries: ['/c/create'] });
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
  // options load on first focus
  await act(async () => host.querySelector('input')!.focus());
  const end = Date.now() + 5000;
  while (document.querySelectorAll('.ant-select-item-option').length < 3) {
    if (Date.now() > end) throw new Error(`options did not load: ${document.body.textContent}`);
    await act(async () => new Promise((r) => setTimeout(r, 25)));
  }
}
const options = () =>
  [...document.querySelectorAll('.ant-select-item-option')].map((o) => [o.textContent, o.classList.contains('ant-select-item-option-disabled')]);

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: { ...metaEn, resources: { carrier: 'Carrier' } } }, 'zh-CN': { translation: { ...metaZh, resources: { carrier: '载具' } } } },
    interpolation: { escapeValue: false },
  });
});
afterEach(async () => {
  act(() => root?.unmount());
  host?.remove();
  document.body.innerHTML = '';
  await i18n.changeLanguage('en-US');
});

describe('a picker of rows another record holds', () => {
  it('finds the back reference from metadata only where one exists', () => {
    expect(backReference(beacon, 'carrier')?.name).toBe('carrierId');
    expect(backReference(project, 'carrier')).toBeUndefined();
  });

  it('marks and disables a beacon bound to another carrier, naming it; the own and free ones stay selectable', async () => {
    await mount(5);
    expect(options()).toEqual([
      ['B-1', false],
      ['B-2 (bound to carrier C-7)', true],
      ['B-3', false],
    ]);
  });

  it('on create every bound beacon is held; the text follows the language', async () => {
    await i18n.changeLanguage('zh-CN');
    await mount(undefined);
    expect(options()).toEqual([
      ['B-1', false],
      ['B-2（已绑定载具 C-7）', true],
      ['B-3（已绑定载具 C-5）', true],
    ]);
  });
});
