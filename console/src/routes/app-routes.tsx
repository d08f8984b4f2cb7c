import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { HOME_PATH } from '../constants';
import { loginPath, session } from '../lib/session';
import { loadAppState } from '../providers/app-state';
import { useAppState } from '../providers/use-app-state';
import type { Shell } from '../providers/shell-context';
import { lazyWithTimeout } from './lazy-with-timeout';
import { RoutePage } from './route-page';
import { PageSpinner } from './page-spinner';
import { PublicRoute, publicPages } from './public-pages';

const LoginPage = lazy(lazyWithTimeout(() => import('../pages/login')));
const NotFoundPage = lazy(lazyWithTimeout(() => import('../pages/errors/not-found')));
const MainLayout = lazy(lazyWithTimeout(() => import('../components/layout/main-layout')));
const RefreshPage = lazy(lazyWithTimeout(() => import('../pages/refresh')));
const RedirectPage = lazy(lazyWithTimeout(() => import('../pages/redirect')));
const LoadFailed = lazy(() => import('../pages/errors/load-failed'));

/** Route guard, part one: no login cookie → login with the full path as `redirect`. */
function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!session.token()) {
    return <Navigate replace to={loginPath(session.entryCode(), location.pathname + location.search)} />;
  }
  return <>{children}</>;
}

/** Loads identity, access lists, metadata and plugins before the layout renders. */
function ShellLoader() {
  const state = useAppState();
  useEffect(() => {
    if (state.status === 'idle') void loadAppState();
  }, [state.status]);
  if (state.status === 'error') return <LoadFailed message={state.error} />;
  return <PageSpinner />;
}

export function AppRoutes({ shell }: { shell?: Shell }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route path="/:entryCode?/login" element={<LoginPage />} />
        <Route path="/:entryCode?/activate" element={<LoginPage />} />
        {/* public pages (SPEC /info …): no session needed, before the signed-in routes */}
        {publicPages.map((p) => (
          <Route key={p.path} path={p.path} element={<PublicRoute page={p} />} />
        ))}
        {shell ? (
          <>
            {shell.routes
              .filter((r) => r.standalone)
              .map((r) => (
                <Route
                  key={r.key}
                  path={r.path}
                  element={
                    <RequireAuth>
                      <RoutePage route={r} />
                    </RequireAuth>
                  }
                />
              ))}
            <Route
              element={
                <RequireAuth>
                  <MainLayout />
                </RequireAuth>
              }
            >
              <Route index element={<Navigate replace to={HOME_PATH} />} />
              <Route path="/refresh" element={<RefreshPage />} />
              <Route path="/redirect/*" element={<RedirectPage />} />
              {shell.routes
                .filter((r) => !r.standalone)
                .map((r) => (
                  <Route key={r.key} path={r.path} element={<RoutePage route={r} />} />
                ))}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </>
        ) : (
          <Route
            path="*"
            element={
              <RequireAuth>
                <ShellLoader />
              </RequireAuth>
            }
          />
        )}
      </Routes>
    </Suspense>
  );
}
