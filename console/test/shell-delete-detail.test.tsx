// Issue 10 defect 9: deleting from a detail page does not fetch the deleted record again
// (Refine drops its cached row on success, which refetched it while the page was mounted).
import { act } from 'react';
import { beforeAll, expect, it } from 'vitest';
import { MetaShow } from '../src/meta/pages/show';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle, thingsResource, waitFor } from './support/render';

const gadget = thingsResource('gadget', [{ name: 'sn', type: 'string' }]);
const meta = metaOf(gadget);

// the store answers a deleted record with 404, as the server does
const data = fakeData({ gadget: [{ id: 7, sn: 'G-7' }] });
const asked = () => data.calls.filter((c) => c.method === 'getOne' || c.method === 'deleteOne').map((c) => `${c.method}:${String(c.id)}`);

beforeAll(() => initTestI18n());

it('deletes from the detail page, goes to the list, and never asks for the deleted record again', async () => {
  const { host, pathname } = await mount({
    path: '/things/gadget/detail/7',
    route: '/things/gadget/detail/:id',
    meta,
    dataProvider: data.provider,
    element: <MetaShow resource={gadget} />,
  });
  await waitFor(() => host.textContent?.includes('G-7'));
  await act(async () => host.querySelector<HTMLButtonElement>('[data-testid=meta-show-delete]')!.click());
  const ok = await waitFor(() => document.querySelector<HTMLButtonElement>('.ant-popconfirm .ant-btn-dangerous'));
  await act(async () => ok.click());
  await waitFor(() => pathname() === '/things/gadget');
  await settle(200);
  expect(asked()).toEqual(['getOne:7', 'deleteOne:7']);
  cleanup();
});
