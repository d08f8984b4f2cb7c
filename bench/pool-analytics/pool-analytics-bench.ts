/**
 * Pool analytics at pool scale (issue 19 "Speed": turns and dwell for a year < 5 s, a partner
 * statement < 1 s; at 1,000,000 carriers, 500 warehouses and 20,000,000 in/out rows run with
 * `--carriers=1000000 --trips=5`). Each carrier makes `--trips` loops in the last year between a
 * plant (the first fifth of the warehouses, owned by supplier partners) and a customer warehouse
 * (owned by customer partners, ten warehouses each): 4 in/out rows a loop. Over real HTTP as the
 * organisation's administrator, each call beside its raw-SQL floor (the grouped SELECT the
 * answer needs, run directly through sqlite3 on the same file) and the ratio; an export's RSS
 * growth is printed.
 *
 *   node bench/pool-analytics/run.mjs [--warehouses=500] [--codes=50] [--carriers=200000] [--trips=5] [--calls=3]
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createServer } from '../../server/src/index';
import { sqlNames } from '../lib/sql';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const CARRIERS = arg('carriers', 200_000);
const TRIPS = arg('trips', 5);
const CALLS = arg('calls', 3);
const DAY = 86_400_000;
const PLANTS = Math.max(1, Math.floor(WAREHOUSES / 5));
const PARTNERS = Math.ceil(WAREHOUSES / 10);

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
const f = (ms: number) => ms.toFixed(0).padStart(6);

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
}
const all = (d: sqlite3.Database, sql: string) => new Promise<unknown[]>((resolve, reject) => d.all(sql, (err, rows) => (err ? reject(err) : resolve(rows))));

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'rti-pool-bench-'));
  const file = join(dir, 'bench.sqlite');
  const server = await createServer({
    databaseUrl: `sqlite:${file}`,
    plugins: ['shipping', 'inventory', 'pool-analytics'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });
  const { url } = await server.listen(0);
  try {
    const models = server.db.models;
    const seq = server.db.sequelize;
    const codes = server.listPermissionCodes();
    const org = Number((await models.organization.create({ code: 'BENCHPOOL', name: 'Bench pool', entryCode: 'benchpool', pcPermissions: codes })).get('id'));
    const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
    const userId = Number(
      (await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] })).get('id'),
    );
    const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
    const n = sqlNames(seq);
    const t0 = performance.now();
    const now = new Date().toISOString().replace('T', ' ').replace('Z', ' +00:00');
    const rows = (count: number, fn: (i: number) => string) => Array.from({ length: count }, (_, i) => fn(i + 1)).join(',');
    await seq.query(
      `INSERT INTO ${n.table('supplier-customer')} (id, ${n.cols('supplier-customer', ['orgId', 'type', 'entCode', 'name', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(PARTNERS, (j) => `(${j}, ${org}, ${j <= Math.ceil(PLANTS / 10) ? 10 : 20}, 'P${j}', 'Partner ${j}', 1, '${now}', '${now}')`)}`,
    );
    await seq.query(
      `INSERT INTO ${n.table('location')} (id, ${n.cols('location', ['orgId', 'supplierCustomerId', 'name', 'type', 'longitude', 'latitude', 'fenceRadius', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, ${Math.ceil(i / 10)}, 'Site ${i}', ${i <= PLANTS ? 10 : 20}, 120, 30, 200, '${now}', '${now}')`)}`,
    );
    await seq.query(
      `INSERT INTO ${n.table('warehouse')} (id, ${n.cols('warehouse', ['orgId', 'code', 'name', 'locationId', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, 'WH-${i}', 'Warehouse ${i}', ${i}, '${now}', '${now}')`)}`,
    );
    await seq.query(
      `INSERT INTO ${n.table('carrier-code')} (id, ${n.cols('carrier-code', ['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(CODES, (i) => `(${i}, ${org}, ${project}, 'CC-${i}', 'Code ${i}', 10, 1, '${now}', '${now}')`)}`,
    );
    // carriers: each back at its plant after its last loop
    const carrier = n.cols('carrier', [
      'orgId',
      'sn',
      'name',
      'carrierCodeId',
      'projectId',
      'type',
      'warehouseId',
      'status',
      'loadingStatus',
      'transportStatus',
      'inboundTime',
      'createdAt',
      'updatedAt',
    ]);
    await seq.query(
      `WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < ${CARRIERS})
       INSERT INTO ${n.table('carrier')} (id, ${carrier}) SELECT k, ${org}, 'C' || printf('%08d', k), 'Carrier ' || k, 1 + k % ${CODES}, ${project}, 10, 1 + k % ${PLANTS}, 10, 10, 1,
       strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '-' || (1 + k % 20) || ' days'), '${now}', '${now}' FROM s`,
    );
    // in/out rows: loop t of carrier k starts (365 - 20 - t × 64) days ago plus k % 240 hours: out plant, in customer +1 d,
    // out customer +cycle/2, in plant +cycle − 1 d, cycle 10 + k % 20 days
    const io = n.cols('carrier-inout', ['orgId', 'carrierId', 'sn', 'carrierCodeId', 'direction', 'warehouseId', 'confirmTime', 'createdAt', 'updatedAt']);
    const legs = [
      ['20', `1 + k % ${PLANTS}`, '0'],
      ['10', `${PLANTS + 1} + k % ${WAREHOUSES - PLANTS}`, '24'],
      ['20', `${PLANTS + 1} + k % ${WAREHOUSES - PLANTS}`, '(10 + k % 20) * 12'],
      ['10', `1 + k % ${PLANTS}`, '(9 + k % 20) * 24'],
    ];
    for (let t = 0; t < TRIPS; t++) {
      for (const [direction, wh, hours] of legs) {
        await seq.query(
          `WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < ${CARRIERS})
           INSERT INTO ${n.table('carrier-inout')} (${io}) SELECT ${org}, k, 'C' || printf('%08d', k), 1 + k % ${CODES}, ${direction}, ${wh},
           strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '-${345 - t * 64} days', '+' || (k % 240 + ${hours}) || ' hours'), '${now}', '${now}' FROM s`,
        );
      }
    }
    await seq.query('ANALYZE');
    const inout = CARRIERS * TRIPS * 4;
    console.log(
      `fixture: ${WAREHOUSES} warehouses (${PLANTS} plants), ${PARTNERS} partners, ${CODES} codes, ${CARRIERS.toLocaleString('en')} carriers, ${inout.toLocaleString('en')} in/out rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const { token } = await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null });
    const call = async (path: string, body: Record<string, unknown>) => {
      const t = performance.now();
      const res = await fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; message: string; data: { total: number } };
      if (json.code !== 0) throw new Error(`${path}: ${json.message}`);
      return { ms: performance.now() - t, total: json.data.total };
    };
    const raw = await open(file);
    const io_ = (a: string) => n.col('carrier-inout', a);
    const T = n.table('carrier-inout');
    const year = [new Date(Date.now() - 365 * DAY).toISOString(), new Date().toISOString()];
    const yearSql = `${io_('confirmTime')} >= '${year[0].replace('T', ' ').replace('Z', '')}'`;
    const e = `julianday(${io_('confirmTime')})`;
    const groupedFloor = `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, MAX(${io_('carrierCodeId')}), SUM(CASE WHEN ${io_('direction')} = 10 THEN 1 END), SUM(CASE WHEN ${io_('direction')} = 20 THEN 1 END),
      SUM(CASE WHEN ${io_('direction')} = 10 THEN ${e} END), SUM(CASE WHEN ${io_('direction')} = 20 THEN ${e} END), MIN(CASE WHEN ${io_('direction')} = 10 THEN ${e} END), MAX(CASE WHEN ${io_('direction')} = 10 THEN ${e} END),
      MIN(CASE WHEN ${io_('direction')} = 20 THEN ${e} END), MAX(CASE WHEN ${io_('direction')} = 20 THEN ${e} END) FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${yearSql} GROUP BY ${io_('warehouseId')}, ${io_('carrierId')}`;
    // the statement of partner 1 (plants 1–10) for the last full month
    const d = new Date();
    const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const m0 = `${month}-01 00:00:00`;
    const m1 = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString().slice(0, 10) + ' 00:00:00';
    const p1 = 'IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)';
    const statementFloor = [
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, MAX(CASE WHEN ${io_('direction')} = 10 THEN ${e} END), MAX(CASE WHEN ${io_('direction')} = 20 THEN ${e} END) FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${p1} AND ${io_('confirmTime')} < '${m0}' GROUP BY ${io_('warehouseId')}, ${io_('carrierId')}`,
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, ${io_('direction')}, ${io_('confirmTime')} FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${p1} AND ${io_('confirmTime')} >= '${m0}' AND ${io_('confirmTime')} < '${m1}' ORDER BY ${io_('confirmTime')}, id`,
    ];
    const cases: Array<{ label: string; path: string; body: Record<string, unknown>; floor?: string | string[]; bound?: number }> = [
      { label: 'turns per warehouse, a year', path: '/pool-analytics/turns/list', body: { time: year, page: 1, limit: 100 }, floor: groupedFloor, bound: 5000 },
      {
        label: 'turns per carrier code, a year',
        path: '/pool-analytics/turns/list',
        body: { time: year, by: 30, page: 1, limit: 100 },
        floor: groupedFloor,
        bound: 5000,
      },
      { label: 'partner balances today', path: '/pool-analytics/partner-balance/list', body: { page: 1, limit: 100 } },
      {
        label: 'partner statement, 1 partner, a month',
        path: '/pool-analytics/partner-statement/list',
        body: { month, partnerId: 1 },
        floor: statementFloor,
        bound: 1000,
      },
      { label: 'partner balance history, 90 days', path: '/pool-analytics/partner-history/list', body: { time: [Date.now() - 90 * DAY, Date.now()] } },
      { label: 'pool-size check, a year', path: '/pool-analytics/pool-size/list', body: { time: year }, floor: groupedFloor, bound: 5000 },
    ];
    console.log(
      `\npool analytics on SQLite, ${CALLS} calls each (+1 warm-up), load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(`${'call'.padEnd(40)} ${'p50'.padStart(6)} ${'p95'.padStart(6)} ms   floor ms  ratio  bound`);
    for (const c of cases) {
      const xs: number[] = [];
      for (let i = 0; i <= CALLS; i++) {
        const { ms } = await call(c.path, c.body);
        if (i) xs.push(ms);
      }
      let fl = NaN;
      if (c.floor) {
        const fs: number[] = [];
        for (let i = 0; i <= Math.min(CALLS, 2); i++) {
          const t = performance.now();
          for (const sql of ([] as string[]).concat(c.floor)) await all(raw, sql);
          if (i) fs.push(performance.now() - t);
        }
        fl = percentile(fs, 50);
      }
      const p95 = percentile(xs, 95);
      console.log(
        `${c.label.padEnd(40)} ${f(percentile(xs, 50))} ${f(p95)}      ${Number.isNaN(fl) ? '     -' : f(fl)}  ${Number.isNaN(fl) ? '    -' : (percentile(xs, 50) / Math.max(fl, 0.1)).toFixed(1).padStart(5)}  ${c.bound ? `${p95 < c.bound ? 'ok' : 'OVER'} < ${c.bound}` : ''}`,
      );
    }
    // an export streamed: every partner's statement of the month (the visits beyond the free period on the second sheet)
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const t = performance.now();
    const res = await fetch(`${url}/api/pool-analytics/partner-statement/export`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
      body: JSON.stringify({ month }),
    });
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    clearInterval(timer);
    console.log(
      `\nexport /pool-analytics/partner-statement/export, every partner, ${month}: ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s; RSS ${(rss0 / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - rss0) / 1e6).toFixed(0)} MB, server and client in one process)`,
    );
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
