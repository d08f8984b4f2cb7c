/**
 * What the vehicle calls read from the telemetry plugin (a declared dependency): its store
 * (GPS points) and the derived state (last positions, read-only).
 */
import type { SeriesRow, TelemetryStore } from '@rti/ingest';
import type { PluginServerContext } from '@rti/server/plugin-api';
import type { Positions } from '@rti/plugin-telemetry/api';
import type { GpsPoint } from '../shared/report';

export type { Positions };

/** The telemetry store, or 503 while telemetry is starting or off. */
export const storeOf = (ctx: PluginServerContext): TelemetryStore => ctx.use('telemetry').requireStore();

export const positionsOf = (ctx: PluginServerContext): Positions => ctx.use('telemetry').positions;

/** At most this many points of one device per call (about 70 days at one fix a minute). */
export const MAX_DEVICE_ROWS = 100_000;

/** A device's GPS rows in a time range, ascending. */
export async function gpsRows(store: TelemetryStore, org: number, sn: string, from: number, to: number, max = MAX_DEVICE_ROWS): Promise<SeriesRow[]> {
  const out: SeriesRow[] = [];
  for (let page = 1; out.length < max; page++) {
    const got = await store.query({ series: 'gps', org, key: sn, from, to, page, limit: 1000, order: 'asc' });
    out.push(...got.list);
    if (got.list.length < 1000) break;
  }
  return out;
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

export function toPoint(r: SeriesRow): GpsPoint {
  return {
    t: r.time,
    lng: num(r.longitude),
    lat: num(r.latitude),
    speed: num(r.speed),
    mileage: num(r.mileage),
    temp: num(r.temperature1),
    dataType: num(r.dataType),
  };
}

export { num };
