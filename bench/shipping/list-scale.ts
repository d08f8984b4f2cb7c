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
 * The data (orders, lines, carriers) is written by bulk SQL into a file cached under
 * <tmpdir>/rti-bench/ (about 1.5 GB for the default size), so a re-run starts in seconds.
 * The schema and indexes are the server's own: the file is migrated by the server at every
 * start, so an index added to the metadata is built on the cached data too.
 *
 *   node bench/shipping/list-scale.mjs [--orders=100000] [--lines=5000000] [--calls=30] [--fresh] [--plans=0]
 *   (or: npx tsx bench/shipping/list-scale.ts …)
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createServer, type RtiServer } from '../../server/src/index';

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
const STAMP = '2026-01-01 00:00:00.000 +00:00';

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

const boot = (file: string) => createServer({ databaseUrl: `sqlite:${file}`, plugins: ['shipping'], logError: () => undefined });

/** Column of a resource attribute, quoted. */
const columnsOf = (server: RtiServer, resource: string) => {
  const m = server.db.models[resource];
  const attrs = m.getAttributes() as Record<string, { field?: string }>;
  const c = (a: string) => {
    if (!attrs[a]) throw new Error(`${resource} has no attribute ${a}`);
    return `"${attrs[a].field ?? a}"`;
  };
  return { table: `"${String(m.getTableName())}"`, c, list: (as: string[]) => as.map(c).join(', ') };
};

/**
 * Builds the data file: organisation, role, an admin and a 2-warehouse operator, reference rows
 * through the models; carriers, orders and lines by INSERT … SELECT over a recursive sequence,
 * with the big tables' secondary indexes dropped during the load and rebuilt after (one sort
 * each instead of 5 M random index inserts). Written to a temp name, renamed when complete.
 */
async function build(file: string): Promise<void> {
  const partial = `${file}.partial`;
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
  const started = performance.now();
  const server = await boot(partial);
  const models = server.db.models;
  const codes = server.listPermissionCodes();
  const org = Number((await models.organization.create({ code: ORG_CODE, name: 'Bench Shipping', entryCode: ORG_CODE.toLowerCase(), pcPermissions: codes })).get('id'));
  const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
  const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
  const whs: number[] = [];
  for (let i = 1; i <= WAREHOUSES; i++) whs.push(Number((await models.warehouse.create({ orgId: org, code: `WH-${i}`, name: `Warehouse ${i}` })).get('id')));
  const carrierCodes: number[] = [];
  for (let i = 1; i <= 5; i++) carrierCodes.push(Number((await models['carrier-code'].create({ orgId: org, code: `CC-${i}`, name: `Code ${i}`, projectId: project, type: 10, available: true })).get('id')));
  await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] });
  await models.user.create({ orgId: org, name: 'bench.operator', realName: 'Bench operator', roleIds: [role], organizationIds: [org], warehouseIds: whs.slice(0, 2) });
  const carrier = columnsOf(server, 'carrier');
  const order = columnsOf(server, 'ship-order');
  const line = columnsOf(server, 'ship-order-detail');
  await server.close();

  const raw = await open(partial);
  await run(raw, 'PRAGMA journal_mode = OFF');
  await run(raw, 'PRAGMA synchronous = OFF');
  await run(raw, 'PRAGMA cache_size = -262144');
  const bare = (t: string) => t.replace(/"/g, '');
  // secondary indexes of the three big tables: dropped for the load, rebuilt after
  const indexes = await all<{ name: string; sql: string }>(raw, `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (?, ?, ?) AND sql NOT LIKE 'CREATE UNIQUE%'`, [bare(carrier.table), bare(order.table), bare(line.table)]);
  for (const ix of indexes) await run(raw, `DROP INDEX "${ix.name}"`);

  const w0 = whs[0];
  const c0 = carrierCodes[0];
  await run(raw, 'BEGIN');
  // carriers 1..CARRIERS (a fresh table: ids are the sequence numbers)
  await run(
    raw,
    `INSERT INTO ${carrier.table} (id, ${carrier.list(['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'cycleCount', 'createdAt', 'updatedAt'])})
     WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
     SELECT n, ?, printf('C%08d', n), 'Carrier ' || n, ? + n % 5, ?, 10, 0, ? + n % ?, 10, 0, 10, 20, ?, ? FROM seq`,
    [CARRIERS, org, c0, project, w0, WAREHOUSES, STAMP, STAMP],
  );
  // orders: 100 a day, shipper n mod 20, receiver another warehouse, the newest OPEN_ORDERS open
  const status = `CASE WHEN n > ${ORDERS - OPEN_ORDERS} THEN (CASE n % 4 WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 2 THEN 3 ELSE 4 END) WHEN (n * 37) % 100 < 3 THEN 6 ELSE 5 END`;
  const day = `date('2023-06-01', '+' || ((n - 1) / 100) || ' days')`;
  const regular = LINES - BIG_ORDERS * BIG_SIZE;
  const perOrder = Math.max(1, Math.floor(regular / ORDERS));
  const isBig = `(${BIG_ORDERS} > 0 AND n % 1000 = 500 AND n / 1000 < ${BIG_ORDERS})`;
  const linesOf = `(CASE WHEN n <= ${Math.floor(regular / perOrder)} THEN ${perOrder} ELSE 0 END + CASE WHEN ${isBig} THEN ${BIG_SIZE} ELSE 0 END)`;
  await run(
    raw,
    `INSERT INTO ${order.table} (id, ${order.list(['orgId', 'orderNo', 'type', 'status', 'shipperWarehouseId', 'receiverWarehouseId', 'totalAmount', 'receivedAmount', 'missingAmount', 'extraAmount', 'transportType', 'conveyanceNo', 'etd', 'eta', 'atd', 'tor', 'releasedBy', 'receivedBy', 'createdAt', 'updatedAt'])})
     WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
     SELECT n, ?, 'SO' || strftime('%Y%m%d', ${day}) || printf('%04d', (n - 1) % 100 + 1), 2, s,
            ? + (n - 1) % ${WAREHOUSES}, ? + ((n - 1) % ${WAREHOUSES} + 1 + ((n - 1) / ${WAREHOUSES}) % ${WAREHOUSES - 1}) % ${WAREHOUSES},
            ${linesOf}, CASE WHEN s IN (4, 5) THEN ${linesOf} ELSE 0 END, 0, 0, 20, 'TRK-' || (n % 500),
            ${day} || ' 08:00:00.000 +00:00', ${day} || ' 20:00:00.000 +00:00',
            CASE WHEN s IN (2, 3, 4, 5) THEN ${day} || ' 09:00:00.000 +00:00' END, CASE WHEN s IN (4, 5) THEN ${day} || ' 19:00:00.000 +00:00' END,
            CASE WHEN s IN (2, 3, 4, 5) THEN 'bench' END, CASE WHEN s IN (4, 5) THEN 'bench' END, ${day} || ' 07:00:00.000 +00:00', ${day} || ' 07:00:00.000 +00:00'
     FROM (SELECT n, ${status} AS s FROM seq)`,
    [ORDERS, org, w0, w0],
  );
  // lines: perOrder per order in order sequence, then the big orders' 5,000 each; the line
  // status follows its order's (received orders: one line in 97 missing)
  const lineRows = (k: string, orderOf: string) => `
     SELECT ?, o, c, printf('C%08d', c), ? + c % 5,
            CASE WHEN s IN (2, 3) THEN 20 WHEN s IN (4, 5) THEN (CASE WHEN k % 97 = 0 THEN 40 ELSE 30 END) ELSE 10 END,
            'DN' || printf('%07d', o), 'CN' || printf('%07d', o) || '-' || (k % 4),
            CASE WHEN s >= 2 AND s <> 6 THEN 'bench' END, CASE WHEN s >= 2 AND s <> 6 THEN '2025-01-01 09:00:00.000 +00:00' END,
            CASE WHEN s IN (4, 5) THEN 'bench' END, CASE WHEN s IN (4, 5) THEN '2025-01-01 19:00:00.000 +00:00' END,
            CASE WHEN s >= 2 AND s <> 6 THEN 20 END, ?, ?
     FROM (SELECT ${k} AS k, o, (${k} * 7919) % ${CARRIERS} + 1 AS c, (SELECT ${order.c('status')} FROM ${order.table} WHERE id = o) AS s FROM (SELECT ${k}, ${orderOf} AS o FROM seq))`;
  const lineCols = `(${line.list(['orgId', 'shipOrderId', 'carrierId', 'carrierSn', 'carrierCodeId', 'status', 'deliveryNo', 'containerNo', 'deliveryBy', 'deliveryTime', 'receiptBy', 'receiptTime', 'departureConfirmedBy', 'createdAt', 'updatedAt'])})`;
  const regularLines = Math.floor(regular / perOrder) * perOrder;
  await run(raw, `INSERT INTO ${line.table} ${lineCols} WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ? - 1) ${lineRows('n', `n / ${perOrder} + 1`)}`, [regularLines, org, c0, STAMP, STAMP]);
  if (BIG_ORDERS) await run(raw, `INSERT INTO ${line.table} ${lineCols} WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ? - 1) ${lineRows('n', `(n / ${BIG_SIZE}) * 1000 + 500`)}`, [BIG_ORDERS * BIG_SIZE, org, c0, STAMP, STAMP]);
  await run(raw, 'COMMIT');
  const loaded = performance.now();
  for (const ix of indexes) await run(raw, ix.sql);
  await run(raw, 'ANALYZE');
  await run(raw, 'PRAGMA journal_mode = WAL');
  await close(raw);
  renameSync(partial, file);
  console.log(`built ${file}: ${ORDERS.toLocaleString('en')} orders, ${(regularLines + BIG_ORDERS * BIG_SIZE).toLocaleString('en')} lines, ${CARRIERS.toLocaleString('en')} carriers; rows ${((loaded - started) / 1000).toFixed(0)} s, ${indexes.length} indexes + ANALYZE ${((performance.now() - loaded) / 1000).toFixed(0)} s, ${(statSync(file).size / 2 ** 30).toFixed(2)} GB`);
}

interface Query {
  label: string;
  path: string;
  /** a body per call (varied: a random order, a random serial, …) */
  body: (i: number) => Record<string, unknown>;
}

async function main() {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = join(CACHE_DIR, `ship-list-${ORDERS}-${LINES}.sqlite`);
  if (flag('fresh') || !existsSync(file)) await build(file);
  else console.log(`data: ${file} (cached; --fresh rebuilds)`);

  const server = await boot(file);
  const { url } = await server.listen(0);
  const raw = await open(file);
  try {
    const models = server.db.models;
    const org = Number((await models.organization.findOne({ where: { code: ORG_CODE } }))!.get('id'));
    const user = async (name: string) => Number((await models.user.findOne({ where: { orgId: org, name } }))!.get('id'));
    const session = async (userId: number) => (await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null })).token;
    const operatorRow = (await models.user.findOne({ where: { orgId: org, name: 'bench.operator' } }))!;
    const operatorWarehouses = (operatorRow.get('warehouseIds') as number[]).map(Number);
    const roles = [
      { name: 'admin', token: await session(await user('bench.admin')) },
      { name: `operator (${operatorWarehouses.length} of ${WAREHOUSES} warehouses)`, token: await session(Number(operatorRow.get('id'))), warehouses: operatorWarehouses },
    ];
    const call = async (token: string, path: string, body: Record<string, unknown>) => {
      const t = performance.now();
      const res = await fetch(`${url}/api${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) }, body: JSON.stringify(body) });
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

    console.log(`\nship-order lists on sqlite: ${ORDERS.toLocaleString('en')} orders, ${LINES.toLocaleString('en')} lines; ${CALLS} calls per query (+${WARMUP} warm-up), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`);
    for (const role of roles) {
      const whs = 'warehouses' in role ? role.warehouses : undefined;
      const ids = (await all<{ id: number; no: string }>(raw, `SELECT id, ${order.c('orderNo')} AS no FROM ${order.table} WHERE ${order.c('orgId')} = ? ${visible(whs)} ORDER BY id`, [org])).map((r) => ({ id: Number(r.id), no: r.no }));
      const big = (await all<{ id: number }>(raw, `SELECT id FROM ${order.table} WHERE ${order.c('orgId')} = ? AND ${order.c('totalAmount')} >= ? ${visible(whs)}`, [org, BIG_SIZE])).map((r) => Number(r.id));
      const pick = () => ids[rand(ids.length)];
      const queries: Query[] = [
        { label: 'orders: first page', path: '/ship-order/list', body: () => ({ page: 1, limit: 10 }) },
        { label: 'orders: status released', path: '/ship-order/list', body: () => ({ status: [2], page: 1, limit: 10 }) },
        { label: 'orders: status closed', path: '/ship-order/list', body: () => ({ status: [5], page: 1, limit: 10 }) },
        { label: 'orders: orderNo search', path: '/ship-order/list', body: () => ({ orderNo: pick().no, page: 1, limit: 10 }) },
        { label: 'orders: page 500', path: '/ship-order/list', body: () => ({ page: 500, limit: 10 }) },
        { label: "lines of an order: first page", path: '/ship-order-detail/list', body: () => ({ shipOrderId: pick().id, page: 1, limit: 20 }) },
        { label: 'lines of a 5,000-line order: page 100', path: '/ship-order-detail/list', body: () => ({ shipOrderId: big.length ? big[rand(big.length)] : pick().id, page: big.length ? 100 : 2, limit: 20 }) },
        { label: 'lines: carrier serial search', path: '/ship-order-detail/list', body: () => ({ carrierSn: `C${String(rand(CARRIERS) + 1).padStart(8, '0')}`, page: 1, limit: 10 }) },
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
          for (const s of selects) await all(raw, s);
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
        console.log(`  ${q.label.padEnd(40)} HTTP ${line('', httpMs)}   raw SQL (${captured.length} SELECTs) ${line('', rawMs)}   ratio p95 ${(p95 / raw95).toFixed(2)}×   ${p95 < 50 ? 'ok' : 'OVER 50 ms'}   (total ${total.toLocaleString('en')})`);
        if (PLANS) {
          for (const s of captured.filter((x) => /FROM [`"]ship_order/.test(x))) {
            const plan = await all<{ detail: string }>(raw, `EXPLAIN QUERY PLAN ${s}`);
            console.log(`      ${s.length > 150 ? s.slice(0, 60) + ' … ' + s.slice(s.indexOf(' FROM ')) : s}`.slice(0, 400));
            console.log(`        plan: ${plan.map((p) => p.detail).join(' | ')}`);
          }
        }
      }
    }
    const misses = summary.filter((s) => s.p95 >= 50);
    console.log(`\n${summary.length - misses.length} of ${summary.length} queries under 50 ms at p95; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const m of misses) console.log(`  OVER: ${m.role} / ${m.label}: p95 ${m.p95.toFixed(1)} ms (raw SQL ${m.raw95.toFixed(1)} ms)`);
  } finally {
    await close(raw);
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
