/**
 * The signed-in user's info, shared by /account/login and /account/info: who, which
 * organisations, and the access lists of the current organisation.
 */
import type { Language } from '../http/types';
import type { AccessService } from '../access/service';
import type { DirectoryOrg, DirectoryUser } from '../access/directory';
import { userSubject } from '../access/casbin-model';

export interface SessionInfo {
  userId: number;
  username: string;
  realName: string | null;
  sysOrgUser: boolean;
  loginOrgId: number | null;
  loginOrgName: string | null;
  loginEntryCode: string | null;
  orgId: number | null;
  orgName: string | null;
  organizations: Array<{ orgId: number; name: string; shortName: string | null; entryCode: string | null }>;
  /** every Menu/View/Api code held in the current organisation */
  access: string[];
  /** console menu paths the side menu is narrowed to */
  permissions: string[];
}

export async function sessionInfo(
  access: AccessService,
  lang: Language,
  user: DirectoryUser,
  orgIds: number[],
  loginOrg: DirectoryOrg | null,
  loginEntryCode: string | null,
  currentOrgId: number | null,
): Promise<SessionInfo> {
  const orgs = await access.directory.orgs(orgIds);
  const current = orgs.find((o) => o.id === currentOrgId) ?? null;
  const lists = current ? await access.accessLists(userSubject(user.id), current.id, lang) : { access: [], permissions: [] };
  return {
    userId: user.id,
    username: user.username,
    realName: user.realName,
    sysOrgUser: user.sysOrgUser,
    loginOrgId: loginOrg?.id ?? null,
    loginOrgName: loginOrg?.name ?? null,
    loginEntryCode,
    orgId: current?.id ?? null,
    orgName: current?.name ?? null,
    organizations: orgs.map((o) => ({ orgId: o.id, name: o.name, shortName: o.shortName, entryCode: o.entryCode })),
    ...lists,
  };
}
