/**
 * Directory over the metadata-generated models of the user, role and organisation
 * resources (defined by db/models under their resource names).
 */
import { Op, col, fn, where, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { Directory, DirectoryOrg, DirectoryRole, DirectoryUser } from './directory';
import { findByEntryCode } from './entry-codes';

/** Resource names the access layer reads (metadata/resources/system). */
export const ACCESS_RESOURCES = { user: 'user', role: 'role', organization: 'organization' } as const;

/** Organisation fields handed to the login page as its theme. */
export const THEME_FIELDS = ['primaryColor', 'menuColor', 'largeLogo', 'smallLogo', 'loginBackground'] as const;

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);
const codes = (...lists: unknown[]): string[] => lists.flatMap((l) => (Array.isArray(l) ? l.filter((c): c is string => typeof c === 'string') : []));

function toUser(row: Model): DirectoryUser {
  const r = row.get({ plain: true }) as Record<string, unknown>;
  const home = Number(r.orgId);
  const organizationIds = [...new Set([...(Number.isInteger(home) && home > 0 ? [home] : []), ...ids(r.organizationIds)])];
  return {
    id: Number(r.id),
    username: String(r.name),
    realName: (r.realName as string | null) ?? null,
    email: typeof r.email === 'string' && r.email.trim() ? r.email.trim() : null,
    passwordHash: (r.password as string | null) ?? null,
    locked: Boolean(r.locked),
    sysOrgUser: Boolean(r.sysOrgUser),
    organizationIds,
    roleIds: ids(r.roleIds),
    warehouseIds: ids(r.warehouseIds),
    permissions: codes(r.pcPermissions, r.pdaPermissions),
  };
}

function toOrg(row: Model): DirectoryOrg {
  const r = row.get({ plain: true }) as Record<string, unknown>;
  // Image fields hold a list of names; the login page wants one URL or name per slot.
  const theme: Record<string, unknown> = {};
  for (const f of THEME_FIELDS) theme[f] = (Array.isArray(r[f]) ? (r[f] as unknown[])[0] : r[f]) ?? null;
  return {
    id: Number(r.id),
    name: String(r.name),
    shortName: (r.shortName as string | null) ?? null,
    entryCode: (r.entryCode as string | null) ?? null,
    theme,
    permissions: codes(r.pcPermissions, r.pdaPermissions),
  };
}

export function createSequelizeDirectory(sequelize: Sequelize): Directory {
  const model = (name: string): ModelStatic<Model> => {
    const m = sequelize.models[name];
    if (!m) throw new Error(`access: the "${name}" resource is not declared in the metadata`);
    return m;
  };
  const users = () => model(ACCESS_RESOURCES.user);
  const roles = () => model(ACCESS_RESOURCES.role);
  const orgs = () => model(ACCESS_RESOURCES.organization);

  return {
    async userByName(username) {
      const row = await users().findOne({ where: { name: username } });
      return row ? toUser(row) : null;
    },
    async userById(id) {
      const row = await users().findByPk(id);
      return row ? toUser(row) : null;
    },
    async usersByEmail(email) {
      const wanted = email.trim().toLowerCase();
      if (!wanted) return [];
      // stored as typed: compare lower-cased on both sides (SQLite and MariaDB alike)
      const rows = await users().findAll({ where: where(fn('lower', col('email')), wanted) });
      return rows.map(toUser);
    },
    async usersOfOrg(orgId) {
      // Membership is a JSON list; LIKE narrows the scan, the exact check happens on the parsed list.
      const rows = await users().findAll({
        where: { [Op.or]: [{ orgId }, { organizationIds: { [Op.like]: `%${orgId}%` } }] },
      });
      return rows.map(toUser).filter((u) => u.organizationIds.includes(orgId));
    },
    async org(id) {
      const row = await orgs().findByPk(id);
      return row ? toOrg(row) : null;
    },
    async orgByEntryCode(entryCode) {
      // without regard to case: `/NORDIC/login` is the organisation of `nordic` (access/entry-codes)
      const row = await findByEntryCode(orgs(), entryCode);
      return row ? toOrg(row) : null;
    },
    async orgs(list) {
      if (!list.length) return [];
      const rows = await orgs().findAll({ where: { id: list } });
      const byId = new Map(rows.map((r) => [Number(r.get('id')), toOrg(r)]));
      return list.map((id) => byId.get(id)).filter((o): o is DirectoryOrg => !!o);
    },
    async rolesOfOrg(orgId): Promise<DirectoryRole[]> {
      const rows = await roles().findAll({ where: { orgId } });
      return rows.map((row) => {
        const r = row.get({ plain: true }) as Record<string, unknown>;
        return { id: Number(r.id), orgId: Number(r.orgId), permissions: codes(r.pcPermissions, r.pdaPermissions) };
      });
    },
    async setPasswordHash(userId, hash) {
      // Raw column write: the model's password handling (hash on write) must not hash twice.
      await users().update({ password: hash }, { where: { id: userId }, hooks: false });
    },
  };
}
