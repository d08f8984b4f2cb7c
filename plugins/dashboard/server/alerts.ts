/**
 * The five alert resources as the dashboard reads them: per-day trend and the newest
 * messages. Each resource's time column differs (GPS alerts carry the tracker's report time).
 */
import { Op } from 'sequelize';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import { lastDays } from './group-count';

export const ALERT_SOURCES = [
  { category: 'carrier', resource: 'carrier-alert', sn: 'carrierSn', time: 'createdTime', reason: 'reason' },
  { category: 'beacon', resource: 'device-beacon-alert', sn: 'beaconSn', time: 'createdTime', reason: 'reason' },
  { category: 'gps', resource: 'device-gps-alert', sn: 'gpsSn', time: 'reportTime', reason: 'code' },
  { category: 'slaveGateway', resource: 'device-slave-gateway-alert', sn: 'slaveGatewaySn', time: 'createdTime', reason: 'reason' },
  { category: 'masterGateway', resource: 'device-master-gateway-alert', sn: 'masterGatewaySn', time: 'createdTime', reason: 'reason' },
] as const;

export const UNSOLVED = Enums.alertStatus.unsolved;

export interface AlertTrend {
  days: string[];
  series: Array<{ category: string; values: number[] }>;
}

export async function alertTrend(ctx: PluginServerContext, call: RequestContext, days = 14, now = Date.now()): Promise<AlertTrend> {
  const axis = lastDays(days, now);
  const from = new Date(`${axis[0]}T00:00:00.000Z`);
  const series = [];
  for (const a of ALERT_SOURCES) {
    if (!ctx.metadata.resources[a.resource]) continue;
    const byDay = await ctx.repo(a.resource, call).countByDay(a.time, { [a.time]: { [Op.gte]: from } });
    series.push({ category: a.category, values: axis.map((d) => byDay.get(d) ?? 0) });
  }
  return { days: axis, series };
}

export interface AlertMessage {
  category: string;
  id: number;
  sn: string;
  reason: string | number | null;
  message: string | null;
  warehouse: string | null;
  time: string;
  status: number;
}

/** the newest alerts of every category, merged newest first */
export async function alertMessages(
  ctx: PluginServerContext,
  call: RequestContext,
  limit: number,
  unsolvedOnly: boolean,
): Promise<{ list: AlertMessage[]; unsolved: Record<string, number> }> {
  const list: AlertMessage[] = [];
  const unsolved: Record<string, number> = {};
  for (const a of ALERT_SOURCES) {
    if (!ctx.metadata.resources[a.resource]) continue;
    const repo = ctx.repo(a.resource, call);
    unsolved[a.category] = await repo.count({ status: UNSOLVED });
    const rows = await repo.serialize(
      await repo.findAll({
        where: unsolvedOnly ? { status: UNSOLVED } : undefined,
        order: [
          [a.time, 'DESC'],
          ['id', 'DESC'],
        ],
        limit,
      }),
    );
    for (const r of rows) {
      list.push({
        category: a.category,
        id: Number(r.id),
        sn: String(r[a.sn] ?? ''),
        reason: (r[a.reason] as string | number | null) ?? null,
        message: (r.message as string | null) ?? null,
        warehouse: (r.warehouseIdLabel as string | undefined) ?? null,
        time: new Date(r[a.time] as string).toISOString(),
        status: Number(r.status),
      });
    }
  }
  list.sort((x, y) => y.time.localeCompare(x.time) || y.id - x.id);
  return { list: list.slice(0, limit), unsolved };
}
