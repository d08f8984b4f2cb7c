/**
 * What the pool analytics share: the warehouses with their partner (the supplier/customer
 * owning the warehouse's location) and the partners' free periods (resource pool-partner-terms,
 * else DEFAULT_FREE_DAYS). Every read goes through the caller's scoped repository, which also
 * owns the SQL dialect (epoch days, conditional aggregates, the period's range).
 */
import { DAY_MS, type PluginServerContext, type RequestContext, type RowWindow } from '@rti/server/plugin-api';
import { Op } from 'sequelize';

export type Row = Record<string, any>;
export const K = 'pool-analytics';
/** the free period of a partner without terms (days) */
export const DEFAULT_FREE_DAYS = 14;
/** longest period the analytics read, in days */
export const MAX_DAYS = 366;

export const warehouseParam = { name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } } as const;
export const codeParam = { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } } as const;
export const partnerParam = { name: 'partnerId', type: 'ref', label: 'fields.partner', ref: { resource: 'supplier-customer', label: 'name' } } as const;

export const page = <R>(rows: R[], w: RowWindow) => ({ list: rows.slice(w.offset, w.offset + w.limit), total: rows.length });
/** An export's rows computed once and handed over in batches (rows() window by window would compute them again per window). */
export async function* once<R>(rows: Promise<R[]>, size = 500): AsyncGenerator<R[]> {
  const all = await rows;
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}
export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
export const toDays = (ms: number) => ms / DAY_MS;

export interface Warehouse {
  id: number;
  code: string;
  name: string;
  partnerId: number | null;
}
export interface Partner {
  id: number;
  name: string;
  entCode: string | null;
  type: number;
  freeDays: number;
}

/** The caller's warehouses (restricted callers: theirs only) with the partner owning each one's location. */
export async function warehousesOf(
  ctx: PluginServerContext,
  call: RequestContext,
  f: { warehouseId?: number; partnerId?: number } = {},
): Promise<Map<number, Warehouse>> {
  const whs = await ctx.repo('warehouse', call).rows(f.warehouseId ? { id: f.warehouseId } : {}, { attributes: ['id', 'code', 'name', 'locationId'] });
  const locIds = [
    ...new Set(
      whs
        .map((w) => w.locationId)
        .filter((v) => v !== null && v !== undefined)
        .map(Number),
    ),
  ];
  const owner = new Map<number, number | null>();
  for (let i = 0; i < locIds.length; i += 1000) {
    const locs = await ctx.repo('location', call).rows({ id: { [Op.in]: locIds.slice(i, i + 1000) } }, { attributes: ['id', 'supplierCustomerId'] });
    for (const l of locs) owner.set(Number(l.id), l.supplierCustomerId === null || l.supplierCustomerId === undefined ? null : Number(l.supplierCustomerId));
  }
  const out = new Map<number, Warehouse>();
  for (const w of whs) {
    const partnerId = w.locationId ? (owner.get(Number(w.locationId)) ?? null) : null;
    if (f.partnerId && partnerId !== f.partnerId) continue;
    out.set(Number(w.id), { id: Number(w.id), code: String(w.code), name: String(w.name), partnerId });
  }
  return out;
}

/** Partners (supplier-customer rows) by id with their free period. */
export async function partnersOf(ctx: PluginServerContext, call: RequestContext, ids?: number[]): Promise<Map<number, Partner>> {
  const where = ids ? { id: { [Op.in]: ids.length ? ids : [0] } } : {};
  const rows = await ctx.repo('supplier-customer', call).rows(where, { attributes: ['id', 'name', 'entCode', 'type'] });
  const terms = await ctx
    .repo('pool-partner-terms', call)
    .rows(ids ? { supplierCustomerId: { [Op.in]: ids.length ? ids : [0] } } : {}, { attributes: ['supplierCustomerId', 'freeDays'], order: [['id', 'ASC']] });
  // several rows for one partner: the latest counts (renegotiated terms are added, the old ones kept)
  const free = new Map(terms.map((t) => [Number(t.supplierCustomerId), Number(t.freeDays)]));
  return new Map(
    rows.map((p) => [
      Number(p.id),
      {
        id: Number(p.id),
        name: String(p.name),
        entCode: p.entCode === null || p.entCode === undefined ? null : String(p.entCode),
        type: Number(p.type),
        freeDays: free.get(Number(p.id)) ?? DEFAULT_FREE_DAYS,
      },
    ]),
  );
}

/** Carrier codes by id: code and name. */
export async function codesOf(ctx: PluginServerContext, call: RequestContext, ids: number[]): Promise<Map<number, { code: string; name: string }>> {
  const out = new Map<number, { code: string; name: string }>();
  for (let i = 0; i < ids.length; i += 1000) {
    for (const c of await ctx.repo('carrier-code', call).rows({ id: { [Op.in]: ids.slice(i, i + 1000) } }, { attributes: ['id', 'code', 'name'] }))
      out.set(Number(c.id), { code: String(c.code), name: String(c.name) });
  }
  return out;
}
