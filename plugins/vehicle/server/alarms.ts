/**
 * /jimi/list/alarm: alerts of the vehicles' trackers (GPS alert rows, newest first), over a
 * time range, optionally one vehicle's and by status. Rows come from the scoped repository
 * with their labels, like the generated alert list.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '@rti/server';
import type { InputDecl, InputOf, Paging, PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { parseRange } from './range';
import { VEHICLE_FILTER, parseFilter, vehicleRows } from './vehicles';

/** /jimi/list/alarm's parameters besides its time range: the vehicle filter and the alert status */
export const ALARM_INPUT = { ...VEHICLE_FILTER, status: { type: 'enum', enum: 'alertStatus' } } as const satisfies InputDecl;

export async function vehicleAlarms(
  ctx: PluginServerContext,
  db: Database,
  call: RequestContext,
  body: Record<string, unknown>,
  input: InputOf<typeof ALARM_INPUT> & Paging,
) {
  const { from, to } = parseRange(body, 7, 93);
  const vehicles = await vehicleRows(ctx, db, call, { ...parseFilter(input), motion: undefined });
  const bySn = new Map(vehicles.filter((v) => v.gpsId).map((v) => [v.gpsId!, v]));
  if (!bySn.size) return { list: [], total: 0 };
  const where: WhereOptions[] = [{ gpsId: { [Op.in]: [...bySn.keys()] } }, { reportTime: { [Op.between]: [new Date(from), new Date(to)] } }];
  if (input.status !== undefined) where.push({ status: input.status });
  const repo = ctx.repo('device-gps-alert', call);
  const { limit, offset } = input;
  const w = { [Op.and]: where };
  const [rows, total] = await Promise.all([
    repo.findAll({
      where: w,
      order: [
        ['reportTime', 'DESC'],
        ['id', 'DESC'],
      ],
      limit,
      offset,
    }),
    repo.count(w),
  ]);
  const list = (await repo.serialize(rows)).map((r) => ({
    ...r,
    vehicleId: bySn.get(Number(r.gpsId))?.id ?? null,
    vehicleSn: bySn.get(Number(r.gpsId))?.sn ?? null,
  }));
  return { list, total };
}
