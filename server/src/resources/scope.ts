/**
 * Tenancy in one place: the conditions every query of a resource carries for a caller.
 * Org-scoped rows: orgField = current organisation. The organisation resource itself
 * (orgField "id"): the caller's organisations. Warehouse-restricted callers: their warehouses.
 */
import type { ResourceDef } from '@rti/metadata';
import { Op, type WhereOptions } from 'sequelize';
import { orgFieldOf } from '../db/naming';
import type { RequestContext } from '../http/types';

export function scopeWhere(res: ResourceDef, ctx: RequestContext, opts: { warehouse?: boolean } = {}): WhereOptions {
  const and: WhereOptions[] = [];
  const orgField = orgFieldOf(res);
  if (orgField === 'id') and.push({ id: { [Op.in]: ctx.orgIds } });
  else if (orgField) and.push(ctx.orgId === null ? { id: { [Op.in]: [] } } : { [orgField]: ctx.orgId });
  if (opts.warehouse !== false && res.warehouseField && ctx.warehouseIds !== null) {
    and.push({ [res.warehouseField]: { [Op.in]: ctx.warehouseIds } });
  }
  return { [Op.and]: and };
}
