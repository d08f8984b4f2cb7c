/**
 * Pool-size check (issue 19 item 5), per carrier code over a period: carriers needed =
 * demand × cycle time ÷ (1 − loss rate), against the carriers owned.
 *
 * - demand: carriers of the code sent out per day from the pool's issue points — the warehouses
 *   not owned by a customer (own, supplier's, packaging supplier's) — over the period;
 * - cycle time: the code's cycle time of the turns report (consecutive departures of a carrier
 *   from the same warehouse), same period — both from the flows the platform keeps (turns.ts);
 * - loss rate: carriers of the code written off as lost by inventory counts closed in the period,
 *   per carrier sent out (a share of each trip), unless the caller gives one (`lossRate`, %);
 * - owned: carriers of the code on the books (not scrapped or lost), wherever they are.
 */
import { Enums } from '@rti/metadata';
import { DAY_MS, timeRange, type PluginServerContext, type ReportQuery, type Rollup, type TimeRange } from '@rti/server/plugin-api';
import { OFF_BOOKS } from '@rti/plugin-inventory/figures';
import { Op, col, fn } from 'sequelize';
import { figuresOf } from './turns';
import { K, MAX_DAYS, codeParam, codesOf, once, page, partnersOf, round, warehousesOf } from './shared';

interface Params {
  time: TimeRange;
  carrierCodeId?: number;
  lossRate?: number;
}
export interface SizeRow {
  carrierCodeId: number;
  code: string;
  name: string;
  owned: number;
  sent: number;
  demandPerDay: number;
  cycleDays: number | null;
  lost: number;
  lossRate: number;
  required: number | null;
  gap: number | null;
  verdict: string;
}

async function lostByCode(ctx: PluginServerContext, q: ReportQuery<Params>): Promise<Map<number, number>> {
  const { from, to } = q.params.time;
  const closed = await ctx
    .repo('inventory-count', q.ctx)
    .rows({ status: Enums.inventoryCountStatus.closed, closedTime: { [Op.gte]: new Date(from), [Op.lte]: new Date(to) } }, { attributes: ['id'] });
  const out = new Map<number, number>();
  const ids = closed.map((c) => Number(c.id));
  for (let i = 0; i < ids.length; i += 1000) {
    const got = await ctx.repo('inventory-count-detail', q.ctx).rows(
      {
        inventoryCountId: { [Op.in]: ids.slice(i, i + 1000) },
        result: Enums.inventoryCountResult.lost,
        ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
      },
      { attributes: ['carrierCodeId', [fn('COUNT', col('id')), 'n']], group: ['carrierCodeId'] },
    );
    for (const g of got) if (g.carrierCodeId !== null) out.set(Number(g.carrierCodeId), (out.get(Number(g.carrierCodeId)) ?? 0) + Number(g.n));
  }
  return out;
}

export async function sizeRows(ctx: PluginServerContext, flows: Rollup, q: ReportQuery<Params>): Promise<SizeRow[]> {
  const { time, carrierCodeId } = q.params;
  const whs = await warehousesOf(ctx, q.ctx);
  const partners = await partnersOf(ctx, q.ctx, [...new Set([...whs.values()].map((w) => w.partnerId).filter((p): p is number => p !== null))]);
  const issue = (w: number) => {
    const p = whs.get(w)?.partnerId;
    return p === null || p === undefined || partners.get(p)?.type !== Enums.supplierCustomerType.customer;
  };
  const read = whs.size
    ? await flows.read(q.ctx, { from: time.from, to: time.to, by: ['warehouseId', 'carrierCodeId'], where: carrierCodeId ? { carrierCodeId } : {} })
    : null;
  // the organisation's whole days the flows cover
  const days = read ? Math.round((Date.parse(read.lastDay) - Date.parse(read.firstDay)) / DAY_MS) + 1 : 1;
  const byCode = new Map<number, NonNullable<typeof read>['rows']>();
  for (const r of read?.rows ?? []) {
    if (r.carrierCodeId === null || !whs.has(Number(r.warehouseId))) continue;
    const list = byCode.get(Number(r.carrierCodeId));
    if (list) list.push(r);
    else byCode.set(Number(r.carrierCodeId), [r]);
  }
  const owned = await ctx
    .repo('carrier', q.ctx)
    .countBy('carrierCodeId', { status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] }, ...(carrierCodeId ? { carrierCodeId } : {}) });
  const lost = q.params.lossRate === undefined ? await lostByCode(ctx, q) : new Map<number, number>();
  const ids = [...new Set([...owned.keys(), ...byCode.keys()].filter((k): k is number => k !== null).map(Number))];
  const codes = await codesOf(ctx, q.ctx, ids);
  return ids
    .filter((id) => codes.has(id))
    .map((id) => {
      const cs = byCode.get(id) ?? [];
      const f = figuresOf(cs);
      const sent = cs.filter((c) => issue(Number(c.warehouseId))).reduce((s, c) => s + Number(c.departures ?? 0), 0);
      const lostN = lost.get(id) ?? 0;
      const rate = q.params.lossRate !== undefined ? q.params.lossRate / 100 : sent ? Math.min(lostN / sent, 0.99) : 0;
      const demand = sent / days;
      const required = f.cycleDays === null ? null : Math.ceil(round((demand * f.cycleDays) / (1 - rate), 6));
      const have = owned.get(id) ?? 0;
      const gap = required === null ? null : have - required;
      const verdict = gap === null ? 'unknown' : gap < 0 ? 'short' : have > required! * 1.25 ? 'surplus' : 'enough';
      return {
        carrierCodeId: id,
        ...codes.get(id)!,
        owned: have,
        sent,
        demandPerDay: round(demand),
        cycleDays: f.cycleDays,
        lost: lostN,
        lossRate: round(rate * 100),
        required,
        gap,
        verdict: q.t(`${K}.verdict.${verdict}`),
      };
    })
    .sort((a, b) => a.code.localeCompare(b.code));
}

export function definePoolSize(ctx: PluginServerContext, flows: Rollup): void {
  const C = `${K}.col`;
  ctx.reports.define<Params, SizeRow>({
    name: 'pool-analytics.pool-size',
    title: `${K}.size.title`,
    path: '/pool-analytics/pool-size',
    parameters: [
      timeRange({ defaultDays: 90, maxDays: MAX_DAYS }),
      codeParam,
      { name: 'lossRate', type: 'decimal', label: 'fields.lossRate', min: 0, max: 99, scale: 2 },
    ],
    columns: [
      { key: 'code', label: `${C}.code`, width: 14 },
      { key: 'name', label: `${C}.name`, width: 20 },
      { key: 'owned', label: `${C}.owned`, type: 'int' },
      { key: 'sent', label: `${C}.sent`, type: 'int' },
      { key: 'demandPerDay', label: `${C}.demandPerDay`, type: 'decimal' },
      { key: 'cycleDays', label: `${C}.cycleTime`, unit: 'days', type: 'decimal' },
      { key: 'lost', label: `${C}.lost`, type: 'int' },
      { key: 'lossRate', label: 'fields.lossRate', unit: 'percent', type: 'decimal' },
      { key: 'required', label: `${C}.required`, type: 'int' },
      { key: 'gap', label: `${C}.gap`, type: 'int' },
      { key: 'verdict', label: `${C}.verdict`, width: 12 },
    ],
    rowKey: 'carrierCodeId',
    chart: { type: 'bar', x: 'code', y: ['owned', 'required'] },
    async rows(q, w) {
      return page(await sizeRows(ctx, flows, q), w);
    },
    scan: (q) => once(sizeRows(ctx, flows, q)),
  });
}
