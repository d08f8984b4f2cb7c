/**
 * Vehicles: carriers whose carrier code is particular "vehicle" (SPEC §9, value 10), with the
 * GPS tracker fitted to them. One row per vehicle joins the carrier (labels), its tracker row,
 * the derived state (position, status, battery, trip) and the tracker's newest stored point
 * (speed, odometer). Every read goes through the caller's scoped repositories.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '@rti/server';
import type { InputDecl, InputOf, Paging, PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import { MOTION_CODE, motionOf, type Motion } from '../shared/vehicle-status';
import type { VehicleRow } from '../shared/vehicle-answer';
import { num, positionsOf, storeOf } from './telemetry';

type Raw = Record<string, any>;
export const PARTICULAR_VEHICLE = Enums.carrierCodeParticular.vehicle;
/** vehicles read per call at most (a fleet of trucks, not of boxes) */
const MAX_VEHICLES = 5000;

const likeOf = (s: string) => ({ [Op.like]: `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%` });
const iso = (t: number | null | undefined) => (t ? new Date(t).toISOString() : null);

/** Ids of the organisation's vehicle carrier codes. */
export async function vehicleCodeIds(ctx: PluginServerContext, call: RequestContext): Promise<number[]> {
  const rows = (await ctx.repo('carrier-code', call).findAll({ attributes: ['id'], where: { particular: PARTICULAR_VEHICLE }, raw: true })) as unknown as Raw[];
  return rows.map((r) => Number(r.id));
}

export interface VehicleFilter {
  carrierId?: number;
  sn?: string;
  projectId?: number;
  carrierCodeId?: number;
  motion?: Motion;
}

/** The vehicle calls' filter, declared (docs/PLUGINS.md "Declared call inputs"): validated and typed before the handler runs. */
export const VEHICLE_FILTER = {
  carrierId: { type: 'ref', label: 'fields.carrier' },
  sn: { type: 'string', maxLength: 256 },
  projectId: { type: 'ref', label: 'fields.project' },
  carrierCodeId: { type: 'ref', label: 'fields.carrierCode' },
  motion: { type: 'enum', values: ['moving', 'stopped', 'offline'] },
} as const satisfies InputDecl;
export type VehicleFilterInput = InputOf<typeof VEHICLE_FILTER>;

export function parseFilter(input: VehicleFilterInput): VehicleFilter {
  return {
    carrierId: input.carrierId,
    sn: input.sn?.trim() || undefined,
    projectId: input.projectId,
    carrierCodeId: input.carrierCodeId,
    motion: input.motion,
  };
}

/** Every vehicle of the caller's scope matching the filter, newest state joined. */
export async function vehicleRows(ctx: PluginServerContext, db: Database, call: RequestContext, f: VehicleFilter, now = Date.now()): Promise<VehicleRow[]> {
  const codes = await vehicleCodeIds(ctx, call);
  if (!codes.length) return [];
  const where: WhereOptions[] = [{ carrierCodeId: { [Op.in]: f.carrierCodeId !== undefined ? codes.filter((c) => c === f.carrierCodeId) : codes } }];
  if (f.carrierId !== undefined) where.push({ id: f.carrierId });
  if (f.projectId !== undefined) where.push({ projectId: f.projectId });
  if (f.sn) where.push({ [Op.or]: [{ sn: likeOf(f.sn) }, { name: likeOf(f.sn) }] });
  const carrierRepo = ctx.repo('carrier', call);
  const carriers = await carrierRepo.serialize(await carrierRepo.findAll({ where: { [Op.and]: where }, order: [['id', 'ASC']], limit: MAX_VEHICLES }));
  if (!carriers.length) return [];

  const gpsIds = carriers.map((c) => c.gpsId).filter((id): id is number => !!id);
  const trackers = gpsIds.length
    ? ((await ctx
        .repo('device-gps', call)
        .findAll({ attributes: ['id', 'sn', 'status', 'battery', 'lastReportTime'], where: { id: { [Op.in]: gpsIds } }, raw: true })) as unknown as Raw[])
    : [];
  const trackerById = new Map(trackers.map((g) => [Number(g.id), g]));
  const latest = new Map<string, Raw>();
  if (trackers.length) {
    try {
      for (const r of await storeOf(ctx).latest(
        'gps',
        call.orgId!,
        trackers.map((g) => String(g.sn)),
      ))
        latest.set(String(r.sn), r);
    } catch {
      // without the store the list still shows the state's figures (speed unknown)
    }
  }
  const whNames = new Map(
    ((await ctx.repo('warehouse', call).findAll({ attributes: ['id', 'name'], raw: true })) as unknown as Raw[]).map((w) => [Number(w.id), String(w.name)]),
  );
  const pos = positionsOf(ctx);

  const out: VehicleRow[] = [];
  for (const c of carriers) {
    const g = c.gpsId ? trackerById.get(Number(c.gpsId)) : undefined;
    const ds = g ? pos.device('gps', Number(g.id)) : undefined;
    const cs = pos.carrier(Number(c.id));
    const last = g ? latest.get(String(g.sn)) : undefined;
    const lng = ds?.longitude ?? cs?.longitude ?? num(last?.longitude);
    const lat = ds?.latitude ?? cs?.latitude ?? num(last?.latitude);
    const lastSeen = Math.max(ds?.lastSeen ?? 0, last?.time ?? 0, g?.lastReportTime ? Date.parse(g.lastReportTime) : 0) || null;
    const status = ds?.status || num(g?.status);
    const speed = num(last?.speed);
    const motion = g ? motionOf({ status, lastSeen, speed }, now) : 'offline';
    if (f.motion && motion !== f.motion) continue;
    const whId = cs ? cs.warehouseId : (c.warehouseId as number | null);
    out.push({
      id: Number(c.id),
      sn: String(c.sn),
      name: (c.name as string) ?? null,
      carrierCode: (c.carrierCodeIdLabel as string) ?? null,
      projectId: (c.projectId as number) ?? null,
      gpsId: g ? Number(g.id) : null,
      gpsSn: g ? String(g.sn) : null,
      lng: lng ?? null,
      lat: lat ?? null,
      speed,
      mileage: num(last?.mileage),
      motion,
      status: status ?? null,
      battery: ds?.battery ?? num(last?.battery) ?? num(g?.battery),
      lastSeen: iso(lastSeen),
      transportStatus: cs?.transportStatus ?? (c.transportStatus as number) ?? 0,
      warehouseId: whId ?? null,
      warehouse: whId ? (whNames.get(whId) ?? null) : null,
      departedFrom: cs?.departedFrom ? (whNames.get(cs.departedFrom) ?? null) : cs ? null : ((c.outboundWarehouseIdLabel as string) ?? null),
      departedAt: cs ? iso(cs.departedAt) : ((c.outboundTime as string) ?? null),
    });
  }
  return out;
}

export function countsOf(rows: readonly VehicleRow[]): Record<Motion, number> {
  const counts = { moving: 0, stopped: 0, offline: 0 };
  for (const r of rows) counts[r.motion]++;
  return counts;
}

/** /jimi/list: the vehicle table (paged after the motion filter) with the fleet's counts. */
export async function vehicleList(ctx: PluginServerContext, db: Database, call: RequestContext, input: VehicleFilterInput & Paging) {
  const f = parseFilter(input);
  const all = await vehicleRows(ctx, db, call, { ...f, motion: undefined });
  const rows = f.motion ? all.filter((r) => r.motion === f.motion) : all;
  return { list: rows.slice(input.offset, input.offset + input.limit), total: rows.length, counts: countsOf(all) };
}

/** /jimi/gps: every placed vehicle for the live monitor, as columns (motion as MOTION_CODE). */
export async function vehiclePositions(ctx: PluginServerContext, db: Database, call: RequestContext, input: VehicleFilterInput) {
  const all = await vehicleRows(ctx, db, call, { ...parseFilter(input), motion: undefined });
  const cols = {
    id: [] as number[],
    sn: [] as string[],
    gpsId: [] as (number | null)[],
    lng: [] as number[],
    lat: [] as number[],
    motion: [] as number[],
    speed: [] as (number | null)[],
    lastSeen: [] as (string | null)[],
  };
  let unplaced = 0;
  for (const r of all) {
    if (r.lng === null || r.lat === null) {
      unplaced++;
      continue;
    }
    cols.id.push(r.id);
    cols.sn.push(r.sn);
    cols.gpsId.push(r.gpsId);
    cols.lng.push(r.lng);
    cols.lat.push(r.lat);
    cols.motion.push(MOTION_CODE[r.motion]);
    cols.speed.push(r.speed);
    cols.lastSeen.push(r.lastSeen);
  }
  return { time: new Date().toISOString(), vehicles: cols, unplaced, counts: countsOf(all) };
}
