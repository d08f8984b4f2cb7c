/**
 * Tenancy in one place: the conditions every query of a resource carries for a caller.
 * Org-scoped rows: orgField = current organisation. The organisation resource itself
 * (orgField "id"): the caller's organisations. Warehouse-restricted callers: their warehouses —
 * through any of the resource's warehouse fields (a transfer between two warehouses is seen
 * by a user of either).
 */
import type { ResourceDef } from '@rti/metadata';
import { Op, type WhereOptions } from 'sequelize';
import { orgFieldOf } from '../db/naming';
import type { RequestContext } from '../http/types';

/** The resource's warehouse fields (`warehouseField`: one name or several). */
export function warehouseFieldsOf(res: ResourceDef): string[] {
  const wf = res.warehouseField;
  return wf === undefined ? [] : Array.isArray(wf) ? wf : [wf];
}

export function scopeWhere(res: ResourceDef, ctx: RequestContext, opts: { warehouse?: boolean } = {}): WhereOptions {
  const and: WhereOptions[] = [];
  const orgField = orgFieldOf(res);
  if (orgField === 'id') and.push({ id: { [Op.in]: ctx.orgIds } });
  else if (orgField) and.push(ctx.orgId === null ? { id: { [Op.in]: [] } } : { [orgField]: ctx.orgId });
  const fields = warehouseFieldsOf(res);
  if (opts.warehouse !== false && fields.length && ctx.warehouseIds !== null) {
    const inWarehouses = fields.map((f) => ({ [f]: { [Op.in]: ctx.warehouseIds } }));
    and.push(inWarehouses.length === 1 ? inWarehouses[0] : { [Op.or]: inWarehouses });
  }
  return { [Op.and]: and };
}

/**
 * Whether a restricted caller may write these values: the warehouse fields they set (not null)
 * must include one of the caller's warehouses. Answers the field to name in the refusal, or
 * null. Values without warehouse fields, and unrestricted callers, always pass.
 */
export function warehouseRefusal(res: ResourceDef, ctx: RequestContext, values: Record<string, unknown>): string | null {
  const allowed = ctx.warehouseIds;
  if (allowed === null) return null;
  const set = warehouseFieldsOf(res).filter((f) => f !== 'id' && values[f] !== null && values[f] !== undefined);
  if (!set.length) return null;
  const inScope = (f: string) => (Array.isArray(values[f]) ? (values[f] as unknown[]) : [values[f]]).every((id) => allowed.includes(Number(id)));
  return set.some(inScope) ? null : set[0];
}

/**
 * The scope a reference of `res.field` must exist in: the target's, except that a row between
 * warehouses (several warehouse fields) may name any warehouse of the organisation in the
 * fields beyond the caller's own (a transfer to another warehouse); warehouseRefusal still
 * wants one of the row's warehouses to be the caller's.
 */
export function refScopeWhere(res: ResourceDef, field: string, target: ResourceDef, ctx: RequestContext): WhereOptions {
  const fields = warehouseFieldsOf(res);
  return scopeWhere(target, ctx, { warehouse: !(fields.length > 1 && fields.includes(field)) });
}
