/**
 * Book versus seen (issue 18 item 3, the listing): carriers the documents place in a warehouse
 * that no gateway or GPS fix has heard for longer than the warehouse's tolerance — the code's
 * idle check time in that warehouse, else the warehouse's, else a day (or `minutes` as asked) —
 * with their last sighting (when, and where: the hearing gateway's warehouse, or the GPS fix).
 * Carriers without a device cannot be heard and are not listed; one never heard is listed.
 *
 * `/inventory/silent` (paged) and `/inventory/silent/export`, through the caller's scoped
 * repository (its warehouses only); sightings are the telemetry engine's device states, in memory.
 */
import { type PluginServerContext, type ReportQuery } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { Op } from 'sequelize';
import { IN_STOCK } from './adjustment';
import { OFF_BOOKS } from './figures';

type Row = Record<string, any>;
const DEFAULT_MINUTES = 24 * 60;
/** carriers one answer looks at most (a warehouse of a 1,000,000-carrier pool holds a few thousand) */
const MAX_SCANNED = 200_000;

interface Params {
  warehouseId?: number;
  carrierCodeId?: number;
  minutes?: number;
}

export type SilentRows = (q: Pick<ReportQuery<Params>, 'params' | 'ctx'>) => Promise<Row[]>;

export function installSilent(ctx: PluginServerContext): SilentRows {
  async function silentRows(q: Pick<ReportQuery<Params>, 'params' | 'ctx'>): Promise<Row[]> {
    const telemetry = ctx.tryUse('telemetry');
    const now = Date.now();
    const where: Record<string | symbol, unknown> = {
      warehouseId: q.params.warehouseId ?? { [Op.ne]: null },
      transportStatus: { [Op.in]: IN_STOCK },
      status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] },
      [Op.or]: [{ beaconId: { [Op.ne]: null } }, { gpsId: { [Op.ne]: null } }],
      ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
    };
    const carriers = await ctx.repo('carrier', q.ctx).rows(where, {
      attributes: ['id', 'sn', 'carrierCodeId', 'warehouseId', 'beaconId', 'gpsId', 'inboundTime'],
      order: [['id', 'ASC']],
      limit: MAX_SCANNED,
    });
    if (!carriers.length) return [];
    const whIds = [...new Set(carriers.map((c) => Number(c.warehouseId)))];
    const warehouses = new Map(
      (await ctx.repo('warehouse', q.ctx).rows({ id: { [Op.in]: whIds } }, { attributes: ['id', 'code', 'name', 'idleCheckTime'] })).map((w) => [
        Number(w.id),
        w,
      ]),
    );
    const configs = new Map(
      (
        await ctx
          .repo('carrier-code-warehouse', q.ctx)
          .rows({ warehouseId: { [Op.in]: whIds } }, { attributes: ['warehouseId', 'carrierCodeId', 'idleCheckTime'] })
      ).map((c) => [`${c.warehouseId}:${c.carrierCodeId}`, c]),
    );
    const tolerance = (c: Row) =>
      q.params.minutes ??
      (Number(configs.get(`${c.warehouseId}:${c.carrierCodeId}`)?.idleCheckTime ?? 0) ||
        Number(warehouses.get(Number(c.warehouseId))?.idleCheckTime ?? 0) ||
        DEFAULT_MINUTES);
    const silent: Array<{ c: Row; seen: number; gatewayMac: string | null; lng: number | null; lat: number | null; minutes: number }> = [];
    for (const c of carriers) {
      const beacon = c.beaconId ? telemetry?.positions.device('beacon', Number(c.beaconId)) : undefined;
      const gps = c.gpsId ? telemetry?.positions.device('gps', Number(c.gpsId)) : undefined;
      const seen = Math.max(beacon?.lastSeen ?? 0, gps?.lastSeen ?? 0);
      const minutes = tolerance(c);
      if (seen && seen >= now - minutes * 60_000) continue;
      const byGps = (gps?.lastSeen ?? 0) > (beacon?.lastSeen ?? 0);
      silent.push({
        c,
        seen,
        gatewayMac: byGps ? null : (beacon?.gatewayMac ?? null),
        lng: byGps ? (gps?.longitude ?? null) : null,
        lat: byGps ? (gps?.latitude ?? null) : null,
        minutes,
      });
    }
    // where it was heard: the hearing gateway's warehouse (one read for all of them)
    const macs = [...new Set(silent.map((s) => s.gatewayMac).filter((m): m is string => !!m))];
    const gateways = new Map(
      (macs.length
        ? await ctx
            .repo('device-slave-gateway', ctx.systemContext(q.ctx.orgId!, q.ctx.language))
            .rows({ mac: { [Op.in]: macs } }, { attributes: ['mac', 'name', 'warehouseId'] })
        : []
      ).map((g) => [String(g.mac), g]),
    );
    const codeIds = [
      ...new Set(
        silent
          .map((s) => s.c.carrierCodeId)
          .filter((x) => x !== null && x !== undefined)
          .map(Number),
      ),
    ];
    const codes = new Map(
      (codeIds.length ? await ctx.repo('carrier-code', q.ctx).rows({ id: { [Op.in]: codeIds } }, { attributes: ['id', 'code'] }) : []).map((c) => [
        Number(c.id),
        String(c.code),
      ]),
    );
    const gatewayWarehouses = [...new Set([...gateways.values()].map((g) => Number(g.warehouseId)).filter((x) => x && !warehouses.has(x)))];
    const names = new Map([...warehouses.values()].map((w) => [Number(w.id), String(w.name)]));
    if (gatewayWarehouses.length) {
      for (const w of await ctx
        .repo('warehouse', ctx.systemContext(q.ctx.orgId!, q.ctx.language))
        .rows({ id: { [Op.in]: gatewayWarehouses } }, { attributes: ['id', 'name'] }))
        names.set(Number(w.id), String(w.name));
    }
    return silent
      .map(({ c, seen, gatewayMac, lng, lat, minutes }) => {
        const g = gatewayMac ? gateways.get(gatewayMac) : undefined;
        const where = g
          ? (names.get(Number(g.warehouseId)) ?? String(g.name))
          : lng !== null && lat !== null
            ? `${Number(lat).toFixed(5)}, ${Number(lng).toFixed(5)}`
            : null;
        const wh = warehouses.get(Number(c.warehouseId));
        return {
          id: Number(c.id),
          sn: String(c.sn),
          carrierCodeId: c.carrierCodeId ?? null,
          carrierCode: codes.get(Number(c.carrierCodeId)) ?? '',
          warehouseId: Number(c.warehouseId),
          warehouseCode: String(wh?.code ?? ''),
          warehouseName: String(wh?.name ?? ''),
          lastSeenAt: seen ? new Date(seen).toISOString() : null,
          lastSeenWarehouseId: g ? Number(g.warehouseId) || null : null,
          lastSeenWhere: where,
          silentHours: seen ? Math.round(((now - seen) / 3_600_000) * 10) / 10 : null,
          toleranceMinutes: minutes,
        };
      })
      .sort((a, b) => a.warehouseCode.localeCompare(b.warehouseCode) || (a.lastSeenAt ?? '').localeCompare(b.lastSeenAt ?? '') || a.sn.localeCompare(b.sn));
  }

  ctx.reports.define<Params, Row>({
    name: 'inventory.silent',
    title: 'inventory.title.silent',
    calls: { list: '/inventory/silent', export: '/inventory/silent/export' },
    parameters: [
      { name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } },
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
      { name: 'minutes', type: 'int', label: 'inventory.col.tolerance', unit: 'minutes', min: 1, max: 525_600 },
    ],
    columns: [
      { key: 'warehouseName', label: 'fields.warehouse', width: 18 },
      { key: 'sn', label: 'fields.sn', width: 18 },
      { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
      { key: 'lastSeenAt', label: 'inventory.col.lastSeenAt', type: 'datetime', width: 18 },
      { key: 'lastSeenWhere', label: 'inventory.col.lastSeenWhere', width: 20 },
      { key: 'silentHours', label: 'inventory.col.silentHours', type: 'decimal', width: 12 },
    ],
    rowKey: 'id',
    // the row's warehouse gets a count task listing its silent carriers (the call below), opened at once
    actions: [
      {
        name: 'count',
        label: 'inventory.action.count',
        call: '/inventory/count/from-silent',
        body: { warehouseId: '{warehouseId}' },
        confirm: 'inventory.action.countConfirm',
        done: 'inventory.action.countDone',
        open: '/inventory-manage/inventory/count/detail/{id}',
      },
    ],
    async rows(q, w) {
      const rows = await silentRows(q);
      return { list: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
    },
    async *scan(q) {
      yield await silentRows(q);
    },
  });
  return silentRows;
}
