/**
 * In-transit scope benchmark (issue 17, children `grantsScope`): a warehouse-restricted
 * operator sees the carriers of its warehouses AND the carriers shipped on open orders to or
 * from them, which stand in no warehouse while in transit. At pool scale — 1,000,000 carriers in
 * 50 warehouses, 20,000 ship orders with 1,000,000 lines (2,000 orders in transit, 100,000
 * carriers on the road) — the restricted user's `/carrier/list` (a page sorted by serial; a
 * serial search; a page of one status) is timed over real HTTP next to:
 *
 *   same SQL   the statements the call ran, captured and run directly through sqlite3;
 *   floor      a hand-written query of the same answer: the warehouse's carriers UNION the
 *              carriers on its open orders' shipped lines (what one would write by hand);
 *   admin      the same call by an unrestricted user (what the scope costs on top).
 *
 *   node bench/receiving/run-scope.mjs [--carriers=1000000] [--orders=20000] [--calls=100]
 */
import { cpus, loadavg } from 'node:os';
import sqlite3 from 'sqlite3';
import { startTestServer } from '../../server/test/support/test-server';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const CARRIERS = arg('carriers', 1_000_000);
const ORDERS = arg('orders', 20_000);
const LINES_PER_ORDER = Math.floor(CARRIERS / ORDERS);
const CALLS = arg('calls', 100);
const WAREHOUSES = 50;
// enum values (plugins/shipping/metadata/enums.json)
const RELEASED = 2;
const CLOSED = 5;
const SHIPPED = 20;
const RECEIVED = 30;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (ms: number) => ms.toFixed(2).padStart(8);
const open = (file: string) =>
  new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
const run = (d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => d.run(sql, params, (err) => (err ? reject(err) : resolve())));
const all = <T = Record<string, unknown>>(d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => d.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));

async function main() {
  const ts = await startTestServer({ plugins: ['shipping'], logError: () => undefined });
  if (ts.db.dialect !== 'sqlite') throw new Error('the scope bench runs on SQLite (unset TEST_MYSQL_URL)');
  const file = ts.db.url.replace(/^sqlite:/, '');
  try {
    const make = async (resource: string, body: Record<string, unknown>) => {
      const r = await ts.a.call(`/${resource}/create`, body);
      if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
      return r.body.data.id as number;
    };
    const project = await make('project', { name: 'Bench' });
    const code = await make('carrier-code', { code: 'CC-1', name: 'Rack', projectId: project, type: 10 });
    const warehouses: number[] = [];
    for (let i = 1; i <= WAREHOUSES; i++)
      warehouses.push(await make('warehouse', { code: `WH-${i}`, name: `Warehouse ${i}`, minInventory: 0, maxInventory: 1_000_000 }));
    const models = ts.server.db.sequelize.models;
    const t0 = performance.now();
    // orders through the model (its defaults and number), lines and carriers by direct SQL
    const orders = [];
    for (let i = 0; i < ORDERS; i++) {
      const from = warehouses[i % WAREHOUSES];
      const to = warehouses[(i * 7 + 1) % WAREHOUSES];
      orders.push({
        orgId: ts.orgA,
        orderNo: `SO-B-${i}`,
        type: 1,
        status: i % 10 === 0 ? RELEASED : CLOSED,
        shipperWarehouseId: from,
        receiverWarehouseId: to === from ? warehouses[(i + 1) % WAREHOUSES] : to,
        transportType: 1,
      });
    }
    for (let i = 0; i < orders.length; i += 2000) await models['ship-order'].bulkCreate(orders.slice(i, i + 2000), { validate: false, hooks: false });
    const raw = await open(file);
    await run(raw, 'PRAGMA busy_timeout = 15000');
    const col = (model: string, attr: string) => `"${models[model].getAttributes()[attr]?.field ?? attr}"`;
    const table = (model: string) => `"${String(models[model].getTableName())}"`;
    const firstOrder = Number((await all<{ id: number }>(raw, `SELECT MIN(id) AS id FROM ${table('ship-order')}`))[0].id);
    await run(raw, 'BEGIN IMMEDIATE');
    // carrier n belongs to order (n - 1) / LINES_PER_ORDER: in transit (no warehouse) when that order is released
    await run(
      raw,
      `INSERT INTO ${table('carrier')} (${['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'cycleCount', 'createdAt', 'updatedAt'].map((a) => col('carrier', a)).join(', ')})
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT ?, printf('C%08d', n), 'Carrier ' || n, ?, ?, 10, 0,
              CASE WHEN ((n - 1) / ?) % 10 = 0 THEN NULL ELSE ? + (n * 31) % ? END,
              10, 10, CASE WHEN ((n - 1) / ?) % 10 = 0 THEN 20 ELSE 10 END, n % 50,
              '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00'
       FROM seq`,
      [CARRIERS, ts.orgA, code, project, LINES_PER_ORDER, warehouses[0], WAREHOUSES, LINES_PER_ORDER],
    );
    const firstCarrier = Number((await all<{ id: number }>(raw, `SELECT MIN(id) AS id FROM ${table('carrier')}`))[0].id);
    await run(
      raw,
      `INSERT INTO ${table('ship-order-detail')} (${['orgId', 'shipOrderId', 'carrierId', 'carrierSn', 'status', 'createdAt', 'updatedAt'].map((a) => col('ship-order-detail', a)).join(', ')})
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT ?, ? + (n - 1) / ?, ? + n - 1, printf('C%08d', n), CASE WHEN ((n - 1) / ?) % 10 = 0 THEN ? ELSE ? END,
              '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00'
       FROM seq`,
      [ORDERS * LINES_PER_ORDER, ts.orgA, firstOrder, LINES_PER_ORDER, firstCarrier, LINES_PER_ORDER, SHIPPED, RECEIVED],
    );
    await run(raw, 'COMMIT');
    await run(raw, 'ANALYZE');
    const inTransit = Number(
      (await all<{ n: number }>(raw, `SELECT COUNT(*) AS n FROM ${table('carrier')} WHERE ${col('carrier', 'warehouseId')} IS NULL`))[0].n,
    );
    console.log(
      `fixture: ${CARRIERS.toLocaleString('en')} carriers in ${WAREHOUSES} warehouses, ${ORDERS.toLocaleString('en')} ship orders with ${(ORDERS * LINES_PER_ORDER).toLocaleString('en')} lines, ${inTransit.toLocaleString('en')} carriers in transit — written in ${((performance.now() - t0) / 1000).toFixed(1)} s, then ANALYZE`,
    );

    const w = warehouses[1];
    const restricted = await ts.callerFor(await ts.addUser(ts.orgA, 'scope-bench', { warehouseIds: [w] }), ts.orgA);
    const shapes: Array<{ name: string; body: (i: number) => Record<string, unknown> }> = [
      { name: 'page sorted by serial', body: (i) => ({ sortBySn: true, page: (i % 10) + 1, limit: 20 }) },
      {
        name: 'serial search (an in-transit one)',
        body: (i) => ({ sn: `C${String(((i * 10) % (ORDERS / 10)) * 10 * LINES_PER_ORDER + 5).padStart(8, '0')}`, page: 1, limit: 20 }),
      },
      { name: 'in transit only (transportStatus 20)', body: (i) => ({ transportStatus: 20, page: (i % 5) + 1, limit: 20 }) },
    ];
    const sequelize = ts.server.db.sequelize as unknown as { options: { logging: unknown } };
    const timed = async (caller: typeof restricted, body: Record<string, unknown>) => {
      const t = performance.now();
      const r = await caller.call('/carrier/list', body);
      if (r.body.code !== 0) throw new Error(`list: ${r.body.message}`);
      return { ms: performance.now() - t, total: Number(r.body.data.total) };
    };
    const line = (label: string, xs: number[]) => console.log(`  ${label.padEnd(44)} p50 ${fmt(pct(xs, 50))} ms  p95 ${fmt(pct(xs, 95))} ms`);
    const A = `${table('carrier')}`;
    const wf = col('carrier', 'warehouseId');
    const floorSql = (body: Record<string, unknown>) => {
      // by hand: the warehouse's carriers, and those shipped on its open orders — then the page
      const filter = body.sn
        ? `AND c.${col('carrier', 'sn')} LIKE '${String(body.sn)}%'`
        : body.transportStatus
          ? `AND c.${col('carrier', 'transportStatus')} = ${Number(body.transportStatus)}`
          : '';
      const page = Number(body.page ?? 1);
      const visible = `SELECT c.id FROM ${A} c WHERE c.${col('carrier', 'orgId')} = ${ts.orgA} AND c.${wf} = ${w} ${filter}
        UNION SELECT c.id FROM ${table('ship-order')} o JOIN ${table('ship-order-detail')} l ON l.${col('ship-order-detail', 'shipOrderId')} = o.id JOIN ${A} c ON c.id = l.${col('ship-order-detail', 'carrierId')}
        WHERE o.${col('ship-order', 'orgId')} = ${ts.orgA} AND o.${col('ship-order', 'status')} IN (2, 3) AND (o.${col('ship-order', 'shipperWarehouseId')} = ${w} OR o.${col('ship-order', 'receiverWarehouseId')} = ${w}) AND l.${col('ship-order-detail', 'status')} = ${SHIPPED} ${filter}`;
      return [
        `SELECT COUNT(*) AS n FROM (${visible})`,
        `SELECT c.* FROM ${A} c WHERE c.id IN (${visible}) ORDER BY c.${col('carrier', body.sortBySn ? 'sn' : 'id')} ${body.sortBySn ? 'ASC' : 'DESC'} LIMIT 20 OFFSET ${(page - 1) * 20}`,
      ];
    };
    for (const shape of shapes) {
      const bodies = Array.from({ length: CALLS }, (_, i) => shape.body(i));
      for (const b of bodies.slice(0, 10)) await timed(restricted, b);
      const scoped: number[] = [];
      const admin: number[] = [];
      let total = 0;
      for (const b of bodies) {
        const r = await timed(restricted, b);
        scoped.push(r.ms);
        total = r.total;
        admin.push((await timed(ts.a, b)).ms);
      }
      const same: number[] = [];
      const floor: number[] = [];
      let floorTotal = 0;
      let plan: string[] = [];
      for (const [i, b] of bodies.entries()) {
        const sqls: string[] = [];
        sequelize.options.logging = (sql: string) => sqls.push(sql.replace(/^Executing \([^)]*\): /, ''));
        await timed(restricted, b);
        sequelize.options.logging = false;
        const selects = sqls.filter((q) => /^SELECT/i.test(q) && q.includes(A.replace(/"/g, '`')));
        let t = performance.now();
        for (const q of selects) await all(raw, q);
        same.push(performance.now() - t);
        t = performance.now();
        const [count, pageSql] = floorSql(b);
        floorTotal = Number((await all<{ n: number }>(raw, count))[0].n);
        await all(raw, pageSql);
        floor.push(performance.now() - t);
        if (i === bodies.length - 1) plan = (await all<{ detail: string }>(raw, `EXPLAIN QUERY PLAN ${selects[selects.length - 1]}`)).map((p) => p.detail);
      }
      console.log(
        `\n/carrier/list, ${shape.name}: ${CALLS} calls by an operator restricted to one warehouse (~${total.toLocaleString('en')} rows visible; hand-written floor counts ${floorTotal.toLocaleString('en')})`,
      );
      line('HTTP, restricted operator', scoped);
      line('raw sqlite3, the statements the call ran', same);
      line('raw sqlite3, hand-written floor (UNION)', floor);
      line('HTTP, unrestricted administrator', admin);
      console.log(
        `  ratio HTTP / hand-written floor: p95 ${(pct(scoped, 95) / pct(floor, 95)).toFixed(2)}×; HTTP / same SQL: p95 ${(pct(scoped, 95) / pct(same, 95)).toFixed(2)}×`,
      );
      console.log(`  plan of the page statement: ${plan.join(' | ')}`);
    }
    console.log(
      `\n(load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores)`,
    );
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
