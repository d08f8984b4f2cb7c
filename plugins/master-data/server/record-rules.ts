/**
 * Rules metadata cannot express (composite uniqueness, rows depending on other rows), as
 * hooks inside the write's transaction: dictionary (category, value) per organisation, part
 * trees, carrier bind orders and their details (SPEC §8 reasons 300/301).
 */
import { Op, type Transaction } from 'sequelize';
import { ApiError, ErrorCode, type HookEvent, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { orgRepo, str } from './helpers';

/** The row as it will be after a create/update (update bodies are partial). */
const merged = (e: HookEvent): Record<string, unknown> => ({ ...(e.previous ?? {}), ...(e.data ?? {}) });
const selfCondition = (e: HookEvent) => (e.previous ? { id: { [Op.ne]: Number(e.previous.id) } } : {});

const BIND_NEW = 10;
const BIND_CLOSED = 30;

export function installRecordRules(ctx: PluginServerContext): void {
  // Dictionary: one value per category and organisation.
  const dictionaryUnique = async (e: HookEvent) => {
    const v = merged(e);
    const repo = orgRepo(ctx, 'dictionary', e.ctx);
    const clash = await repo.model.count({ where: repo.where({ category: v.category, value: v.value }, selfCondition(e)), transaction: e.transaction });
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
    if (await repo.model.count({ where: repo.where(sameCode, { code: v.code }, selfCondition(e)), transaction: t })) {
      throw new ApiError(ErrorCode.duplicate, 'rules.partCodeExists', { code: v.code });
    }
    if (v.parentCode === null || v.parentCode === undefined || v.parentCode === '') return;
    if (v.parentCode === v.code) throw new ApiError(ErrorCode.validation, 'rules.partParentCycle');
    const parents = new Map<string, string | null>();
    for (const p of await repo.model.findAll({ where: repo.where(sameCode, selfCondition(e)), attributes: ['code', 'parentCode'], transaction: t })) {
      parents.set(String(p.get('code')), str(p.get('parentCode')));
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
      await repo.model.update({ parentCode: e.data.code }, { where: repo.where({ carrierCodeId: prev.carrierCodeId, parentCode: prev.code }), transaction: e.transaction });
    }
  });
  ctx.hooks.before('delete', 'part', async (e) => {
    const row = e.row!;
    const repo = orgRepo(ctx, 'part', e.ctx);
    if (await repo.model.count({ where: repo.where({ carrierCodeId: row.carrierCodeId, parentCode: row.code }), transaction: e.transaction })) {
      throw new ApiError(ErrorCode.statusForbidden, 'rules.partHasChildren', { code: row.code });
    }
  });

  // Carrier bind orders.
  const carrierSn = async (call: RequestContext, id: unknown, t: Transaction) => {
    const repo = orgRepo(ctx, 'carrier', call);
    const row = await repo.model.findOne({ where: repo.where({ id: Number(id) }), transaction: t });
    return row ? String(row.get('sn')) : `#${id}`;
  };
  const bindOrder = async (call: RequestContext, id: unknown, t: Transaction) => {
    const repo = orgRepo(ctx, 'carrier-bind', call);
    return repo.model.findOne({ where: repo.where({ id: Number(id) }), transaction: t });
  };

  // 301: one unreleased (new) bind order per main carrier.
  const bindRules = async (e: HookEvent) => {
    const v = merged(e);
    if (e.previous && e.data?.carrierId === undefined) return;
    const repo = orgRepo(ctx, 'carrier-bind', e.ctx);
    const open = await repo.model.findOne({ where: repo.where({ carrierId: v.carrierId, status: BIND_NEW }, selfCondition(e)), transaction: e.transaction });
    if (open) throw new ApiError(ErrorCode.duplicate, 'rules.unreleasedBindExists', { sn: await carrierSn(e.ctx, v.carrierId, e.transaction), bindNo: open.get('bindNo'), importCode: 301 });
  };
  ctx.hooks.before('create', 'carrier-bind', bindRules);
  ctx.hooks.before('update', 'carrier-bind', bindRules);
  ctx.hooks.before('delete', 'carrier-bind', async (e) => {
    const details = orgRepo(ctx, 'carrier-bind-detail', e.ctx);
    await details.model.destroy({ where: details.where({ carrierBindId: e.row!.id }), transaction: e.transaction });
  });

  // Details: only while the order is new; not the main carrier; 300: not in another open order.
  const detailRules = async (e: HookEvent) => {
    const v = merged(e);
    const t = e.transaction;
    const order = await bindOrder(e.ctx, v.carrierBindId, t);
    if (!order) return; // the repository's ref check answers a missing order
    if (Number(order.get('status')) !== BIND_NEW) throw new ApiError(ErrorCode.statusForbidden, 'rules.bindNotEditable');
    if (Number(order.get('carrierId')) === Number(v.carrierId)) throw new ApiError(ErrorCode.validation, 'rules.bindSelf');
    const details = orgRepo(ctx, 'carrier-bind-detail', e.ctx);
    for (const d of await details.model.findAll({ where: details.where({ carrierId: v.carrierId }, selfCondition(e)), transaction: t })) {
      const other = await bindOrder(e.ctx, d.get('carrierBindId'), t);
      if (!other || Number(other.get('status')) === BIND_CLOSED) continue;
      throw new ApiError(ErrorCode.duplicate, 'rules.carrierAlreadyBound', { sn: await carrierSn(e.ctx, v.carrierId, t), main: await carrierSn(e.ctx, other.get('carrierId'), t), importCode: 300 });
    }
  };
  ctx.hooks.before('create', 'carrier-bind-detail', detailRules);
  ctx.hooks.before('update', 'carrier-bind-detail', detailRules);
  ctx.hooks.before('delete', 'carrier-bind-detail', async (e) => {
    const order = await bindOrder(e.ctx, e.row!.carrierBindId, e.transaction);
    if (order && Number(order.get('status')) !== BIND_NEW) throw new ApiError(ErrorCode.statusForbidden, 'rules.bindNotEditable');
  });

  // The order's total amount is the sum of its details' quantities.
  const recount = async (e: HookEvent) => {
    const ids = new Set([e.row?.carrierBindId, e.previous?.carrierBindId].filter((x) => x !== undefined && x !== null).map(Number));
    const details = orgRepo(ctx, 'carrier-bind-detail', e.ctx);
    const orders = orgRepo(ctx, 'carrier-bind', e.ctx);
    for (const id of ids) {
      const total = (await details.model.sum('qty', { where: details.where({ carrierBindId: id }), transaction: e.transaction })) || 0;
      await orders.model.update({ totalAmount: total }, { where: orders.where({ id }), transaction: e.transaction });
    }
  };
  for (const action of ['create', 'update', 'delete'] as const) ctx.hooks.after(action, 'carrier-bind-detail', recount);
}
