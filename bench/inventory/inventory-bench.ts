/**
 * Inventory at pool scale (issue 18 "Speed"): with 1,000,000 carriers, 500 warehouses, 50 carrier
 * codes and 20,000,000 in/out rows —
 *
 *   realtime inventory of all warehouses      p95 < 100 ms   /inventory/realtime
 *   one warehouse's drill-down page           p95 < 50 ms    /inventory/real/detail
 *   inventory as of a past day                p95 < 200 ms   /inventory/query { day }
 *   a year of daily history, one warehouse    < 500 ms       /inventory/history
 *   book versus seen, one warehouse           < 200 ms       /inventory/silent
 *   rebalancing, 500 warehouses × 50 codes    < 2 s          /inventory/suggestion
 *   closing snapshot of a day                 < 30 s         /inventory/snapshot/close
 *   exports streamed with flat memory (RSS growth printed)
 *
 * Over real HTTP as the organisation's administrator, each call next to its raw-SQL floor: the
 * statements that answer the same question written by hand (joins allowed), run in the same
 * process on the same database, pool and driver, and the ratio of the p95s.
 *
 * The data is written once by bulk SQL (INSERT … SELECT over a sequence, secondary indexes
 * dropped for the load and rebuilt by the server's own schema step): SQLite into a file cached
 * under <tmpdir>/rti-bench/ (RTI_BENCH_DIR moves it), MariaDB/MySQL (TEST_MYSQL_URL, or
 * `--mariadb` for a throwaway one) into a database named by the size that stays on that server.
 * A re-run starts in seconds (the carriers' times are relative to the build); `--fresh` rebuilds.
 *
 *   node bench/inventory/run.mjs [--carriers=1000000] [--warehouses=500] [--codes=50] [--inouts=20×carriers]
 *                                [--days=365] [--thresholds=10] [--calls=10] [--fresh] [--mariadb]
 *   TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/x node bench/inventory/run.mjs
 */
import { cpus, loadavg } from 'node:os';
import { QueryTypes } from 'sequelize';
import { createServer } from '../../server/src/index';
import { columnsOf, countStatements } from '../lib/sql';
import { finishLoad, cachedDatabase, flag } from '../lib/source';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const CARRIERS = arg('carriers', 1_000_000);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const INOUTS = arg('inouts', CARRIERS * 20);
const DAYS = arg('days', 365);
/** distinct idle check times over the per-warehouse code configurations */
const THRESHOLDS = arg('thresholds', 10);
const CALLS = arg('calls', 10);
const ORG_CODE = 'BENCHINV';
/** one carrier in 25 is on the road, 20 to a ship order in transit */
const IN_TRANSIT_EVERY = 25;
const PER_ORDER = 20;
const ORDERS = Math.max(1, Math.ceil(Math.floor(CARRIERS / IN_TRANSIT_EVERY) / PER_ORDER));
const SIZE = `${CARRIERS}-${WAREHOUSES}-${CODES}-${INOUTS}-${DAYS}-${THRESHOLDS}`;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7);
const dayString = (t: number) => new Date(t).toISOString().slice(0, 10);
const DAY = 86_400_000;

const boot = (databaseUrl: string) =>
  createServer({
    databaseUrl,
    plugins: ['shipping', 'inventory'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });

/** SQL that differs between SQLite and MariaDB/MySQL */
function dialectSql(dialect: 'sqlite' | 'mysql') {
  const sqlite = dialect === 'sqlite';
  return {
    /** WITH prefix and FROM item of the sequence n = from..to */
    seq: (from: number, to: number) =>
      sqlite
        ? { with: `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to}) `, from: 'seq' }
        : { with: '', from: `(SELECT seq AS n FROM seq_${from}_to_${to}) AS seq` },
    pad: (x: string, w: number) => (sqlite ? `printf('%0${w}d', ${x})` : `LPAD(${x}, ${w}, '0')`),
    cat: (...parts: string[]) => (sqlite ? parts.join(' || ') : `CONCAT(${parts.join(', ')})`),
    div: (a: string, b: number | string) => (sqlite ? `((${a}) / ${b})` : `((${a}) DIV ${b})`),
    /** a datetime `minutes` (an SQL expression) before the ISO instant `base` */
    before: (base: string, minutes: string) =>
      sqlite
        ? `strftime('%Y-%m-%d %H:%M:%f +00:00', '${base.slice(0, 19).replace('T', ' ')}', '-' || (${minutes}) || ' minutes')`
        : `DATE_SUB('${base.slice(0, 23).replace('T', ' ')}', INTERVAL (${minutes}) MINUTE)`,
    secondsBefore: (base: string, seconds: string) =>
      sqlite
        ? `strftime('%Y-%m-%d %H:%M:%f +00:00', '${base.slice(0, 19).replace('T', ' ')}', '-' || (${seconds}) || ' seconds')`
        : `DATE_SUB('${base.slice(0, 23).replace('T', ' ')}', INTERVAL (${seconds}) SECOND)`,
    daysBefore: (day: string, days: string) => (sqlite ? `date('${day}', '-' || (${days}) || ' days')` : `DATE_SUB('${day}', INTERVAL (${days}) DAY)`),
    /** a datetime literal of the instant */
    at: (t: Date) => (sqlite ? `'${t.toISOString().replace('T', ' ').replace('Z', ' +00:00')}'` : `'${t.toISOString().slice(0, 23).replace('T', ' ')}'`),
  };
}

/** Builds the pool by bulk SQL (not measured). */
async function build(databaseUrl: string): Promise<void> {
  const started = performance.now();
  const server = await boot(databaseUrl);
  try {
    const { sequelize } = server.db;
    const dialect = server.db.dialect as 'sqlite' | 'mysql';
    const d = dialectSql(dialect);
    const exec = (sql: string) => sequelize.query(sql).catch((err: Error) => Promise.reject(Object.assign(err, { sql: sql.slice(0, 400) })));
    const models = server.db.models;
    const codes = server.listPermissionCodes();
    const org = Number(
      (await models.organization.create({ code: ORG_CODE, name: 'Bench Inventory', entryCode: ORG_CODE.toLowerCase(), pcPermissions: codes })).get('id'),
    );
    const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
    const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
    await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] });
    const T = Object.fromEntries(
      ['warehouse', 'carrier-code', 'carrier-code-warehouse', 'route', 'carrier', 'carrier-inout', 'ship-order', 'ship-order-detail', 'inventory-snapshot'].map(
        (r) => [r, columnsOf(server, r)],
      ),
    );
    if (dialect === 'sqlite') for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await exec(`PRAGMA ${pragma}`);
    else await exec('SET unique_checks = 0');
    const qi = sequelize.getQueryInterface();
    for (const r of ['carrier', 'carrier-inout', 'inventory-snapshot', 'ship-order-detail', 'carrier-code-warehouse']) {
      for (const ix of (await qi.showIndex(T[r].name)) as Array<{ name: string; unique: boolean; primary: boolean }>) {
        if (ix.unique || ix.primary || ix.name === 'PRIMARY') continue;
        await qi.removeIndex(T[r].name, ix.name);
      }
    }
    const base = new Date().toISOString();
    const stamp = d.at(new Date());
    const audit = `${stamp}, ${stamp}`;
    let s = d.seq(1, WAREHOUSES);
    // warehouses: ids 1..W (fresh tables), idle check time 1–7 days
    const wOff = Number(
      ((await sequelize.query(`SELECT COALESCE(MAX(id), 0) AS m FROM ${T.warehouse.table}`, { type: QueryTypes.SELECT })) as Array<{ m: number }>)[0].m,
    );
    const cOff = Number(
      ((await sequelize.query(`SELECT COALESCE(MAX(id), 0) AS m FROM ${T['carrier-code'].table}`, { type: QueryTypes.SELECT })) as Array<{ m: number }>)[0].m,
    );
    if (wOff || cOff) throw new Error('build into an empty database');
    await exec(
      `INSERT INTO ${T.warehouse.table} (id, ${T.warehouse.list(['orgId', 'code', 'name', 'minInventory', 'maxInventory', 'theoryInventory', 'idleCheckTime', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'WH-'`, d.pad('n', 4))}, ${d.cat(`'Warehouse '`, 'n')}, ${Math.round((CARRIERS / WAREHOUSES) * 0.8)}, ${Math.round((CARRIERS / WAREHOUSES) * 1.2)}, ${Math.round(CARRIERS / WAREHOUSES)}, 1440 * (1 + n % 7), ${audit} FROM ${s.from}`,
    );
    s = d.seq(1, CODES);
    await exec(
      `INSERT INTO ${T['carrier-code'].table} (id, ${T['carrier-code'].list(['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${project}, ${d.cat(`'CC-'`, d.pad('n', 3))}, ${d.cat(`'Code '`, 'n')}, 10, 1, ${audit} FROM ${s.from}`,
    );
    // per-warehouse configuration of 4 codes in 5: min/max around the cell's share, THRESHOLDS distinct idle check times
    const cell = Math.max(1, Math.round(CARRIERS / WAREHOUSES / CODES));
    s = d.seq(0, WAREHOUSES * CODES - 1);
    await exec(
      `INSERT INTO ${T['carrier-code-warehouse'].table} (${T['carrier-code-warehouse'].list(['orgId', 'warehouseId', 'carrierCodeId', 'minInventory', 'maxInventory', 'outboundCheckTime', 'idleCheckTime', 'createdAt', 'updatedAt'])})
       SELECT ${org}, w, c, ${Math.round(cell * 0.5)} + (w * 7 + c * 13) % ${Math.max(1, cell)}, ${Math.round(cell * 1.1)} + (w * 7 + c * 13) % ${Math.max(1, cell)}, 60, 1440 * (1 + (w * 3 + c) % ${THRESHOLDS}), ${audit}
       FROM (${s.with}SELECT 1 + ${d.div('n', CODES)} AS w, 1 + n % ${CODES} AS c FROM ${s.from}) AS x WHERE (w + c) % 5 <> 0`,
    );
    // routes: each warehouse to 10 others
    s = d.seq(0, WAREHOUSES * 10 - 1);
    await exec(
      `INSERT INTO ${T.route.table} (${T.route.list(['orgId', 'routeName', 'fromWarehouseId', 'toWarehouseId', 'distance', 'transportType', 'transportTime', 'createdAt', 'updatedAt'])})
       SELECT ${org}, ${d.cat(`'R-'`, 'w', `'-'`, 'j')}, w, 1 + (w + j * 37) % ${WAREHOUSES}, 10 + (w * j) % 900, 20, 60 * j, ${audit}
       FROM (${s.with}SELECT 1 + ${d.div('n', 10)} AS w, 1 + n % 10 AS j FROM ${s.from}) AS x`,
    );
    // carriers 1..N: warehouse k mod W, code by k div W; 1 in 25 on the road, 1 in 50 marked idle, some in maintenance, damaged, scrapped; 1 in 10 with a beacon
    s = d.seq(1, CARRIERS);
    await exec(
      `INSERT INTO ${T.carrier.table} (id, ${T.carrier.list(['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'beaconId', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'inboundWarehouseId', 'inboundTime', 'cycleCount', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'C'`, d.pad('n', 8))}, ${d.cat(`'Carrier '`, 'n')}, 1 + ${d.div('n', WAREHOUSES)} % ${CODES}, ${project}, 10, 0,
         CASE WHEN n % 10 = 0 THEN ${d.div('n', 10)} END,
         CASE WHEN n % ${IN_TRANSIT_EVERY} = 0 THEN NULL ELSE 1 + n % ${WAREHOUSES} END,
         CASE WHEN n % 40 = 3 THEN 50 WHEN n % 97 = 5 THEN 60 WHEN n % 211 = 7 THEN 30 ELSE 10 END,
         10 + 10 * (n % 2),
         CASE WHEN n % ${IN_TRANSIT_EVERY} = 0 THEN 20 WHEN n % 50 = 1 THEN 30 ELSE 10 END,
         1 + n % ${WAREHOUSES}, ${d.before(base, `(n * 7919) % ${60 * 1440}`)}, 5, ${audit} FROM ${s.from}`,
    );
    // ship orders in transit carrying the carriers on the road, PER_ORDER each
    s = d.seq(1, ORDERS);
    await exec(
      `INSERT INTO ${T['ship-order'].table} (id, ${T['ship-order'].list(['orgId', 'orderNo', 'type', 'status', 'shipperWarehouseId', 'receiverWarehouseId', 'totalAmount', 'atd', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'SO'`, d.pad('n', 8))}, 2, 2, 1 + n % ${WAREHOUSES}, 1 + (n * 7 + 3) % ${WAREHOUSES}, ${PER_ORDER}, ${stamp}, ${audit} FROM ${s.from}`,
    );
    s = d.seq(1, Math.floor(CARRIERS / IN_TRANSIT_EVERY));
    await exec(
      `INSERT INTO ${T['ship-order-detail'].table} (${T['ship-order-detail'].list(['orgId', 'shipOrderId', 'carrierId', 'carrierSn', 'carrierCodeId', 'status', 'createdAt', 'updatedAt'])})
       SELECT ${org}, 1 + ${d.div('n - 1', PER_ORDER)}, k, ${d.cat(`'C'`, d.pad('k', 8))}, 1 + ${d.div('k', WAREHOUSES)} % ${CODES}, 20, ${audit}
       FROM (${s.with}SELECT n, n * ${IN_TRANSIT_EVERY} AS k FROM ${s.from}) AS x`,
    );
    // in/out rows over the last 365 days, evenly
    const chunk = 2_000_000;
    for (let from = 1; from <= INOUTS; from += chunk) {
      const to = Math.min(INOUTS, from + chunk - 1);
      s = d.seq(from, to);
      await exec(
        `INSERT INTO ${T['carrier-inout'].table} (${T['carrier-inout'].list(['orgId', 'carrierId', 'sn', 'carrierCodeId', 'direction', 'warehouseId', 'confirmTime', 'shipOrderNo', 'createdAt', 'updatedAt'])})
         SELECT ${org}, c, ${d.cat(`'C'`, d.pad('c', 8))}, 1 + ${d.div('c', WAREHOUSES)} % ${CODES}, 10 + 10 * (n % 2), 1 + n % ${WAREHOUSES}, ${d.secondsBefore(base, `${d.div(`n * ${365 * 86400}`, INOUTS)}`)}, ${d.cat(`'SO'`, d.pad(`n % 100000`, 8))}, ${audit}
         FROM (${s.with}SELECT n, 1 + (n * 7919) % ${CARRIERS} AS c FROM ${s.from}) AS x`,
      );
    }
    // closing snapshots of the last DAYS days, every warehouse and code
    const today = dayString(Date.now());
    for (let d0 = 1; d0 <= DAYS; d0 += 30) {
      const d1 = Math.min(DAYS, d0 + 29);
      s = d.seq(0, (d1 - d0 + 1) * WAREHOUSES * CODES - 1);
      const per = WAREHOUSES * CODES;
      await exec(
        `INSERT INTO ${T['inventory-snapshot'].table} (${T['inventory-snapshot'].list(['orgId', 'day', 'warehouseId', 'carrierCodeId', 'inStock', 'maintenance', 'idle', 'empty', 'full', 'inTransitIn', 'inTransitOut', 'inbound', 'outbound', 'createdAt', 'updatedAt'])})
         SELECT ${org}, ${d.daysBefore(today, 'dd')}, w, c, ${Math.max(0, cell - 5)} + (w * 7 + c * 13 + dd) % 10, (w + c) % 3, (w * c + dd) % 5, 5, 5, (w + dd) % 4, (c + dd) % 4, (w + c + dd) % 6, (w * 3 + c + dd) % 6, ${audit}
         FROM (${s.with}SELECT ${d0} + ${d.div('n', per)} AS dd, 1 + ${d.div(`n % ${per}`, CODES)} AS w, 1 + n % ${CODES} AS c FROM ${s.from}) AS x`,
      );
    }
    const loaded = performance.now();
    await finishLoad(
      sequelize,
      models,
      server.metadata,
      Object.values(T).map((t) => t.table),
    );
    console.log(
      `built: ${CARRIERS.toLocaleString('en')} carriers, ${INOUTS.toLocaleString('en')} in/out rows, ${(DAYS * WAREHOUSES * CODES).toLocaleString('en')} snapshot rows on ${dialect}; rows ${((loaded - started) / 1000).toFixed(0)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}

/** Where the data lives: a cached SQLite file, or a database named by the size on the MariaDB/MySQL server (bench/lib/source.ts). */
const dataSource = () => cachedDatabase('inventory', SIZE, build);

interface Case {
  label: string;
  path: string;
  body: (i: number) => Record<string, unknown>;
  /** the hand-written statements answering the same question */
  floor?: (i: number) => string[];
  bound: number;
  calls?: number;
}

async function main() {
  const source = await dataSource();
  const server = await boot(source.url);
  const { url } = await server.listen(0);
  try {
    const { sequelize } = server.db;
    const dialect = server.db.dialect as 'sqlite' | 'mysql';
    const d = dialectSql(dialect);
    const models = server.db.models;
    const org = Number((await models.organization.findOne({ where: { code: ORG_CODE } }))!.get('id'));
    const userId = Number((await models.user.findOne({ where: { orgId: org, name: 'bench.admin' } }))!.get('id'));
    const { token } = await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null });
    const call = async (path: string, body: Record<string, unknown>) => {
      const t = performance.now();
      const res = await fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; message: string; data: { total?: number } };
      const ms = performance.now() - t;
      if (json.code !== 0) throw new Error(`${path} ${JSON.stringify(body)}: ${json.message}`);
      return { ms, data: json.data };
    };
    const select = (sql: string) => sequelize.query(sql, { type: QueryTypes.SELECT });

    const [C, W, G, O, L, IO, S, R] = [
      'carrier',
      'warehouse',
      'carrier-code-warehouse',
      'ship-order',
      'ship-order-detail',
      'carrier-inout',
      'inventory-snapshot',
      'route',
    ].map((r) => columnsOf(server, r));
    const standing = `c.${C.c('orgId')} = ${org} AND c.${C.c('warehouseId')} IS NOT NULL AND c.${C.c('transportStatus')} IN (0, 10, 30) AND (c.${C.c('status')} NOT IN (30, 40) OR c.${C.c('status')} IS NULL)`;
    // the figures per warehouse and code in one grouped pass: each figure a conditional count, idle one count per distinct idle
    // check time (the cell's own is picked from the configuration read beside it); in transit by a join of lines and orders.
    // (The same answer joining the configuration to every carrier instead took 9–13 s at 1,000,000 carriers on SQLite.)
    const thresholds = (
      (await select(
        `SELECT DISTINCT ${W.c('idleCheckTime')} AS m FROM ${W.table} WHERE ${W.c('orgId')} = ${org} UNION SELECT DISTINCT ${G.c('idleCheckTime')} FROM ${G.table} WHERE ${G.c('orgId')} = ${org}`,
      )) as Array<{ m: number | null }>
    )
      .map((r) => Number(r.m))
      .filter(Boolean);
    const figuresFloor = (warehouseId?: number, stockOnly = false) => [
      `SELECT id, ${W.list(['code', 'name', 'minInventory', 'maxInventory', 'theoryInventory', 'idleCheckTime'])} FROM ${W.table} WHERE ${W.c('orgId')} = ${org} ORDER BY ${W.c('code')}`,
      `SELECT ${G.list(['warehouseId', 'carrierCodeId', 'minInventory', 'maxInventory', 'idleCheckTime'])} FROM ${G.table} WHERE ${G.c('orgId')} = ${org}`,
      `SELECT c.${C.c('warehouseId')}, c.${C.c('carrierCodeId')}, COUNT(*), SUM(CASE WHEN c.${C.c('status')} IN (50, 60) THEN 1 ELSE 0 END)
         ${stockOnly ? '' : `, SUM(CASE WHEN c.${C.c('loadingStatus')} = 10 THEN 1 ELSE 0 END), SUM(CASE WHEN c.${C.c('loadingStatus')} = 20 THEN 1 ELSE 0 END), SUM(CASE WHEN c.${C.c('transportStatus')} = 30 THEN 1 ELSE 0 END)`}
         ${(stockOnly ? [] : thresholds).map((m) => `, SUM(CASE WHEN c.${C.c('transportStatus')} = 30 OR c.${C.c('inboundTime')} < ${d.at(new Date(Date.now() - m * 60_000))} THEN 1 ELSE 0 END)`).join('')}
       FROM ${C.table} c WHERE ${standing}${warehouseId ? ` AND c.${C.c('warehouseId')} = ${warehouseId}` : ''} GROUP BY c.${C.c('warehouseId')}, c.${C.c('carrierCodeId')}`,
      `SELECT o.${O.c('shipperWarehouseId')}, o.${O.c('receiverWarehouseId')}, l.${L.c('carrierCodeId')}, COUNT(*) FROM ${L.table} l JOIN ${O.table} o ON o.id = l.${L.c('shipOrderId')}
       WHERE o.${O.c('orgId')} = ${org} AND o.${O.c('status')} IN (2, 3) AND l.${L.c('orgId')} = ${org} AND l.${L.c('status')} = 20 GROUP BY o.${O.c('shipperWarehouseId')}, o.${O.c('receiverWarehouseId')}, l.${L.c('carrierCodeId')}`,
    ];
    // the same answer from the maintained counts (plugins/inventory/server/stock.ts), idle from the arrivals of the last rebuild
    // interval (60 min, the widest window between rebuilds) per idle check time;
    const K = columnsOf(server, 'inventory-stock');
    // a list page from them (paged at the source): the cells per warehouse (standing, configured or in transit: counts kept
    // on the same rows), then the page's first two warehouses (50 codes each: the page of 100) read whole
    const maintainedFloor = () => {
      // a derived table around the LIMIT: MariaDB refuses LIMIT inside an IN subquery
      const page = `(SELECT id FROM (SELECT id FROM ${W.table} WHERE ${W.c('orgId')} = ${org} ORDER BY ${W.c('code')} LIMIT 2) AS page)`;
      return [
        figuresFloor()[0],
        `SELECT ${K.c('warehouseId')}, COUNT(*) FROM ${K.table} WHERE ${K.c('orgId')} = ${org} AND (${['inStock', 'configured', 'inTransitIn', 'inTransitOut'].map((a) => `${K.c(a)} > 0`).join(' OR ')}) GROUP BY ${K.c('warehouseId')}`,
        `SELECT ${K.list(['warehouseId', 'codeKey', 'inTransitIn', 'inTransitOut'])} FROM ${K.table} WHERE ${K.c('orgId')} = ${org} AND ${K.c('warehouseId')} IN ${page} AND (${K.c('inTransitIn')} > 0 OR ${K.c('inTransitOut')} > 0)`,
        `SELECT ${K.list(['warehouseId', 'codeKey', 'inStock', 'maintenance', 'empty', 'full', 'marked', 'aged', 'agedBefore'])} FROM ${K.table} WHERE ${K.c('orgId')} = ${org} AND ${K.c('inStock')} > 0 AND ${K.c('warehouseId')} IN ${page}`,
        `SELECT ${G.list(['warehouseId', 'carrierCodeId', 'minInventory', 'maxInventory', 'idleCheckTime'])} FROM ${G.table} WHERE ${G.c('orgId')} = ${org} AND ${G.c('warehouseId')} IN ${page}`,
        // the page's carriers read once, a conditional count per window
        `SELECT c.${C.c('warehouseId')}, c.${C.c('carrierCodeId')}, COUNT(*)${thresholds
          .map((m) => {
            const to = Date.now() - m * 60_000;
            return `, SUM(CASE WHEN c.${C.c('inboundTime')} >= ${d.at(new Date(to - 60 * 60_000))} AND c.${C.c('inboundTime')} < ${d.at(new Date(to))} THEN 1 ELSE 0 END)`;
          })
          .join(
            '',
          )} FROM ${C.table} c WHERE ${standing} AND c.${C.c('warehouseId')} IN ${page} AND c.${C.c('transportStatus')} IN (0, 10) GROUP BY c.${C.c('warehouseId')}, c.${C.c('carrierCodeId')}`,
      ];
    };
    const wh = (i: number) => 1 + ((i * 37) % WAREHOUSES);
    const today = Date.parse(`${dayString(Date.now())}T00:00:00Z`);
    const pastDay = (i: number) => dayString(today - (1 + ((i * 11) % Math.max(1, DAYS))) * DAY);
    const sums = ['inStock', 'maintenance', 'idle', 'empty', 'full', 'inTransitIn', 'inTransitOut', 'inbound', 'outbound']
      .map((a) => `SUM(${S.c(a)})`)
      .join(', ');
    const yearFrom = new Date(today - Math.min(DAYS, 365) * DAY + 1000).toISOString();
    const yearTo = new Date(today - DAY + 1000).toISOString();
    const cases: Case[] = [
      { label: 'realtime, all warehouses', path: '/inventory/realtime', body: () => ({ page: 1, limit: 100 }), floor: () => maintainedFloor(), bound: 100 },
      {
        label: "one warehouse's drill-down page",
        path: '/inventory/real/detail',
        body: (i) => ({ warehouseId: wh(i), view: 'stock', page: 1, limit: 20 }),
        floor: (i) => [
          `SELECT c.* FROM ${C.table} c WHERE ${standing} AND c.${C.c('warehouseId')} = ${wh(i)} ORDER BY c.${C.c('sn')} LIMIT 20`,
          `SELECT COUNT(*) FROM ${C.table} c WHERE ${standing} AND c.${C.c('warehouseId')} = ${wh(i)}`,
        ],
        bound: 50,
      },
      {
        label: 'as of a past day, all warehouses',
        path: '/inventory/query',
        body: (i) => ({ day: pastDay(i), page: 1, limit: 100 }),
        floor: (i) => [
          figuresFloor()[0],
          `SELECT ${S.c('warehouseId')}, ${sums} FROM ${S.table} WHERE ${S.c('orgId')} = ${org} AND ${S.c('day')} = '${pastDay(i)}' GROUP BY ${S.c('warehouseId')}`,
        ],
        bound: 200,
      },
      {
        label: `${Math.min(DAYS, 365)} days of history, one warehouse`,
        path: '/inventory/history',
        body: (i) => ({ warehouseId: wh(i), time: [yearFrom, yearTo], page: 1, limit: 100 }),
        floor: (i) => [
          `SELECT ${S.c('day')}, ${S.c('warehouseId')}, ${sums} FROM ${S.table} WHERE ${S.c('orgId')} = ${org} AND ${S.c('warehouseId')} = ${wh(i)} AND ${S.c('day')} >= '${yearFrom.slice(0, 10)}' AND ${S.c('day')} <= '${yearTo.slice(0, 10)}' GROUP BY ${S.c('day')}, ${S.c('warehouseId')}`,
        ],
        bound: 500,
      },
      {
        label: 'book versus seen, one warehouse',
        path: '/inventory/silent',
        body: (i) => ({ warehouseId: wh(i), page: 1, limit: 100 }),
        floor: (i) => [
          `SELECT c.id, c.${C.c('sn')}, c.${C.c('carrierCodeId')}, c.${C.c('beaconId')}, c.${C.c('gpsId')}, c.${C.c('inboundTime')} FROM ${C.table} c WHERE ${standing} AND c.${C.c('warehouseId')} = ${wh(i)} AND (c.${C.c('beaconId')} IS NOT NULL OR c.${C.c('gpsId')} IS NOT NULL) ORDER BY c.id`,
        ],
        bound: 200,
      },
      {
        label: `rebalancing, ${WAREHOUSES} × ${CODES}`,
        path: '/inventory/suggestion',
        body: () => ({ page: 1, limit: 100 }),
        // the rebalancing needs what stands and what is in transit, not idle or empty/full
        floor: () => [
          ...figuresFloor(undefined, true),
          // bounded time range, direction counted (filtering on it, or an open range, plans a read of every row on SQLite)
          `SELECT ${IO.c('warehouseId')}, ${IO.c('carrierCodeId')}, SUM(CASE WHEN ${IO.c('direction')} = 20 THEN 1 ELSE 0 END) FROM ${IO.table} WHERE ${IO.c('orgId')} = ${org} AND ${IO.c('confirmTime')} >= ${d.at(new Date(Date.now() - 14 * DAY))} AND ${IO.c('confirmTime')} <= ${d.at(new Date(Date.now() + DAY))} GROUP BY ${IO.c('warehouseId')}, ${IO.c('carrierCodeId')}`,
          `SELECT ${R.list(['fromWarehouseId', 'toWarehouseId', 'distance', 'transportTime'])} FROM ${R.table} WHERE ${R.c('orgId')} = ${org}`,
        ],
        bound: 2000,
      },
      {
        label: 'closing snapshot of a day',
        path: '/inventory/snapshot/close',
        body: () => ({}),
        // reads only: the figures and the day's in/out rows grouped (the call also replaces the day's rows)
        floor: () => [
          ...figuresFloor(),
          `SELECT ${IO.c('warehouseId')}, ${IO.c('carrierCodeId')}, ${IO.c('direction')}, COUNT(*) FROM ${IO.table} WHERE ${IO.c('orgId')} = ${org} AND ${IO.c('confirmTime')} >= ${d.at(new Date(today))} AND ${IO.c('confirmTime')} < ${d.at(new Date(today + DAY))} GROUP BY ${IO.c('warehouseId')}, ${IO.c('carrierCodeId')}, ${IO.c('direction')}`,
        ],
        bound: 30_000,
        calls: Math.min(CALLS, 3),
      },
    ];
    const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
    const [l1, l5, l15] = loadavg();
    console.log(
      `\ninventory on ${source.label}: ${CARRIERS.toLocaleString('en')} carriers, ${WAREHOUSES} warehouses × ${CODES} codes, ${INOUTS.toLocaleString('en')} in/out rows, ${DAYS} days of snapshots, ${THRESHOLDS} idle check times; ${CALLS} calls each (+1 warm-up); load ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)} on ${cpus().length} cores`,
    );
    console.log(
      `${'figure'.padEnd(36)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ms  ${'floor p50'.padStart(9)} ${'p95'.padStart(7)}  ratio p95  stmts  target`,
    );
    for (const c of cases) {
      if (only && !c.label.includes(only) && !c.path.includes(only)) continue;
      const n = c.calls ?? CALLS;
      const xs: number[] = [];
      const fs: number[] = [];
      const counts: number[] = [];
      const floor = async (i: number) => {
        if (!c.floor) return;
        const t = performance.now();
        for (const sql of c.floor(i)) await select(sql);
        if (i) fs.push(performance.now() - t);
      };
      for (let i = 0; i <= n; i++) {
        // the call and its floor take turns going first: the second reads what the first brought into the page cache
        // (a cold cache otherwise charged to the call alone — 589 ms against a warm floor of 18 ms in one run)
        if (i % 2) await floor(i);
        // every measured call counts its SQL statements (the counter's cost is a callback per statement)
        const counted = await countStatements(sequelize, () => call(c.path, c.body(i)));
        if (i) counts.push(counted.statements);
        if (i) xs.push(counted.value.ms);
        if (!(i % 2)) await floor(i);
      }
      // the call's own statements are the fewest; a call that comes due for the shared periodic reads (the
      // policy version poll, the organisation's zone after 30 s, the session's user) shows a range, e.g. 4–8
      const [few, most] = [Math.min(...counts), Math.max(...counts)];
      const statements = few === most ? String(few) : `${few}–${most}`;
      const p95 = percentile(xs, 95);
      const fl = fs.length ? percentile(fs, 95) : NaN;
      console.log(
        `${c.label.padEnd(36)} ${f(percentile(xs, 50))} ${f(p95)}     ${Number.isNaN(fl) ? '        -' : f(percentile(fs, 50)).padStart(9)} ${Number.isNaN(fl) ? '      -' : f(fl)}  ${Number.isNaN(fl) ? '        -' : `${(p95 / Math.max(fl, 0.1)).toFixed(1)}×`.padStart(9)}  ${statements.padStart(5)}  ${p95 < c.bound ? 'ok' : 'OVER'} < ${c.bound} ms`,
      );
    }
    // exports, streamed: RSS growth while the file is read (server and client in one process)
    const exports = [
      { label: 'realtime, every warehouse and code', path: '/inventory/real/detail/all/export', body: {} },
      { label: 'carriers under maintenance, all warehouses', path: '/inventory/real/detail/export', body: { view: 'maintain' } },
      { label: `${Math.min(DAYS, 365)} days of history, all warehouses`, path: '/inventory/history/export', body: { time: [yearFrom, yearTo] } },
    ];
    if (!only || only === 'export') {
      console.log('');
      for (const e of exports) {
        (globalThis as { gc?: () => void }).gc?.();
        const rss0 = process.memoryUsage().rss;
        let peak = rss0;
        const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
        const t = performance.now();
        const res = await fetch(`${url}/api${e.path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
          body: JSON.stringify(e.body),
        });
        let bytes = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
        clearInterval(timer);
        console.log(
          `export ${e.path} (${e.label}): ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s; RSS ${(rss0 / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - rss0) / 1e6).toFixed(0)} MB)`,
        );
      }
    }
  } finally {
    await server.close();
    await source.stop?.();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
