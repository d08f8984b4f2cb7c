// Pickers don't offer what will be refused (issue 10): a beacon bound to another carrier is
// listed marked and disabled, naming that carrier; the carrier's own beacon and free ones stay
// selectable. Derived from metadata: the picked resource's read-only reference back to the
// form's resource.
import { act } from 'react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { RefSelect, backReference } from '../src/meta/components/ref-select';
import { cleanup, fakeData, initTestI18n, metaOf, mount as mountScreen, waitFor } from './support/render';

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
const meta = metaOf(carrier, beacon, project);

const data = fakeData({
  'device-beacon': [
    { id: 1, sn: 'B-1', carrierId: null },
    { id: 2, sn: 'B-2', carrierId: 7, carrierIdLabel: 'C-7' },
    { id: 3, sn: 'B-3', carrierId: 5, carrierIdLabel: 'C-5' },
  ],
});

async function mount(ownerId?: number) {
  const field = carrier.fields[1];
  const { host } = await mountScreen({
    path: '/c/create',
    meta,
    dataProvider: data.provider,
    element: <RefSelect field={field} owner={{ resource: 'carrier', id: ownerId }} open virtual={false} />,
  });
  // options load on first focus
  await act(async () => host.querySelector('input')!.focus());
  await waitFor(
    () => document.querySelectorAll('.ant-select-item-option').length >= 3,
    5000,
    () => `options did not load: ${document.body.textContent}`,
  );
}
const options = () =>
  [...document.querySelectorAll('.ant-select-item-option')].map((o) => [o.textContent, o.classList.contains('ant-select-item-option-disabled')]);

beforeAll(() => initTestI18n({ 'en-US': { resources: { carrier: 'Carrier' } }, 'zh-CN': { resources: { carrier: '载具' } } }));
afterEach(async () => {
  cleanup();
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
