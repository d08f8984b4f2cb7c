import { useMemo } from 'react';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import type { Action } from '@refinedev/kbar';
import { canOpen } from '../../lib/routes';
import { flattenMenu } from '../../lib/menu';
import { useShell } from '../../providers/shell-context';

/** Static palette entries: every page the user may open, every resource they may create, plugin actions. */
export function usePaletteActions(): Action[] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { sideMenu, routes, access, plugins } = useShell();
  return useMemo(() => {
    const pages: Action[] = flattenMenu(sideMenu).map((n) => ({
      id: `open:${n.path}`,
      name: t(n.label),
      keywords: n.path,
      section: t('palette.pages'),
      perform: () => (n.newWindow ? window.open(n.path, '_blank', 'noopener') : navigate(n.path)),
    }));
    const creates: Action[] = routes
      .filter((r) => r.screen === 'create' && canOpen(r, access))
      .map((r) => ({
        id: `create:${r.resource!.name}`,
        name: t('palette.createOne', { name: t(r.title) }),
        keywords: r.resource!.name,
        section: t('palette.create'),
        perform: () => navigate(r.path),
      }));
    const extra: Action[] = plugins
      .flatMap((p) => p.paletteActions ?? [])
      .filter((a) => !a.viewCode || access.has(a.viewCode))
      .map((a) => ({
        id: `plugin:${a.id}`,
        name: t(a.name),
        keywords: a.keywords,
        section: t(a.section ?? 'palette.actions'),
        perform: () => a.perform({ navigate }),
      }));
    return [...pages, ...creates, ...extra];
  }, [sideMenu, routes, access, plugins, t, navigate]);
}
