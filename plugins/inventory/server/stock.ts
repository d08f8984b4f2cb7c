/**
 * Maintained stock counts (resource inventory-stock): per organisation, warehouse and carrier code,
 * how many carriers stand there, under maintenance, empty, full, marked idle and idle by time —
 * so the realtime figures read ~25,000 small rows instead of grouping every carrier.
 *
 * Kept by database triggers on the carrier table, not by the code paths that move carriers:
 * carriers change through generic CRUD and imports, document steps, the telemetry engine's raw
 * model updates and hand-written SQL, and a count that misses one path drifts for good. A trigger
 * sees every row change, in the writer's transaction, on every API instance. The triggers only add
 * and subtract the changed carrier's own figures (the old row's out, the new row's in).
 *
 * Idle by time depends on the clock: a carrier becomes idle when it has stood longer than the idle
 * check time of its cell. Each row keeps `aged` = its carriers not marked idle that came in before
 * `agedBefore` (the cell's threshold at the last rebuild, t0 − minutes); the triggers count an
 * arriving or leaving carrier into `aged` by comparing its inbound time with the row's
 * `agedBefore`. A reader adds the carriers that came in between `agedBefore` and now − minutes (or
 * takes away those after now − minutes, when the threshold grew): a window as wide as the time
 * since the last rebuild, read from an index on (org, inbound time, …).
 *
 * A job (once per cluster, every REBUILD_EVERY_MS) recomputes each organisation's rows set-based in
 * one write transaction: it moves `agedBefore` forward and repairs (and logs) any drift. On start,
 * triggers that are missing (a fresh database, or a schema change that rebuilt the carrier table)
 * are created and every organisation rebuilt. Where triggers cannot be created (a MariaDB user
 * without the TRIGGER privilege) the figures fall back to grouping the carriers.
 */
import { Enums } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import { IN_MAINTENANCE, IN_STOCK, OFF_BOOKS } from './figures';

type Row = Record<string, any>;
const Transport = Enums.transportStatus;
const Loading = Enums.loadingStatus;
/** the rebuild that moves idle-by-time forward and repairs drift runs this often */
// a rebuild holds SQLite's write lock for seconds at 10^6 carriers (4.3 s measured under load); the readers' windows grow
// with the interval (the arrivals of at most one hour per idle check time: a few thousand index entries at pool scale)
export const REBUILD_EVERY_MS = 60 * 60_000;
const SLOW_REBUILD_MS = 1000;
/** trigger names carry the version of their SQL: a changed definition replaces the old triggers */
const TRIGGER = 'inventory_stock_v2';
const CARRIER_INDEX = 'inventory_carrier_inbound';
const CELL_INDEX = 'inventory_stock_cell';
/** standing carriers not marked idle (the ones idle by time counts) */
const NOT_MARKED = IN_STOCK.filter((s) => s !== Transport.idle);

export interface StockCell {
  warehouseId: number;
  carrierCodeId: number | null;
  inStock: number;
  maintenance: number;
  empty: number;
  full: number;
  /** marked idle, plus idle by time at the cell's threshold (null: marked only) */
  idle: number;
}

/** rows share a handful of agedBefore values (one per threshold at the last rebuild): each parsed once */
function dateParser(): (v: unknown) => Date | null {
  const seen = new Map<string, Date | null>();
  return (v) => {
    if (v === null || v === undefined || v === '') return null;
    if (v instanceof Date) return v;
    const raw = String(v);
    let d = seen.get(raw);
    if (d === undefined) {
      // SQLite answers 'YYYY-MM-DD HH:MM:SS.SSS +00:00' from the driver
      const t = new Date(raw.replace(' ', 'T').replace(/ ?([+-]\d\d:\d\d)$/, '$1'));
      seen.set(raw, (d = Number.isNaN(t.getTime()) ? null : t));
    }
    return d;
  };
}
/** cells counted whole (new since the last rebuild) beyond which one grouped pass over the carriers is cheaper */
const MAX_WHOLE = 500;

/** databases (one per server; tests run several in a process) whose triggers keep the counts */
const ACTIVE = new WeakSet<object>();

export function maintainedStock(ctx: PluginServerContext) {
  const dialect = ctx.db.getDialect();
  const sqlite = dialect === 'sqlite';
  const q = (id: string) => ctx.db.getQueryInterface().quoteIdentifier(id);
  // table and column names for the triggers' DDL only: no row is read or written through these models
  const names = () => {
    // eslint-disable-next-line rti/no-raw-models -- names for DDL, see above
    const carrier = ctx.db.models['carrier'];
    // eslint-disable-next-line rti/no-raw-models -- names for DDL, see above
    const stock = ctx.db.models['inventory-stock'];
    const c = (a: string) => q(carrier.getAttributes()[a].field!);
    const s = (a: string) => q(stock.getAttributes()[a].field!);
    return { carrier: q(String(carrier.getTableName())), stock: q(String(stock.getTableName())), c, s };
  };

  function triggerSql(): string[] {
    const { carrier, stock, c, s } = names();
    const list = (xs: number[]) => xs.join(', ');
    const standing = (x: string) =>
      `${x}.${c('warehouseId')} IS NOT NULL AND ${x}.${c('transportStatus')} IN (${list(IN_STOCK)}) AND (${x}.${c('status')} IS NULL OR ${x}.${c('status')} NOT IN (${list(OFF_BOOKS)}))`;
    const when = (cond: string) => `CASE WHEN ${cond} THEN 1 ELSE 0 END`;
    const figures = (x: string) => ({
      maintenance: when(`${x}.${c('status')} IN (${list(IN_MAINTENANCE)})`),
      empty: when(`${x}.${c('loadingStatus')} = ${Loading.empty}`),
      full: when(`${x}.${c('loadingStatus')} = ${Loading.full}`),
      marked: when(`${x}.${c('transportStatus')} = ${Transport.idle}`),
    });
    // compared with the stock row's own agedBefore (unqualified: the row being updated)
    const aged = (x: string) =>
      when(`${x}.${c('transportStatus')} <> ${Transport.idle} AND ${x}.${c('inboundTime')} IS NOT NULL AND ${x}.${c('inboundTime')} < ${s('agedBefore')}`);
    const key = (x: string) =>
      `${s('orgId')} = ${x}.${c('orgId')} AND ${s('warehouseId')} = ${x}.${c('warehouseId')} AND ${s('codeKey')} = COALESCE(${x}.${c('carrierCodeId')}, 0)`;
    const sub = (x: string) => {
      const f = figures(x);
      return `UPDATE ${stock} SET ${s('inStock')} = ${s('inStock')} - 1, ${(Object.keys(f) as Array<keyof typeof f>).map((k) => `${s(k)} = ${s(k)} - ${f[k]}`).join(', ')}, ${s('aged')} = ${s('aged')} - ${aged(x)} WHERE ${key(x)}`;
    };
    const add = (x: string) => {
      // a raw insert without timestamps must not fail on the counts' NOT NULL audit columns
      const stamp = `COALESCE(${x}.${c('updatedAt')}, CURRENT_TIMESTAMP)`;
      const f = figures(x);
      const ks = Object.keys(f) as Array<keyof typeof f>;
      const excluded = (k: string) => (sqlite ? `excluded.${s(k)}` : `VALUES(${s(k)})`);
      const insert = `INSERT INTO ${stock} (${['orgId', 'warehouseId', 'codeKey', 'inStock', ...ks, 'aged', 'agedBefore', 'createdAt', 'updatedAt'].map(s).join(', ')})
        VALUES (${x}.${c('orgId')}, ${x}.${c('warehouseId')}, COALESCE(${x}.${c('carrierCodeId')}, 0), 1, ${ks.map((k) => f[k]).join(', ')}, 0, NULL, ${stamp}, ${stamp})`;
      const set = `${s('inStock')} = ${s('inStock')} + 1, ${ks.map((k) => `${s(k)} = ${s(k)} + ${excluded(k)}`).join(', ')}, ${s('aged')} = ${s('aged')} + ${aged(x)}`;
      return sqlite
        ? `${insert} ON CONFLICT (${s('orgId')}, ${s('warehouseId')}, ${s('codeKey')}) DO UPDATE SET ${set}`
        : `${insert} ON DUPLICATE KEY UPDATE ${set}`;
    };
    const moved = ['orgId', 'warehouseId', 'carrierCodeId', 'transportStatus', 'status', 'loadingStatus', 'inboundTime']
      .map((a) => (sqlite ? `OLD.${c(a)} IS NOT NEW.${c(a)}` : `NOT (OLD.${c(a)} <=> NEW.${c(a)})`))
      .join(' OR ');
    if (sqlite) {
      return [
        `CREATE TRIGGER ${TRIGGER}_ins AFTER INSERT ON ${carrier} WHEN ${standing('NEW')} BEGIN ${add('NEW')}; END`,
        `CREATE TRIGGER ${TRIGGER}_del AFTER DELETE ON ${carrier} WHEN ${standing('OLD')} BEGIN ${sub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_upd_out AFTER UPDATE ON ${carrier} WHEN (${moved}) AND ${standing('OLD')} BEGIN ${sub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_upd_in AFTER UPDATE ON ${carrier} WHEN (${moved}) AND ${standing('NEW')} BEGIN ${add('NEW')}; END`,
      ];
    }
    return [
      `CREATE TRIGGER ${TRIGGER}_ins AFTER INSERT ON ${carrier} FOR EACH ROW BEGIN IF ${standing('NEW')} THEN ${add('NEW')}; END IF; END`,
      `CREATE TRIGGER ${TRIGGER}_del AFTER DELETE ON ${carrier} FOR EACH ROW BEGIN IF ${standing('OLD')} THEN ${sub('OLD')}; END IF; END`,
      `CREATE TRIGGER ${TRIGGER}_upd AFTER UPDATE ON ${carrier} FOR EACH ROW BEGIN IF ${moved} THEN IF ${standing('OLD')} THEN ${sub('OLD')}; END IF; IF ${standing('NEW')} THEN ${add('NEW')}; END IF; END IF; END`,
    ];
  }

  async function triggersPresent(): Promise<string[]> {
    const [rows] = (await ctx.db.query(
      sqlite
        ? `SELECT name AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'inventory_stock_%'`
        : `SELECT TRIGGER_NAME AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'inventory_stock_%'`,
    )) as [Array<{ n: string }>, unknown];
    return rows.map((r) => String(r.n));
  }

  /** creates what is missing (indexes, triggers); answers whether the counts must be rebuilt */
  async function ensure(): Promise<boolean> {
    const { carrier, stock, c, s } = names();
    const ifNot = 'IF NOT EXISTS ';
    // the key the triggers' upsert lands on
    await ctx.db.query(`CREATE UNIQUE INDEX ${ifNot}${CELL_INDEX} ON ${stock} (${s('orgId')}, ${s('warehouseId')}, ${s('codeKey')})`);
    // the readers' window of recent arrivals (idle by time since the last rebuild), read from the index alone
    await ctx.db.query(
      `CREATE INDEX ${ifNot}${CARRIER_INDEX} ON ${carrier} (${['orgId', 'inboundTime', 'warehouseId', 'carrierCodeId', 'transportStatus', 'status'].map(c).join(', ')})`,
    );
    const sql = triggerSql();
    const want = sql.map((x) => /CREATE TRIGGER (\w+)/.exec(x)![1]);
    const have = await triggersPresent();
    if (want.every((n) => have.includes(n)) && have.length === want.length) return false;
    // a partial or older set: replace all of them (the rebuild that follows makes the counts whole)
    for (const n of have) await ctx.db.query(`DROP TRIGGER IF EXISTS ${n}`);
    for (const x of sql) await ctx.db.query(x);
    return true;
  }

  /** the idle check time of each cell (the code's in that warehouse, else the warehouse's) and the distinct ones */
  async function thresholdsOf(call: RequestContext) {
    const warehouses = await ctx.repo('warehouse', call).driverRows(['id', 'idleCheckTime'], {});
    const configs = await ctx.repo('carrier-code-warehouse', call).driverRows(['warehouseId', 'carrierCodeId', 'idleCheckTime'], {});
    const minutes = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number(v) ? null : Number(v));
    const byWarehouse = new Map(warehouses.map((w) => [Number(w.id), minutes(w.idleCheckTime)]));
    const byCell = new Map<string, number>();
    for (const g of configs) if (minutes(g.idleCheckTime)) byCell.set(`${g.warehouseId}:${g.carrierCodeId ?? 0}`, Number(g.idleCheckTime));
    const distinct = [...new Set([...byWarehouse.values(), ...byCell.values()].filter((m): m is number => m !== null))].sort((a, b) => a - b);
    return { of: (w: number, code: number): number | null => byCell.get(`${w}:${code}`) ?? byWarehouse.get(w) ?? null, distinct };
  }

  /**
   * Recomputes the organisation's rows from the carriers, in one write transaction (no move lands
   * between the count and the write: SQLite's writers queue, MariaDB's wait on the locked rows).
   * Answers the cells whose maintained figures differed (drift; 0 when the triggers kept up).
   */
  async function rebuild(orgId: number, now = new Date()): Promise<number> {
    const sys = ctx.systemContext(orgId);
    const carriers = ctx.repo('carrier', sys);
    const stock = ctx.repo('inventory-stock', sys);
    const { of: threshold, distinct: minutes } = await thresholdsOf(sys);
    return ctx.transaction(sys, async (_repo, transaction) => {
      // a write first: takes the lock before anything is read
      await stock.increment({ inStock: 0 }, {}, { transaction });
      const before = await stock.rows({}, { attributes: ['warehouseId', 'codeKey', 'inStock', 'maintenance', 'empty', 'full', 'marked'], transaction });
      const when: Record<string, WhereOptions> = {
        maintenance: { status: { [Op.in]: IN_MAINTENANCE } },
        empty: { loadingStatus: Loading.empty },
        full: { loadingStatus: Loading.full },
        marked: { transportStatus: Transport.idle },
      };
      minutes.forEach(
        (m, i) => (when[`aged${i}`] = { transportStatus: { [Op.ne]: Transport.idle }, inboundTime: { [Op.lt]: new Date(now.getTime() - m * 60_000) } }),
      );
      const standing = {
        warehouseId: { [Op.ne]: null },
        transportStatus: { [Op.in]: IN_STOCK },
        status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] },
      };
      const groups = await carriers.countWhen(['warehouseId', 'carrierCodeId'], when, standing, { transaction });
      const rows = groups.map((g) => {
        const w = Number(g.warehouseId);
        const code = Number(g.carrierCodeId ?? 0);
        const m = threshold(w, code);
        return {
          warehouseId: w,
          codeKey: code,
          inStock: g.n,
          maintenance: g.maintenance,
          empty: g.empty,
          full: g.full,
          marked: g.marked,
          aged: m ? g[`aged${minutes.indexOf(m)}`] : 0,
          agedBefore: m ? new Date(now.getTime() - m * 60_000) : null,
        };
      });
      const was = new Map(before.map((r) => [`${r.warehouseId}:${r.codeKey}`, r]));
      let drift = 0;
      for (const r of rows) {
        const b = was.get(`${r.warehouseId}:${r.codeKey}`);
        was.delete(`${r.warehouseId}:${r.codeKey}`);
        if (!b) drift += r.inStock ? 1 : 0;
        else if ((['inStock', 'maintenance', 'empty', 'full', 'marked'] as const).some((k) => Number(b[k]) !== r[k])) drift++;
      }
      for (const b of was.values()) if (Number(b.inStock) || Number(b.maintenance) || Number(b.empty) || Number(b.full) || Number(b.marked)) drift++;
      await stock.deleteWhere({}, { transaction });
      for (let i = 0; i < rows.length; i += 500) await stock.insertMany(rows.slice(i, i + 500), { transaction });
      return drift;
    });
  }

  async function rebuildAll(reason: string): Promise<void> {
    const orgs = new Set([...(await ctx.organisationsWith('carrier')), ...(await ctx.organisationsWith('inventory-stock'))]);
    for (const orgId of orgs) {
      try {
        const started = Date.now();
        const drift = await rebuild(orgId);
        // writers wait while it runs: worth knowing when it grows
        if (Date.now() - started > SLOW_REBUILD_MS)
          ctx.log(`[inventory] rebuilding the stock counts of organisation ${orgId} (${reason}) took ${Date.now() - started} ms`);
        if (drift && reason !== 'triggers created')
          ctx.log(`[inventory] maintained stock counts of organisation ${orgId} differed from the carriers in ${drift} cells: repaired`);
      } catch (err) {
        ctx.log(`[inventory] rebuilding the stock counts of organisation ${orgId} (${reason}) failed`, err);
      }
    }
  }

  /**
   * The maintained figures per cell in the caller's scope (the repository applies tenancy and
   * warehouse scope), idle at each cell's current threshold; the filter narrows to one warehouse or code.
   */
  async function read(
    call: RequestContext,
    filter: { warehouseId?: number; warehouseIds?: number[]; carrierCodeId?: number },
    thresholdOf: (w: number, code: number | null) => number | null,
    now = new Date(),
  ): Promise<StockCell[] | null> {
    // emptied cells stay as rows (a carrier may come back): left out
    const where: WhereOptions = {
      inStock: { [Op.gt]: 0 },
      ...(filter.warehouseId ? { warehouseId: filter.warehouseId } : filter.warehouseIds ? { warehouseId: { [Op.in]: filter.warehouseIds } } : {}),
      ...(filter.carrierCodeId ? { codeKey: filter.carrierCodeId } : {}),
    };
    const rows = await ctx
      .repo('inventory-stock', call)
      .driverRows(['warehouseId', 'codeKey', 'inStock', 'maintenance', 'empty', 'full', 'marked', 'aged', 'agedBefore'], where);
    const cells: StockCell[] = [];
    const asDate = dateParser();
    // idle by time between agedBefore and the threshold now: windows of inbound time, counted below
    const windows = new Map<string, { lo: Date; hi: Date }>();
    const pending: Array<{ cell: StockCell; window?: string; sign: number; whole?: Date }> = [];
    const whole: Array<{ w: number; code: number; cutoff: Date; cell: StockCell }> = [];
    for (const r of rows) {
      const w = Number(r.warehouseId);
      const code = Number(r.codeKey);
      const cell: StockCell = {
        warehouseId: w,
        carrierCodeId: code || null,
        inStock: Number(r.inStock),
        maintenance: Number(r.maintenance),
        empty: Number(r.empty),
        full: Number(r.full),
        idle: Number(r.marked),
      };
      cells.push(cell);
      const m = thresholdOf(w, code || null);
      if (!m || !cell.inStock) continue;
      const cutoff = new Date(now.getTime() - m * 60_000);
      const agedBefore = asDate(r.agedBefore);
      // a cell new since the last rebuild (or without a threshold then): counted whole, below
      if (!agedBefore) {
        whole.push({ w, code, cutoff, cell });
        continue;
      }
      cell.idle += Number(r.aged);
      if (agedBefore.getTime() === cutoff.getTime()) continue;
      const [lo, hi, sign] = agedBefore < cutoff ? [agedBefore, cutoff, 1] : [cutoff, agedBefore, -1];
      const k = `${lo.getTime()}:${hi.getTime()}`;
      if (!windows.has(k)) windows.set(k, { lo, hi });
      pending.push({ cell, window: k, sign });
    }
    // many cells the rebuild has not seen yet (a bulk load since): the caller groups the carriers instead
    if (whole.length > MAX_WHOLE) return null;
    const carriers = ctx.repo('carrier', call);
    const base = {
      ...(filter.warehouseId ? { warehouseId: filter.warehouseId } : filter.warehouseIds ? { warehouseId: { [Op.in]: filter.warehouseIds } } : {}),
      ...(filter.carrierCodeId ? { carrierCodeId: filter.carrierCodeId } : {}),
      transportStatus: { [Op.in]: NOT_MARKED },
      status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] },
    };
    // one statement per window: a single range on inbound time is what the planners read from the index alone
    // (an OR of ranges, or their hull, made SQLite scan every carrier or every arrival of the last days)
    const found = new Map<string, number>();
    for (const [k, x] of windows) {
      for (const g of await carriers.countWhen(['warehouseId', 'carrierCodeId'], {}, { ...base, inboundTime: { [Op.gte]: x.lo, [Op.lt]: x.hi } }))
        found.set(`${k}|${g.warehouseId}:${g.carrierCodeId ?? 0}`, g.n);
    }
    for (const p of pending) p.cell.idle += p.sign * (found.get(`${p.window}|${p.cell.warehouseId}:${p.cell.carrierCodeId ?? 0}`) ?? 0);
    for (let i = 0; i < whole.length; i += 100) {
      const part = whole.slice(i, i + 100);
      const when: Record<string, WhereOptions> = {};
      part.forEach((x, j) => (when[`c${j}`] = { warehouseId: x.w, carrierCodeId: x.code || null, inboundTime: { [Op.lt]: x.cutoff } }));
      const cellsWhere = part.map((x) => ({ warehouseId: x.w, carrierCodeId: x.code || null }));
      const [g] = await carriers.countWhen([], when, { ...base, [Op.or]: cellsWhere });
      part.forEach((x, j) => (x.cell.idle += Number(g?.[`c${j}`] ?? 0)));
    }
    return cells;
  }

  function install(): void {
    ctx.onReady(async () => {
      try {
        const created = await ensure();
        // every start recounts (a crash between creating the triggers and the first rebuild, rows the triggers created
        // without agedBefore): seconds at 1,000,000 carriers, and the job keeps it up after
        await rebuildAll(created ? 'triggers created' : 'start');
        ACTIVE.add(ctx.db);
      } catch (err) {
        ctx.log('[inventory] maintained stock counts unavailable (triggers could not be created); the figures group the carriers instead', err);
      }
    });
    ctx.jobs.every(
      'inventory-stock-rebuild',
      REBUILD_EVERY_MS,
      async () => {
        if (ACTIVE.has(ctx.db)) await rebuildAll('job');
      },
      { once: true },
    );
  }

  return { install, read, rebuild, isActive: () => ACTIVE.has(ctx.db) };
}

export type MaintainedStock = ReturnType<typeof maintainedStock>;
