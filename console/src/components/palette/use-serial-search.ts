import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useKBar, type Action } from '@refinedev/kbar';
import { apiCode, resourceApiPath } from '@rti/metadata/browser';
import { canOpen, resourceLabel } from '../../lib/routes';
import { request } from '../../providers/http-client';
import { useShell } from '../../providers/shell-context';

const MIN_CHARS = 2;
const PER_RESOURCE = 5;
const DEBOUNCE_MS = 300;

/**
 * Finds rows of resources declaring `paletteSearch` (e.g. serial numbers) as the user types,
 * through each resource's list call; a hit opens its detail page.
 */
export function useSerialSearch(): Action[] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { routes, access } = useShell();
  const { search } = useKBar((s) => ({ search: s.searchQuery }));
  const [found, setFound] = useState<Action[]>([]);

  const targets = useMemo(
    () =>
      routes.filter(
        (r) =>
          r.screen === 'show' &&
          r.resource?.paletteSearch &&
          canOpen(r, access) &&
          access.has(apiCode(resourceApiPath(r.resource, 'list'))),
      ),
    [routes, access],
  );

  useEffect(() => {
    const q = search.trim();
    if (q.length < MIN_CHARS || !targets.length) {
      setFound([]);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(async () => {
      const lists = await Promise.all(
        targets.map(async (r) => {
          const def = r.resource!;
          const field = def.paletteSearch!;
          try {
            const data = await request<{ list: Array<Record<string, unknown>> }>(
              `/${def.name}/list`,
              { page: 1, limit: PER_RESOURCE, [field]: q },
              { signal: ctrl.signal },
            );
            return data.list.map<Action>((row) => ({
              id: `find:${def.name}:${String(row.id)}`,
              name: String(row[field] ?? row[def.titleField] ?? row.id),
              subtitle: t(resourceLabel(def)),
              keywords: q,
              section: t('palette.found'),
              perform: () => navigate(r.path.replace(':id', String(row.id))),
            }));
          } catch {
            return [];
          }
        }),
      );
      if (!ctrl.signal.aborted) setFound(lists.flat());
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [search, targets, navigate, t]);

  return found;
}
