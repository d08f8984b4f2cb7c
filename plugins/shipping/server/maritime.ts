/**
 * Maritime (SPEC §7 `/maritime/data`): where a vessel (a `/shipper` row: name, MMSI, IMO) is
 * and which sea shipments it carries, through a provider interface.
 *
 * - Embedded default (`trackers`): the vessel's position is derived from the GPS trackers
 *   travelling with its containers — the open ship orders on the vessel → their shipping-list
 *   lines with a container number → those carriers → their bound GPS trackers → the newest
 *   fix the telemetry engine holds. Nothing to configure.
 * - HTTP adapter (`ais`): with `AIS_URL` set, the position comes from an AIS data feed:
 *   `GET <AIS_URL>?mmsi=<mmsi>&imo=<imo>` (header `Authorization: Bearer <AIS_TOKEN>` when set,
 *   `AIS_TIMEOUT_MS`, default 5000) answering JSON with `latitude|lat`, `longitude|lon|lng`,
 *   optional `speed|sog`, `course|cog`, `time|timestamp`, `destination`, `eta`, `name`. A feed
 *   that fails or does not know the vessel falls back to the trackers (the answer says which
 *   source it used, and why the feed was not used).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
const Order = Enums.shipOrderStatus;
/** orders still at sea (or waiting to sail) on a vessel */
/** trackers looked at per vessel (the newest fix among them wins) */
const MAX_TRACKERS = 5000;

export interface Vessel {
  id: number;
  name: string;
  mmsi: string | null;
  imo: string | null;
}

export interface VesselPosition {
  longitude: number;
  latitude: number;
  /** epoch ms of the fix */
  time: number | null;
  speed?: number | null;
  course?: number | null;
  destination?: string | null;
  eta?: string | null;
  /** trackers: the tracker serial the fix came from */
  trackerSn?: string;
  /** trackers: how many trackers travel with the vessel's containers */
  trackers?: number;
}

/** Where a vessel is; null when the provider does not know. */
export interface VesselProvider {
  readonly name: string;
  position(vessel: Vessel, voyage: VoyageContext): Promise<VesselPosition | null>;
}

export interface VoyageContext {
  ctx: PluginServerContext;
  call: RequestContext;
  /** ids of the vessel's open ship orders */
  orderIds: number[];
}

/** The embedded default: the newest fix of the GPS trackers travelling with the vessel's containers. */
export const trackerProvider: VesselProvider = {
  name: 'trackers',
  async position(_vessel, { ctx, call, orderIds }) {
    if (!orderIds.length) return null;
    const lines = await ctx
      .repo('ship-order-detail', call)
      .rows(
        { shipOrderId: { [Op.in]: orderIds }, containerNo: { [Op.ne]: null }, status: Enums.shipOrderLineStatus.shipped },
        { attributes: ['carrierId'], limit: MAX_TRACKERS * 4 },
      );
    const carrierIds = [...new Set(lines.map((l) => Number(l.carrierId)))];
    if (!carrierIds.length) return null;
    const carriers = await ctx
      .repo('carrier', call)
      .rows({ id: { [Op.in]: carrierIds }, gpsId: { [Op.ne]: null } }, { attributes: ['gpsId'], limit: MAX_TRACKERS });
    const gpsIds = [...new Set(carriers.map((c) => Number(c.gpsId)))];
    if (!gpsIds.length) return null;
    const devices = await ctx.repo('device-gps', call).rows({ id: { [Op.in]: gpsIds } }, { attributes: ['id', 'sn'] });
    const telemetry = ctx.tryUse('telemetry');
    let best: VesselPosition | null = null;
    for (const d of devices) {
      const s = telemetry?.positions.device('gps', Number(d.id));
      if (!s || s.longitude === null || s.latitude === null) continue;
      if (!best || (s.lastSeen ?? 0) > (best.time ?? 0))
        best = { longitude: s.longitude, latitude: s.latitude, time: s.lastSeen || null, trackerSn: String(d.sn) };
    }
    return best ? { ...best, trackers: devices.length } : null;
  },
};

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

/** The AIS feed adapter (`AIS_URL`); see the module comment for the request and the answer. */
export function aisProvider(url: string, token?: string, timeoutMs = 5000): VesselProvider {
  return {
    name: 'ais',
    async position(vessel) {
      const u = new URL(url);
      if (vessel.mmsi) u.searchParams.set('mmsi', vessel.mmsi);
      if (vessel.imo) u.searchParams.set('imo', vessel.imo);
      const res = await fetch(u, {
        headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`AIS feed answered ${res.status}`);
      let body = (await res.json()) as Row;
      // feeds answer one object, a list, or { data: … }
      if (body && typeof body === 'object' && 'data' in body) body = body.data as Row;
      if (Array.isArray(body)) body = body[0];
      if (!body) return null;
      const latitude = num(body.latitude ?? body.lat);
      const longitude = num(body.longitude ?? body.lon ?? body.lng);
      if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
      const t = body.time ?? body.timestamp;
      const time = t === undefined || t === null ? null : typeof t === 'number' ? (t < 1e12 ? t * 1000 : t) : Date.parse(String(t)) || null;
      return {
        longitude,
        latitude,
        time,
        speed: num(body.speed ?? body.sog),
        course: num(body.course ?? body.cog),
        destination: body.destination ? String(body.destination).slice(0, 100) : null,
        eta: body.eta ? String(body.eta) : null,
      };
    },
  };
}

/** The configured providers, in the order they are asked (read per call: configuration can change without a restart in tests). */
export function configuredProviders(env: NodeJS.ProcessEnv = process.env): VesselProvider[] {
  const list: VesselProvider[] = [];
  if (env.AIS_URL) list.push(aisProvider(env.AIS_URL, env.AIS_TOKEN || undefined, Number(env.AIS_TIMEOUT_MS) || 5000));
  list.push(trackerProvider);
  return list;
}

export function installMaritime(ctx: PluginServerContext): void {
  ctx.addCall({
    path: '/maritime/data',
    // vessels are the /shipper rows: whoever may see them may ask where they are
    resource: 'shipper',
    async handler({ body, ctx: call }) {
      const b = (body ?? {}) as Row;
      const where: Row = {};
      if (b.vesselId !== undefined && b.vesselId !== null && b.vesselId !== '') where.id = b.vesselId;
      else if (b.mmsi) where.mmsi = String(b.mmsi);
      else if (b.imo) where.imo = String(b.imo);
      else throw invalid('required', 'mmsi');
      const [row] = await ctx.repo('shipper', call).rows(where, { attributes: ['id', 'name', 'mmsi', 'imo'], limit: 1 });
      if (!row) throw new ApiError(ErrorCode.notFound, 'shipping.maritime.vesselNotFound', { vessel: String(b.mmsi ?? b.imo ?? b.vesselId) });
      const vessel: Vessel = { id: Number(row.id), name: String(row.name), mmsi: row.mmsi ? String(row.mmsi) : null, imo: row.imo ? String(row.imo) : null };
      const orderRepo = ctx.repo('ship-order', call);
      const orders = await orderRepo.serialize(
        await orderRepo.findAll({ where: { vesselId: vessel.id, status: { [Op.in]: orderGroup('open') } }, order: [['id', 'DESC']], limit: 200 }),
      );
      const voyage = orders.map((o) => ({
        id: o.id,
        orderNo: o.orderNo,
        status: o.status,
        shipperWarehouseId: o.shipperWarehouseId,
        shipperWarehouseIdLabel: o.shipperWarehouseIdLabel,
        receiverWarehouseId: o.receiverWarehouseId,
        receiverWarehouseIdLabel: o.receiverWarehouseIdLabel,
        conveyanceNo: o.conveyanceNo,
        shipNum: o.shipNum,
        etd: o.etd,
        eta: o.eta,
        atd: o.atd,
        dueAt: o.dueAt,
        totalAmount: o.totalAmount,
      }));
      const vctx: VoyageContext = { ctx, call, orderIds: orders.map((o) => Number(o.id)) };
      let position: VesselPosition | null = null;
      let source: string | null = null;
      let feedError: string | undefined;
      for (const p of configuredProviders()) {
        try {
          position = await p.position(vessel, vctx);
        } catch (err) {
          // the feed is down or slow: the trackers still answer; the caller sees why
          feedError = ctx.t(call.language, 'shipping.maritime.feedFailed', { provider: p.name });
          ctx.log(`[shipping] vessel provider ${p.name} failed`, err);
          position = null;
        }
        if (position) {
          source = p.name;
          break;
        }
      }
      return {
        vessel,
        source,
        position: position ? { ...position, time: position.time ? new Date(position.time).toISOString() : null } : null,
        voyage,
        ...(feedError ? { feedError } : {}),
      };
    },
  });
}
