/**
 * Rules metadata cannot express (composite uniqueness, rows depending on other rows), as
 * hooks inside the write's transaction: dictionary (category, value) per organisation, part
 * trees, carrier bind orders (SPEC §8 reason 301) and the domain rule over their lines (300).
 */
import { Op, type Transaction } from 'sequelize';
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, type HookEvent, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { orgRepo, str } from './helpers';

/** The row as it will be after a create/update (update bodies are partial). */
const merged = (e: HookEvent): Record<string, unknown> => ({ ...(e.previous ?? {}), ...(e.data ?? {}) });
const selfCondition = (e: HookEvent) => (e.previous ? { id: { [Op.ne]: Number(e.previous.id) } } : {});

const BIND_NEW = Enums.carrierBindStatus.new;
const BIND_CLOSED = Enums.carrierBindStatus.closed;

export function installRecordRules(ctx: PluginServerContext): void {
  // Dictionary: one value per category and organisation.
  const dictionaryUnique = async (e: HookEvent) => {
    const v = merged(e);
    const repo = orgRepo(ctx, 'dictionary', e.ctx);
    const clash = await repo.count({ [Op.and]: [{ category: v.category, value: v.value }, selfCondition(e)] }, e.transaction);
    if (clash) throw new ApiError(ErrorCode.duplicate, 'rules.dictionaryValueExists', { value: v.value });
  };
  ctx.hooks.before('create', 'dictionary', dictionaryUnique);
  ctx.hooks.before('update', 'dictionary', dictionaryUnique);

  // Parts: code unique per carrier code; the parent is a part of the same carrier code; no cycles.
  const partRules = async (e: HookEvent) => {
    const v = merged(e);
    const repo = orgRepo(ctx, 'part', e.ctx);
    const t = e.transaction;
    const sameCode = { carrierCodeId: v.carrierCodeId };
    if (await repo.count({ [Op.and]: [sameCode, { code: v.code }, selfCondition(e)] }, t)) {
      throw new ApiError(ErrorCode.duplicate, 'rules.partCodeExists', { code: v.code });
    }
    if (v.parentCode === null || v.parentCode === undefined || v.parentCode === '') return;
    if (v.parentCode === v.code) throw new ApiError(ErrorCode.validation, 'rules.partParentCycle');
    const parents = new Map<string, string | null>();
    for (const p of await repo.rows({ [Op.and]: [sameCode, selfCondition(e)] }, { attributes: ['code', 'parentCode'], transaction: t })) {
      parents.set(String(p.code), str(p.parentCode));
    }
    if (!parents.has(String(v.parentCode))) throw new ApiError(ErrorCode.validation, 'rules.partParentMissing', { code: v.parentCode });
    // Walk up from the new parent; meeting this part's code again would close a loop.
    const seen = new Set<string>();
    for (let at: string | null = String(v.parentCode); at !== null; at = parents.get(at) ?? null) {
      if (at === v.code || seen.has(at)) throw new ApiError(ErrorCode.validation, 'rules.partParentCycle');
      seen.add(at);
    }
  };
  ctx.hooks.before('create', 'part', partRules);
  ctx.hooks.before('update', 'part', async (e) => {
    await partRules(e);
    // Renaming a code carries its sub-parts along.
    const prev = e.previous!;
    if (e.data?.code !== undefined && e.data.code !== prev.code) {
      const repo = orgRepo(ctx, 'part', e.ctx);
      await repo.updateWhere({ parentCode: e.data.code }, { carrierCodeId: prev.carrierCodeId, parentCode: prev.code }, { transaction: e.transaction });
    }
  });
  ctx.hooks.before('delete', 'part', async (e) => {
    const row = e.row!;
    const repo = orgRepo(ctx, 'part', e.ctx);
    if (await repo.count({ carrierCodeId: row.carrierCodeId, parentCode: row.code }, e.transaction)) {
      throw new ApiError(ErrorCode.statusForbidden, 'rules.partHasChildren', { code: row.code });
    }
  });

  // Carrier bind orders.
  const carrierSn = async (call: RequestContext, id: unknown, t: Transaction) => {
    const repo = orgRepo(ctx, 'carrier', call);
    const row = await repo.findOne({ id: Number(id) }, { transaction: t });
    return row ? String(row.get('sn')) : `#${id}`;
  };

  // 301: one unreleased (new) bind order per main carrier.
  const bindRules = async (e: HookEvent) => {
    const v = merged(e);
    if (e.previous && e.data?.carrierId === undefined) return;
    const repo = orgRepo(ctx, 'carrier-bind', e.ctx);
    const open = await repo.findOne({ [Op.and]: [{ carrierId: v.carrierId, status: BIND_NEW }, selfCondition(e)] }, { transaction: e.transaction });
    if (open)
      throw new ApiError(ErrorCode.duplicate, 'rules.unreleasedBindExists', {
        sn: await carrierSn(e.ctx, v.carrierId, e.transaction),
        bindNo: open.get('bindNo'),
        importCode: 301,
      });
  };
  ctx.hooks.before('create', 'carrier-bind', bindRules);
  ctx.hooks.before('update', 'carrier-bind', bindRules);

  // Lines of a bind order: the number, cascade, freeze (new orders only), one line per carrier
  // and the total are declared in carrier-bind.json; what stays here is domain. A line is not
  // the main carrier, and (300) its carrier is in no other open order. Set-based: the atomic
  // save checks thousands of lines in two queries, a single-line call the same way.
  ctx.documents.onLines('carrier-bind', async (e) => {
    const incoming = [...e.added, ...e.changed.map((c) => ({ ...c.previous, ...c.values }))];
    const carrierIds = [...new Set(incoming.map((l) => Number(l.carrierId)))];
    if (!carrierIds.length) return;
    if (carrierIds.includes(Number(e.header.carrierId))) throw new ApiError(ErrorCode.validation, 'rules.bindSelf');
    const elsewhere = await e
      .repo('carrier-bind-detail')
      .rows({ carrierId: { [Op.in]: carrierIds }, carrierBindId: { [Op.ne]: Number(e.header.id) } }, { attributes: ['carrierId', 'carrierBindId'] });
    if (!elsewhere.length) return;
    const orderIds = [...new Set(elsewhere.map((d) => Number(d.carrierBindId)))];
    const open = new Map(
      (await e.repo('carrier-bind').rows({ id: { [Op.in]: orderIds }, status: { [Op.ne]: BIND_CLOSED } }, { attributes: ['id', 'carrierId'] })).map((o) => [
        Number(o.id),
        o.carrierId,
      ]),
    );
    const clash = elsewhere.find((d) => open.has(Number(d.carrierBindId)));
    if (!clash) return;
    throw new ApiError(ErrorCode.duplicate, 'rules.carrierAlreadyBound', {
      sn: await carrierSn(e.ctx, clash.carrierId, e.transaction),
      main: await carrierSn(e.ctx, open.get(Number(clash.carrierBindId)), e.transaction),
      importCode: 300,
    });
  });
}
