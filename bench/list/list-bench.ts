/**
 * List benchmark: N carriers (default 1,000,000) in a temp SQLite database, then the generated
 * `/carrier/list` call over real HTTP with a filter and a sort (warehouseId eq + status in +
 * sortBySn, pages 1..P, limit 20), next to the very SQL that call ran executed directly
 * through sqlite3 on the same file, in the same run. Prints p50/p95/p99 of both, their ratio,
 * and the query plans; then again after adding the two composite indexes this query shape
 * needs (on the bench database only), to measure their effect. Target: HTTP p95 < 50 ms.
 *
 *   node bench/list/run.mjs [--rows=1000000] [--calls=200] [--pages=10] [--warehouses=50] [--compare=1]
 *   (or: npx tsx bench/list/list-bench.ts …)
 *
 * The fixture is written with direct SQL (one INSERT … SELECT over a recursive sequence): the
 * bench is about reading. The schema and its indexes are the server's own (metadata step).
 */
import { loadavg, cpus } from 'node:os';
import sqlite3 from 'sqlite3';
import { startTestServer } from '../../server/test/support/test-server';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const ROWS = arg('rows', 1_000_000);
const CALLS = Math.max(200, arg('calls', 200));
const PAGES = arg('pages', 10);
const WAREHOUSES = arg('warehouses', 50);
const LIMIT = 20;
const STATUSES = [10, 20];
/** also measure with the composite indexes the report proposes (--compare=0 to skip) */
const COMPARE = arg('compare', 1) !== 0;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (ms: number) => ms.toFixed(2).padStart(8);

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
}
const run = (d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => d.run(sql, params, (err) => (err ? reject(err) : resolve())));
const all = <T = Record<string, unknown>>(d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => d.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));

async function main() {
  const ts = await startTestServer({ logError: () => undefined });
  const file = ts.db.url.replace(/^sqlite:/, '');
  if (ts.db.dialect !== 'sqlite') throw new Error('the list bench runs on SQLite (unset TEST_MYSQL_URL)');
  try {
    const make = async (resource: string, body: Record<string, unknown>) => {
      const r = await ts.a.call(`/${resource}/create`, body);
      if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
      return r.body.data.id as number;
    };
    // Reference rows through the API, carriers by direct SQL.
    const project = await make('project', { name: 'Bench' });
    const codes: number[] = [];
    for (let i = 1; i <= 5; i++)
      codes.push(await make('carrier-code', { code: `CC-${i}`, name: `Code ${i}`, projectId: project, type: [10, 30, 10, 20, 40][i - 1] }));
    const warehouses: number[] = [];
    for (let i = 1; i <= WAREHOUSES; i++)
      warehouses.push(await make('warehouse', { code: `WH-${i}`, name: `Warehouse ${i}`, minInventory: 0, maxInventory: 100000 }));

    const m = ts.server.db.sequelize.models.carrier;
    const col = (attr: string) => `"${m.getAttributes()[attr]?.field ?? attr}"`;
    const table = `"${String(m.getTableName())}"`;
    const raw = await open(file);
    await run(raw, 'PRAGMA busy_timeout = 15000');
    const started = performance.now();
    const w0 = warehouses[0];
    const c0 = codes[0];
    // Statuses: 10 in use 60 %, 0 new 15 %, 20 standby 15 %, 50 maintenance 10 %.
    await run(raw, 'BEGIN IMMEDIATE');
    await run(
      raw,
      `INSERT INTO ${table} (${['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'cycleCount', 'startTime', 'createdAt', 'updatedAt'].map(col).join(', ')})
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT ?, printf('C%08d', (n * 7919) % ? + 1), 'Carrier ' || n, ? + (n % 5), ?, 10, 0, ? + (n * 31) % ?,
              CASE WHEN (n * 48271) % 2147483647 % 20 < 12 THEN 10 WHEN (n * 48271) % 2147483647 % 20 < 15 THEN 0
                   WHEN (n * 48271) % 2147483647 % 20 < 18 THEN 20 ELSE 50 END,
              10, 10, n % 50, '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00'
       FROM seq`,
      [ROWS, ts.orgA, ROWS, c0, project, w0, WAREHOUSES],
    );
    await run(raw, 'COMMIT');
    await run(raw, 'ANALYZE');
    console.log(
      `fixture: ${ROWS.toLocaleString('en')} carriers in ${WAREHOUSES} warehouses, written in ${((performance.now() - started) / 1000).toFixed(1)} s (direct SQL, server schema and indexes), then ANALYZE`,
    );

    // The calls: a random warehouse, two statuses, sorted by sn, pages 1..PAGES.
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const bodies = Array.from({ length: CALLS }, (_, i) => ({
      warehouseId: warehouses[rand(WAREHOUSES)],
      status: STATUSES,
      sortBySn: true,
      page: (i % PAGES) + 1,
      limit: LIMIT,
    }));
    const http = async (body: Record<string, unknown>) => {
      const t = performance.now();
      const r = await ts.a.call('/carrier/list', body);
      const ms = performance.now() - t;
      if (r.body.code !== 0) throw new Error(`list: ${r.body.message}`);
      return { ms, data: r.body.data as { total: number; list: unknown[] } };
    };
    const sequelize = ts.server.db.sequelize as unknown as { options: { logging: unknown } };
    const line = (label: string, xs: number[]) =>
      console.log(`  ${label.padEnd(36)} p50 ${fmt(percentile(xs, 50))} ms  p95 ${fmt(percentile(xs, 95))} ms  p99 ${fmt(percentile(xs, 99))} ms`);

    const measure = async (title: string) => {
      for (const b of bodies.slice(0, 20)) await http(b); // warm-up: JIT, page cache
      const httpMs: number[] = [];
      let total = 0;
      for (const b of bodies) {
        const { ms, data } = await http(b);
        httpMs.push(ms);
        total = data.total;
      }
      // The same SQL the server ran for each call (captured), executed directly.
      const captured: string[][] = [];
      for (const b of bodies) {
        const sqls: string[] = [];
        sequelize.options.logging = (sql: string) => sqls.push(sql.replace(/^Executing \([^)]*\): /, ''));
        await http(b);
        sequelize.options.logging = false;
        captured.push(sqls.filter((q) => /^SELECT/i.test(q)));
      }
      const isData = (q: string) => /FROM `carrier` AS `carrier`/.test(q);
      for (const sqls of captured.slice(0, 20)) for (const q of sqls) await all(raw, q);
      const rawMs: number[] = [];
      const dataMs: number[] = [];
      const countMs: number[] = [];
      for (const sqls of captured) {
        const t = performance.now();
        let d = 0;
        for (const q of sqls) {
          const c = performance.now();
          await all(raw, q);
          const ms = performance.now() - c;
          if (isData(q)) d += ms;
          if (/count\(/i.test(q)) countMs.push(ms);
        }
        rawMs.push(performance.now() - t);
        dataMs.push(d);
      }
      console.log(
        `\n${title}: ${CALLS} calls of /carrier/list { warehouseId: <one of ${WAREHOUSES}>, status: [${STATUSES}], sortBySn: true, page: 1..${PAGES}, limit: ${LIMIT} }, ~${total.toLocaleString('en')} matching rows`,
      );
      line('HTTP /carrier/list (whole call)', httpMs);
      line(`raw sqlite3, all ${captured[0].length} statements of the call`, rawMs);
      line('raw sqlite3, carrier count + page', dataMs);
      line('  of which count(*)', countMs);
      console.log(
        `  ratio HTTP / raw (all statements): p50 ${(percentile(httpMs, 50) / percentile(rawMs, 50)).toFixed(2)}×, p95 ${(percentile(httpMs, 95) / percentile(rawMs, 95)).toFixed(2)}×`,
      );
      console.log(
        `  target HTTP p95 < 50 ms: ${percentile(httpMs, 95) < 50 ? 'met' : 'MISSED'}   (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${cpus().length} cores)`,
      );
      console.log('  plans of the carrier statements:');
      for (const q of captured[captured.length - 1].filter(isData)) {
        console.log(`    ${q.length > 160 ? q.slice(0, 110) + ' … ' + q.slice(q.indexOf(' WHERE ')) : q}`);
        for (const p of await all<{ detail: string }>(raw, `EXPLAIN QUERY PLAN ${q}`)) console.log(`      plan: ${p.detail}`);
      }
    };

    // The pipeline's own cost per call (session, permission, envelope, audit) on a tiny list.
    const tiny: number[] = [];
    for (let i = 0; i < 120; i++) {
      const t = performance.now();
      await ts.a.call('/project/list', { limit: 1 });
      if (i >= 20) tiny.push(performance.now() - t);
    }
    console.log('\nfixed cost of any call:');
    line('HTTP /project/list (1 row)', tiny);

    await measure('schema as the server derives it from metadata');
    if (COMPARE) {
      // The indexes this query shape needs (see the report): created here on the bench copy only.
      const t = performance.now();
      await run(raw, `CREATE INDEX bench_carrier_org_wh_status ON ${table} (${['orgId', 'warehouseId', 'status'].map(col).join(', ')})`);
      await run(raw, `CREATE INDEX bench_carrier_org_wh_sn ON ${table} (${['orgId', 'warehouseId', 'sn'].map(col).join(', ')})`);
      await run(raw, 'ANALYZE');
      console.log(
        `\n(created (org_id, warehouse_id, status) and (org_id, warehouse_id, sn) on the bench database in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
      );
      await measure('with the two composite indexes');
    }
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
