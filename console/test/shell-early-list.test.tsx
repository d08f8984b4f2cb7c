// A list opened straight from the address bar: its first page is asked for before the screen
// renders (meta/lib/early-list.ts, providers/early-calls.ts). The early request must be exactly the one the screen's
// table sends for that URL (checked against the real table, data provider and transport),
// an arrived answer gives rows in the first render without a second call, a pending one is
// taken by the data provider, and any other request is asked for as usual.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Link, RouterProvider, useNavigate } from 'react-router';
import { Refine, type DataProvider, type RouterProvider as RefineRouter } from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../src/providers/metadata-context';
import { createDataProvider } from '../src/providers/data-provider';
import { canonical, clearEarly, takeEarly } from '../src/providers/early-calls';
import { listRequest, startEarlyList, takeArrivedList } from '../src/meta/lib/early-list';
import { routerProvider as consoleRouter } from '../src/providers/router-provider';
import { MetaList } from '../src/meta/pages/list';
import metaEn from '../src/meta/locales/en-US.json';
import { enums } from './meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const gadget: ResourceDef = {
  name: 'gadget',
  module: 'things',
  route: '/things/gadget',
  orgScoped: true,
  titleField: 'sn',
  defaultSort: '-id',
  fields: [
    { name: 'sn', type: 'string', required: true, search: 'like', list: { sortable: true } },
    { name: 'level', type: 'enum', enum: 'level', search: 'in' },
  ],
};
const meta: Metadata = { resources: { gadget }, enums, menu: { groups: [] } };
const rows = [
  { id: 2, sn: 'G-2', level: 20 },
  { id: 1, sn: 'G-1', level: 10 },
];

let sent: Array<{ path: string; body: Record<string, unknown> }> = [];
/** the transport answers every call after `delay` ms; a pending early call can be held back */
function serve(delay = 0): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ path: url.replace(/^\/api/, ''), body: JSON.parse(String(init.body)) });
      if (delay) await new Promise((r) => setTimeout(r, delay));
      return new Response(JSON.stringify({ code: 0, message: 'Success', data: { list: rows, total: rows.length } }), { headers: { 'content-type': 'application/json' } });
    }),
  );
}
const listCalls = () => sent.filter((c) => c.path === '/gadget/list');

// the test's own react-router instance with the console's parse (packaged go/back resolve a second react-router copy under vitest)
const router: RefineRouter = {
  go: () => {
    const navigate = useNavigate();
    return ({ to, query, type }) => {
      const qs = query ? '?' + new URLSearchParams(query as Record<string, string>).toString() : '';
      if (type === 'path') return `${to ?? ''}${qs}`;
      void navigate(`${to ?? ''}${qs}`, { replace: type === 'replace' });
      return undefined;
    };
  },
  back: () => {
    const navigate = useNavigate();
    return () => void navigate(-1);
  },
  parse: consoleRouter.parse,
  Link: ({ to, ...rest }: { to: string }) => <Link to={to} {...rest} />,
};

let root: Root | undefined;
let host: HTMLElement;
/** the table's query function runs: an arrived early answer is its initial data, never a query */
let queries = 0;
const dp = createDataProvider((n) => meta.resources[n]);
const countingProvider: DataProvider = {
  ...dp,
  getList: (p) => {
    queries++;
    return dp.getList(p);
  },
};

async function mount(path: string) {
  host = document.createElement('div');
  document.body.appendChild(host);
  const app = (
    <Refine
      dataProvider={countingProvider}
      routerProvider={router}
      resources={[{ name: 'gadget', list: gadget.route }]}
      options={{ disableTelemetry: true, syncWithLocation: true }}
    >
      <MetaList resource={gadget} />
    </Refine>
  );
  const memory = createMemoryRouter([{ path: '*', element: app }], { initialEntries: [path] });
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <AntApp>
        <MetadataProvider value={meta}>
          <RouterProvider router={memory} />
        </MetadataProvider>
      </AntApp>,
    );
  });
}

async function settle(ms = 300) {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
}

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: { ...metaEn, fields: { sn: 'Serial', level: 'Level' } } } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = undefined;
  sent = [];
  queries = 0;
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
    expect(queries).toBe(1);
    expect(listCalls()).toHaveLength(1);
  });

  it('still under way: the data provider takes it instead of asking again', async () => {
    serve(150);
    startEarlyList(gadget, '');
    await mount(gadget.route);
    expect(host.querySelector('.ant-table-row')).toBeNull();
    await settle(400);
    expect(host.querySelectorAll('.ant-table-row')).toHaveLength(2);
    expect(queries).toBe(1);
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
    vi.stubGlobal('fetch', vi.fn(async () => new Response('nope', { status: 500 })));
    startEarlyList(gadget, '');
    await settle(50);
    serve();
    await mount(gadget.route);
    await settle();
    expect(host.querySelectorAll('.ant-table-row')).toHaveLength(2);
    expect(listCalls()).toHaveLength(1);
  });
});
