/**
 * Cycle time, turns per year and dwell (issue 19 item 5), from the in/out history (resource
 * carrier-inout) through a roll-up the platform keeps ahead of the read (`ctx.rollups`, store
 * resource `pool-flow`): sums per warehouse, carrier code and day — and per month — of the
 * organisation, so a year is twelve month rows per (warehouse, code) plus the day rows of the
 * months it only partly covers, not a year of history rows. Each figure counts an EVENT on its
 * day, under the warehouse and code of its row:
 *
 * - **arrivals** and **departures**: inbound and outbound rows;
 * - a **visit** ends with a departure whose carrier's previous row at that warehouse is an
 *   arrival; its **days held** are the departure's time − that arrival's. **Dwell** = days held
 *   ÷ visits ended (completed stays; a carrier still standing counts when it leaves, and its
 *   partner's balance shows it meanwhile);
 * - a **cycle** ends with a departure whose carrier left the same warehouse before (it went round
 *   and came back): the time since that previous departure. **Cycle time** = Σ cycle days ÷
 *   cycles; **turns per year** = 365 ÷ cycle time.
 *
 * The period is cut to the organisation's whole days (the day holding `from` to the day holding
 * `to`). Grouped per warehouse, per partner (the supplier/customer owning the warehouse's
 * location: the sums of its warehouses) or per carrier code (the code on the departure's row: a
 * carrier re-coded in the period counts its later cycles under the new code, never twice).
 */
import { Enums } from '@rti/metadata';
import { timeRange, type PluginServerContext, type ReportQuery, type Rollup, type TimeRange } from '@rti/server/plugin-api';
import { K, MAX_DAYS, codeParam, codesOf, once, page, partnersOf, round, warehouseParam, warehousesOf, type Row } from './shared';

const IN = Enums.inoutDirection.inbound;
const OUT = Enums.inoutDirection.outbound;
export const BY = Enums.poolGrouping;

/** The flows of the in/out history per (warehouse, code, day), kept by the platform (see the file's comment). */
export function defineFlows(ctx: PluginServerContext): Rollup {
  return ctx.rollups.define({
    name: 'pool-analytics.flows',
    source: 'carrier-inout',
    time: 'confirmTime',
    store: 'pool-flow',
    keys: ['warehouseId', 'carrierCodeId'],
    // a departure looks back at its carrier's rows at the same warehouse
    sequence: ['warehouseId', 'carrierId'],
    columns: (src, previous) => {
      const before = (d: number) => src.epochDaysOf(previous({ direction: d }));
      const dir = src.quoted('direction');
      return {
        d: dir,
        t: src.epochDays('confirmTime'),
        pin: `CASE WHEN ${dir} = ${Number(OUT)} THEN ${before(IN)} END`,
        pout: `CASE WHEN ${dir} = ${Number(OUT)} THEN ${before(OUT)} END`,
      };
    },
    sums: {
      arrivals: `SUM(CASE WHEN d = ${Number(IN)} THEN 1 ELSE 0 END)`,
      departures: `SUM(CASE WHEN d = ${Number(OUT)} THEN 1 ELSE 0 END)`,
      // the previous row at the warehouse was an arrival: a visit ends
      visits: 'SUM(CASE WHEN pin IS NOT NULL AND (pout IS NULL OR pin > pout) THEN 1 ELSE 0 END)',
      stayDays: 'SUM(CASE WHEN pin IS NOT NULL AND (pout IS NULL OR pin > pout) THEN t - pin ELSE 0 END)',
      cycles: 'SUM(CASE WHEN pout IS NOT NULL THEN 1 ELSE 0 END)',
      cycleDays: 'SUM(CASE WHEN pout IS NOT NULL THEN t - pout ELSE 0 END)',
    },
  });
}

/** A roll-up row's sums. */
export interface Flow {
  arrivals: number;
  departures: number;
  visits: number;
  stayDays: number;
  cycles: number;
  cycleDays: number;
}

export interface Figures {
  arrivals: number;
  departures: number;
  visits: number;
  carrierDays: number;
  cycles: number;
  cycleDays: number | null;
  turnsPerYear: number | null;
  dwellDays: number | null;
}

const FLOW_KEYS = ['arrivals', 'departures', 'visits', 'stayDays', 'cycles', 'cycleDays'] as const;

/** Sums of flows into the figures of one group. */
export function figuresOf(flows: Array<Partial<Record<(typeof FLOW_KEYS)[number], number | null>>>): Figures {
  const s: Flow = { arrivals: 0, departures: 0, visits: 0, stayDays: 0, cycles: 0, cycleDays: 0 };
  for (const f of flows) for (const k of FLOW_KEYS) s[k] += Number(f[k] ?? 0);
  const cycleDays = s.cycles ? s.cycleDays / s.cycles : null;
  return {
    arrivals: s.arrivals,
    departures: s.departures,
    visits: s.visits,
    carrierDays: round(s.stayDays),
    cycles: s.cycles,
    cycleDays: cycleDays === null ? null : round(cycleDays),
    turnsPerYear: cycleDays ? round(365 / cycleDays) : null,
    dwellDays: s.visits ? round(s.stayDays / s.visits) : null,
  };
}

interface Params {
  time: TimeRange;
  by: number;
  warehouseId?: number;
  carrierCodeId?: number;
}

export type TurnsRow = Figures & { key: string; code: string; name: string };

/** Grouped rows: per warehouse, partner or carrier code, sorted by code. */
export async function turnsRows(ctx: PluginServerContext, flows: Rollup, q: ReportQuery<Params>): Promise<TurnsRow[]> {
  const { time, by, warehouseId, carrierCodeId } = q.params;
  const whs = await warehousesOf(ctx, q.ctx, { warehouseId });
  if (!whs.size) return [];
  const perCode = by === BY.carrierCode;
  const { rows } = await flows.read(q.ctx, {
    from: time.from,
    to: time.to,
    by: perCode ? ['carrierCodeId'] : ['warehouseId'],
    where: { ...(warehouseId ? { warehouseId } : {}), ...(carrierCodeId ? { carrierCodeId } : {}) },
  });
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    if (!perCode && !whs.has(Number(r.warehouseId))) continue;
    const k = perCode ? String(r.carrierCodeId ?? '') : by === BY.partner ? String(whs.get(Number(r.warehouseId))!.partnerId ?? '') : String(r.warehouseId);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const ids = [...groups.keys()].filter(Boolean).map(Number);
  const none = q.t(`${K}.none`);
  let label: (k: string) => { code: string; name: string };
  if (by === BY.partner) {
    const partners = await partnersOf(ctx, q.ctx, ids);
    label = (k) => ({ code: partners.get(Number(k))?.entCode ?? '', name: partners.get(Number(k))?.name ?? none });
  } else if (perCode) {
    const codes = await codesOf(ctx, q.ctx, ids);
    label = (k) => codes.get(Number(k)) ?? { code: '', name: none };
  } else label = (k) => ({ code: whs.get(Number(k))?.code ?? '', name: whs.get(Number(k))?.name ?? none });
  return [...groups.entries()]
    .map(([k, fs]) => ({ key: k, ...label(k), ...figuresOf(fs) }))
    .sort((a, b) => (a.code || '\uffff').localeCompare(b.code || '\uffff') || a.name.localeCompare(b.name));
}

export function defineTurns(ctx: PluginServerContext, flows: Rollup): void {
  ctx.reports.define<Params, TurnsRow>({
    name: 'pool-analytics.turns',
    title: `${K}.turns.title`,
    path: '/pool-analytics/turns',
    parameters: [
      timeRange({ defaultDays: 90, maxDays: MAX_DAYS }),
      { name: 'by', type: 'enum', enum: 'poolGrouping', label: 'fields.groupBy', default: BY.warehouse },
      warehouseParam,
      codeParam,
    ],
    columns: [
      { key: 'code', label: `${K}.col.code`, width: 14 },
      { key: 'name', label: `${K}.col.name`, width: 24 },
      { key: 'arrivals', label: `${K}.col.arrivals`, help: `${K}.help.arrivals`, type: 'int' },
      { key: 'departures', label: `${K}.col.departures`, help: `${K}.help.departures`, type: 'int' },
      { key: 'cycles', label: `${K}.col.cycles`, help: `${K}.help.cycles`, type: 'int' },
      { key: 'cycleDays', label: `${K}.col.cycleTime`, help: `${K}.help.cycleTime`, unit: 'days', type: 'decimal' },
      { key: 'turnsPerYear', label: `${K}.col.turnsPerYear`, help: `${K}.help.turnsPerYear`, type: 'decimal' },
      { key: 'visits', label: `${K}.col.visitsEnded`, help: `${K}.help.visitsEnded`, type: 'int' },
      { key: 'dwellDays', label: `${K}.col.dwell`, help: `${K}.help.dwell`, unit: 'days', type: 'decimal' },
      { key: 'carrierDays', label: `${K}.col.daysHeldEnded`, help: `${K}.help.daysHeldEnded`, type: 'decimal' },
    ],
    rowKey: 'key',
    chart: { type: 'bar', x: 'name', y: ['cycleDays', 'dwellDays'] },
    async rows(q, w) {
      return page(await turnsRows(ctx, flows, q), w);
    },
    scan: (q) => once(turnsRows(ctx, flows, q)),
  });
}

export type { Row };
