import type { UserInfo } from './session';

/**
 * SPEC §1: the organisation switcher shows only for an organisation (sys-org) user who
 * logged in without an entry code and belongs to more than one organisation.
 */
export function showOrgSwitcher(user: UserInfo | undefined): boolean {
  return Boolean(user?.sysOrgUser) && !user?.loginEntryCode && (user?.organizations?.length ?? 0) > 1;
}
