/**
 * Pickers and searches of SPEC §7 over dictionary, user, role, organisation and enums.
 * Every call reads through the caller's scoped repository, so answers stay inside the
 * caller's organisation (and warehouses) like the generated calls.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { PluginServerContext } from '@rti/server/plugin-api';
import { keywordWhere, typeError } from './helpers';

/** Pickers answer at most this many rows; the user narrows with the keyword. */
const SEARCH_CAP = 50;

const pick = (rows: Array<Record<string, unknown>>, keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null])));

function numberList(name: string, v: unknown): number[] | null {
  if (v === undefined || v === null || v === '') return null;
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'number' && Number.isFinite(x))) throw typeError(name, 'list');
  return list as number[];
}

export function installLookupCalls(ctx: PluginServerContext): void {
  const search = async (resource: string, call: Parameters<PluginServerContext['repo']>[1], fields: string[], keyword: unknown, extra: WhereOptions[] = [], order: Array<[string, string]> = [['id', 'ASC']]) => {
    const repo = ctx.repo(resource, call);
    const kw = keywordWhere(keyword, fields);
    const rows = await repo.findAll({ where: { [Op.and]: [...(kw ? [kw] : []), ...extra] }, order, limit: SEARCH_CAP });
    return repo.serialize(rows);
  };

  // Dictionary
  ctx.addCall({
    path: '/dictionary/search',
    resource: 'dictionary',
    handler: ({ body, ctx: call }) => {
      const categories = numberList('category', body.category);
      return search('dictionary', call, ['name', 'value'], body.keyword, categories ? [{ category: { [Op.in]: categories } }] : [], [['category', 'ASC'], ['displayOrder', 'ASC'], ['id', 'ASC']]);
    },
  });
  ctx.addCall({
    path: '/dictionary/categorized',
    resource: 'dictionary',
    async handler({ body, ctx: call }) {
      const wanted = numberList('categories', body.categories) ?? ctx.metadata.enums.dictionaryCategory.map((v) => Number(v.value));
      const repo = ctx.repo('dictionary', call);
      const rows = await repo.serialize(await repo.findAll({ where: { category: { [Op.in]: wanted } }, order: [['displayOrder', 'ASC'], ['id', 'ASC']] }));
      const out: Record<string, unknown[]> = Object.fromEntries(wanted.map((c) => [String(c), []]));
      for (const r of rows) out[String(r.category)].push(r);
      return out;
    },
  });

  // Users (never their password hash: serialize drops write-only fields)
  const USER_KEYS = ['id', 'name', 'realName', 'mobile', 'email'];
  ctx.addCall({
    path: '/user/search',
    resource: 'user',
    handler: async ({ body, ctx: call }) => pick(await search('user', call, ['name', 'realName', 'mobile'], body.keyword, [], [['name', 'ASC']]), USER_KEYS),
  });
  ctx.addCall({
    path: '/user/sys-org/list',
    resource: 'user',
    async handler({ body, ctx: call }) {
      const repo = ctx.repo('user', call);
      const q = repo.parse(body);
      const where = { [Op.and]: [...q.where, { sysOrgUser: true }] };
      const [rows, total] = await Promise.all([repo.findAll({ where, order: q.order, limit: q.limit, offset: (q.page - 1) * q.limit }), repo.count(where)]);
      return { list: await repo.serialize(rows), total };
    },
  });
  ctx.addCall({
    path: '/user/all4project',
    resource: 'user',
    async handler({ ctx: call }) {
      const repo = ctx.repo('user', call);
      return pick(await repo.serialize(await repo.findAll({ where: { [Op.or]: [{ locked: false }, { locked: null }] }, order: [['name', 'ASC']], limit: 5000 })), USER_KEYS);
    },
  });

  // Roles of the current organisation
  ctx.addCall({
    path: '/role/search',
    resource: 'role',
    handler: async ({ body, ctx: call }) => pick(await search('role', call, ['name'], body.keyword, [], [['name', 'ASC']]), ['id', 'name']),
  });
  ctx.addCall({
    path: '/role/choose',
    resource: 'role',
    async handler({ ctx: call }) {
      const repo = ctx.repo('role', call);
      return (await repo.findAll({ order: [['name', 'ASC']], attributes: ['id', 'name'] })).map((r) => ({ id: r.get('id'), name: r.get('name') }));
    },
  });
  ctx.addCall({
    path: '/role/organization/all',
    resource: 'role',
    async handler({ ctx: call }) {
      const repo = ctx.repo('role', call);
      return repo.serialize(await repo.findAll({ order: [['name', 'ASC']] }));
    },
  });

  // Organisations the caller belongs to (the repository narrows to ctx.orgIds)
  ctx.addCall({
    path: '/organization/search',
    resource: 'organization',
    handler: async ({ body, ctx: call }) => pick(await search('organization', call, ['code', 'name', 'shortName'], body.keyword, [], [['code', 'ASC']]), ['id', 'code', 'name', 'shortName', 'entryCode']),
  });

  // Enumerations as options in the caller's language
  ctx.addCall({
    path: '/enums/device-type',
    handler: ({ ctx: call }) => ctx.metadata.enums.deviceType.map((v) => ({ value: v.value, label: ctx.t(call.language, v.label) })),
  });
}
