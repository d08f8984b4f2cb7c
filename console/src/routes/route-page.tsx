import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from './page-spinner';
import { TITLE_SUFFIX } from '../constants';
import { canOpen, screenOverrides, type PageRoute } from '../lib/routes';
import { useShell } from '../providers/shell-context';
import type { ResourceDef } from '@rti/metadata/browser';
import type { ConsolePlugin, ScreenKind } from '../plugin-api';
import { lazyWithTimeout } from './lazy-with-timeout';
import { PageErrorBoundary } from './page-error-boundary';
import { metaScreen } from './meta-screens';
import { pageTitle } from './page-title';

type PageComponent = ComponentType<{ resource?: ResourceDef }>;

const ForbiddenPage = lazy(() => import('../pages/errors/forbidden'));
const builtins: Record<string, LazyExoticComponent<ComponentType>> = {
  'builtin:home': lazy(lazyWithTimeout(() => import('../pages/home'))),
  'builtin:log': lazy(lazyWithTimeout(() => import('../pages/log'))),
  'builtin:password': lazy(lazyWithTimeout(() => import('../pages/password-change'))),
  'builtin:403': ForbiddenPage,
  'builtin:500': lazy(lazyWithTimeout(() => import('../pages/errors/server-error'))),
};

// One lazy component per page, created once so React keeps its state between renders.
const cache = new Map<string, LazyExoticComponent<PageComponent>>();

function componentFor(route: PageRoute, plugins: ConsolePlugin[]): LazyExoticComponent<PageComponent> {
  const hit = cache.get(route.key);
  if (hit) return hit;
  let comp: LazyExoticComponent<PageComponent>;
  if (route.kind === 'builtin') comp = builtins[route.key] as never;
  else if (route.kind === 'page' && route.page) comp = lazy(lazyWithTimeout(route.page.component)) as never;
  else {
    const screen = route.screen as ScreenKind;
    const override = screenOverrides(plugins)[route.resource!.name]?.[screen];
    comp = lazy(lazyWithTimeout(override ?? metaScreen(screen))) as never;
  }
  cache.set(route.key, comp);
  return comp;
}

/** Route guard, part two: the page's View code, then the page itself (lazy, titled). */
export function RoutePage({ route }: { route: PageRoute }) {
  const { access, plugins } = useShell();
  const { t } = useTranslation();
  const params = useParams();
  const allowed = canOpen(route, access);
  useEffect(() => {
    document.title = (allowed ? pageTitle(route, params, t) : t('pages.forbidden')) + TITLE_SUFFIX;
  });
  if (!allowed) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <ForbiddenPage />
      </Suspense>
    );
  }
  const Page = componentFor(route, plugins);
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <Page resource={route.resource} />
      </Suspense>
    </PageErrorBoundary>
  );
}
