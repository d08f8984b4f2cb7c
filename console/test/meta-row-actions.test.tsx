// Row actions stay in a bounded column (issue 17: a 600 px Actions column hid the receiver at
// 1440 px): up to three side by side; past that Detail and the row's first step stay inline and
// the others (Edit, the other steps, Delete) open from "More".
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCode, type ResourceDef } from '@rti/metadata/browser';
import { actionsWidth, COMPACT_ACTIONS_WIDTH, NARROW_ACTIONS_WIDTH } from '../src/meta/components/row-actions';
import { MetaList } from '../src/meta/pages/list';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import { cleanup, fakeData, initTestI18n, metaOf, mount, waitFor } from './support/render';

const order: ResourceDef = {
  name: 'order',
  module: 'things',
  route: '/things/order',
  orgScoped: true,
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string', list: { width: 120 } },
    { name: 'status', type: 'int', list: { width: 80 } },
  ],
  transitions: [
    { name: 'release', field: 'status', from: [1], to: 2, confirm: true },
    { name: 'cancel', field: 'status', from: [1], to: 6, confirm: true, danger: true },
    { name: 'close', field: 'status', from: [2], to: 5 },
  ],
} as ResourceDef;
const meta = metaOf(order);
const shell: Shell = {
  meta,
  plugins: [],
  routes: [],
  sideMenu: [],
  access: new Set(['/order/release', '/order/cancel', '/order/close'].map(apiCode)),
  user: { id: 7 } as never,
};

beforeAll(() => initTestI18n({ 'en-US': { transitions: { release: 'Release', cancel: 'Cancel', close: 'Close' } } }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the actions column', () => {
  it('is as wide as up to three actions, and bounded past that', () => {
    const all = { show: true, edit: true, delete: true, status: false };
    expect(actionsWidth({ show: true, edit: true, delete: false, status: false }, [], 0)).toBe(200);
    expect(actionsWidth(all, [], 3)).toBe(COMPACT_ACTIONS_WIDTH);
    expect(actionsWidth(all, [120, 120], 6)).toBe(COMPACT_ACTIONS_WIDTH);
    expect(COMPACT_ACTIONS_WIDTH).toBeLessThanOrEqual(300);
  });

  it("takes at most a quarter of a tablet's table (issue 23: 290 of 678 px were 40 %)", () => {
    const all = { show: true, edit: true, delete: true, status: false };
    // a 768 px tablet with the collapsed sider leaves a table of about 678 px
    expect(actionsWidth(all, [], 3, true) / 678).toBeLessThanOrEqual(0.25);
    expect(actionsWidth(all, [], 3, true)).toBe(NARROW_ACTIONS_WIDTH);
    // a single action that fits stays as it is
    expect(actionsWidth({ show: true, edit: false, delete: false, status: false }, [], 0, true)).toBe(130);
  });

  it('on a tablet a row shows Detail and More; its steps, edit and delete open from More', async () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 768 });
    try {
      const data = fakeData({ order: [{ id: 1, no: 'SO-1', status: 1 }] });
      const view = await mount({
        path: '/things/order',
        meta,
        dataProvider: data.provider,
        element: <MetaList resource={order} />,
        wrap: (app) => <ShellProvider value={shell}>{app}</ShellProvider>,
      });
      await waitFor(() => view.text().includes('SO-1'));
      const row = view.host.querySelector<HTMLElement>('tr.ant-table-row')!;
      expect(row.querySelector('[data-testid=meta-row-show]')).toBeTruthy();
      expect(row.querySelector('[data-testid=meta-row-more]')).toBeTruthy();
      expect(row.querySelector('[data-testid=meta-step-release]')).toBeNull();
      await act(async () => (row.querySelector('[data-testid=meta-row-more]') as HTMLButtonElement).click());
      const more = await waitFor(() => document.querySelector('[data-testid=meta-row-more-actions]'));
      for (const id of ['meta-step-release', 'meta-row-edit', 'meta-row-delete']) expect(more.querySelector(`[data-testid=${id}]`)).toBeTruthy();
      const cols = [...view.host.querySelectorAll<HTMLElement>('col')].map((c) => c.style.width).filter(Boolean);
      expect(cols).toContain(`${NARROW_ACTIONS_WIDTH}px`);
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('a row with more actions shows Detail, its first step and More; the others open from More', async () => {
    const data = fakeData({
      order: [
        { id: 1, no: 'SO-1', status: 1 },
        { id: 2, no: 'SO-2', status: 2 },
      ],
    });
    const view = await mount({
      path: '/things/order',
      meta,
      dataProvider: data.provider,
      element: <MetaList resource={order} />,
      wrap: (app) => <ShellProvider value={shell}>{app}</ShellProvider>,
    });
    await waitFor(() => view.text().includes('SO-2'));
    const row = (no: string) => [...view.host.querySelectorAll<HTMLElement>('tr.ant-table-row')].find((r) => r.textContent!.includes(no))!;
    const inRow = (no: string, id: string) => row(no).querySelector(`[data-testid=${id}]`);
    // a new order: Detail, Release, More — Edit, Cancel and Delete wait under More
    expect(inRow('SO-1', 'meta-row-show')).toBeTruthy();
    expect(inRow('SO-1', 'meta-step-release')).toBeTruthy();
    expect(inRow('SO-1', 'meta-row-more')).toBeTruthy();
    for (const id of ['meta-row-edit', 'meta-row-delete', 'meta-step-cancel']) expect(inRow('SO-1', id)).toBeNull();
    // a released one offers Close as its step
    expect(inRow('SO-2', 'meta-step-close')).toBeTruthy();
    expect(inRow('SO-2', 'meta-step-release')).toBeNull();

    await act(async () => (inRow('SO-1', 'meta-row-more') as HTMLButtonElement).click());
    const more = await waitFor(() => document.querySelector('[data-testid=meta-row-more-actions]'));
    for (const id of ['meta-row-edit', 'meta-row-delete', 'meta-step-cancel']) expect(more.querySelector(`[data-testid=${id}]`)).toBeTruthy();
    // a step under More still asks first
    await act(async () => more.querySelector<HTMLButtonElement>('[data-testid=meta-step-cancel]')!.click());
    await waitFor(() => document.querySelector('[data-testid=meta-step-warning]'));
    // the column stays bounded
    const header = [...view.host.querySelectorAll<HTMLElement>('col')].map((c) => c.style.width).filter(Boolean);
    expect(header).toContain(`${COMPACT_ACTIONS_WIDTH}px`);
  });
});
