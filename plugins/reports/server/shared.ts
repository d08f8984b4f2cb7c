/**
 * What the report definitions share: the parameters, the day arithmetic and the one reader of
 * inventory's daily closing snapshots (resource inventory-snapshot, written by the inventory
 * plugin's closing job) — the reports never count carriers a second way: closed days come from
 * the snapshots, "now" from inventory's figures reader.
 */
import {
  ApiError,
  DAY_MS,
  ErrorCode,
  dayOf,
  type PluginServerContext,
  type Zone,
  type ReportColumn,
  type ReportQuery,
  type RowWindow,
} from '@rti/server/plugin-api';
import { Op, col, fn, type WhereOptions } from 'sequelize';

export type Row = Record<string, any>;
export const K = 'reports';

export const warehouseParam = { name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } } as const;
export const codeParam = { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } } as const;
export const dayParam = { name: 'day', type: 'date', label: 'fields.day' } as const;

/** Snapshot days are the inventory plugin's closing days: the organisation's, in its time zone (q.zone, run.timezone). */
export const dayString = (t: number): string => new Date(t).toISOString().slice(0, 10);
export const today = (zone: Zone, now = Date.now()): string => dayOf(now, zone);
/** the last closed day: the report's default */
export const yesterday = (zone: Zone, now = Date.now()): string => addDays(dayOf(now, zone), -1);
export const addDays = (day: string, n: number): string => dayString(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** A day after today has no figures: refused in the caller's language, naming the day. */
export function notFuture(day: string | undefined, zone: Zone): void {
  if (day && day > today(zone)) throw new ApiError(ErrorCode.validation, 'reports.futureDay', { day }, 400);
}

export const page = <R>(rows: R[], w: RowWindow) => ({ list: rows.slice(w.offset, w.offset + w.limit), total: rows.length });
export const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** The closing figures a snapshot row holds (summed when grouped). */
export const SUMMED = ['inStock', 'maintenance', 'idle', 'empty', 'full', 'inTransitIn', 'inTransitOut', 'inbound', 'outbound'] as const;
export type Closed = Record<(typeof SUMMED)[number] | 'available', number>;
export function closedFigures(s: Row | undefined): Closed {
  const f = Object.fromEntries(SUMMED.map((k) => [k, Number(s?.[k] ?? 0)])) as Closed;
  f.available = f.inStock - f.maintenance;
  return f;
}

/**
 * Snapshot figures summed by the given fields (day, warehouseId, carrierCodeId), through the
 * caller's scoped repository (its organisation and warehouses only).
 */
export async function closedSums(ctx: PluginServerContext, q: ReportQuery, where: WhereOptions, by: string[]): Promise<Row[]> {
  const repo = ctx.repo('inventory-snapshot', q.ctx);
  const rows = await repo.rows(where, {
    attributes: [...by, ...SUMMED.map((k) => [fn('SUM', col(repo.column(k))), k] as [ReturnType<typeof fn>, string])],
    group: by,
  });
  return rows.map((r) => ({ ...r, ...(r.day !== undefined ? { day: String(r.day).slice(0, 10) } : {}) }));
}

/** days from `from` to `to` (both "YYYY-MM-DD"), a warehouse and code when given */
export const snapshotWhere = (from: string, to: string, p: { warehouseId?: number; carrierCodeId?: number }): WhereOptions => ({
  day: from === to ? from : { [Op.gte]: from, [Op.lte]: to },
  ...(p.warehouseId ? { warehouseId: p.warehouseId } : {}),
  ...(p.carrierCodeId ? { carrierCodeId: p.carrierCodeId } : {}),
});

export const warehouseColumns: ReportColumn[] = [
  { key: 'warehouseCode', label: `${K}.col.warehouseCode`, width: 12 },
  { key: 'warehouseName', label: 'fields.warehouse', width: 20 },
];
export const codeColumns: ReportColumn[] = [
  { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
  { key: 'carrierCodeName', label: `${K}.col.carrierCodeName`, width: 18 },
];
export const figureColumns: ReportColumn[] = [
  { key: 'inStock', label: 'fields.inStock', type: 'int', width: 10 },
  { key: 'available', label: `${K}.col.available`, type: 'int', width: 10 },
  { key: 'maintenance', label: 'fields.maintenance', type: 'int', width: 10 },
  { key: 'idle', label: 'fields.idle', type: 'int', width: 10 },
  { key: 'inTransitIn', label: 'fields.inTransitIn', type: 'int', width: 12 },
  { key: 'inTransitOut', label: 'fields.inTransitOut', type: 'int', width: 12 },
];
export const moveColumns: ReportColumn[] = [
  { key: 'inbound', label: 'fields.inbound', type: 'int', width: 10 },
  { key: 'outbound', label: 'fields.outbound', type: 'int', width: 10 },
];

/** code, name and label per carrier code id, read once for a page */
export async function codeNames(ctx: PluginServerContext, q: ReportQuery, ids: Array<number | null>): Promise<Map<number, Row>> {
  const want = [...new Set(ids.filter((x): x is number => x !== null && x !== undefined).map(Number))];
  if (!want.length) return new Map();
  return new Map((await ctx.repo('carrier-code', q.ctx).rows({ id: { [Op.in]: want } }, { attributes: ['id', 'code', 'name'] })).map((c) => [Number(c.id), c]));
}
