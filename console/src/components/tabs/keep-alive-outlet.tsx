import { useRef, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { matchRoute } from '../../lib/routes';
import { useShell } from '../../providers/shell-context';
import { useTabStore, useTabsState } from './tabs-context';

/**
 * Renders the current page; pages flagged `cached` stay mounted (hidden) while their tab
 * is open, others re-mount on every visit. A tab's version bump (reload) re-mounts it.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { routes } = useShell();
  const store = useTabStore();
  const { tabs } = useTabsState();
  const kept = useRef(new Map<string, ReactNode>());

  const cached = Boolean(matchRoute(pathname, routes)?.route.cached);
  if (cached) kept.current.set(pathname, outlet);
  for (const k of [...kept.current.keys()]) {
    if (k !== pathname && !tabs.some((t) => t.key === k)) kept.current.delete(k);
  }

  return (
    <>
      {[...kept.current].map(([k, el]) => (
        <div key={`${k}#${store.version(k)}`} className="page-pane" hidden={k !== pathname} data-testid="cached-page">
          {el}
        </div>
      ))}
      {!cached && (
        <div key={`${pathname}#${store.version(pathname)}`} className="page-pane">
          {outlet}
        </div>
      )}
    </>
  );
}
