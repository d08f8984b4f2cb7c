/**
 * Request contexts a map call reads through. `/…/admin` calls of platform users span every
 * organisation the user belongs to — one scoped context per organisation, so each query still
 * goes through the scoped repository; anyone else gets the current organisation only.
 */
import { Op, type WhereOptions } from 'sequelize';
import { ApiError, ErrorCode, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';

export function contextsFor(call: RequestContext, admin: boolean): RequestContext[] {
  if (!admin || !call.user?.sysOrgUser) return [call];
  return call.orgIds.map((orgId) => ({ ...call, orgId }));
}

type Raw = Record<string, any>;

/**
 * Trackers a warehouse-restricted caller may see (issue 13 #9): those on no carrier, and those
 * on a carrier the caller's scoped carrier repository shows (its warehouses). Trackers carry no
 * warehouse of their own, so their carrier's decides — by either side of the binding (the
 * tracker's carrierId or the carrier's gpsId). Unrestricted callers get no condition. Every call
 * that returns a tracker's positions or track adds these to its device-gps query.
 */
export async function trackerScope(ctx: PluginServerContext, call: RequestContext): Promise<WhereOptions[]> {
  if (call.warehouseIds === null) return [];
  const visible = ((await ctx.repo('carrier', call).findAll({ attributes: ['id'], raw: true })) as unknown as Raw[]).map((c) => Number(c.id));
  // carriers of the organisation outside the caller's warehouses that name a tracker
  const others = (await ctx.repo('carrier', { ...call, warehouseIds: null }).findAll({
    attributes: ['gpsId'],
    where: { id: { [Op.notIn]: visible }, gpsId: { [Op.ne]: null } },
    raw: true,
  })) as unknown as Raw[];
  return [{ [Op.or]: [{ carrierId: null }, { carrierId: { [Op.in]: visible } }] }, { id: { [Op.notIn]: others.map((c) => Number(c.gpsId)) } }];
}

/** 10002 for a tracker outside the caller's warehouses, like a row of another organisation. */
export async function assertTrackerVisible(ctx: PluginServerContext, call: RequestContext, gpsId: unknown): Promise<void> {
  const scope = await trackerScope(ctx, call);
  if (!scope.length) return;
  if (!(await ctx.repo('device-gps', call).count({ [Op.and]: [{ id: Number(gpsId) }, ...scope] })))
    throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
}
