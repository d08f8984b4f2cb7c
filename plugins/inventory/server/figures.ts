/**
 * The inventory figures per warehouse and carrier code, read now: in stock, under maintenance,
 * idle (standing longer than the idle check time of the code in that warehouse, else of the
 * warehouse), empty and full, in transit to and from the warehouse (shipped lines of ship
 * orders in transit), against min and max (the code's per-warehouse configuration) and the
 * warehouse's min, max and theory. Every read goes through the caller's scoped repository, so
 * a warehouse-restricted operator gets its own warehouses only; counts are grouped reads (a
 * handful of statements whatever the pool's size), never one query per warehouse or carrier.
 */
import { Enums } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import { IN_STOCK } from './adjustment';
import { cellKey, maintainedStock, transitOf, type TransitCell } from './stock';

/** transport statuses of a carrier standing in a warehouse (reports count with the same rule) */
export { IN_STOCK };

type Row = Record<string, any>;
const Status = Enums.carrierStatus;
const Transport = Enums.transportStatus;
const Loading = Enums.loadingStatus;
/** carrier statuses no longer counted as stock (gone from the pool) */
export const OFF_BOOKS: number[] = [Status.scrapped, Status.lost];
/** carrier statuses of a carrier standing but not usable */
export const IN_MAINTENANCE: number[] = [Status.maintenance, Status.damaged];
/** warehouses one answer covers at most (a pool of 500 fits) */
export const MAX_WAREHOUSES = 5000;

export type Level = 'below' | 'above' | 'normal' | 'none';

export interface Figures {
  inStock: number;
  available: number;
  maintenance: number;
  idle: number;
  empty: number;
  full: number;
  inTransitIn: number;
  inTransitOut: number;
}

export interface CodeRow extends Figures {
  key: string;
  warehouseId: number;
  warehouseCode: string;
  warehouseName: string;
  carrierCodeId: number | null;
  carrierCode: string;
  carrierCodeName: string;
  min: number | null;
  max: number | null;
  levelKey: Level;
  level: string;
}

export interface WarehouseRow extends Figures {
  id: number;
  warehouseId: number;
  warehouseCode: string;
  warehouseName: string;
  min: number | null;
  max: number | null;
  theory: number | null;
  /** in stock minus theory */
  gap: number | null;
  levelKey: Level;
  level: string;
  codes: number;
}

const n = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const zero = (): Figures => ({ inStock: 0, available: 0, maintenance: 0, idle: 0, empty: 0, full: 0, inTransitIn: 0, inTransitOut: 0 });

export function levelOf(count: number, min: number | null, max: number | null): Level {
  if (min === null && max === null) return 'none';
  if (min !== null && count < min) return 'below';
  if (max !== null && max > 0 && count > max) return 'above';
  return 'normal';
}

export interface Filter {
  warehouseId?: number;
  carrierCodeId?: number;
  /** in stock, maintenance and in transit only (idle, empty and full stay 0): half the work per carrier for who needs no more */
  stockOnly?: boolean;
  /** only these rows of the sorted answer (a list page); `total` counts them all */
  window?: { offset: number; limit: number };
  /** the warehouses of a list page (set by byCode itself when it pages at the source) */
  warehouseIds?: number[];
  /** in transit of those warehouses, read once by the paging pass */
  transit?: TransitCell[];
  /** group the carriers even where the maintained counts (stock.ts) are kept: what they are checked against */
  direct?: boolean;
}

export type { TransitCell };

export function figuresReader(ctx: PluginServerContext) {
  const stock = maintainedStock(ctx);

  async function warehousesOf(call: RequestContext, f: Filter): Promise<Row[]> {
    return ctx.repo('warehouse', call).rows(f.warehouseId ? { id: f.warehouseId } : f.warehouseIds ? { id: { [Op.in]: f.warehouseIds } } : {}, {
      attributes: ['id', 'code', 'name', 'minInventory', 'maxInventory', 'theoryInventory', 'idleCheckTime'],
      order: [
        ['code', 'ASC'],
        ['id', 'ASC'],
      ],
      limit: MAX_WAREHOUSES,
    });
  }

  /**
   * A list page from the maintained counts: which warehouses it covers is found from keys only (the
   * cells per warehouse: codes standing there, configured there, in transit), then the full figures
   * are read for those two or three warehouses — not 25,000 cells to answer 100.
   */
  async function pageAtSource(call: RequestContext, f: Filter & { window: { offset: number; limit: number } }, t: (key: string) => string, now: Date) {
    // the answer's warehouses in their order, ids only, straight from the driver (500 rows through Sequelize's result handling cost more
    // than the statement); the page's own are read whole below
    const warehouses = await ctx.repo('warehouse', call).driverRows(['id'], {}, [
      ['code', 'ASC'],
      ['id', 'ASC'],
    ]);
    if (!warehouses.length) return { rows: [], warehouses, total: 0 };
    // the cells per warehouse (standing, configured or in transit there), kept on the maintained rows: one grouped read
    const cellsOf = await stock.cellsPerWarehouse(call, f.carrierCodeId);
    const { offset, limit } = f.window;
    const page: number[] = [];
    let total = 0;
    let within = 0;
    for (const w of warehouses) {
      const k = cellsOf.get(Number(w.id)) ?? 0;
      if (k && total + k > offset && total < offset + limit) {
        if (!page.length) within = offset - total;
        page.push(Number(w.id));
      }
      total += k;
    }
    if (!page.length) return { rows: [], warehouses, total };
    const transit = await stock.transitAt(call, page, f.carrierCodeId);
    const sub = await byCode(call, { ...f, warehouseIds: page, window: { offset: within, limit }, transit }, t, now);
    return { rows: sub.rows, warehouses, total };
  }

  /** per warehouse and code, now (rows sorted by warehouse code, then carrier code) */
  async function byCode(
    call: RequestContext,
    f: Filter,
    t: (key: string) => string,
    now = new Date(),
  ): Promise<{ rows: CodeRow[]; warehouses: Row[]; total: number }> {
    if (f.window && !f.warehouseId && !f.warehouseIds && !f.direct && stock.isActive()) return pageAtSource(call, { ...f, window: f.window }, t, now);
    const warehouses = await warehousesOf(call, f);
    if (!warehouses.length) return { rows: [], warehouses, total: 0 };
    const whIds = warehouses.map((w) => Number(w.id));
    const whById = new Map(warehouses.map((w) => [Number(w.id), w]));
    // the scope already holds a restricted caller to its warehouses: naming all of them (IN of 500 ids) only slows the plan
    const whWhere = f.warehouseId
      ? { warehouseId: f.warehouseId }
      : !f.warehouseIds && whIds.length < MAX_WAREHOUSES
        ? { warehouseId: { [Op.ne]: null } }
        : { warehouseId: { [Op.in]: whIds } };
    const codeWhere = f.carrierCodeId ? { carrierCodeId: f.carrierCodeId } : {};
    const carriers = ctx.repo('carrier', call);
    const standing = { ...whWhere, transportStatus: { [Op.in]: IN_STOCK }, status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] }, ...codeWhere };
    const cells = new Map<number, Figures & { warehouseId: number; carrierCodeId: number | null }>();
    const cell = (w: number, c: number | null) => {
      const k = cellKey(w, c);
      let x = cells.get(k);
      if (!x)
        cells.set(
          k,
          (x = { inStock: 0, available: 0, maintenance: 0, idle: 0, empty: 0, full: 0, inTransitIn: 0, inTransitOut: 0, warehouseId: w, carrierCodeId: c }),
        );
      return x;
    };
    // idle by time: standing (not yet marked idle) since before the idle check time of the code in that warehouse, else of the warehouse
    // one per warehouse and code (20,000 at pool scale): straight from the driver
    const configs = await ctx
      .repo('carrier-code-warehouse', call)
      .driverRows(['warehouseId', 'carrierCodeId', 'minInventory', 'maxInventory', 'idleCheckTime'], { ...whWhere, ...codeWhere });
    const configOf = new Map(configs.filter((c) => whById.has(Number(c.warehouseId))).map((c) => [cellKey(Number(c.warehouseId), n(c.carrierCodeId)), c]));
    const whIdle = new Map(warehouses.map((w) => [Number(w.id), n(w.idleCheckTime)]));
    const minutesOf = (w: number, c: number | null): number | null => n(configOf.get(cellKey(w, c))?.idleCheckTime) ?? whIdle.get(w) ?? null;
    const minutes = new Set<number>();
    for (const w of warehouses) if (n(w.idleCheckTime)) minutes.add(Number(w.idleCheckTime));
    for (const c of configOf.values()) if (n(c.idleCheckTime)) minutes.add(Number(c.idleCheckTime));
    const thresholds = [...minutes].sort((a, b) => a - b);
    // else one grouped pass over the carriers
    async function scan(): Promise<void> {
      // 1. what stands in the warehouses, in one grouped pass: each figure a conditional count, idle by time one count per distinct idle check time
      const when: Record<string, WhereOptions> = f.stockOnly
        ? { maintenance: { status: { [Op.in]: IN_MAINTENANCE } } }
        : {
            maintenance: { status: { [Op.in]: IN_MAINTENANCE } },
            empty: { loadingStatus: Loading.empty },
            full: { loadingStatus: Loading.full },
            marked: { transportStatus: Transport.idle },
          };
      // idle at a threshold = marked idle, or standing since before it (one comparison fewer per row than marked + the rest)
      if (!f.stockOnly)
        thresholds.forEach(
          (m, i) => (when[`idle${i}`] = { [Op.or]: [{ transportStatus: Transport.idle }, { inboundTime: { [Op.lt]: new Date(now.getTime() - m * 60_000) } }] }),
        );
      for (const g of await carriers.countWhen(['warehouseId', 'carrierCodeId'], when, standing)) {
        const w = Number(g.warehouseId);
        // a carrier granted to the caller by an open order stands in a warehouse outside the answer
        if (!whById.has(w)) continue;
        const c = n(g.carrierCodeId);
        const x = cell(w, c);
        x.inStock += g.n;
        x.maintenance += g.maintenance;
        if (f.stockOnly) continue;
        x.empty += g.empty;
        x.full += g.full;
        const m = minutesOf(w, c);
        x.idle += m ? g[`idle${thresholds.indexOf(m)}`] : g.marked;
      }
    }
    // 1. what stands in the warehouses: the maintained counts (~1 row per cell) where the triggers keep them
    const kept =
      stock.isActive() && !f.direct
        ? await stock.read(
            call,
            { warehouseId: f.warehouseId, warehouseIds: f.warehouseIds, carrierCodeId: f.carrierCodeId },
            f.stockOnly ? () => null : minutesOf,
            now,
          )
        : null;
    if (kept) {
      for (const g of kept) {
        // a cell the caller's scope shows outside the answer's warehouses, or emptied since (no carrier left)
        if (!whById.has(g.warehouseId) || !g.inStock) continue;
        const x = cell(g.warehouseId, g.carrierCodeId);
        x.inStock += g.inStock;
        x.maintenance += g.maintenance;
        if (f.stockOnly) continue;
        x.empty += g.empty;
        x.full += g.full;
        x.idle += g.idle;
      }
    } else await scan();
    // 2. in transit: shipped lines of ship orders in transit, to and from the warehouses
    for (const x of f.transit ?? (await transitOf(ctx, call, whIds, !!(f.warehouseId || f.warehouseIds) || whIds.length >= MAX_WAREHOUSES, codeWhere))) {
      const y = cell(x.w, x.c);
      y.inTransitIn += x.inn;
      y.inTransitOut += x.out;
    }
    // a configured code shows even with nothing in stock (it is below its minimum)
    for (const c of configOf.values()) cell(Number(c.warehouseId), n(c.carrierCodeId));
    const codeIds = [...new Set([...cells.values()].map((x) => x.carrierCodeId).filter((x): x is number => x !== null))];
    const codes = new Map(
      (codeIds.length ? await ctx.repo('carrier-code', call).rows({ id: { [Op.in]: codeIds } }, { attributes: ['id', 'code', 'name'] }) : []).map((c) => [
        Number(c.id),
        c,
      ]),
    );
    // sorted light, decorated only where answered (a list page decorates 100 of 25,000 cells)
    const order = new Map(warehouses.map((w, i) => [Number(w.id), i]));
    const codeOf = (x: { carrierCodeId: number | null }) => String((x.carrierCodeId !== null ? codes.get(x.carrierCodeId)?.code : '') ?? '');
    // the codes ranked once (localeCompare per comparison of 25,000 rows was most of the sort)
    const rank = new Map([...new Set([...cells.values()].map(codeOf))].sort((a, b) => a.localeCompare(b)).map((c, i) => [c, i]));
    const sorted = [...cells.values()]
      .map((x) => {
        const c = codeOf(x);
        return { x, o: order.get(x.warehouseId)!, c, r: rank.get(c)! };
      })
      .sort((a, b) => a.o - b.o || a.r - b.r || (a.x.carrierCodeId ?? 0) - (b.x.carrierCodeId ?? 0));
    const total = sorted.length;
    const answered = f.window ? sorted.slice(f.window.offset, f.window.offset + f.window.limit) : sorted;
    // four level labels: each translated once
    const levels = new Map<Level, string>();
    const levelLabel = (k: Level) => levels.get(k) ?? (levels.set(k, t(`inventory.level.${k}`)), levels.get(k)!);
    const rows: CodeRow[] = answered.map(({ x, c }) => {
      const w = whById.get(x.warehouseId)!;
      const cfg = configOf.get(cellKey(x.warehouseId, x.carrierCodeId));
      x.available = x.inStock - x.maintenance;
      const code = x.carrierCodeId !== null ? codes.get(x.carrierCodeId) : undefined;
      const min = n(cfg?.minInventory);
      const max = n(cfg?.maxInventory);
      const levelKey = levelOf(x.inStock, min, max);
      return {
        ...x,
        key: `${x.warehouseId}:${x.carrierCodeId ?? ''}`,
        warehouseCode: String(w.code ?? ''),
        warehouseName: String(w.name ?? ''),
        carrierCode: c,
        carrierCodeName: String(code?.name ?? ''),
        min,
        max,
        levelKey,
        level: levelLabel(levelKey),
      };
    });
    return { rows, warehouses, total };
  }

  /** per warehouse: the sum over its codes against the warehouse's min, max and theory */
  async function byWarehouse(call: RequestContext, f: Filter, t: (key: string) => string, now = new Date()): Promise<WarehouseRow[]> {
    const { rows, warehouses } = await byCode(call, f, t, now);
    const sums = new Map<number, Figures & { codes: number }>();
    for (const r of rows) {
      const s = sums.get(r.warehouseId) ?? { ...zero(), codes: 0 };
      for (const k of Object.keys(zero()) as Array<keyof Figures>) s[k] += r[k];
      if (r.inStock) s.codes++;
      sums.set(r.warehouseId, s);
    }
    return warehouses.map((w) => {
      const s = sums.get(Number(w.id)) ?? { ...zero(), codes: 0 };
      const [min, max, theory] = [n(w.minInventory), n(w.maxInventory), n(w.theoryInventory)];
      const levelKey = levelOf(s.inStock, min, max);
      return {
        ...s,
        id: Number(w.id),
        warehouseId: Number(w.id),
        warehouseCode: String(w.code ?? ''),
        warehouseName: String(w.name ?? ''),
        min,
        max,
        theory,
        gap: theory === null ? null : s.inStock - theory,
        levelKey,
        level: t(`inventory.level.${levelKey}`),
      };
    });
  }

  return { byCode, byWarehouse, warehousesOf };
}

export type FiguresReader = ReturnType<typeof figuresReader>;
