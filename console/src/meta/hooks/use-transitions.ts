/** The workflow steps (metadata `transitions`) a user may take on a resource, checked once per screen. */
import { useMemo } from 'react';
import { apiCode, resourceTransitions, type ResolvedTransition, type ResourceDef } from '@rti/metadata/browser';
import { useOptionalShell } from '../../providers/shell-context';
import { guardPermissionHeld } from '../lib/step-guard';

/**
 * Steps with a fixed target and a call (not `call: false`) whose code the user holds, minus those a plugin's row action
 * replaces (`RowAction.replaces`) and those whose `guard.permission` the user lacks. The status call (`rules.statusUpdate`, target chosen by the
 * user) keeps its own menu (StatusAction).
 */
export function useTransitions(res: ResourceDef): ResolvedTransition[] {
  const shell = useOptionalShell();
  const access = shell?.access;
  const plugins = shell?.plugins;
  return useMemo(() => {
    const replaced = new Set(
      (plugins ?? [])
        .flatMap((p) => p.rowActions ?? [])
        .filter((a) => a.replaces && a.resources.includes(res.name))
        .map((a) => a.replaces!),
    );
    const has = (code: string) => Boolean(access?.has(code));
    return resourceTransitions(res).filter(
      (t) => t.call !== false && !t.choose && !replaced.has(t.name) && has(apiCode(t.path)) && guardPermissionHeld(t, has),
    );
  }, [res, access, plugins]);
}
