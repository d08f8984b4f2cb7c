/**
 * What a newly installed plugin's codes reach, and plugins switched on per organisation.
 *
 * New codes: the catalogue is derived from the installed plugins, but organisations' sets and
 * roles are rows — a plugin installed later had codes nobody held (10005 for everyone, the
 * platform administrator included). At start, codes the installation has not seen before
 * (table sys_permission_code_seen) are added to every organisation's set and to the roles that
 * hold the code's menu group (or, for a code in a group that is new as well, to the roles that
 * hold the organisation's whole set: its administrators). A code is granted once: one an
 * administrator removes later is seen already and stays removed. The first start records the
 * catalogue and grants nothing (seeds and onboarding give the whole set).
 *
 * Switches: a plugin declaring `perOrganisation: true` (a customer's report) is off in an
 * organisation until an administrator switches it on (table sys_org_plugin); while off, its
 * codes are withheld from the organisation's policies, so its menu entries are absent and its
 * calls answer 10005 like any code outside the organisation's set.
 */
import { DataTypes, type ModelStatic, type Model, type Sequelize } from 'sequelize';
import { menuCode, routeName, viewCode, type MenuItem, type Metadata } from '@rti/metadata';
import { registerMigration } from '../db/migrations';
import { callPermission } from '../http/registry';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, RequestContext } from '../http/types';
import type { Catalogue, CatalogueCall, PermissionNode } from './catalogue';

export const CODE_SEEN_TABLE = 'sys_permission_code_seen';
export const PLUGIN_SWITCH_TABLE = 'sys_org_plugin';

const seenColumns = { code: { type: DataTypes.STRING(191), primaryKey: true }, seenAt: { type: DataTypes.DATE, allowNull: false, field: 'seen_at' } };
const switchColumns = {
  orgId: { type: DataTypes.INTEGER, primaryKey: true, field: 'org_id' },
  plugin: { type: DataTypes.STRING(64), primaryKey: true },
  enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
};

registerMigration({
  name: '2026-11-27-plugin-codes',
  async up({ queryInterface: qi }) {
    await qi.createTable(CODE_SEEN_TABLE, seenColumns);
    await qi.createTable(PLUGIN_SWITCH_TABLE, switchColumns);
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(PLUGIN_SWITCH_TABLE);
    await qi.dropTable(CODE_SEEN_TABLE);
  },
});

function tables(sequelize: Sequelize) {
  const opts = { timestamps: false, freezeTableName: true } as const;
  return {
    seen: (sequelize.models.SysPermissionCodeSeen ??
      sequelize.define('SysPermissionCodeSeen', seenColumns, { ...opts, tableName: CODE_SEEN_TABLE })) as ModelStatic<Model>,
    switches: (sequelize.models.SysOrgPlugin ??
      sequelize.define('SysOrgPlugin', switchColumns, { ...opts, tableName: PLUGIN_SWITCH_TABLE })) as ModelStatic<Model>,
  };
}

const list = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.trim().startsWith('[')) return (JSON.parse(v) as unknown[]).map(String);
  return typeof v === 'string' && v ? v.split(',') : [];
};

/** menu group code → every code of its subtree (the first group a code appears in) */
function groupOf(tree: PermissionNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (group: string, nodes: PermissionNode[]) => {
    for (const n of nodes) {
      if (!out.has(n.code)) out.set(n.code, group);
      if (n.children) walk(group, n.children);
    }
  };
  for (const g of tree) walk(g.code, [g]);
  return out;
}

/**
 * Grants the codes the installation has not seen before (see the top of the file) and records
 * them; answers the organisations whose sets or roles changed (their policies must reload).
 */
export async function grantNewCodes(sequelize: Sequelize, catalogue: Catalogue): Promise<{ codes: string[]; orgIds: number[] }> {
  const { seen } = tables(sequelize);
  const before = new Set((await seen.findAll({ attributes: ['code'], raw: true })).map((r) => String((r as unknown as { code: string }).code)));
  const fresh = [...catalogue.codes].filter((c) => !before.has(c)).sort();
  if (!fresh.length) return { codes: [], orgIds: [] };
  const changed: number[] = [];
  if (before.size) {
    const group = groupOf(catalogue.tree('en-US'));
    const orgs = sequelize.models.organization;
    const roles = sequelize.models.role;
    for (const org of orgs ? await orgs.findAll() : []) {
      const orgId = Number(org.get('id'));
      const set = list(org.get('pcPermissions'));
      const known = set.filter((c) => before.has(c));
      await org.update({ pcPermissions: [...new Set([...set, ...fresh])] });
      for (const role of roles ? await roles.findAll({ where: { orgId } }) : []) {
        const held = new Set(list(role.get('pcPermissions')));
        const admin = known.every((c) => held.has(c));
        const give = fresh.filter((c) => {
          const g = group.get(c);
          return g && g !== c && before.has(g) ? held.has(g) : admin;
        });
        if (give.length) await role.update({ pcPermissions: [...held, ...give] });
      }
      changed.push(orgId);
    }
  }
  const now = new Date();
  await seen.bulkCreate(
    fresh.map((code) => ({ code, seenAt: now })),
    { ignoreDuplicates: true },
  );
  return { codes: fresh, orgIds: changed };
}

/** Every code of one plugin: its calls', and the Menu/View codes of menu items showing its page or making its calls. */
export function pluginCodes(meta: Metadata, calls: readonly CatalogueCall[], plugin: string): Set<string> {
  const own = calls.filter((c) => c.plugin === plugin);
  const paths = new Set(own.map((c) => c.path));
  const out = new Set(own.map((c) => callPermission(c as CallDef)).filter((c): c is string => !!c));
  const visit = (items: MenuItem[]) => {
    for (const item of items) {
      if (item.children) visit(item.children);
      if (item.page !== plugin && !item.calls?.some((p: string) => paths.has(p))) continue;
      const name = routeName(item.path, meta.menu);
      out.add(viewCode(name));
      if (!item.hidden) out.add(menuCode(name));
    }
  };
  for (const g of meta.menu.groups) visit(g.items);
  return out;
}

export interface PluginSwitches {
  /** plugins declaring perOrganisation, by id */
  switchable(): string[];
  enabled(orgId: number): Promise<Set<string>>;
  set(orgId: number, plugin: string, enabled: boolean): Promise<void>;
  /** codes withheld from an organisation: those of its switchable plugins that are off */
  withheld(orgId: number): Promise<Set<string>>;
}

export function pluginSwitches(sequelize: Sequelize, switchable: () => string[], codesOf: (plugin: string) => Set<string>): PluginSwitches {
  const { switches } = tables(sequelize);
  const api: PluginSwitches = {
    switchable: () => [...switchable()].sort(),
    async enabled(orgId) {
      if (!switchable().length) return new Set();
      const rows = await switches.findAll({ where: { orgId, enabled: true }, attributes: ['plugin'], raw: true });
      return new Set(rows.map((r) => String((r as unknown as { plugin: string }).plugin)));
    },
    async set(orgId, plugin, enabled) {
      await switches.upsert({ orgId, plugin, enabled });
    },
    async withheld(orgId) {
      const ids = switchable();
      if (!ids.length) return new Set();
      const on = await api.enabled(orgId);
      const out = new Set<string>();
      for (const id of ids) if (!on.has(id)) for (const c of codesOf(id)) out.add(c);
      return out;
    },
  };
  return api;
}

/**
 * `/organization/plugin/list` (the switchable plugins of the current organisation, on or off,
 * with their titles) and `/organization/plugin/update { plugin, enabled }`. Their codes are
 * ordinary Api codes: an organisation's administrator holds them with the whole set.
 */
export function switchCalls(
  switches: PluginSwitches,
  changed: (orgIds: number[]) => Promise<void>,
  t: (lang: RequestContext['language'], key: string) => string,
): CallDef[] {
  const orgOf = (ctx: RequestContext): number => {
    if (ctx.orgId === null) throw new ApiError(ErrorCode.orgNotAllowed, t(ctx.language, 'server.errors.10007'), {}, 403);
    return ctx.orgId;
  };
  return [
    {
      path: '/organization/plugin/list',
      async handler({ ctx }) {
        const on = await switches.enabled(orgOf(ctx));
        return switches.switchable().map((plugin) => ({ plugin, title: t(ctx.language, `${plugin}.title`), enabled: on.has(plugin) }));
      },
    },
    {
      path: '/organization/plugin/update',
      input: { plugin: { type: 'string', required: true, maxLength: 64 }, enabled: { type: 'bool', required: true } },
      async handler({ ctx, input }) {
        const { plugin, enabled } = input as { plugin: string; enabled: boolean };
        const orgId = orgOf(ctx);
        if (!switches.switchable().includes(plugin)) throw new ApiError(ErrorCode.notFound, t(ctx.language, 'server.errors.10002'));
        await switches.set(orgId, plugin, enabled);
        await changed([orgId]);
        return { plugin, enabled };
      },
    },
  ];
}
