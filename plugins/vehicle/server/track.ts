/**
 * /jimi/history (a vehicle's track with stops, trips and the range's sums) and
 * /jimi/transport/order/list (its trips only). The track itself is the map plugin's history
 * (same scope, downsampling and stop detection); the sums are computed on every stored point.
 */
import type { Database } from '@rti/server';
import type {} from '@rti/plugin-map/api'; // types ctx.use('map')
import { invalid, type InputDecl, type InputOf, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { dailyReport, totalOf } from '../shared/report';
import { tripsOf } from '../shared/trips';
import type { VehicleHistoryAnswer } from '../shared/vehicle-answer';
import { parseRange } from './range';
import { gpsRows, storeOf, toPoint } from './telemetry';

export const MAX_TRACK_DAYS = 93;

/** a vehicle's track: by carrier or tracker, with the local calendar's offset (minutes east of UTC) for the daily sums */
export const TRACK_INPUT = {
  carrierId: { type: 'ref', label: 'fields.carrier' },
  gpsId: { type: 'ref', label: 'fields.gps' },
  tz: { type: 'int', min: -840, max: 840, default: 0 },
} as const satisfies InputDecl;

export async function vehicleHistory(
  ctx: PluginServerContext,
  db: Database,
  call: RequestContext,
  body: Record<string, unknown>,
  input: InputOf<typeof TRACK_INPUT>,
): Promise<VehicleHistoryAnswer> {
  const { from, to } = parseRange(body, 1, MAX_TRACK_DAYS);
  const { carrierId, gpsId } = input;
  if (carrierId === undefined && gpsId === undefined) throw invalid('required', 'sn');
  const store = storeOf(ctx);
  const h = await ctx.use('map').history(call, { carrierId, gpsId, from, to, mix: false });
  const rows = h.subject.gpsSn ? await gpsRows(store, call.orgId!, h.subject.gpsSn, from, to) : [];
  const summary = totalOf(dailyReport(rows.map(toPoint), { tzOffsetMin: input.tz }));
  return {
    subject: h.subject,
    from: h.from,
    to: h.to,
    track: h.track,
    events: h.events,
    stops: h.stops,
    total: h.total,
    trips: tripsOf(h.track, h.stops),
    summary,
  };
}

export async function vehicleTrips(
  ctx: PluginServerContext,
  db: Database,
  call: RequestContext,
  body: Record<string, unknown>,
  input: InputOf<typeof TRACK_INPUT>,
) {
  const h = await vehicleHistory(ctx, db, call, body, input);
  return { list: h.trips, total: h.trips.length, subject: h.subject };
}
