import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { useKBar, type Action } from '@refinedev/kbar';
import { apiCode, resourceApiPath } from '@rti/metadata/browser';
import { canOpen, resourceLabel } from '../../lib/routes';
import { request } from '../../providers/http-client';
import { useShell } from '../../providers/shell-context';

const MIN_CHARS = 2;
const PER_RESOURCE = 5;
const DEBOUNCE_MS = 300;

export interface SerialSearch {
  found: Action[];
  /** a search is on its way (the palette says so instead of "nothing matches") */
  searching: boolean;
  /** labels of searchable resources the user may not list: their rows are not searched */
  unsearchable: string[];
}

/**
 * Finds rows of resources declaring `paletteSearch` (e.g. serial numbers) as the user types,
 * through each resource's list call (only where the user holds that call's code). A hit opens
 * its detail page; a hit whose detail the user may not open is still shown, marked as needing
 * a permission (it opens the list instead when the user may open that), so "nothing matches"
 * is never said of a row that exists (SPEC §6: guarded results are not silently dropped).
 */
export function useSerialSearch(): SerialSearch {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { routes, access } = useShell();
  const { search } = useKBar((s) => ({ search: s.searchQuery }));
  const [found, setFound] = useState<Action[]>([]);
  const [searching, setSearching] = useState(false);

  const { targets, unsearchable } = useMemo(() => {
    const shows = routes.filter((r) => r.screen === 'show' && r.resource?.paletteSearch);
    const listable = (r: (typeof shows)[number]) => access.has(apiCode(resourceApiPath(r.resource!, 'list')));
    return {
      targets: shows.filter(listable).map((r) => ({
        show: r,
        detail: canOpen(r, access),
        list: routes.find((l) => l.screen === 'list' && l.resource?.name === r.resource!.name && canOpen(l, access)),
      })),
      unsearchable: shows.filter((r) => !listable(r)).map((r) => resourceLabel(r.resource!)),
    };
  }, [routes, access]);

  useEffect(() => {
    const q = search.trim();
    if (q.length < MIN_CHARS || !targets.length) {
      setFound([]);
      setSearching(false);
      return;
    }
    setSearching(true);
    const ctrl = new AbortController();
    const find = async () => {
      const lists = await Promise.all(
        targets.map(async ({ show, detail, list }) => {
          const def = show.resource!;
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
              subtitle: detail ? t(resourceLabel(def)) : t('palette.needsPermission', { name: t(resourceLabel(def)) }),
              keywords: q,
              section: t('palette.found'),
              perform: () => {
                if (detail) navigate(show.path.replace(':id', encodeURIComponent(String(row.id))));
                else if (list) navigate(list.path);
              },
            }));
          } catch {
            return [];
          }
        }),
      );
      if (!ctrl.signal.aborted) {
        setFound(lists.flat());
        setSearching(false);
      }
    };
    // each resource's search answers no rows when it fails: find() cannot reject
    const timer = setTimeout(() => void find(), DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [search, targets, navigate, t]);

  return { found, searching, unsearchable };
}
