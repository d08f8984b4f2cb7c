/**
 * /map/history/screen/shot: what the report-mail screenshot pages draw — every tracker of the
 * caller's scope (or the listed ones) with points in the range: its track, thinned to
 * SHOT_POINTS for a still picture, its stops and its last fix.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '@rti/server';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { detectStops, downsample, pick } from '@rti/common';
import type { ScreenShotAnswer, ScreenShotTrack } from '../shared/vehicle-answer';
import { carrierSnByTracker, trackerScope } from './carriers-of';
import { parseRange } from './range';
import { gpsRows, storeOf, toPoint } from './telemetry';

type Raw = Record<string, any>;
const SHOT_POINTS = 600;
const MAX_TRACKERS = 200;
/** rows read per tracker: a still picture does not need a month of one-second fixes */
const MAX_ROWS = 20_000;

function listOf(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const arr = (Array.isArray(v) ? v : String(v).split(',')).map((s) => String(s).trim()).filter(Boolean);
  return arr.length ? arr : undefined;
}

export async function screenShot(ctx: PluginServerContext, db: Database, call: RequestContext, body: Record<string, unknown>): Promise<ScreenShotAnswer> {
  const { from, to } = parseRange(body, 1, 31);
  const where: WhereOptions[] = [];
  const sns = listOf(body.sn);
  const ids = listOf(body.gpsId)?.map(Number).filter(Number.isInteger);
  if (sns) where.push({ sn: { [Op.in]: sns } });
  if (ids?.length) where.push({ id: { [Op.in]: ids } });
  where.push(...(await trackerScope(ctx, call)));
  const repo = ctx.repo('device-gps', call);
  const trackers = await repo.serialize(await repo.findAll({ where: { [Op.and]: where }, order: [['sn', 'ASC']], limit: MAX_TRACKERS }));
  const carrierSn = await carrierSnByTracker(ctx, call, trackers);
  const store = storeOf(ctx);
  const tracks: ScreenShotTrack[] = [];
  for (const g of trackers as Raw[]) {
    const pts = (await gpsRows(store, call.orgId!, String(g.sn), from, to, MAX_ROWS)).map(toPoint).filter((p) => p.lng !== null && p.lat !== null);
    if (!pts.length) continue;
    const full = { t: pts.map((p) => p.t), lng: pts.map((p) => p.lng!), lat: pts.map((p) => p.lat!) };
    const stops = detectStops(full);
    const keep = new Set<number>();
    for (const s of stops) keep.add(s.from).add(s.to);
    const small = pick(full, downsample(full, SHOT_POINTS, keep));
    const last = pts[pts.length - 1];
    tracks.push({
      gpsId: Number(g.id),
      sn: String(g.sn),
      carrierSn: carrierSn.get(Number(g.id)) ?? null,
      lng: small.lng,
      lat: small.lat,
      stops,
      last: { t: last.t, lng: last.lng!, lat: last.lat!, speed: last.speed },
    });
  }
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), tracks };
}
