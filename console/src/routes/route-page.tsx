import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from './page-spinner';
import { TITLE_SUFFIX } from '../constants';
import { canOpen, screenOverrides, type PageRoute } from '../lib/routes';
import { useShell } from '../providers/shell-context';
import type { ResourceDef } from '@rti/metadata/browser';
import type { ConsolePlugin, ScreenKind } from '../plugin-contract';
import { lazyWithTimeout } from './lazy-with-timeout';
import { PageErrorBoundary } from './page-error-boundary';
import { loadedMetaScreen, metaScreen } from './meta-screens';
import { pageTitle } from './page-title';
import { useRecordTitles } from '../providers/record-titles';
import { useSavedTabTitle } from '../components/tabs/tabs-context';

type PageComponent = ComponentType<{ resource?: ResourceDef }>;

const ForbiddenPage = lazy(() => import('../pages/errors/forbidden'));
type PageModule = { default: PageComponent };
const builtins: Record<string, () => Promise<PageModule>> = {
  'builtin:home': () => import('../pages/home') as Promise<PageModule>,
  'builtin:log': () => import('../pages/log') as Promise<PageModule>,
  'builtin:password': () => import('../pages/password-change') as Promise<PageModule>,
  'builtin:403': () => import('../pages/errors/forbidden') as Promise<PageModule>,
  'builtin:500': () => import('../pages/errors/server-error') as Promise<PageModule>,
};

// One lazy component per page, created once so React keeps its state between renders. Its
// loader keeps the first import's promise, so preloadRoute's fetch is the one React awaits.
// A page whose module has already arrived (preloaded, or a generated screen of another
// resource) renders its component directly: a lazy one suspends once even then, and React
// holds back revealing the page up to 300 ms after the fallback it showed meanwhile.
interface Entry {
  load: () => Promise<PageModule>;
  comp: LazyExoticComponent<PageComponent>;
  loaded?: PageComponent;
  /** what this page renders, fixed at its first render (switching would re-mount the page) */
  view?: PageComponent | LazyExoticComponent<PageComponent>;
}
const cache = new Map<string, Entry>();

function entryFor(route: PageRoute, plugins: ConsolePlugin[]) {
  const hit = cache.get(route.key);
  if (hit) return hit;
  let load: () => Promise<PageModule>;
  if (route.kind === 'builtin') load = builtins[route.key]!;
  else if (route.kind === 'page' && route.page) load = route.page.component as () => Promise<PageModule>;
  else {
    const screen = route.screen as ScreenKind;
    const override = screenOverrides(plugins)[route.resource!.name]?.[screen];
    load = (override ?? metaScreen(screen)) as () => Promise<PageModule>;
  }
  let started: Promise<PageModule> | undefined;
  const once = () => {
    // a failed import may be retried by the error boundary: keep only a success
    started ??= load().then(
      (m) => {
        entry.loaded = m.default;
        return m;
      },
      (e: unknown) => {
        started = undefined;
        throw e;
      },
    );
    return started;
  };
  const entry: Entry = { load: once, comp: lazy(lazyWithTimeout(once)) };
  const override = route.kind === 'resource' && route.screen ? screenOverrides(plugins)[route.resource!.name]?.[route.screen] : undefined;
  if (route.kind === 'resource' && route.screen && !override) entry.loaded = loadedMetaScreen(route.screen) as PageComponent | undefined;
  cache.set(route.key, entry);
  return entry;
}

function componentFor(route: PageRoute, plugins: ConsolePlugin[]): PageComponent | LazyExoticComponent<PageComponent> {
  const entry = entryFor(route, plugins);
  entry.view ??= entry.loaded ?? entry.comp;
  return entry.view;
}

/**
 * Starts fetching the chunk of the page a path opens (as soon as the session is known, while
 * the layout still loads), so the page is not a second wave of requests after the layout.
 */
export function preloadRoute(route: PageRoute, plugins: ConsolePlugin[]): void {
  entryFor(route, plugins)
    .load()
    .catch(() => undefined);
}

/** The window title; its own component, so a record title arriving re-renders only this. */
function DocumentTitle({ route, params, allowed }: { route: PageRoute; params: Record<string, string | undefined>; allowed: boolean }) {
  const { t } = useTranslation();
  const titles = useRecordTitles();
  const saved = useSavedTabTitle(useLocation().pathname);
  useEffect(() => {
    document.title = (allowed ? pageTitle(route, params, t, saved) : t('pages.forbidden')) + TITLE_SUFFIX;
  }, [allowed, route, params, t, titles, saved]);
  return null;
}

/** Route guard, part two: the page's View code, then the page itself (lazy, titled). */
export function RoutePage({ route }: { route: PageRoute }) {
  const { access, plugins } = useShell();
  const params = useParams();
  const allowed = canOpen(route, access);
  if (!allowed) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <DocumentTitle route={route} params={params} allowed={false} />
        <ForbiddenPage />
      </Suspense>
    );
  }
  const Page = componentFor(route, plugins);
  return (
    <PageErrorBoundary>
      <DocumentTitle route={route} params={params} allowed />
      <Suspense fallback={<PageSpinner />}>
        <Page resource={route.resource} />
      </Suspense>
    </PageErrorBoundary>
  );
}
