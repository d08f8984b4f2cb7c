/**
 * What the access layer reads about users, roles and organisations. Implemented over the
 * metadata-generated tables in ./sequelize-directory; kept as an interface so the policy and
 * session logic does not know column layouts.
 */
export interface DirectoryUser {
  id: number;
  username: string;
  realName: string | null;
  /** where account mail goes (reset codes); null when the user has none */
  email: string | null;
  passwordHash: string | null;
  locked: boolean;
  sysOrgUser: boolean;
  organizationIds: number[];
  roleIds: number[];
  warehouseIds: number[];
  /** extra PC and PDA permission codes of the user */
  permissions: string[];
}

export interface DirectoryOrg {
  id: number;
  name: string;
  shortName: string | null;
  entryCode: string | null;
  /** theme fields of the organisation (colours, logos, login background) */
  theme: Record<string, unknown>;
  /** the organisation's PC and PDA permission set: the upper bound of every grant in it */
  permissions: string[];
}

export interface DirectoryRole {
  id: number;
  orgId: number | null;
  permissions: string[];
}

export interface Directory {
  userByName(username: string): Promise<DirectoryUser | null>;
  userById(id: number): Promise<DirectoryUser | null>;
  /** users whose e-mail address is this one, without regard to case */
  usersByEmail(email: string): Promise<DirectoryUser[]>;
  usersOfOrg(orgId: number): Promise<DirectoryUser[]>;
  org(id: number): Promise<DirectoryOrg | null>;
  orgByEntryCode(entryCode: string): Promise<DirectoryOrg | null>;
  orgs(ids: number[]): Promise<DirectoryOrg[]>;
  rolesOfOrg(orgId: number): Promise<DirectoryRole[]>;
  setPasswordHash(userId: number, hash: string): Promise<void>;
}
