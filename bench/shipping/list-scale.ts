/**
 * Ship-order lists at scale (issue 12 "Speed": list and detail list p95 < 50 ms with 100,000
 * orders and 5,000,000 lines). The calls a console makes, over real HTTP, as the organisation
 * admin and as a warehouse-scoped operator:
 *
 *   /ship-order/list          first page (default sort), a status filter, an orderNo search, page 500
 *   /ship-order-detail/list   one order's lines (first page, a later page of a 5,000-line order),
 *                             a carrier-serial search across all lines, the unfiltered line list
 *
 * Each next to its raw-SQL floor: the very SELECTs the call ran (captured), executed directly
 * through sqlite3 on the same file, so the ratio is what the server adds. Prints p50/p95, the
 * ratio, the load average and the query plans of the data statements.
 *
 * The data (orders, lines, carriers) is written once by bulk SQL: SQLite into a file cached
 * under <tmpdir>/rti-bench/ (2 GB for the default size, RTI_BENCH_DIR to move it), MariaDB/MySQL
 * (TEST_MYSQL_URL) into a database named by the size that stays on that server; a re-run starts
 * in seconds. Schema and indexes are the server's own (its schema step rebuilds them after the
 * load and migrates the kept data at every start, so an index added to the metadata is built
 * on it too).
 *
 *   node bench/shipping/list-scale.mjs [--orders=100000] [--lines=5000000] [--calls=30] [--fresh] [--plans=0]
 *   TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/x node bench/shipping/list-scale.mjs
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { createServer } from '../../server/src/index';
import { columnsOf } from '../lib/sql';
import { syncSchema } from '../../server/src/db/schema-sync';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const flag = (name: string) => process.argv.includes(`--${name}`);
const ORDERS = arg('orders', 100_000);
const LINES = arg('lines', 5_000_000);
const CALLS = arg('calls', 30);
const WARMUP = 5;
const PLANS = arg('plans', 1) !== 0;
const WAREHOUSES = 20;
const CARRIERS = Math.max(1000, Math.round(LINES / 20)); // each carrier has travelled on ~20 orders
/** orders of 5,000 lines (a later page of lines is read from one of them) */
const BIG_ORDERS = Math.min(100, Math.floor(ORDERS / 1000));
const BIG_SIZE = 5000;
/** the newest orders are still open; older ones closed (3 % cancelled) */
const OPEN_ORDERS = Math.min(2000, ORDERS);
const CACHE_DIR = process.env.RTI_BENCH_DIR ?? join(tmpdir(), 'rti-bench');
const ORG_CODE = 'BENCHSHIP';
/** a MariaDB database holding this table is complete */
const DONE_TABLE = 'bench_complete';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const f1 = (ms: number) => ms.toFixed(1).padStart(7);

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
}
const run = (d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => d.run(sql, params, (err) => (err ? reject(Object.assign(err, { sql: sql.slice(0, 300) })) : resolve())));
const all = <T = Record<string, unknown>>(d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => d.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
const close = (d: sqlite3.Database) => new Promise<void>((resolve) => d.close(() => resolve()));

const boot = (databaseUrl: string) => createServer({ databaseUrl, plugins: ['shipping'], logError: () => undefined });

/** SQL that differs between SQLite and MariaDB/MySQL: the generator speaks through these. */
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
    div: (a: string, b: number) => (sqlite ? `((${a}) / ${b})` : `((${a}) DIV ${b})`),
    /** the order's day: 100 orders a day from 2023-06-01 */
    day: (n: string) => (sqlite ? `date('2023-06-01', '+' || ((${n} - 1) / 100) || ' days')` : `DATE_ADD('2023-06-01', INTERVAL ((${n} - 1) DIV 100) DAY)`),
    ymd: (d: string) => (sqlite ? `strftime('%Y%m%d', ${d})` : `DATE_FORMAT(${d}, '%Y%m%d')`),
    at: (d: string, time: string) => (sqlite ? `${d} || ' ${time}.000 +00:00'` : `CONCAT(${d}, ' ${time}.000')`),
    stamp: (day: string) => (sqlite ? `'${day} 00:00:00.000 +00:00'` : `'${day} 00:00:00.000'`),
  };
}

/**
 * Builds the data: organisation, role, an admin and a 2-warehouse operator, reference rows
 * through the models; carriers, orders and lines by INSERT … SELECT over a sequence, with the
 * big tables' secondary indexes dropped during the load and rebuilt after by the server's own
 * schema step (one sort each instead of 5 M random index inserts), then statistics.
 */
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
      (await models.organization.create({ code: ORG_CODE, name: 'Bench Shipping', entryCode: ORG_CODE.toLowerCase(), pcPermissions: codes })).get('id'),
    );
    const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
    const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
    const whs: number[] = [];
    for (let i = 1; i <= WAREHOUSES; i++) whs.push(Number((await models.warehouse.create({ orgId: org, code: `WH-${i}`, name: `Warehouse ${i}` })).get('id')));
    const carrierCodes: number[] = [];
    for (let i = 1; i <= 5; i++)
      carrierCodes.push(
        Number(
          (await models['carrier-code'].create({ orgId: org, code: `CC-${i}`, name: `Code ${i}`, projectId: project, type: 10, available: true })).get('id'),
        ),
      );
    await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] });
    await models.user.create({
      orgId: org,
      name: 'bench.operator',
      realName: 'Bench operator',
      roleIds: [role],
      organizationIds: [org],
      warehouseIds: whs.slice(0, 2),
    });
    const carrier = columnsOf(server, 'carrier');
    const order = columnsOf(server, 'ship-order');
    const line = columnsOf(server, 'ship-order-detail');

    if (dialect === 'sqlite') for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await exec(`PRAGMA ${pragma}`);
    else await exec('SET unique_checks = 0');
    // secondary indexes of the three big tables: dropped for the load, rebuilt after
    const qi = sequelize.getQueryInterface();
    let dropped = 0;
    for (const t of [carrier, order, line]) {
      for (const ix of (await qi.showIndex(t.name)) as Array<{ name: string; unique: boolean; primary: boolean }>) {
        if (ix.unique || ix.primary || ix.name === 'PRIMARY') continue;
        await qi.removeIndex(t.name, ix.name);
        dropped++;
      }
    }

    const w0 = whs[0];
    const c0 = carrierCodes[0];
    const STAMP = d.stamp('2026-01-01');
    // carriers 1..CARRIERS (a fresh table: ids are the sequence numbers)
    let s = d.seq(1, CARRIERS);
    await exec(
      `INSERT INTO ${carrier.table} (id, ${carrier.list(['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'cycleCount', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'C'`, d.pad('n', 8))}, ${d.cat(`'Carrier '`, 'n')}, ${c0} + n % 5, ${project}, 10, 0, ${w0} + n % ${WAREHOUSES}, 10, 0, 10, 20, ${STAMP}, ${STAMP} FROM ${s.from}`,
    );
    // orders: 100 a day, shipper n mod 20, receiver another warehouse, the newest OPEN_ORDERS open
    const status = `CASE WHEN n > ${ORDERS - OPEN_ORDERS} THEN (CASE n % 4 WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 2 THEN 3 ELSE 4 END) WHEN (n * 37) % 100 < 3 THEN 6 ELSE 5 END`;
    const day = d.day('n');
    const regular = LINES - BIG_ORDERS * BIG_SIZE;
    const perOrder = Math.max(1, Math.floor(regular / ORDERS));
    const isBig = `(${BIG_ORDERS} > 0 AND n % 1000 = 500 AND ${d.div('n', 1000)} < ${BIG_ORDERS})`;
    const linesOf = `(CASE WHEN n <= ${Math.floor(regular / perOrder)} THEN ${perOrder} ELSE 0 END + CASE WHEN ${isBig} THEN ${BIG_SIZE} ELSE 0 END)`;
    s = d.seq(1, ORDERS);
    await exec(
      `INSERT INTO ${order.table} (id, ${order.list(['orgId', 'orderNo', 'type', 'status', 'shipperWarehouseId', 'receiverWarehouseId', 'totalAmount', 'receivedAmount', 'missingAmount', 'extraAmount', 'transportType', 'conveyanceNo', 'etd', 'eta', 'atd', 'tor', 'releasedBy', 'receivedBy', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'SO'`, d.ymd(day), d.pad(`(n - 1) % 100 + 1`, 4))}, 2, st,
              ${w0} + (n - 1) % ${WAREHOUSES}, ${w0} + ((n - 1) % ${WAREHOUSES} + 1 + ${d.div('n - 1', WAREHOUSES)} % ${WAREHOUSES - 1}) % ${WAREHOUSES},
              ${linesOf}, CASE WHEN st IN (4, 5) THEN ${linesOf} ELSE 0 END, 0, 0, 20, ${d.cat(`'TRK-'`, 'n % 500')},
              ${d.at(day, '08:00:00')}, ${d.at(day, '20:00:00')},
              CASE WHEN st IN (2, 3, 4, 5) THEN ${d.at(day, '09:00:00')} END, CASE WHEN st IN (4, 5) THEN ${d.at(day, '19:00:00')} END,
              CASE WHEN st IN (2, 3, 4, 5) THEN 'bench' END, CASE WHEN st IN (4, 5) THEN 'bench' END, ${d.at(day, '07:00:00')}, ${d.at(day, '07:00:00')}
       FROM (SELECT n, ${status} AS st FROM ${s.from}) AS o`,
    );
    // lines: perOrder per order in order sequence, then the big orders' 5,000 each; the line
    // status follows its order's (received orders: one line in 97 missing)
    const lineCols = `(${line.list(['orgId', 'shipOrderId', 'carrierId', 'carrierSn', 'carrierCodeId', 'status', 'deliveryNo', 'containerNo', 'deliveryBy', 'deliveryTime', 'receiptBy', 'receiptTime', 'departureConfirmedBy', 'createdAt', 'updatedAt'])})`;
    const insertLines = (count: number, orderOf: string) => {
      const q = d.seq(0, count - 1);
      return exec(`INSERT INTO ${line.table} ${lineCols} ${q.with}
       SELECT ${org}, o, c, ${d.cat(`'C'`, d.pad('c', 8))}, ${c0} + c % 5,
              CASE WHEN st IN (2, 3) THEN 20 WHEN st IN (4, 5) THEN (CASE WHEN k % 97 = 0 THEN 40 ELSE 30 END) ELSE 10 END,
              ${d.cat(`'DN'`, d.pad('o', 7))}, ${d.cat(`'CN'`, d.pad('o', 7), `'-'`, 'k % 4')},
              CASE WHEN st >= 2 AND st <> 6 THEN 'bench' END, CASE WHEN st >= 2 AND st <> 6 THEN ${d.stamp('2025-01-01')} END,
              CASE WHEN st IN (4, 5) THEN 'bench' END, CASE WHEN st IN (4, 5) THEN ${d.stamp('2025-01-02')} END,
              CASE WHEN st >= 2 AND st <> 6 THEN 20 END, ${STAMP}, ${STAMP}
       FROM (SELECT k, o, (k * 7919) % ${CARRIERS} + 1 AS c, (SELECT ${order.c('status')} FROM ${order.table} WHERE id = o) AS st
             FROM (SELECT n AS k, ${orderOf} AS o FROM ${q.from}) AS ko) AS l`);
    };
    const regularLines = Math.floor(regular / perOrder) * perOrder;
    await insertLines(regularLines, `${d.div('n', perOrder)} + 1`);
    if (BIG_ORDERS) await insertLines(BIG_ORDERS * BIG_SIZE, `${d.div('n', BIG_SIZE)} * 1000 + 500`);
    const loaded = performance.now();
    // the server's own schema step puts the dropped indexes back
    await syncSchema(sequelize, models, server.metadata, (m) => console.log(m));
    if (dialect === 'sqlite') {
      await exec('ANALYZE');
      await exec('PRAGMA journal_mode = WAL');
    } else {
      await exec(`ANALYZE TABLE ${carrier.table}, ${order.table}, ${line.table}`);
      await exec(`CREATE TABLE ${qi.quoteIdentifier(DONE_TABLE)} (id INT)`);
    }
    console.log(
      `built: ${ORDERS.toLocaleString('en')} orders, ${(regularLines + BIG_ORDERS * BIG_SIZE).toLocaleString('en')} lines, ${CARRIERS.toLocaleString('en')} carriers on ${dialect}; rows ${((loaded - started) / 1000).toFixed(0)} s, ${dropped} indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}

/** Direct SQL on the same database: the floor, and the plans. */
interface Raw {
  all(sql: string): Promise<Array<Record<string, unknown>>>;
  plan(sql: string): Promise<string>;
  close(): Promise<void>;
}

async function rawSqlite(file: string): Promise<Raw> {
  const db = await open(file);
  return {
    all: (sql) => all(db, sql),
    plan: async (sql) => (await all<{ detail: string }>(db, `EXPLAIN QUERY PLAN ${sql}`)).map((p) => p.detail).join(' | '),
    close: () => close(db),
  };
}

async function rawMysql(url: string): Promise<Raw> {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const conn = await mysql.createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username) || 'root',
    password: decodeURIComponent(u.password) || undefined,
    database: u.pathname.slice(1),
  });
  return {
    all: async (sql) => (await conn.query(sql))[0] as Array<Record<string, unknown>>,
    plan: async (sql) =>
      ((await conn.query(`EXPLAIN ${sql}`))[0] as Array<Record<string, unknown>>)
        .map((r) => `${r.table}: ${r.type} ${r.key ?? '-'} rows ${r.rows}${r.Extra ? ` (${r.Extra})` : ''}`)
        .join(' | '),
    close: () => conn.end(),
  };
}

/**
 * Where the data lives: a file under the cache folder (SQLite), or a database named by the
 * size on the server of TEST_MYSQL_URL (kept there for the next run). Built when missing.
 */
async function dataSource(): Promise<{ url: string; raw: () => Promise<Raw>; label: string }> {
  const server = process.env.TEST_MYSQL_URL;
  if (server) {
    const base = new URL(server.replace(/^mariadb:/, 'mysql:'));
    const name = `rti_bench_ship_${ORDERS}_${LINES}`;
    const admin = await mysql.createConnection({
      host: base.hostname,
      port: Number(base.port || 3306),
      user: decodeURIComponent(base.username) || 'root',
      password: decodeURIComponent(base.password) || undefined,
    });
    const [done] = (await admin.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?`, [name, DONE_TABLE])) as unknown as [
      unknown[],
    ];
    const url = new URL(base.href);
    url.pathname = `/${name}`;
    if (flag('fresh') || !done.length) {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.end();
      await build(url.href);
    } else {
      await admin.end();
      console.log(`data: database ${name} (kept; --fresh rebuilds)`);
    }
    return { url: url.href, raw: () => rawMysql(url.href), label: 'MariaDB/MySQL' };
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = join(CACHE_DIR, `ship-list-${ORDERS}-${LINES}.sqlite`);
  if (flag('fresh') || !existsSync(file)) {
    const partial = `${file}.partial`;
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
    await build(`sqlite:${partial}`);
    renameSync(partial, file);
    console.log(`data: ${file}, ${(statSync(file).size / 2 ** 30).toFixed(2)} GB`);
  } else console.log(`data: ${file} (cached; --fresh rebuilds)`);
  return { url: `sqlite:${file}`, raw: () => rawSqlite(file), label: 'SQLite' };
}

interface Query {
  label: string;
  path: string;
  /** a body per call (varied: a random order, a random serial, …) */
  body: (i: number) => Record<string, unknown>;
}

async function main() {
  const source = await dataSource();
  const server = await boot(source.url);
  const { url } = await server.listen(0);
  const raw = await source.raw();
  try {
    const models = server.db.models;
    const org = Number((await models.organization.findOne({ where: { code: ORG_CODE } }))!.get('id'));
    const user = async (name: string) => Number((await models.user.findOne({ where: { orgId: org, name } }))!.get('id'));
    const session = async (userId: number) => (await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null })).token;
    const operatorRow = (await models.user.findOne({ where: { orgId: org, name: 'bench.operator' } }))!;
    const operatorWarehouses = (operatorRow.get('warehouseIds') as number[]).map(Number);
    const roles = [
      { name: 'admin', token: await session(await user('bench.admin')) },
      {
        name: `operator (${operatorWarehouses.length} of ${WAREHOUSES} warehouses)`,
        token: await session(Number(operatorRow.get('id'))),
        warehouses: operatorWarehouses,
      },
    ];
    const call = async (token: string, path: string, body: Record<string, unknown>) => {
      const t = performance.now();
      const res = await fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; message: string; data: { total: number; list: unknown[] } };
      const ms = performance.now() - t;
      if (json.code !== 0) throw new Error(`${path} ${JSON.stringify(body)}: ${json.message}`);
      return { ms, data: json.data };
    };

    // what the bodies pick from: orders visible to each role, big orders, serials
    const order = columnsOf(server, 'ship-order');
    const visible = (whs?: number[]) => (whs ? `AND (${order.c('shipperWarehouseId')} IN (${whs}) OR ${order.c('receiverWarehouseId')} IN (${whs}))` : '');
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);

    const sequelize = server.db.sequelize as unknown as { options: { logging: unknown } };
    const line = (label: string, xs: number[]) => `p50 ${f1(percentile(xs, 50))} ms  p95 ${f1(percentile(xs, 95))} ms`;
    const summary: Array<{ role: string; label: string; p50: number; p95: number; raw95: number; ratio: number; total: number }> = [];

    console.log(
      `\nship-order lists on ${source.label}: ${ORDERS.toLocaleString('en')} orders, ${LINES.toLocaleString('en')} lines; ${CALLS} calls per query (+${WARMUP} warm-up), load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    // what any call costs here (session, permission, envelope) on a one-row list, for scale
    const tiny: number[] = [];
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const { ms } = await call(roles[0].token, '/project/list', { limit: 1 });
      if (i >= WARMUP) tiny.push(ms);
    }
    console.log(`fixed cost of any call (/project/list, 1 row): HTTP ${line('', tiny)}`);
    for (const role of roles) {
      const whs = 'warehouses' in role ? role.warehouses : undefined;
      const ids = (
        await raw.all(`SELECT id, ${order.c('orderNo')} AS no FROM ${order.table} WHERE ${order.c('orgId')} = ${org} ${visible(whs)} ORDER BY id`)
      ).map((r) => ({ id: Number(r.id), no: String(r.no) }));
      const big = (
        await raw.all(`SELECT id FROM ${order.table} WHERE ${order.c('orgId')} = ${org} AND ${order.c('totalAmount')} >= ${BIG_SIZE} ${visible(whs)}`)
      ).map((r) => Number(r.id));
      const pick = () => ids[rand(ids.length)];
      const queries: Query[] = [
        { label: 'orders: first page', path: '/ship-order/list', body: () => ({ page: 1, limit: 10 }) },
        { label: 'orders: status released', path: '/ship-order/list', body: () => ({ status: [2], page: 1, limit: 10 }) },
        { label: 'orders: status closed', path: '/ship-order/list', body: () => ({ status: [5], page: 1, limit: 10 }) },
        { label: 'orders: orderNo search', path: '/ship-order/list', body: () => ({ orderNo: pick().no, page: 1, limit: 10 }) },
        { label: 'orders: page 500', path: '/ship-order/list', body: () => ({ page: 500, limit: 10 }) },
        { label: 'lines of an order: first page', path: '/ship-order-detail/list', body: () => ({ shipOrderId: pick().id, page: 1, limit: 20 }) },
        {
          label: 'lines of a 5,000-line order: page 100',
          path: '/ship-order-detail/list',
          body: () => ({ shipOrderId: big.length ? big[rand(big.length)] : pick().id, page: big.length ? 100 : 2, limit: 20 }),
        },
        {
          label: 'lines: carrier serial search',
          path: '/ship-order-detail/list',
          body: () => ({ carrierSn: `C${String(rand(CARRIERS) + 1).padStart(8, '0')}`, page: 1, limit: 10 }),
        },
        { label: 'lines: all, first page', path: '/ship-order-detail/list', body: () => ({ page: 1, limit: 10 }) },
      ];
      console.log(`\n${role.name}: sees ${ids.length.toLocaleString('en')} orders`);
      for (const q of queries) {
        const bodies = Array.from({ length: CALLS + WARMUP }, (_, i) => q.body(i));
        const httpMs: number[] = [];
        const rawMs: number[] = [];
        let total = 0;
        let captured: string[] = [];
        for (const [i, body] of bodies.entries()) {
          const sqls: string[] = [];
          // the statements this call runs, to run them again directly (logging costs the call ~nothing)
          sequelize.options.logging = (sql: string) => sqls.push(sql.replace(/^Executing \([^)]*\): /, ''));
          const { ms, data } = await call(role.token, q.path, body);
          sequelize.options.logging = false;
          const selects = sqls.filter((s) => /^SELECT/i.test(s));
          const t = performance.now();
          for (const s of selects) await raw.all(s);
          const rawTime = performance.now() - t;
          if (i < WARMUP) continue;
          httpMs.push(ms);
          rawMs.push(rawTime);
          total = data.total;
          captured = selects;
        }
        const p95 = percentile(httpMs, 95);
        const raw95 = percentile(rawMs, 95);
        summary.push({ role: role.name, label: q.label, p50: percentile(httpMs, 50), p95, raw95, ratio: p95 / raw95, total });
        console.log(
          `  ${q.label.padEnd(40)} HTTP ${line('', httpMs)}   raw SQL (${captured.length} SELECTs) ${line('', rawMs)}   ratio p95 ${(p95 / raw95).toFixed(2)}×   ${p95 < 50 ? 'ok' : 'OVER 50 ms'}   (total ${total.toLocaleString('en')})`,
        );
        if (PLANS) {
          for (const s of captured.filter((x) => /FROM [`"]ship_order/.test(x))) {
            const plan = await raw.plan(s);
            console.log(`      ${s.length > 150 ? s.slice(0, 60) + ' … ' + s.slice(s.indexOf(' FROM ')) : s}`.slice(0, 400));
            console.log(`        plan: ${plan}`);
          }
        }
      }
    }
    // Lines carry no warehouse field: is an order outside the operator's warehouses readable
    // through its lines? (said, not asserted: the bench measures; see the README's open items)
    const operator = roles[1];
    const [outside] = await raw.all(
      `SELECT id FROM ${order.table} WHERE ${order.c('orgId')} = ${org} AND NOT (${visible(operator.warehouses).replace(/^AND /, '')}) LIMIT 1`,
    );
    if (outside) {
      const { data } = await call(operator.token, '/ship-order-detail/list', { shipOrderId: Number(outside.id), page: 1, limit: 1 });
      const [seen] = (
        await call(operator.token, '/ship-order/list', {
          orderNo: String((await raw.all(`SELECT ${order.c('orderNo')} AS no FROM ${order.table} WHERE id = ${Number(outside.id)}`))[0].no),
          limit: 1,
        })
      ).data.list;
      console.log(`
warehouse scope of lines: the operator ${seen ? 'sees' : 'does not see'} order ${outside.id} (outside its warehouses) and ${data.total ? `DOES read its ${data.total} lines` : 'reads none of its lines'}`);
    }
    const misses = summary.filter((s) => s.p95 >= 50);
    console.log(
      `\n${summary.length - misses.length} of ${summary.length} queries under 50 ms at p95; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const m of misses) console.log(`  OVER: ${m.role} / ${m.label}: p95 ${m.p95.toFixed(1)} ms (raw SQL ${m.raw95.toFixed(1)} ms)`);
  } finally {
    await raw.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
