// The step dialog's two buttons never read the same: its dismiss button says "Close" (in three
// languages), so cancelling an order asks "Cancel" beside "Close", not "Cancel" beside "Cancel"
// (issue 17).
import { act } from 'react';
import i18n from 'i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { apiCode, type ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '../src/meta/pages/show';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import { cleanup, fakeData, initTestI18n, metaOf, mount, waitFor } from './support/render';

// the metadata's step labels, wherever they live (metadata/locales or a module's own folder,
// plugins/<id>/metadata/locales: the ship order's cancel is the shipping module's)
const labelFiles = import.meta.glob<{ transitions?: Record<string, string> }>(['../../metadata/locales/*.json', '../../plugins/*/metadata/locales/*.json'], {
  eager: true,
  import: 'default',
});
const stepLabels = (lng: string): Record<string, string> =>
  Object.assign(
    {},
    ...Object.entries(labelFiles)
      .filter(([path]) => path.endsWith(`/${lng}.json`))
      .map(([, d]) => d.transitions ?? {}),
  );
const shipEn = { transitions: stepLabels('en-US') };
const shipZh = { transitions: stepLabels('zh-CN') };
const shipJa = { transitions: stepLabels('ja-JP') };

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
  transitions: [{ name: 'cancel', field: 'status', from: [1], to: 6, confirm: true, danger: true }],
} as ResourceDef;
const meta = metaOf(order);
const shell: Shell = { meta, plugins: [], routes: [], sideMenu: [], access: new Set([apiCode('/order/cancel')]), user: { id: 7 } as never };

beforeAll(() =>
  initTestI18n({ 'en-US': { transitions: shipEn.transitions }, 'zh-CN': { transitions: shipZh.transitions }, 'ja-JP': { transitions: shipJa.transitions } }),
);
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en-US');
});

for (const [lng, step, dismiss] of [
  ['en-US', 'Cancel', 'Close'],
  ['zh-CN', shipZh.transitions.cancel, '关闭'],
  ['ja-JP', shipJa.transitions.cancel, '閉じる'],
] as const) {
  it(`${lng}: the Cancel-order dialog offers "${step}" and "${dismiss}", two different buttons`, async () => {
    await i18n.changeLanguage(lng);
    const data = fakeData({ order: [{ id: 4, no: 'SO-4', status: 1 }] });
    const view = await mount({
      path: '/things/order/detail/4',
      route: '/things/order/detail/:id',
      meta,
      dataProvider: data.provider,
      element: <MetaShow resource={order} />,
      wrap: (app) => <ShellProvider value={shell}>{app}</ShellProvider>,
    });
    const button = await waitFor(() => view.host.querySelector<HTMLButtonElement>('[data-testid=meta-step-cancel]'));
    await act(async () => button.click());
    const ok = await waitFor(() => document.querySelector<HTMLButtonElement>('[data-testid=meta-step-ok]'));
    const close = document.querySelector<HTMLButtonElement>('[data-testid=meta-step-dismiss]')!;
    const text = (b: HTMLElement) => b.textContent!.replace(/\s+/g, '');
    expect(text(ok)).toBe(step.replace(/\s+/g, ''));
    expect(text(close)).toBe(dismiss);
    expect(text(ok)).not.toBe(text(close));
  });
}
