/**
 * /jimi/carrier/gps — the locating centre: find carriers by serial, name, carrier code,
 * beacon mac/serial or GPS serial and tell where each one is now. Position, in order:
 *   1. its own GPS tracker (derived state);
 *   2. the vehicle it is loaded on: the main carrier of an open carrier bind holding it, when
 *      that carrier has a GPS position;
 *   3. the gateway that heard its beacon last (that gateway's warehouse location);
 *   4. the warehouse it is booked in.
 * With `carrierId` the answer also holds its newest in/out records.
 */
import { Op } from 'sequelize';
import type { Database } from '@rti/server';
import { invalid, type InputDecl, type InputOf, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import type { LocatedCarrier } from '../shared/vehicle-answer';
import { num, positionsOf } from './telemetry';

type Raw = Record<string, any>;
const MAX_MATCHES = 50;
const BIND_CLOSED = Enums.carrierBindStatus.closed;

const canonicalMac = (m: string) => m.replace(/[^0-9a-f]/gi, '').toUpperCase();
const likeOf = (s: string) => ({ [Op.like]: `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%` });
const iso = (t: number) => (t > 0 ? new Date(t).toISOString() : null);

async function matchingCarrierIds(ctx: PluginServerContext, call: RequestContext, keyword: string): Promise<number[]> {
  const like = likeOf(keyword);
  const ids = (rows: Raw[], k = 'id') => rows.map((r) => Number(r[k])).filter(Boolean);
  const [byCarrier, codes, beacons, trackers] = await Promise.all([
    ctx.repo('carrier', call).findAll({ attributes: ['id'], where: { [Op.or]: [{ sn: like }, { name: like }] }, limit: MAX_MATCHES, raw: true }),
    ctx.repo('carrier-code', call).findAll({ attributes: ['id'], where: { code: like }, limit: MAX_MATCHES, raw: true }),
    ctx.repo('device-beacon', call).findAll({
      attributes: ['id'],
      where: { [Op.or]: [{ sn: like }, { mac: like }, { mac: likeOf(canonicalMac(keyword) || keyword) }] },
      limit: MAX_MATCHES,
      raw: true,
    }),
    ctx.repo('device-gps', call).findAll({ attributes: ['id'], where: { sn: like }, limit: MAX_MATCHES, raw: true }),
  ]);
  const or: Raw[] = [];
  if (codes.length) or.push({ carrierCodeId: { [Op.in]: ids(codes as unknown as Raw[]) } });
  if (beacons.length) or.push({ beaconId: { [Op.in]: ids(beacons as unknown as Raw[]) } });
  if (trackers.length) or.push({ gpsId: { [Op.in]: ids(trackers as unknown as Raw[]) } });
  const found = new Set(ids(byCarrier as unknown as Raw[]));
  if (or.length)
    for (const r of (await ctx
      .repo('carrier', call)
      .findAll({ attributes: ['id'], where: { [Op.or]: or }, order: [['id', 'ASC']], limit: MAX_MATCHES, raw: true })) as unknown as Raw[])
      found.add(Number(r.id));
  return [...found].sort((a, b) => a - b).slice(0, MAX_MATCHES);
}

/** one carrier by id, or the carriers a typed serial, beacon, tracker or code matches */
export const LOCATE_INPUT = { carrierId: { type: 'ref', label: 'fields.carrier' }, keyword: { type: 'string', maxLength: 256 } } as const satisfies InputDecl;

export async function locate(
  ctx: PluginServerContext,
  db: Database,
  call: RequestContext,
  input: InputOf<typeof LOCATE_INPUT>,
): Promise<{ list: LocatedCarrier[]; total: number }> {
  const carrierId = input.carrierId;
  const keyword = input.keyword?.trim() ?? '';
  if (carrierId === undefined && !keyword) throw invalid('required', 'sn');
  let ids: number[];
  if (carrierId !== undefined) {
    await ctx.repo('carrier', call).find(carrierId); // 10002 outside the caller's scope
    ids = [carrierId];
  } else ids = await matchingCarrierIds(ctx, call, keyword);
  if (!ids.length) return { list: [], total: 0 };

  const carrierRepo = ctx.repo('carrier', call);
  const carriers = await carrierRepo.serialize(await carrierRepo.findAll({ where: { id: { [Op.in]: ids } }, order: [['id', 'ASC']] }));
  const byIds = async (resource: string, field: string, attrs: string[]) => {
    const want = carriers.map((c) => c[field]).filter(Boolean);
    if (!want.length) return new Map<number, Raw>();
    const rows = (await ctx.repo(resource, call).findAll({ attributes: attrs, where: { id: { [Op.in]: want } }, raw: true })) as unknown as Raw[];
    return new Map(rows.map((r) => [Number(r.id), r]));
  };
  const [beacons, trackers] = await Promise.all([
    byIds('device-beacon', 'beaconId', ['id', 'sn', 'mac', 'battery', 'lastReportTime']),
    byIds('device-gps', 'gpsId', ['id', 'sn', 'battery', 'lastReportTime']),
  ]);

  // places: warehouses with their locations, gateways by mac
  const locs = new Map(
    ((await ctx.repo('location', call).findAll({ attributes: ['id', 'longitude', 'latitude'], raw: true })) as unknown as Raw[]).map((l) => [Number(l.id), l]),
  );
  const warehouses = new Map<number, { name: string; lng: number | null; lat: number | null }>();
  for (const w of (await ctx.repo('warehouse', call).findAll({ attributes: ['id', 'name', 'locationId'], raw: true })) as unknown as Raw[]) {
    const l = locs.get(Number(w.locationId));
    warehouses.set(Number(w.id), { name: String(w.name), lng: num(l?.longitude), lat: num(l?.latitude) });
  }
  const gateways = new Map<string, Raw & { kind: 'slave' | 'master' }>();
  for (const kind of ['slave', 'master'] as const) {
    for (const g of (await ctx
      .repo(`device-${kind}-gateway`, call)
      .findAll({ attributes: ['sn', 'name', 'mac', 'warehouseId', 'purpose'], raw: true })) as unknown as Raw[]) {
      if (g.mac) gateways.set(canonicalMac(String(g.mac)), { ...g, kind });
    }
  }
  // open binds holding these carriers → the main carrier (the vehicle)
  const details = (await ctx
    .repo('carrier-bind-detail', call)
    .findAll({ attributes: ['carrierId', 'carrierBindId'], where: { carrierId: { [Op.in]: ids } }, order: [['id', 'DESC']], raw: true })) as unknown as Raw[];
  const binds = details.length
    ? ((await ctx.repo('carrier-bind', call).findAll({
        attributes: ['id', 'carrierId', 'status'],
        where: { id: { [Op.in]: details.map((d) => d.carrierBindId) }, status: { [Op.ne]: BIND_CLOSED } },
        raw: true,
      })) as unknown as Raw[])
    : [];
  const mainOfBind = new Map(binds.map((b) => [Number(b.id), Number(b.carrierId)]));
  const mainOf = new Map<number, number>();
  for (const d of details) {
    const m = mainOfBind.get(Number(d.carrierBindId));
    if (m && m !== Number(d.carrierId) && !mainOf.has(Number(d.carrierId))) mainOf.set(Number(d.carrierId), m);
  }
  const mains = mainOf.size
    ? ((await ctx
        .repo('carrier', call)
        .findAll({ attributes: ['id', 'sn', 'gpsId'], where: { id: { [Op.in]: [...new Set(mainOf.values())] } }, raw: true })) as unknown as Raw[])
    : [];
  const mainById = new Map(mains.map((m) => [Number(m.id), m]));

  const pos = positionsOf(ctx);
  const gpsPosition = (carrier: number, gpsId: number | null) => {
    const g = gpsId ? pos.device('gps', gpsId) : undefined;
    if (g?.longitude != null && g.latitude != null) return { lng: g.longitude, lat: g.latitude, seen: g.lastSeen };
    const s = pos.carrier(carrier);
    // a carrier's state position is written by its own GPS only
    if (gpsId && s?.longitude != null && s.latitude != null) return { lng: s.longitude, lat: s.latitude, seen: 0 };
    return null;
  };

  const list: LocatedCarrier[] = carriers.map((c) => {
    const id = Number(c.id);
    const beacon = c.beaconId ? beacons.get(Number(c.beaconId)) : undefined;
    const tracker = c.gpsId ? trackers.get(Number(c.gpsId)) : undefined;
    const bs = beacon ? pos.device('beacon', Number(beacon.id)) : undefined;
    const cs = pos.carrier(id);
    const gw = bs?.gatewayMac ? gateways.get(canonicalMac(bs.gatewayMac)) : undefined;
    const whId = (cs ? cs.warehouseId : (c.warehouseId as number | null)) ?? (gw?.warehouseId ? Number(gw.warehouseId) : null);
    const wh = whId ? warehouses.get(whId) : undefined;
    const seen = [
      bs?.lastSeen ?? 0,
      tracker?.lastReportTime ? Date.parse(tracker.lastReportTime) : 0,
      beacon?.lastReportTime ? Date.parse(beacon.lastReportTime) : 0,
    ];
    const out: LocatedCarrier = {
      id,
      sn: String(c.sn),
      name: (c.name as string) ?? null,
      carrierCode: (c.carrierCodeIdLabel as string) ?? null,
      transportStatus: cs?.transportStatus ?? (c.transportStatus as number) ?? 0,
      source: null,
      lng: null,
      lat: null,
      warehouse: wh && whId ? { id: whId, name: wh.name } : null,
      gateway: gw
        ? { sn: String(gw.sn), name: (gw.name as string) ?? null, mac: String(gw.mac), purpose: (gw.purpose as number) ?? null, kind: gw.kind }
        : null,
      vehicle: null,
      beacon: beacon ? { sn: String(beacon.sn), mac: (beacon.mac as string) ?? null, battery: bs?.battery ?? num(beacon.battery) } : null,
      gps: tracker ? { sn: String(tracker.sn), battery: pos.device('gps', Number(tracker.id))?.battery ?? num(tracker.battery) } : null,
      lastSeen: null,
    };
    const own = gpsPosition(id, c.gpsId ? Number(c.gpsId) : null);
    const main = mainOf.has(id) ? mainById.get(mainOf.get(id)!) : undefined;
    const onVehicle = !own && main ? gpsPosition(Number(main.id), main.gpsId ? Number(main.gpsId) : null) : null;
    const gwWh = gw?.warehouseId ? warehouses.get(Number(gw.warehouseId)) : undefined;
    if (own) (Object.assign(out, { source: 'gps', lng: own.lng, lat: own.lat }), seen.push(own.seen));
    else if (onVehicle && main)
      (Object.assign(out, { source: 'vehicle', lng: onVehicle.lng, lat: onVehicle.lat, vehicle: { id: Number(main.id), sn: String(main.sn) } }),
        seen.push(onVehicle.seen));
    else if (gwWh?.lng != null && gwWh.lat != null) Object.assign(out, { source: 'gateway', lng: gwWh.lng, lat: gwWh.lat });
    else if (wh?.lng != null && wh.lat != null) Object.assign(out, { source: 'warehouse', lng: wh.lng, lat: wh.lat });
    out.lastSeen = iso(Math.max(...seen));
    return out;
  });

  if (carrierId !== undefined && list.length) {
    const rows = await ctx.repo('carrier-inout', call).serialize(
      await ctx.repo('carrier-inout', call).findAll({
        where: { carrierId },
        order: [
          ['confirmTime', 'DESC'],
          ['id', 'DESC'],
        ],
        limit: 10,
      }),
    );
    list[0].recent = rows.map((r) => ({
      direction: Number(r.direction),
      warehouse: (r.warehouseIdLabel as string) ?? null,
      time: (r.confirmTime as string) ?? null,
      shipOrderNo: (r.shipOrderNo as string) ?? null,
    }));
  }
  return { list, total: list.length };
}
