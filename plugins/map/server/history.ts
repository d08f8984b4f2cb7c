/**
 * /map/history (GPS track of a carrier's tracker or a tracker), /map/history/mix (beacon
 * sightings — placed at the sighting gateway's warehouse — merged with GPS points), their
 * /admin variants, and the xlsx export of the points. Columns, ascending time; long tracks are
 * downsampled (shape kept, stops and ends kept) to MAX_POINTS, sensors to MAX_SENSOR.
 */
import type { TelemetryStore, SeriesRow } from '@rti/ingest';
import { ApiError, ErrorCode, invalid, parseTimeRange, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { positionsOf } from './positions';
import { assertTrackerVisible, trackerScope } from './scope';
import { Op } from 'sequelize';
import { detectStops, downsample, pick, type Stop } from '@rti/common';

export const MAX_RANGE_DAYS = 93;
const MAX_ROWS = 200_000;
const MAX_POINTS = 5000;
const MAX_SENSOR = 5000;

type Raw = Record<string, any>;

export interface HistoryQuery {
  carrierId?: number;
  gpsId?: number;
  sn?: string;
  from: number;
  to: number;
  mix: boolean;
}

export interface HistoryAnswer {
  subject: {
    carrierId: number | null;
    carrierSn: string | null;
    carrierName: string | null;
    gpsSn: string | null;
    gpsName: string | null;
    beaconMac: string | null;
  };
  /** with an empty track only: the newest known position, whenever it was (the console offers it) */
  last: { t: number; lng: number; lat: number } | null;
  from: string;
  to: string;
  /** src: 1 GPS, 2 beacon (placed at the gateway's warehouse) */
  track: { t: number[]; lng: number[]; lat: number[]; speed: (number | null)[]; src: number[] };
  sensors: { t: number[]; temp: (number | null)[]; hum: (number | null)[]; shock: (number | null)[]; pres: (number | null)[] };
  events: Array<{ t: number; code: string; value: string | null; lng: number | null; lat: number | null }>;
  stops: Stop[];
  /** points before downsampling */
  total: number;
}

export function parseHistory(body: Record<string, unknown>, mix: boolean, now = Date.now()): HistoryQuery {
  // the server's one time-range parameter (the history exports are reports declaring the same)
  const { from, to } = parseTimeRange(body, { defaultDays: 10, maxDays: MAX_RANGE_DAYS }, now);
  const id = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v));
  const q: HistoryQuery = {
    carrierId: id(body.carrierId),
    gpsId: id(body.gpsId),
    sn: typeof body.sn === 'string' && body.sn ? body.sn : undefined,
    from,
    to,
    mix,
  };
  if (q.carrierId === undefined && q.gpsId === undefined && !q.sn) throw invalid('required', 'sn');
  return q;
}

async function rows(store: TelemetryStore, series: string, org: number, key: string, from: number, to: number): Promise<SeriesRow[]> {
  const out: SeriesRow[] = [];
  for (let page = 1; out.length < MAX_ROWS; page++) {
    const got = await store.query({ series, org, key, from, to, page, limit: 1000, order: 'asc' });
    out.push(...got.list);
    if (got.list.length < 1000) break;
  }
  return out;
}

async function subjectOf(ctx: PluginServerContext, call: RequestContext, q: HistoryQuery) {
  let carrier: Raw | null = null;
  let gps: Raw | null = null;
  let beacon: Raw | null = null;
  if (q.carrierId !== undefined) {
    carrier = await ctx.repo('carrier', call).get({ id: q.carrierId });
    if (carrier.gpsId) gps = await ctx.repo('device-gps', call).get({ id: carrier.gpsId });
    if (carrier.beaconId) beacon = await ctx.repo('device-beacon', call).get({ id: carrier.beaconId });
  } else if (q.gpsId !== undefined) {
    await assertTrackerVisible(ctx, call, q.gpsId);
    gps = await ctx.repo('device-gps', call).get({ id: q.gpsId });
  } else {
    const found = (await ctx
      .repo('device-gps', call)
      .findAll({ where: { [Op.and]: [{ sn: q.sn }, ...(await trackerScope(ctx, call))] }, raw: true })) as unknown as Raw[];
    if (found.length) gps = found[0];
    else {
      const cs = (await ctx.repo('carrier', call).findAll({ where: { sn: q.sn }, raw: true })) as unknown as Raw[];
      if (!cs.length) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      return subjectOf(ctx, call, { ...q, carrierId: cs[0].id, sn: undefined });
    }
  }
  return { carrier, gps, beacon };
}

/** The newest GPS point with a position (any time), else the derived state's last placement. */
async function lastPosition(
  ctx: PluginServerContext,
  store: TelemetryStore,
  org: number,
  carrier: Raw | null,
  gps: Raw | null,
): Promise<HistoryAnswer['last']> {
  if (gps) {
    const got = await store.query({ series: 'gps', org, key: String(gps.sn), page: 1, limit: 50, order: 'desc' });
    for (const r of got.list) {
      const lng = n(r.longitude);
      const lat = n(r.latitude);
      if (lng !== null && lat !== null) return { t: r.time, lng, lat };
    }
  }
  const pos = positionsOf(ctx);
  const c = carrier ? pos.carrier(Number(carrier.id)) : undefined;
  if (c?.longitude != null && c.latitude != null) return { t: c.placedAt, lng: c.longitude, lat: c.latitude };
  const g = gps ? pos.device('gps', Number(gps.id)) : undefined;
  if (g?.longitude != null && g.latitude != null && g.lastSeen) return { t: g.lastSeen, lng: g.longitude, lat: g.latitude };
  return null;
}

const canonicalMac = (m: string) => m.replace(/[^0-9a-f]/gi, '').toUpperCase();
const n = (v: unknown) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));

export async function history(ctx: PluginServerContext, store: TelemetryStore, call: RequestContext, q: HistoryQuery): Promise<HistoryAnswer> {
  const { carrier, gps, beacon } = await subjectOf(ctx, call, q);
  const org = call.orgId!;
  const pts: Array<{ t: number; lng: number; lat: number; speed: number | null; src: number }> = [];
  const sens: Array<{ t: number; temp: number | null; hum: number | null; shock: number | null; pres: number | null }> = [];
  const events: HistoryAnswer['events'] = [];
  if (gps) {
    for (const r of await rows(store, 'gps', org, String(gps.sn), q.from, q.to)) {
      const lng = n(r.longitude);
      const lat = n(r.latitude);
      if (r.dataType === 20 && r.eventCode) events.push({ t: r.time, code: String(r.eventCode), value: (r.eventValue as string) ?? null, lng, lat });
      else if (lng !== null && lat !== null) pts.push({ t: r.time, lng, lat, speed: n(r.speed), src: 1 });
      const s = { t: r.time, temp: n(r.temperature1), hum: n(r.humidity1), shock: n(r.acceleration), pres: n(r.pressure1) };
      if (s.temp !== null || s.hum !== null || s.shock !== null || s.pres !== null) sens.push(s);
    }
  }
  if (q.mix && beacon?.mac) {
    const gateways = new Map<string, number>();
    for (const kind of ['device-slave-gateway', 'device-master-gateway']) {
      for (const g of (await ctx.repo(kind, call).findAll({ attributes: ['mac', 'warehouseId'], raw: true })) as unknown as Raw[])
        if (g.mac && g.warehouseId) gateways.set(canonicalMac(g.mac), g.warehouseId);
    }
    const whs = (await ctx.repo('warehouse', call).findAll({ attributes: ['id', 'locationId'], raw: true })) as unknown as Raw[];
    const locs = new Map(
      ((await ctx.repo('location', call).findAll({ attributes: ['id', 'longitude', 'latitude'], raw: true })) as unknown as Raw[]).map((l) => [l.id, l]),
    );
    const place = new Map<number, [number, number]>();
    for (const w of whs) {
      const l = locs.get(w.locationId);
      if (l && n(l.longitude) !== null && n(l.latitude) !== null) place.set(w.id, [Number(l.longitude), Number(l.latitude)]);
    }
    let lastWh = -1;
    for (const r of await rows(store, 'beacon', org, canonicalMac(String(beacon.mac)), q.from, q.to)) {
      const s = { t: r.time, temp: n(r.temperature), hum: n(r.humidity), shock: null, pres: null };
      if (!gps && (s.temp !== null || s.hum !== null)) sens.push(s);
      const wh = gateways.get(String(r.gatewayMac));
      const p = wh !== undefined ? place.get(wh) : undefined;
      // one point per arrival at a warehouse (a beacon is heard every few seconds while there)
      if (!p || wh === lastWh) continue;
      lastWh = wh!;
      pts.push({ t: r.time, lng: p[0], lat: p[1], speed: null, src: 2 });
    }
    pts.sort((a, b) => a.t - b.t);
    sens.sort((a, b) => a.t - b.t);
  }
  const track = { t: pts.map((p) => p.t), lng: pts.map((p) => p.lng), lat: pts.map((p) => p.lat), speed: pts.map((p) => p.speed), src: pts.map((p) => p.src) };
  const stops = detectStops(track);
  const keep = new Set<number>();
  for (const s of stops) keep.add(s.from).add(s.to);
  for (let i = 1; i < track.src.length; i++) if (track.src[i] !== track.src[i - 1]) keep.add(i);
  const idx = downsample(track, MAX_POINTS, keep);
  const sensors = {
    t: sens.map((s) => s.t),
    temp: sens.map((s) => s.temp),
    hum: sens.map((s) => s.hum),
    shock: sens.map((s) => s.shock),
    pres: sens.map((s) => s.pres),
  };
  const sIdx = sens.length > MAX_SENSOR ? Array.from({ length: MAX_SENSOR }, (_, i) => Math.round((i * (sens.length - 1)) / (MAX_SENSOR - 1))) : null;
  return {
    subject: {
      carrierId: carrier?.id ?? null,
      carrierSn: carrier?.sn ?? null,
      carrierName: carrier?.name ?? null,
      gpsSn: gps?.sn ?? null,
      gpsName: gps?.name ?? null,
      beaconMac: beacon?.mac ?? null,
    },
    last: pts.length ? null : await lastPosition(ctx, store, org, carrier, gps),
    from: new Date(q.from).toISOString(),
    to: new Date(q.to).toISOString(),
    track: idx.length === track.t.length ? track : pick(track, idx),
    sensors: sIdx ? pick(sensors, sIdx) : sensors,
    events,
    stops,
    total: track.t.length,
  };
}
