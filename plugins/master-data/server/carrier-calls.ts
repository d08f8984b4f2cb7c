/**
 * Carrier-side calls of SPEC §7: carrier cover (overwrite existing carriers by sn), carrier
 * codes without carriers, the part tree of a carrier code, and the bind-detail batch add.
 * Writes go through the scoped repository one row at a time, so validation, rules and
 * hooks (device binding, logs) apply exactly as for a single update.
 */
import { Op } from 'sequelize';
import { ApiError, ErrorCode, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { idParam, orgRepo, requiredError, typeError, type Row } from './helpers';

/** Largest batch accepted by cover and batch/add in one call. */
const BATCH_CAP = 1000;

function rowsParam(body: Record<string, unknown>, name: string): Array<Record<string, unknown>> {
  const v = body[name];
  if (v === undefined || v === null) throw requiredError(name);
  if (!Array.isArray(v) || v.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) throw typeError(name, 'list');
  if (!v.length) throw new ApiError(ErrorCode.validation, 'rules.batchRowsRequired');
  if (v.length > BATCH_CAP) throw new ApiError(ErrorCode.validation, 'server.validation.valueMax', { field: name, max: BATCH_CAP });
  return v as Array<Record<string, unknown>>;
}

const failure = (t: PluginServerContext['t'], call: RequestContext, err: unknown): { code: number; message: string } => {
  if (err instanceof ApiError) return { code: err.code, message: t(call.language, err.messageKey, err.params) };
  throw err;
};

export type PartNode = Row & { children: PartNode[] };

/** Parts as a forest by parent code; a part whose parent is missing becomes a root. */
export function partTree(rows: Row[]): PartNode[] {
  const nodes: PartNode[] = rows.map((r) => ({ ...r, children: [] }));
  const byCode = new Map(nodes.map((n) => [String(n.code), n]));
  const roots: PartNode[] = [];
  for (const n of nodes) {
    const parent = n.parentCode ? byCode.get(String(n.parentCode)) : undefined;
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}

export function installCarrierCalls(ctx: PluginServerContext): void {
  // Cover: update carriers found by sn with the given fields; answers per-row failures.
  ctx.addCall({
    path: '/carrier/cover',
    resource: 'carrier',
    async handler({ body, ctx: call }) {
      const rows = rowsParam(body, 'carriers');
      const repo = ctx.repo('carrier', call);
      const sns = rows.map((r) => r.sn);
      if (sns.some((sn) => typeof sn !== 'string' || !sn)) throw requiredError('sn');
      if (new Set(sns).size !== sns.length) throw new ApiError(ErrorCode.validation, 'rules.batchRowsDuplicate');
      const found = new Map(
        (await repo.findAll({ where: { sn: { [Op.in]: sns } }, attributes: ['id', 'sn'] })).map((r) => [String(r.get('sn')), Number(r.get('id'))]),
      );
      let covered = 0;
      const failed: Array<{ row: number; sn: unknown; code: number; message: string }> = [];
      for (const [i, r] of rows.entries()) {
        const id = found.get(String(r.sn));
        if (id === undefined) {
          failed.push({ row: i + 1, sn: r.sn, code: ErrorCode.notFound, message: ctx.t(call.language, 'server.errors.10002') });
          continue;
        }
        const { sn: _sn, id: _id, ...fields } = r;
        try {
          await repo.update({ ...fields, id });
          covered++;
        } catch (err) {
          failed.push({ row: i + 1, sn: r.sn, ...failure(ctx.t, call, err) });
        }
      }
      return { covered, failed };
    },
  });

  // Carrier codes no carrier uses yet (counted over the whole organisation).
  ctx.addCall({
    path: '/carrier-code/all/no/carrier',
    resource: 'carrier-code',
    async handler({ ctx: call }) {
      const carriers = orgRepo(ctx, 'carrier', call);
      const used = [...(await carriers.countBy('carrierCodeId')).keys()].map(Number);
      const codes = ctx.repo('carrier-code', call);
      return codes.serialize(await codes.findAll({ where: used.length ? { id: { [Op.notIn]: used } } : {}, order: [['code', 'ASC']], limit: 5000 }));
    },
  });

  ctx.addCall({
    path: '/part/get-part-by-carrier-code-id',
    resource: 'part',
    async handler({ body, ctx: call }) {
      const carrierCodeId = idParam(body, 'carrierCodeId');
      // Answers 10002 for a carrier code outside the caller's organisation.
      await ctx.repo('carrier-code', call).find(carrierCodeId);
      const parts = ctx.repo('part', call);
      return partTree(await parts.serialize(await parts.findAll({ where: { carrierCodeId }, order: [['code', 'ASC']] })));
    },
  });

  // Drawer editor save: rows matching the unique key (carrierId) update, others are added.
  ctx.addCall({
    path: '/carrier-bind-detail/batch/add',
    resource: 'carrier-bind-detail',
    async handler({ body, ctx: call }) {
      const carrierBindId = idParam(body, 'carrierBindId');
      const rows = rowsParam(body, 'details');
      await ctx.repo('carrier-bind', call).find(carrierBindId);
      const ids = rows.map((r) => idParam(r, 'carrierId'));
      if (new Set(ids).size !== ids.length) throw new ApiError(ErrorCode.validation, 'rules.batchRowsDuplicate');
      const repo = ctx.repo('carrier-bind-detail', call);
      const existing = new Map(
        (await repo.findAll({ where: { carrierBindId }, attributes: ['id', 'carrierId'] })).map((r) => [Number(r.get('carrierId')), Number(r.get('id'))]),
      );
      let added = 0;
      let updated = 0;
      const failed: Array<{ row: number; carrierId: number; code: number; message: string }> = [];
      for (const [i, r] of rows.entries()) {
        const { id: _id, carrierBindId: _b, ...fields } = r;
        try {
          const id = existing.get(ids[i]);
          if (id !== undefined) {
            await repo.update({ ...fields, id });
            updated++;
          } else {
            await repo.create({ ...fields, carrierBindId });
            added++;
          }
        } catch (err) {
          failed.push({ row: i + 1, carrierId: ids[i], ...failure(ctx.t, call, err) });
        }
      }
      return { added, updated, failed };
    },
  });
}
