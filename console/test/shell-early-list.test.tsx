// A list opened straight from the address bar: its first page is asked for before the screen
// renders (meta/lib/early-list.ts, providers/early-calls.ts). The early request must be exactly the one the screen's
// table sends for that URL (checked against the real table, data provider and transport),
// an arrived answer gives rows in the first render without a second call, a pending one is
// taken by the data provider, and any other request is asked for as usual.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../src/providers/data-provider';
import { canonical, clearEarly, takeEarly } from '../src/providers/early-calls';
import { listRequest, startEarlyList, takeArrivedList } from '../src/meta/lib/early-list';
import { MetaList } from '../src/meta/pages/list';
import { type ApiCall, cleanup, initTestI18n, metaOf, mount as mountScreen, recording, settle, stubApi, thingsResource } from './support/render';

const gadget = thingsResource(
  'gadget',
  [
    { name: 'sn', type: 'string', required: true, search: 'like', list: { sortable: true } },
    { name: 'level', type: 'enum', enum: 'level', search: 'in' },
  ],
  { defaultSort: '-id' },
);
const meta = metaOf(gadget);
const rows = [
  { id: 2, sn: 'G-2', level: 20 },
  { id: 1, sn: 'G-1', level: 10 },
];

let sent: ApiCall[] = [];
/**
 * the transport answers every call; held, it answers only once `release()` is called, so an early
 * call is still pending when the screen mounts however long mounting takes (a fixed delay raced
 * the first render on a busy machine)
 */
let release = () => {};
function serve(held = false): void {
  const gate = held ? new Promise<void>((r) => (release = r)) : undefined;
  sent = stubApi(async () => {
    await gate;
    return { list: rows, total: rows.length };
  });
}
const listCalls = () => sent.filter((c) => c.path === '/gadget/list');

/** the table's query function runs: an arrived early answer is its initial data, never a query */
let data = recording(createDataProvider((n) => meta.resources[n]));
const queries = () => data.calls.filter((c) => c.method === 'getList').length;

let host: HTMLElement;
async function mount(path: string) {
  ({ host } = await mountScreen({ path, meta, dataProvider: data.provider, syncWithLocation: true, element: <MetaList resource={gadget} /> }));
}

beforeAll(() => initTestI18n({ 'en-US': { fields: { sn: 'Serial', level: 'Level' } } }));
afterEach(() => {
  cleanup();
  sent = [];
  data = recording(createDataProvider((n) => meta.resources[n]));
  clearEarly();
  vi.unstubAllGlobals();
});

const URLS = [
  '',
  '?currentPage=3&pageSize=20',
  '?pageSize=50&currentPage=1&sorters[0][field]=sn&sorters[0][order]=asc',
  '?currentPage=2&pageSize=10&sorters[0][field]=id&sorters[0][order]=desc&filters[0][field]=sn&filters[0][operator]=contains&filters[0][value]=G-&filters[1][field]=level&filters[1][operator]=in&filters[1][value][0]=10&filters[1][value][1]=20',
];

describe('the early list request', () => {
  it.each(URLS)('is the request the list screen sends for %j', async (search) => {
    serve();
    await mount(`${gadget.route}${search}`);
    await settle();
    const screen = listCalls();
    expect(screen).toHaveLength(1);
    const early = listRequest(gadget, search);
    expect(early.path).toBe('/gadget/list');
    expect(canonical(early.body)).toBe(canonical(screen[0].body));
  });

  // The answered call is no longer the table's initialData (that left Refine's loading overlay on in
  // the browser, see EARLY_ARRIVED in meta/pages/list.tsx): the data provider takes the settled call.
  it('arrived before the screen: the data provider takes the answer, no second call, no overlay left', async () => {
    serve();
    startEarlyList(gadget, '?currentPage=1&pageSize=10');
    await settle(50);
    expect(listCalls()).toHaveLength(1);
    await mount(`${gadget.route}?currentPage=1&pageSize=10`);
    await settle();
    expect(host.querySelectorAll('.ant-table-row')).toHaveLength(2);
    expect(host.querySelector('.ant-spin-spinning')).toBeNull();
    expect(queries()).toBe(1);
    expect(listCalls()).toHaveLength(1);
  });

  it('still under way: the data provider takes it instead of asking again', async () => {
    serve(true);
    startEarlyList(gadget, '');
    await mount(gadget.route);
    expect(host.querySelector('.ant-table-row')).toBeNull();
    release();
    await settle(400);
    expect(host.querySelectorAll('.ant-table-row')).toHaveLength(2);
    expect(queries()).toBe(1);
    expect(listCalls()).toHaveLength(1);
  });

  it('for another URL: never taken, the screen asks for its own page', async () => {
    serve();
    startEarlyList(gadget, '?currentPage=2&pageSize=10');
    await settle(50);
    await mount(`${gadget.route}?currentPage=1&pageSize=10`);
    await settle();
    expect(listCalls().map((c) => c.body.page)).toEqual([2, 1]);
  });

  it('is used once: a second take gets nothing, a later page is a new call', async () => {
    serve();
    startEarlyList(gadget, '');
    await settle(50);
    expect(takeArrivedList(gadget, '')?.answer.total).toBe(2);
    expect(takeArrivedList(gadget, '')).toBeUndefined();
    expect(takeEarly('/gadget/list', listRequest(gadget, '').body)).toBeUndefined();
  });

  it('that failed is not taken: the screen asks again and shows its own answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    startEarlyList(gadget, '');
    await settle(50);
    serve();
    await mount(gadget.route);
    await settle();
    expect(host.querySelectorAll('.ant-table-row')).toHaveLength(2);
    expect(listCalls()).toHaveLength(1);
  });
});
