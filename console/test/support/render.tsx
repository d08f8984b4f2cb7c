/**
 * The one harness the console's screen tests render through: the console's providers around a
 * screen at a URL (antd App, metadata, a memory router, Refine with data, router, access, auth
 * and notification providers), a location probe, polling under act(), the meta locales in i18n
 * and an in-memory data provider that records what it was asked.
 */
import { act, useCallback, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Link, RouterProvider, useLocation, useNavigate } from 'react-router';
import qs from 'qs';
import {
  QS_PARSE_DEPTH,
  Refine,
  type BaseRecord,
  type DataProvider,
  type OpenNotificationParams,
  type ResourceProps,
  type RouterProvider as RefineRouter,
} from '@refinedev/core';
import { App as AntApp } from 'antd';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { vi } from 'vitest';
import type { FieldDef, Metadata, ResourceDef } from '@rti/metadata/browser';
import { MetadataProvider } from '../../src/providers/metadata-context';
import { routerProvider as consoleRouter } from '../../src/providers/router-provider';
import { buildRoutes } from '../../src/lib/routes';
import { refineResources } from '../../src/lib/refine-resources';
import metaEn from '../../src/meta/locales/en-US.json';
import metaZh from '../../src/meta/locales/zh-CN.json';
import metaJa from '../../src/meta/locales/ja-JP.json';
import { enums } from '../meta-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A resource of the tests' own module `things`, at /things/<name>, organisation-scoped, titled by `sn` unless `more` says otherwise. */
export const thingsResource = (name: string, fields: FieldDef[], more: Partial<ResourceDef> = {}): ResourceDef => ({
  name,
  module: 'things',
  route: `/things/${name}`,
  orgScoped: true,
  titleField: 'sn',
  fields,
  ...more,
});

/** Metadata holding just these resources (and the fixture's enums), as a screen test needs it. */
export const metaOf = (...defs: ResourceDef[]): Metadata => ({
  resources: Object.fromEntries(defs.map((d) => [d.name, d])),
  enums,
  menu: { groups: [] },
});

// ---------------------------------------------------------------------------------------------
// i18n

const META_LOCALES = { 'en-US': metaEn, 'zh-CN': metaZh, 'ja-JP': metaJa } as const;
type Lang = keyof typeof META_LOCALES;

/**
 * i18next with the meta screens' catalogue in every language plus the test's own keys (merged at
 * the top level, so a test's `fields` or `resources` are all there is of those), English first.
 */
export async function initTestI18n(extra: Partial<Record<Lang, Record<string, unknown>>> = {}): Promise<void> {
  const resources = Object.fromEntries((Object.keys(META_LOCALES) as Lang[]).map((lng) => [lng, { translation: { ...META_LOCALES[lng], ...extra[lng] } }]));
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources, interpolation: { escapeValue: false } });
}

// ---------------------------------------------------------------------------------------------
// router

/**
 * @refinedev/react-router's binding over the test's own react-router: the packaged go/back
 * resolve a second copy of react-router under vitest's node resolution, so they would navigate
 * a router the screen is not in. `go` builds URLs as the package does; `parse` is the console's.
 */
const STRINGIFY = { addQueryPrefix: true, skipNulls: true, arrayFormat: 'indices', encode: false, encodeValuesOnly: true } as const;
export const testRouter: RefineRouter = {
  go: () => {
    const { search, hash } = useLocation();
    const navigate = useNavigate();
    return useCallback(
      ({ to, type, query, hash: toHash, options: { keepQuery, keepHash } = {} }) => {
        const urlQuery: Record<string, unknown> = {
          ...(keepQuery && search && qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH })),
          ...query,
        };
        if (urlQuery.to) urlQuery.to = encodeURIComponent(String(urlQuery.to));
        const h = (toHash || (keepHash && hash) || '').replace(/^#/, '');
        const full = `${to ?? ''}${Object.keys(urlQuery).length ? qs.stringify(urlQuery, STRINGIFY) : ''}${h ? `#${h}` : ''}`;
        if (type === 'path') return full;
        void navigate(full, { replace: type === 'replace' });
        return undefined;
      },
      [search, hash, navigate],
    );
  },
  back: () => {
    const navigate = useNavigate();
    return useCallback(() => void navigate(-1), [navigate]);
  },
  parse: consoleRouter.parse,
  Link: ({ to, ...rest }: { to: string }) => <Link to={to} {...rest} />,
};

// ---------------------------------------------------------------------------------------------
// polling

/** Polls `probe` every 25 ms under act() until it gives something; `say` adds to the timeout error. */
export async function waitFor<T>(probe: () => T | null | undefined | false, ms = 5000, say?: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting${say ? `: ${say()}` : ''}`);
    await settle(25);
  }
}

/** Lets timers, requests and renders run for `ms` under act(). */
export async function settle(ms = 300): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
}

/** Types into a React-controlled input (its value setter, then the input event React listens to). */
export async function typeInto(input: HTMLInputElement, value: string): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

// ---------------------------------------------------------------------------------------------
// data

const METHODS = ['getList', 'getMany', 'getOne', 'create', 'createMany', 'update', 'updateMany', 'deleteOne', 'deleteMany', 'custom'] as const;
type Method = (typeof METHODS)[number];

/** One request a screen made of its data provider (the parts tests look at). */
export interface DataCall {
  method: Method;
  resource?: string;
  id?: unknown;
  ids?: unknown[];
  filters?: unknown;
  sorters?: unknown;
  pagination?: { currentPage?: number; pageSize?: number; mode?: string };
  variables?: unknown;
}

type Row = Record<string, unknown> & { id?: unknown };

/** Wraps a data provider so every request is recorded in `calls`, in order, before it is answered. */
export function recording(provider: DataProvider): { provider: DataProvider; calls: DataCall[] } {
  const calls: DataCall[] = [];
  const wrapped: Record<string, unknown> = { ...provider };
  for (const method of METHODS) {
    const fn = provider[method] as ((p: Record<string, unknown>) => Promise<unknown>) | undefined;
    if (!fn) continue;
    wrapped[method] = (p: Record<string, unknown>) => {
      const { resource, id, ids, filters, sorters, pagination, variables } = p;
      const call = { method, resource, id, ids, filters, sorters, pagination, variables } as DataCall;
      for (const k of Object.keys(call) as Array<keyof DataCall>) if (call[k] === undefined) delete call[k];
      calls.push(call);
      return fn.call(provider, p);
    };
  }
  return { provider: wrapped as unknown as DataProvider, calls };
}

export interface FakeData {
  provider: DataProvider;
  /** every request, in order */
  calls: DataCall[];
  /** the store, per resource, newest first; tests may change it between steps */
  rows: Record<string, Row[]>;
  /** the requests of one method (and resource) */
  of(method: Method, resource?: string): DataCall[];
  /** the store back as given, no calls */
  reset(): void;
}

const notFound = () => Object.assign(new Error('not found'), { statusCode: 404 });
const sameId = (a: unknown, b: unknown) => String(a) === String(b);

/**
 * An in-memory data provider over `initial` (per resource): lists page as the server does
 * (filters are not applied), a missing record is a 404, create puts the new row first, delete
 * removes it. `overrides` answer instead of the store where a test needs its own behaviour.
 */
export function fakeData(initial: Record<string, Row[]> = {}, overrides: Partial<DataProvider> = {}): FakeData {
  const rows: Record<string, Row[]> = structuredClone(initial);
  const table = (resource: string) => (rows[resource] ??= []);
  const store: DataProvider = {
    getApiUrl: () => '/api',
    getList: async ({ resource, pagination }) => {
      const all = table(resource);
      const { currentPage = 1, pageSize = 10, mode = 'server' } = pagination ?? {};
      const data = mode === 'server' ? all.slice((currentPage - 1) * pageSize, currentPage * pageSize) : all;
      return { data: data as never, total: all.length };
    },
    getMany: async ({ resource, ids }) => ({ data: table(resource).filter((r) => ids.some((id) => sameId(id, r.id))) as never }),
    getOne: async ({ resource, id }) => {
      const row = table(resource).find((r) => sameId(r.id, id));
      if (!row) throw notFound();
      return { data: row as never };
    },
    create: async ({ resource, variables }) => {
      const t = table(resource);
      const row = { id: Math.max(0, ...t.map((r) => Number(r.id) || 0)) + 1, ...(variables as Row) };
      t.unshift(row);
      return { data: row as never };
    },
    update: async ({ resource, id, variables }) => {
      const row = table(resource).find((r) => sameId(r.id, id));
      if (!row) throw notFound();
      Object.assign(row, variables);
      return { data: row as never };
    },
    deleteOne: async ({ resource, id }) => {
      const t = table(resource);
      const at = t.findIndex((r) => sameId(r.id, id));
      if (at < 0) throw notFound();
      t.splice(at, 1);
      return { data: { id } as BaseRecord as never };
    },
  };
  const { provider, calls } = recording({ ...store, ...overrides });
  return {
    provider,
    calls,
    rows,
    of: (method, resource) => calls.filter((c) => c.method === method && (resource === undefined || c.resource === resource)),
    reset() {
      calls.length = 0;
      for (const k of Object.keys(rows)) delete rows[k];
      Object.assign(rows, structuredClone(initial));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the server, for screens that call it without a data provider

/** One request that reached the stubbed server: its path after /api, its JSON body, its headers. */
export interface ApiCall {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The server's answer envelope (SPEC: `{ code, message, data }`, code 0 for success). */
export const envelope = (data: unknown, code = 0, message = 'ok'): Response =>
  new Response(JSON.stringify({ code, message, data }), { headers: { 'Content-Type': 'application/json' } });

/**
 * Replaces fetch with `answer` (until vi.unstubAllGlobals()): a Response goes back as it is, any
 * other value as a successful envelope. Returns the requests, in order.
 */
export function stubApi(answer: (call: ApiCall) => unknown): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const call: ApiCall = {
        path: String(url).replace(/^.*\/api/, ''),
        body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
        headers: (init?.headers ?? {}) as Record<string, string>,
      };
      calls.push(call);
      const out = await answer(call);
      return out instanceof Response ? out : envelope(out);
    }),
  );
  return calls;
}

// ---------------------------------------------------------------------------------------------
// mounting

export interface MountOptions {
  /** the URL the screen opens at */
  path: string;
  element: ReactNode;
  meta: Metadata;
  dataProvider?: DataProvider;
  /** the route pattern the element renders at (its params come from it); elsewhere only the location probe renders */
  route?: string;
  /** Refine actions access control refuses (everything else is allowed) */
  denied?: string[];
  /** Refine resources; by default the console's own, derived from `meta` */
  resources?: ResourceProps[];
  syncWithLocation?: boolean;
  /** providers to put around the app (inside antd's App), e.g. a tab store */
  wrap?: (app: ReactNode) => ReactNode;
}

export interface Mounted {
  host: HTMLElement;
  /** the text the screen shows */
  text(): string;
  /** the current location's path, and with its query */
  pathname(): string;
  url(): string;
  /** what Refine notified (type and message), in order */
  notified: Array<{ type: string; message: string }>;
  unmount(): void;
}

const mounted: Mounted[] = [];

/** Renders `element` as the console would at `path`; `cleanup()` unmounts whatever is still mounted. */
export async function mount(options: MountOptions): Promise<Mounted> {
  const { path, element, meta, route, denied = [], syncWithLocation = false, wrap = (app) => app } = options;
  const resources = options.resources ?? refineResources(buildRoutes(meta, []), (k) => i18n.t(k));
  const dataProvider = options.dataProvider ?? fakeData().provider;
  const host = document.createElement('div');
  document.body.appendChild(host);
  const at = { pathname: '', search: '' };
  const notified: Mounted['notified'] = [];
  function Where() {
    const l = useLocation();
    at.pathname = l.pathname;
    at.search = l.search;
    return null;
  }
  const app = (
    <Refine
      dataProvider={dataProvider}
      routerProvider={testRouter}
      accessControlProvider={{ can: async ({ action }) => ({ can: !denied.includes(action) }) }}
      authProvider={{
        login: async () => ({ success: true }),
        logout: async () => ({ success: true }),
        check: async () => ({ authenticated: true }),
        onError: async () => ({}),
        getIdentity: async () => ({ id: 7 }),
      }}
      notificationProvider={{
        open: (n: OpenNotificationParams) => void notified.push({ type: n.type, message: n.message }),
        close: () => undefined,
      }}
      resources={resources}
      options={{ disableTelemetry: true, syncWithLocation }}
    >
      {element}
      <Where />
    </Refine>
  );
  const router = createMemoryRouter(
    route
      ? [
          { path: route, element: app },
          { path: '*', element: <Where /> },
        ]
      : [{ path: '*', element: app }],
    {
      initialEntries: [path],
    },
  );
  const root: Root = createRoot(host);
  await act(async () => {
    root.render(
      <AntApp>
        {wrap(
          <MetadataProvider value={meta}>
            <RouterProvider router={router} />
          </MetadataProvider>,
        )}
      </AntApp>,
    );
  });
  let live = true;
  const view: Mounted = {
    host,
    text: () => host.textContent ?? '',
    pathname: () => at.pathname,
    url: () => at.pathname + at.search,
    notified,
    unmount() {
      if (!live) return;
      live = false;
      act(() => root.unmount());
      host.remove();
      mounted.splice(mounted.indexOf(view), 1);
    },
  };
  mounted.push(view);
  return view;
}

/** Unmounts every mounted screen and clears what they leave behind (popups in the body, stored choices). */
export function cleanup(): void {
  for (const view of [...mounted]) view.unmount();
  document.body.innerHTML = '';
  localStorage.clear();
}
