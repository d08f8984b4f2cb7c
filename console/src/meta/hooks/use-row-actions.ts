import { lazy, useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import type { RowAction, RowActionProps } from '../../plugin-contract';
import { useOptionalShell } from '../../providers/shell-context';

export interface ResolvedRowAction {
  id: string;
  width: number;
  Component: LazyExoticComponent<ComponentType<RowActionProps>>;
}

// One lazy component per action for the life of the page, so rows never re-suspend.
const lazyOf = new Map<RowAction['component'], LazyExoticComponent<ComponentType<RowActionProps>>>();

/** Plugins' extra row actions for one resource the user may take (checked once per table). */
export function useRowActions(resourceName: string, where: 'list' | 'detail' = 'list'): ResolvedRowAction[] {
  const shell = useOptionalShell();
  const plugins = shell?.plugins;
  const access = shell?.access;
  return useMemo(
    () =>
      (plugins ?? [])
        .flatMap((p) => p.rowActions ?? [])
        .filter((a) => a.resources.includes(resourceName) && (a.where ?? ['list']).includes(where) && (!a.viewCode || Boolean(access?.has(a.viewCode))))
        .sort((a, b) => (a.order ?? 50) - (b.order ?? 50))
        .map((a) => {
          let Component = lazyOf.get(a.component);
          if (!Component) lazyOf.set(a.component, (Component = lazy(a.component)));
          return { id: a.id, width: a.width ?? 80, Component };
        }),
    [plugins, access, resourceName, where],
  );
}
