import { useCallback, useContext, useMemo } from 'react';
import { matchPath, useLocation, useParams } from 'react-router';
import qs from 'qs';
import { matchResourceFromRoute, QS_PARSE_DEPTH, ResourceContext, type ParseResponse, type RouterProvider } from '@refinedev/core';
import baseRouterProvider from '@refinedev/react-router';

type Match = ReturnType<typeof matchResourceFromRoute>;

/**
 * Refine's route → resource match walks every resource's routes. Refine's own `parse` runs it
 * in a memo per component, so each of the dozens of Refine hooks on a page repeats it on every
 * navigation (~40–70 ms of a list's navigation with the console's ~150 resources). One cache
 * per resource list (Refine keeps that array stable) answers each path once.
 */
const matches = new WeakMap<object, Map<string, Match>>();
export function matchResource(pathname: string, resources: Parameters<typeof matchResourceFromRoute>[1]): Match {
  let byPath = matches.get(resources);
  if (!byPath) matches.set(resources, (byPath = new Map()));
  let hit = byPath.get(pathname);
  if (!hit) {
    if (byPath.size > 500) byPath.clear();
    byPath.set(pathname, (hit = matchResourceFromRoute(pathname, resources)));
  }
  return hit;
}

const toNumber = (v: unknown): unknown => (typeof v === 'string' && `${Number(v)}` === v ? Number(v) : v);

/**
 * The provider's `parse`: Refine calls it inside its own `useParse` hook on every render, so it
 * is a hook itself (named as one, so the rules of hooks hold for it).
 */
function useParse(): () => ParseResponse {
  let params = useParams();
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const { resource, action, matchedRoute } = useMemo(() => matchResource(pathname, resources), [resources, pathname]);
  // params are empty when used outside a <Route>
  if (Object.entries(params).length === 0 && matchedRoute) params = matchPath(matchedRoute, pathname)?.params ?? {};
  return useCallback(() => {
    const combined: Record<string, unknown> = { ...params, ...qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }) };
    const response: ParseResponse = {
      ...(resource && { resource }),
      ...(action && { action }),
      ...(params?.id && { id: decodeURIComponent(params.id) }),
      pathname,
      params: {
        ...combined,
        currentPage: toNumber(combined.currentPage) as number | undefined,
        pageSize: toNumber(combined.pageSize) as number | undefined,
        to: combined.to ? decodeURIComponent(combined.to as string) : undefined,
      },
    };
    return response;
  }, [pathname, search, params, resource, action]);
}

/** @refinedev/react-router's provider with its `parse` answering from the cache above (otherwise the same). */
export const routerProvider: RouterProvider = {
  ...baseRouterProvider,
  parse: useParse,
};
