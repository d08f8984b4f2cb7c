/**
 * Cycle time, turns per year and dwell (issue 19 item 5), set-based from the in/out history
 * (resource carrier-inout): ONE grouped read per (warehouse, carrier) over the period — counts,
 * sums, first and last times of arrivals and departures as epoch days — and nothing per carrier.
 *
 * - A **visit** is a carrier's stay in a warehouse: from its arrival (inbound row) to its next
 *   departure (outbound row). Held carrier-days in the period are Σ departures − Σ arrivals, plus
 *   the period's end for a carrier still there at the end, minus the period's start for one
 *   already there at the start (its first row in the period is a departure). Carriers standing
 *   through the whole period (no row in it) count the whole period: those standing now since
 *   before the start (the carrier's inbound time) and those whose first row after the end is a
 *   departure. **Dwell** = held carrier-days ÷ visits (visits = arrivals + carriers already there
 *   at the start).
 * - A **cycle** is the time between two consecutive departures of a carrier from the same
 *   warehouse (it went round the loop and came back): per (warehouse, carrier) last − first
 *   departure over departures − 1. **Cycle time** = Σ spans ÷ Σ cycles; **turns per year** =
 *   365 ÷ cycle time.
 * - Grouped per warehouse, per partner (the supplier/customer owning the warehouse's location)
 *   or per carrier code. Per code, a carrier's rows of the period all count under ONE code: the
 *   code of its latest in/out row in the period (a carrier re-coded or relabelled in the period
 *   counts under its new code, once — not under both).
 */
import { Enums } from '@rti/metadata';
import {
  DAY_MS,
  timeRange,
  type PluginServerContext,
  type ScopedRepository,
  type ReportQuery,
  type RequestContext,
  type TimeRange,
} from '@rti/server/plugin-api';
import { IN_STOCK, OFF_BOOKS } from '@rti/plugin-inventory/figures';
import { Op, col, fn, literal, type WhereOptions } from 'sequelize';
import { K, MAX_DAYS, codeParam, codesOf, once, page, partnersOf, round, toDays, warehouseParam, warehousesOf, type Row, type Warehouse } from './shared';

const IN = Enums.inoutDirection.inbound;
const OUT = Enums.inoutDirection.outbound;
export const BY = Enums.poolGrouping;

/** One carrier at one warehouse over the period. */
export interface Cell {
  warehouseId: number;
  carrierId: number | null;
  carrierCodeId: number | null;
  /** carriers this cell stands for (1, or a count of carriers standing through the period) */
  carriers: number;
  arrivals: number;
  departures: number;
  visits: number;
  /** carrier-days held in the period */
  held: number;
  cycles: number;
  /** days between first and last departure */
  span: number;
  /** the in/out rows' cells of a (warehouse, code), summed in SQL: `carriers` counts each once per warehouse */
  fromRows?: boolean;
}

export interface Period {
  from: number;
  to: number;
  warehouseId?: number;
  carrierCodeId?: number;
}

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The period's in/out rows as a where. A period's reads group per (warehouse, carrier): the
 * covering index (org, warehouse, carrier, time, direction, code) of carrier-inout serves them
 * without a table read or a sort; the repository's timeRange keeps SQLite off the time index.
 */
export function periodWhere(repo: ScopedRepository, p: { from: number; to: number }, field = 'confirmTime'): WhereOptions {
  return repo.timeRange(field, p.from, p.to);
}

/**
 * The cells of the period (see the file's comment), for the caller's warehouses. With
 * `recoded` (codesInPeriod's: carriers whose rows carry more than one code) the cells are per
 * (warehouse, the carrier's code in the period): a re-coded carrier's figures move from the code
 * the grouped read put them under to its latest code.
 */
export async function cellsOf(
  ctx: PluginServerContext,
  call: RequestContext,
  p: Period,
  whs: Map<number, Warehouse>,
  recoded?: Map<number, Recoded>,
): Promise<Cell[]> {
  const repo = ctx.repo('carrier-inout', call);
  const t = repo.epochDays('confirmTime');
  const F = toDays(p.from);
  const T = toDays(p.to);
  const D = T - F;
  const narrow = { ...(p.warehouseId ? { warehouseId: p.warehouseId } : {}), ...(p.carrierCodeId ? { carrierCodeId: p.carrierCodeId } : {}) };
  // Per (warehouse, carrier) figures summed per (warehouse, code) in the same statement: the
  // window sums run over the grouped rows and DISTINCT keeps one row per (warehouse, code), so
  // a year at pool scale answers 25,000 rows instead of 400,000 (their transfer to JS was most
  // of the call). A cell stands for the carriers it counts (`carriers`, no `carrierId`).
  const q = (field: string) => repo.quoted(field);
  const [dir, time, wh, code] = [q('direction'), q('confirmTime'), q('warehouseId'), q('carrierCodeId')];
  const first = (d: number) => `MIN(CASE WHEN ${dir} = ${Number(d)} THEN ${time} END)`;
  const last = (d: number) => `MAX(CASE WHEN ${dir} = ${Number(d)} THEN ${time} END)`;
  const nIn = `SUM(CASE WHEN ${dir} = ${Number(IN)} THEN 1 ELSE 0 END)`;
  const nOut = `SUM(CASE WHEN ${dir} = ${Number(OUT)} THEN 1 ELSE 0 END)`;
  // there at the start: the first row in the period is a departure; still there at the end: the last one is an arrival
  const atStart = `(CASE WHEN ${first(OUT)} IS NOT NULL AND (${first(IN)} IS NULL OR ${first(OUT)} < ${first(IN)}) THEN 1 ELSE 0 END)`;
  const atEnd = `(CASE WHEN ${last(IN)} IS NOT NULL AND (${last(OUT)} IS NULL OR ${last(IN)} > ${last(OUT)}) THEN 1 ELSE 0 END)`;
  // Σ departures − Σ arrivals, + the end for one still there, − the start for one there at the start
  const held = `(COALESCE(SUM(CASE ${dir} WHEN ${Number(OUT)} THEN ${t} WHEN ${Number(IN)} THEN -${t} END), 0) + ${atEnd} * ${Number(T)} - ${atStart} * ${Number(F)})`;
  // one (warehouse, carrier) group's figures
  const figure: Array<[string, string]> = [
    ['arrivals', nIn],
    ['departures', nOut],
    ['visits', `${nIn} + ${atStart}`],
    ['held', held],
    ['cycles', `CASE WHEN ${nOut} > 1 THEN ${nOut} - 1 ELSE 0 END`],
    ['span', `CASE WHEN ${nOut} > 1 THEN ${repo.epochDaysOf(last(OUT))} - ${repo.epochDaysOf(first(OUT))} ELSE 0 END`],
  ];
  const over = (expr: string) => literal(`SUM(${expr}) OVER (PARTITION BY ${wh}, MAX(${code}))`);
  const found = await repo.rows(
    { ...narrow, ...periodWhere(repo, p) },
    {
      attributes: [
        [literal(`DISTINCT ${wh}`), 'warehouseId'],
        [fn('MAX', col(repo.column('carrierCodeId'))), 'code'],
        [over('1'), 'carriers'],
        ...figure.map(([k, expr]) => [over(expr), k] as [ReturnType<typeof literal>, string]),
      ],
      group: [col(repo.column('warehouseId')), col(repo.column('carrierId'))],
    },
  );
  const cells: Cell[] = [];
  for (const r of found) {
    const w = Number(r.warehouseId);
    if (!whs.has(w)) continue;
    cells.push({
      warehouseId: w,
      carrierId: null,
      carrierCodeId: n(r.code),
      carriers: Number(r.carriers),
      arrivals: Number(r.arrivals),
      departures: Number(r.departures),
      visits: Number(r.visits),
      held: Number(r.held),
      cycles: Number(r.cycles),
      span: Number(r.span),
      fromRows: true,
    });
  }
  if (recoded?.size) {
    // the re-coded carriers' (warehouse, carrier) groups read again (a few): taken out of the
    // (warehouse, code) the read above summed them under, put under (warehouse, latest code)
    const summed = new Map(cells.map((c) => [`${c.warehouseId}:${c.carrierCodeId}`, c]));
    const move = (r: Row, to: number | null, sign: 1 | -1) => {
      const w = Number(r.warehouseId);
      if (!whs.has(w)) return;
      let c = summed.get(`${w}:${to}`);
      if (!c) {
        c = {
          warehouseId: w,
          carrierId: null,
          carrierCodeId: to,
          carriers: 0,
          arrivals: 0,
          departures: 0,
          visits: 0,
          held: 0,
          cycles: 0,
          span: 0,
          fromRows: true,
        };
        summed.set(`${w}:${to}`, c);
        cells.push(c);
      }
      c.carriers += sign;
      for (const k of ['arrivals', 'departures', 'visits', 'held', 'cycles', 'span'] as const) c[k] += sign * Number(r[k]);
    };
    const attributes: Array<string | [ReturnType<typeof fn | typeof literal>, string]> = [
      'warehouseId',
      'carrierId',
      [fn('MAX', col(repo.column('carrierCodeId'))), 'code'],
      ...figure.map(([k, expr]) => [literal(expr), k] as [ReturnType<typeof literal>, string]),
    ];
    const ids = [...recoded.keys()];
    const anyCode = p.warehouseId ? { warehouseId: p.warehouseId } : {};
    for (let i = 0; i < ids.length; i += 1000) {
      const these = { carrierId: { [Op.in]: ids.slice(i, i + 1000) } };
      const counted = await repo.rows({ ...narrow, ...periodWhere(repo, p), ...these }, { attributes, group: ['warehouseId', 'carrierId'] });
      // narrowed to a code: the carriers whose latest code it is count all their rows of the period
      const wanted = p.carrierCodeId
        ? await repo.rows({ ...anyCode, ...periodWhere(repo, p), ...these }, { attributes, group: ['warehouseId', 'carrierId'] })
        : counted;
      for (const r of counted) move(r, n(r.code), -1);
      for (const r of wanted) {
        const latest = recoded.get(Number(r.carrierId))!.latest;
        if (!p.carrierCodeId || latest === p.carrierCodeId) move(r, latest, 1);
      }
    }
    for (let i = cells.length - 1; i >= 0; i--) if (cells[i].fromRows && cells[i].carriers <= 0) cells.splice(i, 1);
  }
  const whole = (w: number, code: number | null, count: number, carrierId: number | null = null) =>
    cells.push({
      warehouseId: w,
      carrierId,
      carrierCodeId: code,
      carriers: count,
      arrivals: 0,
      departures: 0,
      visits: count,
      held: count * D,
      cycles: 0,
      span: 0,
    });
  // standing through the whole period and still there: in stock now, arrived before the start
  const carriers = ctx.repo('carrier', call);
  const standing = await carriers.rows(
    {
      ...(p.warehouseId ? { warehouseId: p.warehouseId } : { warehouseId: { [Op.ne]: null } }),
      ...(p.carrierCodeId ? { carrierCodeId: p.carrierCodeId } : {}),
      transportStatus: { [Op.in]: IN_STOCK },
      status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] },
      inboundTime: { [Op.lt]: new Date(p.from) },
    },
    { attributes: ['warehouseId', 'carrierCodeId', [fn('COUNT', col('id')), 'n']], group: ['warehouseId', 'carrierCodeId'] },
  );
  for (const s of standing) if (whs.has(Number(s.warehouseId))) whole(Number(s.warehouseId), n(s.carrierCodeId), Number(s.n));
  // standing through the whole period and gone since: the first row after the end is a departure
  if (p.to < Date.now()) {
    const after = await repo.rows(
      // bounded on both sides so that SQLite reads the rows after the period from the time index (few, for a recent period)
      { ...narrow, confirmTime: { [Op.gt]: new Date(p.to), [Op.lte]: new Date(Math.max(Date.now(), p.to) + 366 * DAY_MS) } },
      {
        attributes: [
          'warehouseId',
          'carrierId',
          [fn('MAX', col(repo.column('carrierCodeId'))), 'code'],
          [repo.aggregateWhen('MIN', 'direction', IN, t), 'minIn'],
          [repo.aggregateWhen('MIN', 'direction', OUT, t), 'minOut'],
        ],
        group: ['warehouseId', 'carrierId'],
      },
    );
    const gone = after.filter((r) => {
      const minIn = n(r.minIn);
      const minOut = n(r.minOut);
      return whs.has(Number(r.warehouseId)) && minOut !== null && (minIn === null || minOut < minIn);
    });
    // …and had no row there in the period (its cell above already counts it)
    const seen = new Set<string>();
    const ids = [...new Set(gone.map((r) => Number(r.carrierId)))];
    for (let i = 0; i < ids.length; i += 1000) {
      const had = await repo.rows(
        { ...narrow, ...periodWhere(repo, p), carrierId: { [Op.in]: ids.slice(i, i + 1000) } },
        { attributes: ['warehouseId', 'carrierId'], group: ['warehouseId', 'carrierId'] },
      );
      for (const h of had) seen.add(`${h.warehouseId}:${h.carrierId}`);
    }
    for (const r of gone) if (!seen.has(`${r.warehouseId}:${r.carrierId}`)) whole(Number(r.warehouseId), n(r.code), 1, n(r.carrierId));
  }
  return cells;
}

/**
 * Carriers with in/out rows in the period per partner (of the row's warehouse) or per carrier
 * code (of the row), each once however many warehouses of the group it visited: the cells count
 * a carrier once per warehouse.
 */
export async function distinctCarriers(
  ctx: PluginServerContext,
  call: RequestContext,
  p: Period,
  by: number,
  whs: Map<number, Warehouse>,
): Promise<Map<string, number>> {
  const repo = ctx.repo('carrier-inout', call);
  const owned = [...whs.values()].filter((w) => w.partnerId !== null);
  const key =
    by === BY.partner
      ? repo.caseOf(
          'warehouseId',
          owned.map((w) => [Number(w.id), Number(w.partnerId)] as const),
        )
      : col(repo.column('carrierCodeId'));
  const narrow = { ...(p.warehouseId ? { warehouseId: p.warehouseId } : {}), ...(p.carrierCodeId ? { carrierCodeId: p.carrierCodeId } : {}) };
  const found = await repo.rows(
    { ...narrow, ...periodWhere(repo, p) },
    {
      attributes: [
        [key, 'g'],
        [fn('COUNT', fn('DISTINCT', col(repo.column('carrierId')))), 'n'],
      ],
      group: ['g'],
    },
  );
  return new Map(found.map((r) => [String(r.g ?? ''), Number(r.n)]));
}

/** A carrier whose in/out rows in the period carry more than one code: it counts under its latest row's code. */
export interface Recoded {
  codes: Array<number | null>;
  latest: number | null;
}

/**
 * Carriers with in/out rows in the period per carrier code — each once, under the code of its
 * latest row in the period (a carrier re-coded in the period is not counted under both) — and
 * the re-coded carriers. One grouped read per (code, carrier), served in order by the index
 * (org, code, carrier, time): a window over the carrier marks those with more than one code and
 * DISTINCT keeps one row per code plus one per (code, re-coded carrier); their latest row's code
 * is read apart, for those few only. Not narrowed to a code (a carrier's other codes decide where
 * it counts).
 */
export async function codesInPeriod(
  ctx: PluginServerContext,
  call: RequestContext,
  p: Period,
): Promise<{ carriers: Map<string, number>; recoded: Map<number, Recoded> }> {
  const repo = ctx.repo('carrier-inout', call);
  const [code, carrier] = [repo.quoted('carrierCodeId'), repo.quoted('carrierId')];
  const found = await repo.rows(
    { ...(p.warehouseId ? { warehouseId: p.warehouseId } : {}), ...periodWhere(repo, p) },
    {
      attributes: [
        [literal(`DISTINCT ${code}`), 'code'],
        [literal(`COUNT(*) OVER (PARTITION BY ${code})`), 'n'],
        [literal(`CASE WHEN COUNT(*) OVER (PARTITION BY ${carrier}) > 1 THEN ${carrier} END`), 'carrierId'],
      ],
      group: [col(repo.column('carrierCodeId')), col(repo.column('carrierId'))],
    },
  );
  const carriers = new Map<string, number>();
  const codes = new Map<number, Array<number | null>>();
  for (const r of found) {
    const c = n(r.code);
    carriers.set(String(c ?? ''), Number(r.n));
    if (r.carrierId === null || r.carrierId === undefined) continue;
    const list = codes.get(Number(r.carrierId));
    if (list) list.push(c);
    else codes.set(Number(r.carrierId), [c]);
  }
  // the re-coded carriers' latest row per code (a few carriers: their last times read apart, not for every carrier above)
  const recoded = new Map<number, Recoded>();
  const ids = [...codes.keys()];
  for (let i = 0; i < ids.length; i += 1000) {
    const last = await repo.rows(
      { ...(p.warehouseId ? { warehouseId: p.warehouseId } : {}), ...periodWhere(repo, p), carrierId: { [Op.in]: ids.slice(i, i + 1000) } },
      {
        attributes: ['carrierId', 'carrierCodeId', [literal(repo.epochDaysOf(`MAX(${repo.quoted('confirmTime')})`)), 'last']],
        group: ['carrierId', 'carrierCodeId'],
      },
    );
    const at = new Map<number, number>();
    for (const r of last) {
      const id = Number(r.carrierId);
      const c = n(r.carrierCodeId);
      const t = Number(r.last);
      const x = recoded.get(id);
      // the latest row's code; rows at the same instant under two codes: the higher code
      if (!x) recoded.set(id, { codes: codes.get(id)!, latest: c });
      else if (t > at.get(id)! || (t === at.get(id) && (c ?? 0) > (x.latest ?? 0))) x.latest = c;
      else continue;
      at.set(id, t);
    }
  }
  for (const x of recoded.values()) for (const c of x.codes) if (c !== x.latest) carriers.set(String(c ?? ''), (carriers.get(String(c ?? '')) ?? 0) - 1);
  return { carriers, recoded };
}

export interface Figures {
  carriers: number;
  arrivals: number;
  departures: number;
  visits: number;
  carrierDays: number;
  cycles: number;
  cycleDays: number | null;
  turnsPerYear: number | null;
  dwellDays: number | null;
}

/** Sums of cells into the figures of one group. */
export function figuresOf(cells: Cell[]): Figures {
  const ids = new Set<number>();
  let carriers = 0;
  let arrivals = 0;
  let departures = 0;
  let visits = 0;
  let held = 0;
  let cycles = 0;
  let span = 0;
  for (const c of cells) {
    if (c.carrierId === null) carriers += c.carriers;
    else ids.add(c.carrierId);
    arrivals += c.arrivals;
    departures += c.departures;
    visits += c.visits;
    held += c.held;
    cycles += c.cycles;
    span += c.span;
  }
  const cycleDays = cycles ? span / cycles : null;
  return {
    carriers: carriers + ids.size,
    arrivals,
    departures,
    visits,
    carrierDays: round(held),
    cycles,
    cycleDays: cycleDays === null ? null : round(cycleDays),
    turnsPerYear: cycleDays ? round(365 / cycleDays) : null,
    dwellDays: visits ? round(held / visits) : null,
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
export async function turnsRows(ctx: PluginServerContext, q: ReportQuery<Params>): Promise<TurnsRow[]> {
  const { time, by, warehouseId, carrierCodeId } = q.params;
  const whs = await warehousesOf(ctx, q.ctx, { warehouseId });
  if (!whs.size) return [];
  const period = { from: time.from, to: time.to, warehouseId, carrierCodeId };
  // per code: each carrier under its latest code in the period (codesInPeriod)
  const perCode = by === BY.carrierCode ? await codesInPeriod(ctx, q.ctx, period) : null;
  const cells = await cellsOf(ctx, q.ctx, period, whs, perCode?.recoded);
  const groups = new Map<string, Cell[]>();
  const keyOf = (c: Cell): string => {
    if (by === BY.partner) return String(whs.get(c.warehouseId)?.partnerId ?? '');
    if (by === BY.carrierCode) return String(c.carrierCodeId ?? '');
    return String(c.warehouseId);
  };
  for (const c of cells) {
    const k = keyOf(c);
    const g = groups.get(k);
    if (g) g.push(c);
    else groups.set(k, [c]);
  }
  const ids = [...groups.keys()].filter(Boolean).map(Number);
  const none = q.t(`${K}.none`);
  let label: (k: string) => { code: string; name: string };
  if (by === BY.partner) {
    const partners = await partnersOf(ctx, q.ctx, ids);
    label = (k) => ({ code: partners.get(Number(k))?.entCode ?? '', name: partners.get(Number(k))?.name ?? none });
  } else if (by === BY.carrierCode) {
    const codes = await codesOf(ctx, q.ctx, ids);
    label = (k) => codes.get(Number(k)) ?? { code: '', name: none };
  } else label = (k) => ({ code: whs.get(Number(k))?.code ?? '', name: whs.get(Number(k))?.name ?? none });
  // per partner or code a carrier counts once however many of the group's warehouses it visited
  const distinct = by === BY.partner ? await distinctCarriers(ctx, q.ctx, period, by, whs) : (perCode?.carriers ?? null);
  const figures = (k: string, cs: Cell[]) => {
    const f = figuresOf(cs);
    if (distinct) f.carriers += (distinct.get(k) ?? 0) - cs.reduce((s, c) => s + (c.fromRows ? c.carriers : 0), 0);
    return f;
  };
  return [...groups.entries()]
    .map(([k, cs]) => ({ key: k, ...label(k), ...figures(k, cs) }))
    .sort((a, b) => (a.code || '\uffff').localeCompare(b.code || '\uffff') || a.name.localeCompare(b.name));
}

export function defineTurns(ctx: PluginServerContext): void {
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
      { key: 'carriers', label: `${K}.col.carriers`, type: 'int' },
      { key: 'arrivals', label: `${K}.col.arrivals`, type: 'int' },
      { key: 'departures', label: `${K}.col.departures`, type: 'int' },
      { key: 'cycles', label: `${K}.col.cycles`, type: 'int' },
      { key: 'cycleDays', label: `${K}.col.cycleTime`, unit: 'days', type: 'decimal' },
      { key: 'turnsPerYear', label: `${K}.col.turnsPerYear`, type: 'decimal' },
      { key: 'visits', label: `${K}.col.visits`, type: 'int' },
      { key: 'dwellDays', label: `${K}.col.dwell`, unit: 'days', type: 'decimal' },
      { key: 'carrierDays', label: `${K}.col.carrierDays`, type: 'decimal' },
    ],
    rowKey: 'key',
    chart: { type: 'bar', x: 'name', y: ['cycleDays', 'dwellDays'] },
    async rows(q, w) {
      return page(await turnsRows(ctx, q), w);
    },
    scan: (q) => once(turnsRows(ctx, q)),
  });
}

export type { Row };
