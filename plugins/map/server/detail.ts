/**
 * /map/log: the detail card of one map point — carrier (with labels), its beacon and GPS
 * tracker (battery, status, last report), position and place, open alerts and recent log.
 */
import type { Database } from '@rti/server';
import { invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { positionsOf } from './positions';
import { assertTrackerVisible } from './scope';

type Raw = Record<string, any>;
const UNHANDLED = 0;

/** names asked for at once (the console's list of points stacked at one position) */
export const MAX_NAMED_POINTS = 200;

/** Serial and name of several points (`points: [{ kind: 1 | 2, id }]`), through the scoped repositories. */
async function pointNames(ctx: PluginServerContext, call: RequestContext, points: unknown[]) {
  if (points.length > MAX_NAMED_POINTS) throw invalid('valueBetween', 'id', { min: 1, max: MAX_NAMED_POINTS });
  const ids = (kind: number) =>
    points.flatMap((p) => (p && typeof p === 'object' && (p as Raw).kind === kind && Number.isInteger((p as Raw).id) ? [(p as Raw).id as number] : []));
  const named = async (kind: number, resource: string) => {
    const wanted = ids(kind);
    if (!wanted.length) return [];
    const rows = (await ctx.repo(resource, call).findAll({ where: { id: wanted }, attributes: ['id', 'sn', 'name'], raw: true })) as unknown as Raw[];
    return rows.map((r) => ({ kind, id: r.id, sn: r.sn, name: r.name ?? null }));
  };
  return { list: [...(await named(1, 'carrier')), ...(await named(2, 'device-gps'))] };
}

export async function mapDetail(ctx: PluginServerContext, db: Database, call: RequestContext, body: Record<string, unknown>) {
  if (Array.isArray(body.points)) return pointNames(ctx, call, body.points);
  const pos = positionsOf(ctx);
  const pickDevice = (d: Raw | null) =>
    d ? { id: d.id, sn: d.sn, mac: d.mac ?? null, battery: d.battery ?? null, status: d.status ?? null, lastReportTime: d.lastReportTime ?? null } : null;
  if (body.carrierId !== undefined && body.carrierId !== null) {
    const carrier = await ctx.repo('carrier', call).get({ id: body.carrierId });
    const [beacon, gps] = await Promise.all([
      carrier.beaconId
        ? ctx
            .repo('device-beacon', call)
            .get({ id: carrier.beaconId })
            .catch(() => null)
        : null,
      carrier.gpsId
        ? ctx
            .repo('device-gps', call)
            .get({ id: carrier.gpsId })
            .catch(() => null)
        : null,
    ]);
    const s = pos.carrier(Number(carrier.id));
    const g = gps ? pos.device('gps', Number(gps.id)) : undefined;
    const alerts = (await ctx
      .repo('carrier-alert', call)
      .findAll({ where: { carrierId: carrier.id, status: UNHANDLED }, order: [['id', 'DESC']], limit: 10, raw: true })) as unknown as Raw[];
    const gpsAlerts = gps
      ? ((await ctx
          .repo('device-gps-alert', call)
          .findAll({ where: { gpsId: gps.id, status: UNHANDLED }, order: [['id', 'DESC']], limit: 10, raw: true })) as unknown as Raw[])
      : [];
    const log = (await ctx
      .repo('carrier-log', call)
      .findAll({ where: { carrierId: carrier.id }, order: [['id', 'DESC']], limit: 5, raw: true })) as unknown as Raw[];
    const lastSeen = Math.max(s?.placedAt ?? 0, ...[beacon, gps].map((d) => (d?.lastReportTime ? Date.parse(d.lastReportTime as string) : 0)));
    return {
      kind: 'carrier',
      carrier,
      beacon: pickDevice(beacon),
      gps: pickDevice(gps),
      position: s?.longitude != null ? { lng: s.longitude, lat: s.latitude } : g?.longitude != null ? { lng: g.longitude, lat: g.latitude } : null,
      transportStatus: s?.transportStatus ?? carrier.transportStatus ?? 0,
      warehouse: carrier.warehouseIdLabel ?? null,
      lastSeen: lastSeen ? new Date(lastSeen).toISOString() : null,
      alerts: [
        ...alerts.map((a) => ({ category: 'carrier', reason: a.reason, message: a.message, time: a.createdTime })),
        ...gpsAlerts.map((a) => ({ category: 'gps', code: a.code, message: a.message, time: a.reportTime })),
      ],
      log: log.map((l) => ({ event: l.event, oldValue: l.oldValue, newValue: l.newValue, time: l.time })),
    };
  }
  if (body.gpsId !== undefined && body.gpsId !== null) {
    await assertTrackerVisible(ctx, call, body.gpsId);
    const gps = await ctx.repo('device-gps', call).get({ id: body.gpsId });
    const g = pos.device('gps', Number(gps.id));
    const alerts = (await ctx
      .repo('device-gps-alert', call)
      .findAll({ where: { gpsId: gps.id, status: UNHANDLED }, order: [['id', 'DESC']], limit: 10, raw: true })) as unknown as Raw[];
    return {
      kind: 'gps',
      carrier: null,
      beacon: null,
      gps: pickDevice(gps),
      position: g?.longitude != null ? { lng: g.longitude, lat: g.latitude } : null,
      transportStatus: null,
      warehouse: null,
      lastSeen: gps.lastReportTime ?? null,
      alerts: alerts.map((a) => ({ category: 'gps', code: a.code, message: a.message, time: a.reportTime })),
      log: [],
    };
  }
  throw invalid('required', 'sn');
}
