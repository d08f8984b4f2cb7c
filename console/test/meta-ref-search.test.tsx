// A picker searched by typing: the server is asked after a 300 ms pause, and until it answers
// the list narrows to the typed text at once. Before, the previous answer stayed on screen
// unfiltered, so a dropdown opened upwards shrank from under the pointer when the answer came,
// and Enter picked the stale first row instead of the typed one (the documents browser test).
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Refine, type CrudFilter, type DataProvider } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { RefSelect, labelMatches } from '../src/meta/components/ref-select';
import metaEn from '../src/meta/locales/en-US.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const carrier = { name: 'carrier', route: '/c', titleField: 'sn', fields: [{ name: 'sn', type: 'string' }] } as unknown as ResourceDef;
const bind = {
  name: 'bind',
  route: '/b',
  titleField: 'no',
  fields: [{ name: 'carrierId', type: 'ref', ref: { resource: 'carrier', label: 'sn' } }],
} as unknown as ResourceDef;
const meta: Metadata = { resources: { carrier, bind }, enums, menu: { groups: [] } };

// newest first, as the server lists them; a search is answered only when the test says so
const rows = [
  { id: 3, sn: 'E2E-L2' },
  { id: 2, sn: 'E2E-L1' },
  { id: 1, sn: 'E2E-M' },
];
let searches: string[] = [];
let answer: Array<(rows: unknown[]) => void> = [];
const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ filters }) => {
    const typed = (filters as Array<CrudFilter & { value?: unknown }>).find((f) => 'field' in f && f.field === 'sn')?.value;
    if (typed === undefined) return { data: rows as never, total: rows.length };
    searches.push(String(typed));
    const got = await new Promise<unknown[]>((r) => answer.push(r));
    return { data: got as never, total: got.length };
  },
  getOne: async () => ({ data: {} as never }),
  create: async () => ({ data: {} as never }),
  update: async () => ({ data: {} as never }),
  deleteOne: async () => ({ data: {} as never }),
};

let root: Root | undefined;
let host: HTMLElement;
let picked: unknown[] = [];
const options = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
const input = () => host.querySelector('input')!;
async function until(what: string, ok: () => boolean) {
  const end = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(options())}`);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
  }
}
async function type(text: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input(), text);
    input().dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function mount() {
  host = document.createElement('div');
  document.body.appendChild(host);
  const app = (
    <Refine dataProvider={dataProvider} options={{ disableTelemetry: true }}>
      <RefSelect field={bind.fields[0]} open virtual={false} onChange={(v) => picked.push(v)} />
    </Refine>
  );
  const router = createMemoryRouter([{ path: '*', element: app }], { initialEntries: ['/b/create'] });
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
  await act(async () => input().focus());
  await until('first page', () => options().length === 3);
}

beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: metaEn } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  document.body.innerHTML = '';
  searches = [];
  answer = [];
  picked = [];
});

describe('a picker searched by typing', () => {
  it('matches ignoring case, accents and full-width forms, as the database does', () => {
    expect(labelMatches('E2E-L1', ' e2e-l1 ')).toBe(true);
    expect(labelMatches('Café Ｓ１', 'cafe s1')).toBe(true);
    expect(labelMatches('E2E-L2', 'L1')).toBe(false);
    expect(labelMatches(undefined, 'x')).toBe(false);
  });

  it('narrows to the typed text before the server answers; Enter then takes the typed row, not the first one shown', async () => {
    await mount();
    expect(options()).toEqual(['E2E-L2', 'E2E-L1', 'E2E-M']);
    await type('l1');
    // at once, with no search sent yet (it waits for the pause)
    expect(searches).toEqual([]);
    expect(options()).toEqual(['E2E-L1']);
    await act(async () => {
      const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true });
      Object.defineProperty(enter, 'keyCode', { value: 13 }); // rc-select reads the key code
      input().dispatchEvent(enter);
    });
    expect(picked).toEqual([2]);
  });

  it("shows the server's answer as it is once it arrives", async () => {
    await mount();
    await type('strasse');
    expect(options()).toEqual([]);
    await until('search sent', () => answer.length === 1);
    expect(searches).toEqual(['strasse']);
    // a database collation (utf8mb4_unicode_ci) matches ß to ss, which the browser's folding does not
    await act(async () => answer[0]([{ id: 9, sn: 'Straße-1' }, { id: 8, sn: 'STRASSE-2' }]));
    await until('answer shown', () => options().length === 2);
    expect(options()).toEqual(['Straße-1', 'STRASSE-2']);
  });
});
