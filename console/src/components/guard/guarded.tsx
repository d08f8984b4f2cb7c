import type { ReactNode } from 'react';
import { mayUse, type GuardTarget } from '../../lib/guard';
import { useOptionalShell } from '../../providers/shell-context';

/**
 * `useCan({ open: '/dashboard' })`, `useCan({ call: '/organization-token/create' })`: whether the
 * signed-in user may open that page / make that call. Outside the signed-in console (screens
 * rendered on their own in tests) nothing is guarded.
 */
export function useCan(target: GuardTarget): boolean {
  const shell = useOptionalShell();
  return !shell || mayUse(target, shell.routes, shell.access);
}

/** Renders its children only for users who may open `open` and call `call` (SPEC §6: removed, not disabled). */
export function Guarded({ open, call, children, fallback = null }: GuardTarget & { children: ReactNode; fallback?: ReactNode }) {
  return <>{useCan({ open, call }) ? children : fallback}</>;
}
