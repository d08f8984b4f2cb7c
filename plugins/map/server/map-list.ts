/**
 * /map/list and /map/list/admin: every carrier and GPS tracker at its last known position,
 * answered as columns (one array per field, ids delta-encoded) with only what the map draws;
 * the detail card asks /map/log for the rest. Plus warehouses shown on the map (with fence
 * radius when fenceVisibleInMap) and routes with needDrawLine.
 *
 * Position, in order: the carrier's derived state (telemetry engine), its GPS tracker's state,
 * the location of the warehouse it is in. Rows without any position are counted, not sent.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '@rti/server';
import type { PluginServerContext, RequestContext, ScopedRepository } from '@rti/server/plugin-api';
import { positionsOf } from './positions';
import { contextsFor } from './scope';
import type { MapListAnswer, MapRoute, MapWarehouse } from '../shared/map-answer';

type Raw = Record<string, any>;

/**
 * Rows of a scoped repository as plain objects straight from the driver (driverRows: the
 * scoped SELECT without Sequelize's ~10 µs per-row result handling, which at 100,000 carriers
 * is most of the call).
 */
const scopedRows = (repo: ScopedRepository, attributes: string[], extra: WhereOptions[]): Promise<Raw[]> => repo.driverRows(attributes, { [Op.and]: extra });

export type { MapListAnswer, MapRoute, MapWarehouse } from '../shared/map-answer';

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

function list(v: unknown): number[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const arr = (Array.isArray(v) ? v : [v]).map(Number).filter(Number.isFinite);
  return arr.length ? arr : undefined;
}

export function carrierFilter(body: Record<string, unknown>): WhereOptions[] {
  const where: WhereOptions[] = [];
  const add = (field: string, v: unknown) => {
    const l = list(v);
    if (l) where.push({ [field]: { [Op.in]: l } });
  };
  add('projectId', body.projectId);
  add('carrierCodeId', body.carrierCodeId);
  add('warehouseId', body.warehouseId);
  if (typeof body.sn === 'string' && body.sn.trim()) where.push({ sn: { [Op.like]: `%${body.sn.trim().replace(/[\\%_]/g, (c) => '\\' + c)}%` } });
  return where;
}

async function placesOf(ctx: PluginServerContext, call: RequestContext) {
  const [warehouses, locations] = await Promise.all([
    ctx.repo('warehouse', call).findAll({ attributes: ['id', 'orgId', 'name', 'locationId', 'color', 'visibleInMap', 'fenceVisibleInMap'], raw: true }),
    ctx.repo('location', call).findAll({ attributes: ['id', 'longitude', 'latitude', 'fenceRadius'], raw: true }),
  ]);
  const loc = new Map((locations as unknown as Raw[]).map((l) => [l.id, l]));
  const byId = new Map<number, { lng: number; lat: number; row: Raw; radius: number | null }>();
  for (const w of warehouses as unknown as Raw[]) {
    const l = loc.get(w.locationId);
    const lng = num(l?.longitude);
    const lat = num(l?.latitude);
    if (lng === null || lat === null) continue;
    byId.set(w.id, { lng, lat, row: w, radius: num(l?.fenceRadius) });
  }
  return byId;
}

export async function mapList(
  ctx: PluginServerContext,
  db: Database,
  call: RequestContext,
  body: Record<string, unknown>,
  admin: boolean,
): Promise<MapListAnswer> {
  const pos = positionsOf(ctx);
  const out: MapListAnswer = {
    time: new Date().toISOString(),
    carriers: { id: [], lng: [], lat: [], st: [] },
    gps: { id: [], lng: [], lat: [], st: [] },
    unplaced: 0,
    warehouses: [],
    routes: [],
  };
  const kinds = list(body.kind) ?? [1, 2];
  const statuses = list(body.transportStatus); // 1 carriers, 2 GPS trackers without a carrier
  for (const c of contextsFor(call, admin)) {
    const places = await placesOf(ctx, c);
    for (const [id, p] of places) {
      if (!p.row.visibleInMap) continue;
      out.warehouses.push({
        id,
        orgId: p.row.orgId,
        name: p.row.name,
        lng: p.lng,
        lat: p.lat,
        color: p.row.color ?? null,
        fence: p.row.fenceVisibleInMap ? (p.radius ?? null) : null,
      });
    }
    const routes = (await ctx.repo('route', c).findAll({
      attributes: ['id', 'routeName', 'fromWarehouseId', 'toWarehouseId', 'routeColor'],
      where: { needDrawLine: true },
      raw: true,
    })) as unknown as Raw[];
    for (const r of routes) {
      const a = places.get(r.fromWarehouseId);
      const b = places.get(r.toWarehouseId);
      if (a && b) out.routes.push({ id: r.id, name: r.routeName, color: r.routeColor ?? null, from: [a.lng, a.lat], to: [b.lng, b.lat] });
    }

    if (kinds.includes(1)) {
      const rows = await scopedRows(ctx.repo('carrier', c), ['id', 'gpsId', 'warehouseId', 'transportStatus'], carrierFilter(body));
      const col = out.carriers;
      let last = col.id.length ? sumOf(col.id) : 0;
      for (const r of rows) {
        const s = pos.carrier(r.id);
        let lng = s?.longitude ?? null;
        let lat = s?.latitude ?? null;
        if ((lng === null || lat === null) && r.gpsId) {
          const g = pos.device('gps', r.gpsId);
          lng = g?.longitude ?? null;
          lat = g?.latitude ?? null;
        }
        const wh = s?.warehouseId ?? r.warehouseId;
        if ((lng === null || lat === null) && wh) {
          const p = places.get(wh);
          if (p) [lng, lat] = [p.lng, p.lat];
        }
        // the status filter applies to the live status (the column is written on the next flush)
        const st = s?.transportStatus ?? r.transportStatus ?? 0;
        if (statuses && !statuses.includes(st)) continue;
        if (lng === null || lat === null) {
          out.unplaced++;
          continue;
        }
        col.id.push(r.id - last);
        last = r.id;
        col.lng.push(round5(lng));
        col.lat.push(round5(lat));
        col.st.push(st);
      }
    }
    // trackers of the filters' scope that are not on a carrier (a carrier filter leaves them out)
    const carrierFilters = ['projectId', 'carrierCodeId', 'warehouseId', 'transportStatus', 'sn'].some((k) => list(body[k]) || (k === 'sn' && body.sn));
    if (kinds.includes(2) && !carrierFilters) {
      const rows = (await ctx
        .repo('device-gps', c)
        .findAll({ attributes: ['id', 'status'], where: { carrierId: null }, order: [['id', 'ASC']], raw: true })) as unknown as Raw[];
      const col = out.gps;
      let last = col.id.length ? sumOf(col.id) : 0;
      for (const r of rows) {
        const g = pos.device('gps', r.id);
        if (g?.longitude == null || g.latitude == null) {
          out.unplaced++;
          continue;
        }
        col.id.push(r.id - last);
        last = r.id;
        col.lng.push(round5(g.longitude));
        col.lat.push(round5(g.latitude));
        col.st.push(g.status ?? r.status ?? 0);
      }
    }
  }
  return out;
}

function sumOf(a: number[]): number {
  let s = 0;
  for (const v of a) s += v;
  return s;
}

/** Decodes the delta-encoded id column. */
export function decodeIds(d: readonly number[]): number[] {
  const out = new Array<number>(d.length);
  let s = 0;
  for (let i = 0; i < d.length; i++) out[i] = s += d[i];
  return out;
}
