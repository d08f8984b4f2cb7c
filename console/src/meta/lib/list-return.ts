/**
 * After saving, the user comes back to the list as they left it (filters, sort, page: the
 * URL the list last had) and sees the saved row highlighted; the create screen's tab closes.
 * The list notes its URL; the form notes the saved id and goes back (useReturnToList).
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ResourceDef } from '@rti/metadata/browser';
import { useOptionalTabStore } from '../../components/tabs/tabs-context';

const lastUrl = new Map<string, string>();
const saved = new Map<string, { id: unknown; at: number }>();
/** a saved row is highlighted when its list shows within this time */
const SAVED_FRESH_MS = 30_000;

/** The list's current URL (pathname and query), noted by the list screen. */
export function rememberListUrl(resource: string, url: string): void {
  lastUrl.set(resource, url);
}

/** Where "back to the list" goes: the list as it was left, else its plain route. */
export function listUrl(res: ResourceDef): string {
  return lastUrl.get(res.name) ?? res.route;
}

export function noteSaved(resource: string, id: unknown): void {
  if (id !== undefined && id !== null) saved.set(resource, { id, at: Date.now() });
}

/** The id saved last for this resource, once (the list highlights it). */
export function takeSaved(resource: string): unknown {
  const s = saved.get(resource);
  saved.delete(resource);
  return s && Date.now() - s.at < SAVED_FRESH_MS ? s.id : undefined;
}

/** After a save: note the row, go back to the list as it was left, close the create screen's tab. */
export function useReturnToList(res: ResourceDef, mode: 'create' | 'edit') {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = useOptionalTabStore();
  return useCallback(
    (id: unknown) => {
      noteSaved(res.name, id);
      void navigate(listUrl(res));
      if (mode === 'create') tabs?.act('close', pathname);
    },
    [navigate, res, mode, tabs, pathname],
  );
}

/** for tests */
export function clearListReturn(): void {
  lastUrl.clear();
  saved.clear();
}
