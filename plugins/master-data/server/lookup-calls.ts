/**
 * Pickers and searches of SPEC §7 over dictionary, user, role, organisation and enums.
 * Every call reads through the caller's scoped repository, so answers stay inside the
 * caller's organisation (and warehouses) like the generated calls.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { PluginServerContext } from '@rti/server/plugin-api';
import { keywordWhere } from './helpers';

/** Pickers answer at most this many rows; the user narrows with the keyword. */
const SEARCH_CAP = 50;

const pick = (rows: Array<Record<string, unknown>>, keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null])));

/** the pickers' search text (declared: docs/PLUGINS.md "Declared call inputs") */
const KEYWORD = { keyword: { type: 'string', maxLength: 256 } } as const;
const CATEGORIES = { type: 'enums', enum: 'dictionaryCategory', label: 'fields.category' } as const;

export function installLookupCalls(ctx: PluginServerContext): void {
  const search = async (
    resource: string,
    call: Parameters<PluginServerContext['repo']>[1],
    fields: string[],
    keyword: string | undefined,
    extra: WhereOptions[] = [],
    order: Array<[string, string]> = [['id', 'ASC']],
  ) => {
    const repo = ctx.repo(resource, call);
    const kw = keywordWhere(keyword, fields);
    const rows = await repo.findAll({ where: { [Op.and]: [...(kw ? [kw] : []), ...extra] }, order, limit: SEARCH_CAP });
    return repo.serialize(rows);
  };

  // Dictionary
  ctx.addCall({
    path: '/dictionary/search',
    resource: 'dictionary',
    input: { ...KEYWORD, category: CATEGORIES },
    handler: ({ input, ctx: call }) => {
      const categories = input.category;
      return search('dictionary', call, ['name', 'value'], input.keyword, categories ? [{ category: { [Op.in]: categories } }] : [], [
        ['category', 'ASC'],
        ['displayOrder', 'ASC'],
        ['id', 'ASC'],
      ]);
    },
  });
  ctx.addCall({
    path: '/dictionary/categorized',
    resource: 'dictionary',
    input: { categories: CATEGORIES },
    async handler({ input, ctx: call }) {
      const wanted = (input.categories ?? ctx.metadata.enums.dictionaryCategory.map((v) => v.value)).map(Number);
      const repo = ctx.repo('dictionary', call);
      const rows = await repo.serialize(
        await repo.findAll({
          where: { category: { [Op.in]: wanted } },
          order: [
            ['displayOrder', 'ASC'],
            ['id', 'ASC'],
          ],
        }),
      );
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
    input: KEYWORD,
    handler: async ({ input, ctx: call }) => pick(await search('user', call, ['name', 'realName', 'mobile'], input.keyword, [], [['name', 'ASC']]), USER_KEYS),
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
      return pick(
        await repo.serialize(await repo.findAll({ where: { [Op.or]: [{ locked: false }, { locked: null }] }, order: [['name', 'ASC']], limit: 5000 })),
        USER_KEYS,
      );
    },
  });

  // Roles of the current organisation
  ctx.addCall({
    path: '/role/search',
    resource: 'role',
    input: KEYWORD,
    handler: async ({ input, ctx: call }) => pick(await search('role', call, ['name'], input.keyword, [], [['name', 'ASC']]), ['id', 'name']),
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
    input: KEYWORD,
    handler: async ({ input, ctx: call }) =>
      pick(await search('organization', call, ['code', 'name', 'shortName'], input.keyword, [], [['code', 'ASC']]), [
        'id',
        'code',
        'name',
        'shortName',
        'entryCode',
      ]),
  });

  // Enumerations as options in the caller's language
  ctx.addCall({
    path: '/enums/device-type',
    handler: ({ ctx: call }) => ctx.metadata.enums.deviceType.map((v) => ({ value: v.value, label: ctx.t(call.language, v.label) })),
  });
}
