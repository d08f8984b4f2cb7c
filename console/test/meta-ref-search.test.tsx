// A picker searched by typing: the server is asked after a 300 ms pause, and until it answers
// the list narrows to the typed text at once. Before, the previous answer stayed on screen
// unfiltered, so a dropdown opened upwards shrank from under the pointer when the answer came,
// and Enter picked the stale first row instead of the typed one (the documents browser test).
import { act } from 'react';
import type { CrudFilter } from '@refinedev/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { RefSelect, labelMatches } from '../src/meta/components/ref-select';
import { cleanup, fakeData, initTestI18n, metaOf, mount as mountScreen, typeInto, waitFor } from './support/render';

const carrier = { name: 'carrier', route: '/c', titleField: 'sn', fields: [{ name: 'sn', type: 'string' }] } as unknown as ResourceDef;
const bind = {
  name: 'bind',
  route: '/b',
  titleField: 'no',
  fields: [{ name: 'carrierId', type: 'ref', ref: { resource: 'carrier', label: 'sn' } }],
} as unknown as ResourceDef;
const meta = metaOf(carrier, bind);

// newest first, as the server lists them; a search is answered only when the test says so
const rows = [
  { id: 3, sn: 'E2E-L2' },
  { id: 2, sn: 'E2E-L1' },
  { id: 1, sn: 'E2E-M' },
];
let searches: string[] = [];
let answer: Array<(rows: unknown[]) => void> = [];
const data = fakeData(
  { carrier: rows },
  {
    getList: async ({ filters }) => {
      const typed = (filters as Array<CrudFilter & { value?: unknown }>).find((f) => 'field' in f && f.field === 'sn')?.value;
      if (typed === undefined) return { data: rows as never, total: rows.length };
      searches.push(String(typed));
      const got = await new Promise<unknown[]>((r) => answer.push(r));
      return { data: got as never, total: got.length };
    },
  },
);

let host: HTMLElement;
let picked: unknown[] = [];
const options = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
const input = () => host.querySelector('input')!;
const until = (what: string, ok: () => boolean) => waitFor(ok, 5000, () => `${what}: ${JSON.stringify(options())}`);
const type = (text: string) => typeInto(input(), text);
async function mount() {
  ({ host } = await mountScreen({
    path: '/b/create',
    meta,
    dataProvider: data.provider,
    element: <RefSelect field={bind.fields[0]} open virtual={false} onChange={(v) => picked.push(v)} />,
  }));
  await act(async () => input().focus());
  await until('first page', () => options().length === 3);
}

beforeAll(() => initTestI18n());
afterEach(() => {
  cleanup();
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
    await act(async () =>
      answer[0]([
        { id: 9, sn: 'Straße-1' },
        { id: 8, sn: 'STRASSE-2' },
      ]),
    );
    await until('answer shown', () => options().length === 2);
    expect(options()).toEqual(['Straße-1', 'STRASSE-2']);
  });
});
