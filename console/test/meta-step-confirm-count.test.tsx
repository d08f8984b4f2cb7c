// A step's confirmation states what it will do to the row's lines (`confirmCount`: "3 expected
// carriers will be marked Missing", read from the row), and once the step ran the detail page
// reads the record and its lines again: lines never stay stale until a reload (issue 17).
import { act } from 'react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { apiCode, type ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '../src/meta/pages/show';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle, stubApi, waitFor } from './support/render';

const doc: ResourceDef = {
  name: 'doc',
  module: 'things',
  route: '/things/doc',
  orgScoped: true,
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string' },
    { name: 'status', type: 'int' },
    { name: 'openLines', type: 'int' },
  ],
  children: [{ resource: 'doc-line', foreignKey: 'docId', inline: true, cascade: true }],
  transitions: [
    { name: 'close', field: 'status', from: [20], to: 30, confirm: true, confirmCount: { field: 'openLines', message: 'test.closeMissing' } },
    { name: 'check', field: 'status', from: [20], to: 25, confirmCount: { field: 'openLines', message: 'test.closeMissing' } },
  ],
} as ResourceDef;
const line: ResourceDef = {
  name: 'doc-line',
  module: 'things',
  route: '/things/doc-line',
  orgScoped: true,
  titleField: 'item',
  fields: [
    { name: 'docId', type: 'ref', ref: { resource: 'doc' } },
    { name: 'item', type: 'string' },
    { name: 'state', type: 'string' },
  ],
} as ResourceDef;
const meta = metaOf(doc, line);
const shell: Shell = { meta, plugins: [], routes: [], sideMenu: [], access: new Set([apiCode('/doc/close'), apiCode('/doc/check')]), user: { id: 7 } as never };

beforeAll(() =>
  initTestI18n({ 'en-US': { test: { closeMissing: '{{count}} open lines will be marked Missing' }, transitions: { close: 'Close', check: 'Check' } } }),
);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function open(openLines: number) {
  const data = fakeData({ doc: [{ id: 3, no: 'D-3', status: 20, openLines }], 'doc-line': [{ id: 1, docId: 3, item: 'A', state: 'expected' }] });
  const view = await mount({
    path: '/things/doc/detail/3',
    route: '/things/doc/detail/:id',
    meta,
    dataProvider: data.provider,
    element: <MetaShow resource={doc} />,
    wrap: (app) => <ShellProvider value={shell}>{app}</ShellProvider>,
  });
  await waitFor(() => view.text().includes('expected'));
  await waitFor(() => view.host.querySelector('[data-testid=meta-step-close]'));
  return { view, data };
}

it('the confirmation states the count read from the row; after the step the lines are read again', async () => {
  const { data } = await open(3);
  const calls = stubApi(() => {
    data.rows.doc[0].status = 30;
    data.rows['doc-line'][0].state = 'missing';
    return null;
  });
  await act(async () => document.querySelector<HTMLButtonElement>('[data-testid=meta-step-close]')!.click());
  const count = await waitFor(() => document.querySelector('[data-testid=meta-step-count]'));
  expect(count.textContent).toBe('3 open lines will be marked Missing');
  expect(document.querySelector('[data-testid=meta-step-warning]')).toBeTruthy();
  // a Close step's dialog is dismissed by Cancel, not by a second Close
  expect(document.querySelector('[data-testid=meta-step-dismiss]')!.textContent).toBe('Cancel');
  await act(async () => document.querySelector<HTMLButtonElement>('[data-testid=meta-step-ok]')!.click());
  await waitFor(() => calls.some((c) => c.path === '/doc/close'));
  expect(calls[0].body).toEqual({ id: 3 });
  // the line table shows the line's new state without a reload
  await waitFor(() => document.querySelector('[data-testid=document-lines-doc-line]')?.textContent?.includes('missing'));
});

it('a step declaring only confirmCount asks when there is something to count, and not when the count is 0', async () => {
  await open(2);
  await act(async () => document.querySelector<HTMLButtonElement>('[data-testid=meta-step-check]')!.click());
  const count = await waitFor(() => document.querySelector('[data-testid=meta-step-count]'));
  expect(count.textContent).toBe('2 open lines will be marked Missing');
  expect(document.querySelector('[data-testid=meta-step-warning]')).toBeNull();
  expect(document.querySelector('[data-testid=meta-step-dismiss]')!.textContent).toBe('Close');
  cleanup();

  const { data } = await open(0);
  const calls = stubApi(() => {
    data.rows.doc[0].status = 25;
    return null;
  });
  await act(async () => document.querySelector<HTMLButtonElement>('[data-testid=meta-step-check]')!.click());
  await waitFor(() => calls.some((c) => c.path === '/doc/check'));
  await settle(50);
  expect(document.querySelector('[data-testid=meta-step-count]')).toBeNull();
});
