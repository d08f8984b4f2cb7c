/**
 * `/config` and `/config/update` (SPEC §7): one settings row per organisation (resource
 * `config`, no generated calls). Reading before anything was saved answers the metadata
 * defaults; the first update creates the row, later ones change it — always through the
 * scoped repository, so validation and the operation log apply.
 */
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { orgRepo } from './helpers';

export function installConfigCalls(ctx: PluginServerContext): void {
  const res = ctx.metadata.resources.config;
  const current = async (call: RequestContext) => {
    const repo = ctx.repo('config', call);
    const [row] = await repo.findAll({ order: [['id', 'ASC']], limit: 1 });
    return row ? (await repo.serialize([row]))[0] : null;
  };
  const defaults = (call: RequestContext) => ({
    id: null,
    orgId: call.orgId,
    ...Object.fromEntries(res.fields.map((f) => [f.name, f.default === undefined ? null : structuredClone(f.default)])),
  });

  ctx.addCall({ path: '/config', resource: 'config', handler: async ({ ctx: call }) => (await current(call)) ?? defaults(call) });

  ctx.addCall({
    path: '/config/update',
    resource: 'config',
    async handler({ body, ctx: call }) {
      const { id: _id, orgId: _org, ...fields } = body;
      const row = await current(call);
      const repo = ctx.repo('config', call);
      if (row) return repo.update({ ...fields, id: row.id });
      // Two first saves racing would make two rows; the oldest wins on read, and the
      // loser is folded into it here so the organisation keeps one row.
      const created = await repo.create(fields);
      const all = orgRepo(ctx, 'config', call);
      const first = await all.findOne({}, { order: [['id', 'ASC']] });
      if (first && Number(first.get('id')) !== created.id) {
        await all.deleteWhere({ id: created.id });
        return repo.update({ ...fields, id: Number(first.get('id')) });
      }
      return created;
    },
  });
}
