/**
 * Idle carriers (SPEC §7 "Trucks and idle": /idle/carrier-code/list, /idle/carrier/list; page
 * /report/idle-carrier). A carrier is idle by inventory's rule: standing in a warehouse (in stock,
 * not scrapped or lost) and marked idle, or in since before the idle check time of its code in
 * that warehouse (carrier-code warehouse configuration), else of the warehouse.
 *
 *   /idle/carrier-code/list   per warehouse and code: idle of in stock (inventory's figures), the
 *                             idle check time in effect, the longest idle carrier's days
 *   /idle/carrier/list        the idle carriers, longest idle first: since, days idle, the check
 *                             time, and the last sighting (when and where a gateway or GPS heard it)
 */
import { DAY_MS, type PluginServerContext, type ReportQuery } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { IN_STOCK, OFF_BOOKS, figuresReader } from '@rti/plugin-inventory/figures';
import { Enums } from '@rti/metadata';
import { Op, col, fn, type WhereOptions } from 'sequelize';
import { K, codeColumns, codeParam, num, page, warehouseColumns, warehouseParam, type Row } from './shared';

interface Params {
  warehouseId?: number;
  carrierCodeId?: number;
  minDays?: number;
}

/** carriers one answer looks at most (the longest idle first) */
export const MAX_IDLE_SCANNED = 200_000;
const round1 = (x: number) => Math.round(x * 10) / 10;

export function defineIdle(ctx: PluginServerContext): void {
  const figures = figuresReader(ctx);
  const standing = (q: ReportQuery<Params>, whIds: number[]): WhereOptions => ({
    warehouseId: { [Op.in]: whIds },
    status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] },
    ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
  });

  /** the idle check time (minutes) per warehouse and code, and the shortest of them */
  async function tolerances(q: ReportQuery<Params>) {
    const warehouses = await figures.warehousesOf(q.ctx, { warehouseId: q.params.warehouseId });
    const whIds = warehouses.map((w) => Number(w.id));
    const configs = whIds.length
      ? await ctx
          .repo('carrier-code-warehouse', q.ctx)
          .rows({ warehouseId: { [Op.in]: whIds } }, { attributes: ['warehouseId', 'carrierCodeId', 'idleCheckTime'] })
      : [];
    const own = new Map(configs.map((c) => [`${c.warehouseId}:${c.carrierCodeId}`, num(c.idleCheckTime)]));
    const whOf = new Map(warehouses.map((w) => [Number(w.id), w]));
    const minutes = (w: number, c: number | null): number | null => (own.get(`${w}:${c}`) ?? num(whOf.get(w)?.idleCheckTime)) || null;
    const all = [...configs.map((c) => num(c.idleCheckTime)), ...warehouses.map((w) => num(w.idleCheckTime))].filter((m): m is number => !!m);
    return { warehouses, whIds, whOf, minutes, shortest: all.length ? Math.min(...all) : null };
  }

  // ---- the carriers --------------------------------------------------------------------------
  async function idleCarriers(q: ReportQuery<Params>, now = Date.now()): Promise<Row[]> {
    const tol = await tolerances(q);
    if (!tol.whIds.length) return [];
    const candidates: WhereOptions[] = [{ transportStatus: Enums.transportStatus.idle }];
    if (tol.shortest) candidates.push({ transportStatus: { [Op.in]: IN_STOCK }, inboundTime: { [Op.lt]: new Date(now - tol.shortest * 60_000) } });
    const rows = await ctx.repo('carrier', q.ctx).rows(
      { [Op.and]: [standing(q, tol.whIds), { [Op.or]: candidates }] },
      {
        attributes: ['id', 'sn', 'carrierCodeId', 'warehouseId', 'transportStatus', 'inboundTime', 'beaconId', 'gpsId'],
        order: [
          ['inboundTime', 'ASC'],
          ['id', 'ASC'],
        ],
        limit: MAX_IDLE_SCANNED,
      },
    );
    const codes = new Set<number>();
    const out: Row[] = [];
    for (const c of rows) {
      const w = Number(c.warehouseId);
      const m = tol.minutes(w, num(c.carrierCodeId));
      const since = c.inboundTime ? new Date(c.inboundTime as string | Date).getTime() : null;
      const marked = Number(c.transportStatus) === Enums.transportStatus.idle;
      if (!marked && !(m && since !== null && since < now - m * 60_000)) continue;
      const daysIdle = since === null ? null : round1((now - since) / DAY_MS);
      if (q.params.minDays && (daysIdle ?? 0) < q.params.minDays) continue;
      const wh = tol.whOf.get(w)!;
      out.push({
        id: Number(c.id),
        sn: String(c.sn),
        carrierCodeId: num(c.carrierCodeId),
        warehouseId: w,
        warehouseCode: wh.code,
        warehouseName: wh.name,
        since: since === null ? null : new Date(since).toISOString(),
        daysIdle,
        checkHours: m ? round1(m / 60) : null,
        marked,
        beaconId: num(c.beaconId),
        gpsId: num(c.gpsId),
      });
      if (c.carrierCodeId !== null) codes.add(Number(c.carrierCodeId));
    }
    const names = codes.size ? await ctx.repo('carrier-code', q.ctx).rows({ id: { [Op.in]: [...codes] } }, { attributes: ['id', 'code'] }) : [];
    const codeOf = new Map(names.map((c) => [Number(c.id), String(c.code)]));
    for (const r of out) r.carrierCode = codeOf.get(Number(r.carrierCodeId)) ?? '';
    return out;
  }

  /** when and where a carrier's beacon or GPS was last heard (the telemetry engine's device states) */
  async function sighted(q: ReportQuery<Params>, rows: Row[]): Promise<Row[]> {
    const telemetry = ctx.tryUse('telemetry');
    if (!telemetry || !rows.length) return rows;
    const seen = rows.map((r) => {
      const b = r.beaconId ? telemetry.positions.device('beacon', r.beaconId) : undefined;
      const g = r.gpsId ? telemetry.positions.device('gps', r.gpsId) : undefined;
      const byGps = (g?.lastSeen ?? 0) > (b?.lastSeen ?? 0);
      const at = Math.max(b?.lastSeen ?? 0, g?.lastSeen ?? 0);
      return {
        at,
        mac: byGps ? null : (b?.gatewayMac ?? null),
        fix: byGps && g?.latitude != null && g?.longitude != null ? `${Number(g.latitude).toFixed(5)}, ${Number(g.longitude).toFixed(5)}` : null,
      };
    });
    const macs = [...new Set(seen.map((s) => s.mac).filter((m): m is string => !!m))];
    const sys = ctx.systemContext(q.ctx.orgId!, q.ctx.language);
    const gateways = new Map(
      (macs.length ? await ctx.repo('device-slave-gateway', sys).rows({ mac: { [Op.in]: macs } }, { attributes: ['mac', 'name', 'warehouseId'] }) : []).map(
        (g) => [String(g.mac), g],
      ),
    );
    const whIds = [...new Set([...gateways.values()].map((g) => Number(g.warehouseId)).filter(Boolean))];
    const whNames = new Map(
      (whIds.length ? await ctx.repo('warehouse', sys).rows({ id: { [Op.in]: whIds } }, { attributes: ['id', 'name'] }) : []).map((w) => [
        Number(w.id),
        String(w.name),
      ]),
    );
    return rows.map((r, i) => {
      const s = seen[i];
      const gw = s.mac ? gateways.get(s.mac) : undefined;
      return {
        ...r,
        lastSeenAt: s.at ? new Date(s.at).toISOString() : null,
        lastSeenWhere: gw ? (whNames.get(Number(gw.warehouseId)) ?? String(gw.name)) : s.fix,
      };
    });
  }

  ctx.reports.define<Params, Row>({
    name: `${K}.idle-carrier`,
    title: `${K}.title.idleCarrier`,
    calls: { list: '/idle/carrier/list', export: '/idle/carrier/export' },
    parameters: [warehouseParam, codeParam, { name: 'minDays', type: 'int', label: `${K}.col.minDays`, unit: 'days', min: 0, max: 3650 }],
    columns: [
      { key: 'sn', label: 'fields.sn', width: 18 },
      { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
      ...warehouseColumns,
      { key: 'since', label: `${K}.col.idleSince`, type: 'datetime', width: 18 },
      { key: 'daysIdle', label: `${K}.col.daysIdle`, unit: 'days', type: 'decimal', width: 10 },
      { key: 'checkHours', label: `${K}.col.checkTime`, unit: 'hours', type: 'decimal', width: 12 },
      { key: 'marked', label: `${K}.col.markedIdle`, type: 'bool', width: 10 },
      { key: 'lastSeenAt', label: `${K}.col.lastSeenAt`, type: 'datetime', width: 18 },
      { key: 'lastSeenWhere', label: `${K}.col.lastSeenWhere`, width: 20 },
    ],
    rowKey: 'id',
    async rows(q, w) {
      const p = page(await idleCarriers(q), w);
      return { list: await sighted(q, p.list), total: p.total };
    },
    async *scan(q) {
      const all = await idleCarriers(q);
      for (let i = 0; i < all.length; i += 1000) yield await sighted(q, all.slice(i, i + 1000));
    },
    maxRows: MAX_IDLE_SCANNED,
  });

  // ---- per warehouse and code ------------------------------------------------------------------
  async function perCode(q: ReportQuery<Params>, now = Date.now()): Promise<Row[]> {
    const { rows } = await figures.byCode(q.ctx, { warehouseId: q.params.warehouseId, carrierCodeId: q.params.carrierCodeId }, q.t, new Date(now));
    const idle = rows.filter((r) => r.idle > 0);
    if (!idle.length) return [];
    const tol = await tolerances(q);
    // the longest idle carrier per cell: the oldest inbound among its standing carriers that can be idle
    const oldest = new Map<string, number>();
    const whIds = [...new Set(idle.map((r) => r.warehouseId))];
    const candidates: WhereOptions[] = [{ transportStatus: Enums.transportStatus.idle }];
    if (tol.shortest) candidates.push({ transportStatus: { [Op.in]: IN_STOCK }, inboundTime: { [Op.lt]: new Date(now - tol.shortest * 60_000) } });
    const carriers = ctx.repo('carrier', q.ctx);
    for (const g of await carriers.rows(
      { [Op.and]: [standing(q, whIds), { [Op.or]: candidates }] },
      { attributes: ['warehouseId', 'carrierCodeId', [fn('MIN', col(carriers.column('inboundTime'))), 'since']], group: ['warehouseId', 'carrierCodeId'] },
    )) {
      if (g.since) oldest.set(`${g.warehouseId}:${g.carrierCodeId ?? ''}`, new Date(g.since as string | Date).getTime());
    }
    return idle.map((r) => {
      const since = oldest.get(r.key);
      const m = tol.minutes(r.warehouseId, r.carrierCodeId);
      return {
        ...r,
        idleShare: r.inStock ? round1((r.idle / r.inStock) * 100) : null,
        checkHours: m ? round1(m / 60) : null,
        longestDays: since ? round1((now - since) / DAY_MS) : null,
      };
    });
  }

  ctx.reports.define<Params, Row>({
    name: `${K}.idle-carrier-code`,
    title: `${K}.title.idleCarrierCode`,
    calls: { list: '/idle/carrier-code/list', export: '/idle/carrier-code/export' },
    parameters: [warehouseParam, codeParam],
    columns: [
      ...warehouseColumns,
      ...codeColumns,
      // the count opens the carriers behind it
      {
        key: 'idle',
        label: 'fields.idle',
        type: 'int',
        width: 10,
        link: '/report/idle-carrier/carriers?warehouseId={warehouseId}&carrierCodeId={carrierCodeId}',
      },
      { key: 'inStock', label: 'fields.inStock', type: 'int', width: 10 },
      { key: 'idleShare', label: `${K}.col.idleShare`, unit: 'percent', type: 'decimal', width: 10 },
      { key: 'checkHours', label: `${K}.col.checkTime`, unit: 'hours', type: 'decimal', width: 12 },
      { key: 'longestDays', label: `${K}.col.longestDays`, unit: 'days', type: 'decimal', width: 12 },
    ],
    rowKey: 'key',
    chart: { type: 'bar', x: 'warehouseName', y: ['idle', 'inStock'] },
    async rows(q, w) {
      return page(await perCode(q), w);
    },
    async *scan(q) {
      yield await perCode(q);
    },
  });
}
