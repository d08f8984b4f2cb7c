/**
 * Step guards (metadata `transitions[].guard`) as the console reads them: a step whose extra
 * `permission` the user lacks is not offered at all; a step whose `notUser` field records the
 * user (the applicant may not audit) is shown disabled with the reason. The server refuses
 * both anyway (10005 / 10004); this only spares the user a button that cannot work.
 */
import { guardStopsUser, resourceApiPrefix, type ResolvedTransition, type ResourceDef, type StepUser } from '@rti/metadata/browser';
import type { UserInfo } from '../../lib/session';

/** The signed-in user as a step stamp would record them (id, user name, real name). */
export function stepUser(user: (UserInfo & { id?: number | string }) | undefined | null): StepUser | null {
  if (!user) return null;
  const id = Number(user.userId ?? user.id);
  if (!Number.isFinite(id)) return null;
  return { id, username: user.username ?? user.name ?? '', realName: user.realName ?? null };
}

/** Whether the user holds what the step's guard asks beyond the step's own code. */
export const guardPermissionHeld = (step: Pick<ResolvedTransition, 'guard'>, has: (code: string) => boolean): boolean =>
  !step.guard?.permission || has(step.guard.permission);

/** The field whose recorded user the current user is, when that stops the step on this row; undefined when it may run. */
export function guardBlockingField(
  res: ResourceDef,
  step: ResolvedTransition,
  record: Record<string, unknown> | undefined,
  user: StepUser | null,
): string | undefined {
  return guardStopsUser(res, step, record, user) ? step.guard?.notUser : undefined;
}

/** The generic timeline call of a resource with steps (server resources/timeline.ts). */
export const timelinePath = (res: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(res)}/timeline`;
