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
import { Enums, statusGroup } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Op, col, fn, type Transaction, type WhereOptions } from 'sequelize';
import { IN_MAINTENANCE, IN_STOCK, OFF_BOOKS } from './figures';

type Row = Record<string, any>;
const Transport = Enums.transportStatus;
const Loading = Enums.loadingStatus;
/** the rebuild that moves idle-by-time forward and repairs drift runs this often */
// a rebuild holds SQLite's write lock for seconds at 10^6 carriers (4.3 s measured under load); the readers' windows grow
// with the interval (the arrivals of at most one hour per idle check time: a few thousand index entries at pool scale)
export const REBUILD_EVERY_MS = 60 * 60_000;
const SLOW_REBUILD_MS = 1000;
/** the platform's name of the triggers' set (ctx.schema): installed on a server, the counts are kept */
const SET = 'inventory_stock';
/** trigger names carry the version of their SQL: a changed definition replaces the old triggers */
const TRIGGER = `${SET}_v3`;
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
/** warehouses whose carriers' idle windows are counted in one statement (a list page covers two or three) */
const FEW_WAREHOUSES = 5;

/** shipped lines in transit to (in) or from (out) a warehouse, per code */
export interface TransitCell {
  w: number;
  c: number | null;
  inn: number;
  out: number;
}

/** a number per warehouse and code (25,000 map lookups a call: cheaper than string keys); ids below 2^21 and 2^32 */
export const cellKey = (w: number, c: number | null): number => w * 4_294_967_296 + (c ?? 0);
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/**
 * In transit per warehouse and code by grouping the shipped lines of the ship orders in transit
 * (what the triggers keep in inTransitIn/Out, and what they are checked against): `whIds` the
 * warehouses answered (null: every one), `narrow` names them in the orders' condition.
 */
export async function transitOf(
  ctx: PluginServerContext,
  call: RequestContext,
  whIds: number[] | null,
  narrow: boolean,
  codeWhere: WhereOptions,
  transaction?: Transaction,
): Promise<TransitCell[]> {
  const inTransit = ctx.metadata.resources['ship-order'] ? statusGroup(ctx.metadata.resources['ship-order'], 'inTransit').map(Number) : [];
  if (!inTransit.length) return [];
  const ends = narrow && whIds ? { [Op.or]: [{ shipperWarehouseId: { [Op.in]: whIds } }, { receiverWarehouseId: { [Op.in]: whIds } }] } : {};
  const orders = await ctx
    .repo('ship-order', call)
    .rows({ status: { [Op.in]: inTransit }, ...ends }, { attributes: ['id', 'shipperWarehouseId', 'receiverWarehouseId'], transaction });
  const orderOf = new Map(orders.map((o) => [Number(o.id), o]));
  const mine = whIds ? new Set(whIds) : null;
  const has = (w: unknown) => w !== null && w !== undefined && (!mine || mine.has(Number(w)));
  const out = new Map<number, TransitCell>();
  const at = (w: number, c: number | null) => {
    const k = cellKey(w, c);
    let x = out.get(k);
    if (!x) out.set(k, (x = { w, c, inn: 0, out: 0 }));
    return x;
  };
  for (let i = 0; i < orders.length; i += 1000) {
    const ids = orders.slice(i, i + 1000).map((o) => Number(o.id));
    const lines = await ctx
      .repo('ship-order-detail', call)
      .rows(
        { shipOrderId: { [Op.in]: ids }, status: Enums.shipOrderLineStatus.shipped, ...(codeWhere as object) },
        { attributes: ['shipOrderId', 'carrierCodeId', [fn('COUNT', col('id')), 'n']], group: ['shipOrderId', 'carrierCodeId'], transaction },
      );
    for (const g of lines) {
      const o = orderOf.get(Number(g.shipOrderId))!;
      const count = Number(g.n);
      if (has(o.receiverWarehouseId)) at(Number(o.receiverWarehouseId), num(g.carrierCodeId)).inn += count;
      if (has(o.shipperWarehouseId)) at(Number(o.shipperWarehouseId), num(g.carrierCodeId)).out += count;
    }
  }
  return [...out.values()];
}

export function maintainedStock(ctx: PluginServerContext) {
  const sqlite = ctx.schema.dialect === 'sqlite';
  const TRANSIT_STATUSES = ctx.metadata.resources['ship-order'] ? statusGroup(ctx.metadata.resources['ship-order'], 'inTransit').map(Number) : [];
  // table and column names for the triggers' DDL only (the platform's schema service): no row is read or written through them
  const names = () => {
    const table = (resource: string) => {
      const t = ctx.schema.table(resource);
      return { t: t.name, f: t.column };
    };
    const carrier = table('carrier');
    const stock = table('inventory-stock');
    return {
      carrier: carrier.t,
      stock: stock.t,
      c: carrier.f,
      s: stock.f,
      config: table('carrier-code-warehouse'),
      order: table('ship-order'),
      line: table('ship-order-detail'),
    };
  };

  function triggerSql(): string[] {
    const { carrier, stock, c, s, config, order, line } = names();
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
    const excluded = (k: string) => (sqlite ? `excluded.${s(k)}` : `VALUES(${s(k)})`);
    const onConflict = (set: string) =>
      sqlite ? `ON CONFLICT (${s('orgId')}, ${s('warehouseId')}, ${s('codeKey')}) DO UPDATE SET ${set}` : `ON DUPLICATE KEY UPDATE ${set}`;
    /** a new cell row: every figure 0 but the given ones (a raw insert without timestamps must not fail on the NOT NULL audit columns) */
    const COUNTS = ['inStock', 'maintenance', 'empty', 'full', 'marked', 'aged', 'configured', 'inTransitIn', 'inTransitOut'];
    const cellRow = (org: string, w: string, code: string, values: Record<string, string>, stamp: string) =>
      `(${['orgId', 'warehouseId', 'codeKey', ...COUNTS, 'agedBefore', 'createdAt', 'updatedAt'].map(s).join(', ')}) SELECT ${org}, ${w}, ${code}, ${COUNTS.map((k) => values[k] ?? '0').join(', ')}, NULL, COALESCE(${stamp}, CURRENT_TIMESTAMP), COALESCE(${stamp}, CURRENT_TIMESTAMP)`;
    const add = (x: string) => {
      const f = figures(x);
      const ks = Object.keys(f) as Array<keyof typeof f>;
      const insert = `INSERT INTO ${stock} ${cellRow(`${x}.${c('orgId')}`, `${x}.${c('warehouseId')}`, `COALESCE(${x}.${c('carrierCodeId')}, 0)`, { inStock: '1', ...f }, `${x}.${c('updatedAt')}`)}`;
      // SQLite: an INSERT … SELECT with an upsert clause needs a WHERE (its parser's rule)
      return `${insert}${sqlite ? ' WHERE 1' : ''} ${onConflict(`${s('inStock')} = ${s('inStock')} + 1, ${ks.map((k) => `${s(k)} = ${s(k)} + ${excluded(k)}`).join(', ')}, ${s('aged')} = ${s('aged')} + ${aged(x)}`)}`;
    };
    const moved = (cols: string[], f: (a: string) => string) =>
      cols.map((a) => (sqlite ? `OLD.${f(a)} IS NOT NEW.${f(a)}` : `NOT (OLD.${f(a)} <=> NEW.${f(a)})`)).join(' OR ');
    const carrierMoved = moved(['orgId', 'warehouseId', 'carrierCodeId', 'transportStatus', 'status', 'loadingStatus', 'inboundTime'], c);

    // a code's configuration in a warehouse: the cell shows (below its minimum) with nothing there
    const g = config.f;
    const configKey = (x: string) =>
      `${s('orgId')} = ${x}.${g('orgId')} AND ${s('warehouseId')} = ${x}.${g('warehouseId')} AND ${s('codeKey')} = COALESCE(${x}.${g('carrierCodeId')}, 0)`;
    const configAdd = (x: string) =>
      `INSERT INTO ${stock} ${cellRow(`${x}.${g('orgId')}`, `${x}.${g('warehouseId')}`, `COALESCE(${x}.${g('carrierCodeId')}, 0)`, { configured: '1' }, `${x}.${g('updatedAt')}`)}${sqlite ? ' WHERE 1' : ''} ${onConflict(`${s('configured')} = ${s('configured')} + 1`)}`;
    const configSub = (x: string) => `UPDATE ${stock} SET ${s('configured')} = ${s('configured')} - 1 WHERE ${configKey(x)}`;
    const configMoved = moved(['orgId', 'warehouseId', 'carrierCodeId'], g);
    const configured = (x: string) => `${x}.${g('warehouseId')} IS NOT NULL`;

    // in transit: a shipped line of a ship order in transit counts out at the shipper, in at the receiver
    const o = order.f;
    const l = line.f;
    const inTransit = TRANSIT_STATUSES.length ? list(TRANSIT_STATUSES) : 'NULL';
    const SHIPPED = Enums.shipOrderLineStatus.shipped;
    const ENDS = [
      ['shipperWarehouseId', 'inTransitOut'],
      ['receiverWarehouseId', 'inTransitIn'],
    ] as const;
    // a line moved: its order's ends (none when the order is not in transit)
    const lineAdd = (x: string) =>
      ENDS.map(
        ([end, figure]) =>
          `INSERT INTO ${stock} ${cellRow(`o.${o('orgId')}`, `o.${o(end)}`, `COALESCE(${x}.${l('carrierCodeId')}, 0)`, { [figure]: '1' }, `o.${o('updatedAt')}`)} FROM ${order.t} o WHERE o.id = ${x}.${l('shipOrderId')} AND o.${o('status')} IN (${inTransit}) AND o.${o(end)} IS NOT NULL ${onConflict(`${s(figure)} = ${s(figure)} + 1`)}`,
      );
    const lineSub = (x: string) =>
      ENDS.map(
        ([end, figure]) =>
          `UPDATE ${stock} SET ${s(figure)} = ${s(figure)} - 1 WHERE ${s('orgId')} = (SELECT o.${o('orgId')} FROM ${order.t} o WHERE o.id = ${x}.${l('shipOrderId')} AND o.${o('status')} IN (${inTransit})) AND ${s('warehouseId')} = (SELECT o.${o(end)} FROM ${order.t} o WHERE o.id = ${x}.${l('shipOrderId')} AND o.${o('status')} IN (${inTransit})) AND ${s('codeKey')} = COALESCE(${x}.${l('carrierCodeId')}, 0)`,
      );
    const lineMoved = moved(['orgId', 'shipOrderId', 'carrierCodeId', 'status'], l);
    const shipped = (x: string) => `${x}.${l('status')} = ${SHIPPED}`;
    // an order moved (released, received, its ends changed): its shipped lines, per code
    const orderAdd = (x: string) =>
      ENDS.map(
        ([end, figure]) =>
          `INSERT INTO ${stock} ${cellRow(`${x}.${o('orgId')}`, `${x}.${o(end)}`, `COALESCE(l.${l('carrierCodeId')}, 0)`, { [figure]: 'COUNT(*)' }, `${x}.${o('updatedAt')}`)} FROM ${line.t} l WHERE l.${l('shipOrderId')} = ${x}.id AND l.${l('status')} = ${SHIPPED} AND ${x}.${o(end)} IS NOT NULL GROUP BY COALESCE(l.${l('carrierCodeId')}, 0) ${onConflict(`${s(figure)} = ${s(figure)} + ${excluded(figure)}`)}`,
      );
    const orderSub = (x: string) =>
      ENDS.map(
        ([end, figure]) =>
          `UPDATE ${stock} SET ${s(figure)} = ${s(figure)} - (SELECT COUNT(*) FROM ${line.t} l WHERE l.${l('shipOrderId')} = ${x}.id AND l.${l('status')} = ${SHIPPED} AND COALESCE(l.${l('carrierCodeId')}, 0) = ${stock}.${s('codeKey')}) WHERE ${s('orgId')} = ${x}.${o('orgId')} AND ${s('warehouseId')} = ${x}.${o(end)}`,
      );
    const orderMoved = moved(['orgId', 'status', 'shipperWarehouseId', 'receiverWarehouseId'], o);
    const travelling = (x: string) => `${x}.${o('status')} IN (${inTransit})`;
    const body = (xs: string[]) => xs.map((x) => `${x};`).join(' ');

    if (sqlite) {
      return [
        `CREATE TRIGGER ${TRIGGER}_ins AFTER INSERT ON ${carrier} WHEN ${standing('NEW')} BEGIN ${add('NEW')}; END`,
        `CREATE TRIGGER ${TRIGGER}_del AFTER DELETE ON ${carrier} WHEN ${standing('OLD')} BEGIN ${sub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_upd_out AFTER UPDATE ON ${carrier} WHEN (${carrierMoved}) AND ${standing('OLD')} BEGIN ${sub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_upd_in AFTER UPDATE ON ${carrier} WHEN (${carrierMoved}) AND ${standing('NEW')} BEGIN ${add('NEW')}; END`,
        `CREATE TRIGGER ${TRIGGER}_cfg_ins AFTER INSERT ON ${config.t} WHEN ${configured('NEW')} BEGIN ${configAdd('NEW')}; END`,
        `CREATE TRIGGER ${TRIGGER}_cfg_del AFTER DELETE ON ${config.t} WHEN ${configured('OLD')} BEGIN ${configSub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_cfg_upd_out AFTER UPDATE ON ${config.t} WHEN (${configMoved}) AND ${configured('OLD')} BEGIN ${configSub('OLD')}; END`,
        `CREATE TRIGGER ${TRIGGER}_cfg_upd_in AFTER UPDATE ON ${config.t} WHEN (${configMoved}) AND ${configured('NEW')} BEGIN ${configAdd('NEW')}; END`,
        `CREATE TRIGGER ${TRIGGER}_line_ins AFTER INSERT ON ${line.t} WHEN ${shipped('NEW')} BEGIN ${body(lineAdd('NEW'))} END`,
        `CREATE TRIGGER ${TRIGGER}_line_del AFTER DELETE ON ${line.t} WHEN ${shipped('OLD')} BEGIN ${body(lineSub('OLD'))} END`,
        `CREATE TRIGGER ${TRIGGER}_line_upd_out AFTER UPDATE ON ${line.t} WHEN (${lineMoved}) AND ${shipped('OLD')} BEGIN ${body(lineSub('OLD'))} END`,
        `CREATE TRIGGER ${TRIGGER}_line_upd_in AFTER UPDATE ON ${line.t} WHEN (${lineMoved}) AND ${shipped('NEW')} BEGIN ${body(lineAdd('NEW'))} END`,
        `CREATE TRIGGER ${TRIGGER}_order_del AFTER DELETE ON ${order.t} WHEN ${travelling('OLD')} BEGIN ${body(orderSub('OLD'))} END`,
        `CREATE TRIGGER ${TRIGGER}_order_upd_out AFTER UPDATE ON ${order.t} WHEN (${orderMoved}) AND ${travelling('OLD')} BEGIN ${body(orderSub('OLD'))} END`,
        `CREATE TRIGGER ${TRIGGER}_order_upd_in AFTER UPDATE ON ${order.t} WHEN (${orderMoved}) AND ${travelling('NEW')} BEGIN ${body(orderAdd('NEW'))} END`,
      ];
    }
    const each = (table: string, event: string, name: string, code: string) =>
      `CREATE TRIGGER ${TRIGGER}_${name} AFTER ${event} ON ${table} FOR EACH ROW BEGIN ${code} END`;
    const onlyIf = (cond: string, xs: string[]) => `IF ${cond} THEN ${body(xs)} END IF;`;
    return [
      each(carrier, 'INSERT', 'ins', onlyIf(standing('NEW'), [add('NEW')])),
      each(carrier, 'DELETE', 'del', onlyIf(standing('OLD'), [sub('OLD')])),
      each(carrier, 'UPDATE', 'upd', `IF ${carrierMoved} THEN ${onlyIf(standing('OLD'), [sub('OLD')])} ${onlyIf(standing('NEW'), [add('NEW')])} END IF;`),
      each(config.t, 'INSERT', 'cfg_ins', onlyIf(configured('NEW'), [configAdd('NEW')])),
      each(config.t, 'DELETE', 'cfg_del', onlyIf(configured('OLD'), [configSub('OLD')])),
      each(
        config.t,
        'UPDATE',
        'cfg_upd',
        `IF ${configMoved} THEN ${onlyIf(configured('OLD'), [configSub('OLD')])} ${onlyIf(configured('NEW'), [configAdd('NEW')])} END IF;`,
      ),
      each(line.t, 'INSERT', 'line_ins', onlyIf(shipped('NEW'), lineAdd('NEW'))),
      each(line.t, 'DELETE', 'line_del', onlyIf(shipped('OLD'), lineSub('OLD'))),
      each(line.t, 'UPDATE', 'line_upd', `IF ${lineMoved} THEN ${onlyIf(shipped('OLD'), lineSub('OLD'))} ${onlyIf(shipped('NEW'), lineAdd('NEW'))} END IF;`),
      each(order.t, 'DELETE', 'order_del', onlyIf(travelling('OLD'), orderSub('OLD'))),
      each(
        order.t,
        'UPDATE',
        'order_upd',
        `IF ${orderMoved} THEN ${onlyIf(travelling('OLD'), orderSub('OLD'))} ${onlyIf(travelling('NEW'), orderAdd('NEW'))} END IF;`,
      ),
    ];
  }

  /** creates what is missing (indexes, triggers) through the platform's schema service; answers whether the counts must be rebuilt */
  async function ensure(): Promise<boolean> {
    const { carrier, stock, c, s } = names();
    return ctx.schema.ensure(SET, [
      // the key the triggers' upsert lands on
      { kind: 'index', sql: `CREATE UNIQUE INDEX IF NOT EXISTS ${CELL_INDEX} ON ${stock} (${s('orgId')}, ${s('warehouseId')}, ${s('codeKey')})` },
      // the readers' window of recent arrivals (idle by time since the last rebuild), read from the index alone
      {
        kind: 'index',
        sql: `CREATE INDEX IF NOT EXISTS ${CARRIER_INDEX} ON ${carrier} (${['orgId', 'inboundTime', 'warehouseId', 'carrierCodeId', 'transportStatus', 'status'].map(c).join(', ')})`,
      },
      // a partial or older set is replaced whole (the rebuild that follows makes the counts whole)
      ...triggerSql().map((sql) => ({ kind: 'trigger' as const, sql })),
    ]);
  }

  /** the idle check time of each cell (the code's in that warehouse, else the warehouse's), the distinct ones, the configurations per cell */
  async function thresholdsOf(call: RequestContext, transaction?: Transaction) {
    const warehouses = await ctx.repo('warehouse', call).rows({}, { attributes: ['id', 'idleCheckTime'], transaction });
    const configs = await ctx.repo('carrier-code-warehouse', call).rows({}, { attributes: ['warehouseId', 'carrierCodeId', 'idleCheckTime'], transaction });
    const minutes = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number(v) ? null : Number(v));
    const byWarehouse = new Map(warehouses.map((w) => [Number(w.id), minutes(w.idleCheckTime)]));
    const byCell = new Map<number, number>();
    const configured = new Map<number, number>();
    for (const g of configs) {
      if (g.warehouseId === null || g.warehouseId === undefined) continue;
      const k = cellKey(Number(g.warehouseId), num(g.carrierCodeId));
      configured.set(k, (configured.get(k) ?? 0) + 1);
      if (minutes(g.idleCheckTime)) byCell.set(k, Number(g.idleCheckTime));
    }
    const distinct = [...new Set([...byWarehouse.values(), ...byCell.values()].filter((m): m is number => m !== null))].sort((a, b) => a - b);
    return { of: (w: number, code: number): number | null => byCell.get(cellKey(w, code || null)) ?? byWarehouse.get(w) ?? null, distinct, configured };
  }

  const COUNTED = ['inStock', 'maintenance', 'empty', 'full', 'marked', 'configured', 'inTransitIn', 'inTransitOut'] as const;

  /**
   * Recomputes the organisation's rows from the carriers, the configurations and the ship orders
   * in transit, in one write transaction (no move lands between the count and the write: SQLite's
   * writers queue, MariaDB's wait on the locked rows). Answers the cells whose maintained figures
   * differed (drift; 0 when the triggers kept up).
   */
  async function rebuild(orgId: number, now = new Date()): Promise<number> {
    const sys = ctx.systemContext(orgId);
    const carriers = ctx.repo('carrier', sys);
    const stock = ctx.repo('inventory-stock', sys);
    return ctx.transaction(sys, async (_repo, transaction) => {
      // a write first: takes the lock before anything is read
      await stock.increment({ inStock: 0 }, {}, { transaction });
      const { of: threshold, distinct: minutes, configured } = await thresholdsOf(sys, transaction);
      const before = await stock.rows({}, { attributes: ['warehouseId', 'codeKey', ...COUNTED], transaction });
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
      type Cell = { warehouseId: number; codeKey: number; aged: number; agedBefore: Date | null } & Record<(typeof COUNTED)[number], number>;
      const cells = new Map<number, Cell>();
      const cell = (w: number, code: number): Cell => {
        const k = cellKey(w, code || null);
        let x = cells.get(k);
        if (!x) {
          const m = threshold(w, code);
          const agedBefore = m ? new Date(now.getTime() - m * 60_000) : null;
          x = {
            warehouseId: w,
            codeKey: code,
            inStock: 0,
            maintenance: 0,
            empty: 0,
            full: 0,
            marked: 0,
            aged: 0,
            agedBefore,
            configured: 0,
            inTransitIn: 0,
            inTransitOut: 0,
          };
          cells.set(k, x);
        }
        return x;
      };
      for (const g of await carriers.countWhen(['warehouseId', 'carrierCodeId'], when, standing, { transaction })) {
        const w = Number(g.warehouseId);
        const code = Number(g.carrierCodeId ?? 0);
        const m = threshold(w, code);
        Object.assign(cell(w, code), {
          inStock: g.n,
          maintenance: g.maintenance,
          empty: g.empty,
          full: g.full,
          marked: g.marked,
          aged: m ? g[`aged${minutes.indexOf(m)}`] : 0,
        });
      }
      for (const [k, n] of configured) cell(Math.floor(k / 4_294_967_296), k % 4_294_967_296).configured = n;
      for (const x of await transitOf(ctx, sys, null, false, {}, transaction)) {
        const y = cell(x.w, x.c ?? 0);
        y.inTransitIn = x.inn;
        y.inTransitOut = x.out;
      }
      const rows = [...cells.values()];
      const was = new Map(before.map((r) => [cellKey(Number(r.warehouseId), Number(r.codeKey) || null), r]));
      let drift = 0;
      for (const r of rows) {
        const k = cellKey(r.warehouseId, r.codeKey || null);
        const b = was.get(k);
        was.delete(k);
        if (COUNTED.some((f) => Number(b?.[f] ?? 0) !== r[f])) drift++;
      }
      for (const b of was.values()) if (COUNTED.some((f) => Number(b[f]))) drift++;
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
    const few = filter.warehouseId || (filter.warehouseIds && filter.warehouseIds.length <= FEW_WAREHOUSES);
    if (few && windows.size > 1) {
      // a few warehouses (a list page): their standing carriers read once, from the carriers' (warehouse, code, transport,
      // status, loading, inbound time) index alone, each window a conditional count — one statement, not one per window
      // (no range on inbound time in the condition: their hull made SQLite read days of arrivals of every warehouse)
      const named = [...windows];
      const when: Record<string, WhereOptions> = {};
      named.forEach(([, x], i) => (when[`w${i}`] = { inboundTime: { [Op.gte]: x.lo, [Op.lt]: x.hi } }));
      for (const g of await carriers.countWhen(['warehouseId', 'carrierCodeId'], when, base))
        named.forEach(([k], i) => found.set(`${k}|${g.warehouseId}:${g.carrierCodeId ?? 0}`, Number(g[`w${i}`])));
    } else
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

  /** what "live" cells are: carriers standing there, a configuration of the code there, or in transit to or from it */
  const live = { [Op.or]: [{ inStock: { [Op.gt]: 0 } }, { configured: { [Op.gt]: 0 } }, { inTransitIn: { [Op.gt]: 0 } }, { inTransitOut: { [Op.gt]: 0 } }] };

  /** the cells (rows of the realtime answer) per warehouse in the caller's scope: one grouped read of the maintained rows */
  async function cellsPerWarehouse(call: RequestContext, carrierCodeId?: number): Promise<Map<number, number>> {
    const groups = await ctx.repo('inventory-stock', call).countWhen(['warehouseId'], {}, { ...live, ...(carrierCodeId ? { codeKey: carrierCodeId } : {}) });
    return new Map(groups.map((g) => [Number(g.warehouseId), g.n]));
  }

  /** in transit to and from the given warehouses per code, as the triggers keep it */
  async function transitAt(call: RequestContext, warehouseIds: number[], carrierCodeId?: number): Promise<TransitCell[]> {
    const rows = await ctx.repo('inventory-stock', call).driverRows(['warehouseId', 'codeKey', 'inTransitIn', 'inTransitOut'], {
      warehouseId: { [Op.in]: warehouseIds },
      [Op.or]: [{ inTransitIn: { [Op.gt]: 0 } }, { inTransitOut: { [Op.gt]: 0 } }],
      ...(carrierCodeId ? { codeKey: carrierCodeId } : {}),
    });
    return rows.map((r) => ({ w: Number(r.warehouseId), c: Number(r.codeKey) || null, inn: Number(r.inTransitIn), out: Number(r.inTransitOut) }));
  }

  function install(): void {
    ctx.onReady(async () => {
      try {
        const created = await ensure();
        // every start recounts (a crash between creating the triggers and the first rebuild, rows the triggers created
        // without agedBefore): seconds at 1,000,000 carriers, and the job keeps it up after
        await rebuildAll(created ? 'triggers created' : 'start');
      } catch (err) {
        ctx.log('[inventory] maintained stock counts unavailable (triggers could not be created); the figures group the carriers instead', err);
      }
    });
    ctx.jobs.every(
      'inventory-stock-rebuild',
      REBUILD_EVERY_MS,
      async () => {
        if (ctx.schema.installed(SET)) await rebuildAll('job');
      },
      { once: true },
    );
  }

  return { install, read, rebuild, cellsPerWarehouse, transitAt, isActive: () => ctx.schema.installed(SET) };
}

export type MaintainedStock = ReturnType<typeof maintainedStock>;
