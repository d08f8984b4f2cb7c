/**
 * The report group at pool scale (issue 19 "Speed": daily report for all warehouses < 2 s, weekly
 * < 5 s, exports streamed with flat memory). The reports read inventory's daily closing
 * snapshots (500 warehouses × 50 codes = 25,000 rows a day), so the data is the snapshots of
 * `--days` days plus `--carriers` carriers for the idle reports (in/out rows are not read by any
 * of these reports: they are in the snapshots' inbound/outbound). Over real HTTP as the
 * organisation's administrator, each call next to its raw-SQL floor (the grouped SELECT the
 * answer needs, run directly through sqlite3 on the same file) and the ratio; the export's RSS
 * growth is printed.
 *
 *   node bench/reports/run.mjs [--warehouses=500] [--codes=50] [--days=100] [--carriers=200000] [--calls=5]
 */
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '../../server/src/index';
import { loadLine, openSqlite, runCases, sqliteAll, sqliteClose, streamedRss, type Case } from '../lib/measure';
import { sqlNames } from '../lib/sql';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const DAYS = arg('days', 100);
const CARRIERS = arg('carriers', 200_000);
const CALLS = arg('calls', 5);
const DAY = 86_400_000;

const dayString = (t: number) => new Date(t).toISOString().slice(0, 10);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'rti-reports-bench-'));
  const file = join(dir, 'bench.sqlite');
  const server = await createServer({
    databaseUrl: `sqlite:${file}`,
    plugins: ['shipping', 'inventory', 'reports'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });
  const { url } = await server.listen(0);
  try {
    const models = server.db.models;
    const seq = server.db.sequelize;
    const codes = server.listPermissionCodes();
    const org = Number((await models.organization.create({ code: 'BENCHREP', name: 'Bench reports', entryCode: 'benchrep', pcPermissions: codes })).get('id'));
    const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
    const userId = Number(
      (await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] })).get('id'),
    );
    const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
    const n = sqlNames(seq);
    const t0 = performance.now();
    // warehouses, codes, per-warehouse idle check times, snapshots and carriers by bulk SQL
    // SQLite keeps Sequelize's own datetime text
    const now = new Date().toISOString().replace('T', ' ').replace('Z', ' +00:00');
    const rows = (count: number, fn: (i: number) => string) => Array.from({ length: count }, (_, i) => fn(i + 1)).join(',');
    await seq.query(
      `INSERT INTO ${n.table('warehouse')} (id, ${n.cols('warehouse', ['orgId', 'code', 'name', 'minInventory', 'maxInventory', 'theoryInventory', 'idleCheckTime', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, 'WH-${i}', 'Warehouse ${i}', 500, 3000, 2000, ${1440 * (1 + (i % 7))}, '${now}', '${now}')`)}`,
    );
    await seq.query(
      `INSERT INTO ${n.table('carrier-code')} (id, ${n.cols('carrier-code', ['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(CODES, (i) => `(${i}, ${org}, ${project}, 'CC-${i}', 'Code ${i}', 10, 1, '${now}', '${now}')`)}`,
    );
    const snap = n.cols('inventory-snapshot', [
      'orgId',
      'day',
      'warehouseId',
      'carrierCodeId',
      'inStock',
      'maintenance',
      'idle',
      'empty',
      'full',
      'inTransitIn',
      'inTransitOut',
      'inbound',
      'outbound',
      'createdAt',
      'updatedAt',
    ]);
    const today = Date.parse(`${dayString(Date.now())}T00:00:00Z`);
    for (let d = 1; d <= DAYS; d++) {
      const day = dayString(today - d * DAY);
      await seq.query(
        `WITH RECURSIVE w(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM w WHERE i < ${WAREHOUSES}), c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE j < ${CODES})
         INSERT INTO ${n.table('inventory-snapshot')} (${snap}) SELECT ${org}, '${day}', i, j, 20 + ((i * 7 + j * 13 + ${d}) % 40), (i + j) % 3, (i * j + ${d}) % 5, 5, 5, (i + ${d}) % 4, (j + ${d}) % 4, (i + j + ${d}) % 6, (i * 3 + j + ${d}) % 6, '${now}', '${now}' FROM w, c`,
      );
    }
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
       INSERT INTO ${n.table('carrier')} (${carrier}) SELECT ${org}, 'C' || printf('%08d', k), 'Carrier ' || k, 1 + k % ${CODES}, ${project}, 10, 1 + k % ${WAREHOUSES}, 10, 10, CASE WHEN k % 50 = 0 THEN 30 ELSE 10 END,
       strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '-' || (k % 30) || ' days'), '${now}', '${now}' FROM s`,
    );
    await seq.query('ANALYZE');
    console.log(
      `fixture: ${WAREHOUSES} warehouses × ${CODES} codes × ${DAYS} days = ${(WAREHOUSES * CODES * DAYS).toLocaleString('en')} snapshot rows, ${CARRIERS.toLocaleString('en')} carriers (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const { token } = await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null });
    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
        body: JSON.stringify(body),
      });
    const call = async (c: Case) => {
      const json = (await (await post(c.path, c.body)).json()) as { code: number; message: string; data: { total: number } };
      if (json.code !== 0) throw new Error(`${c.path}: ${json.message}`);
      return json.data;
    };
    const raw = await openSqlite(file);
    const s = (attr: string) => n.col('inventory-snapshot', attr);
    const T = n.table('inventory-snapshot');
    const d1 = dayString(today - DAY);
    const d7 = dayString(today - 7 * DAY);
    const d31 = dayString(today - 31 * DAY);
    const sums = ['inStock', 'maintenance', 'idle', 'inTransitIn', 'inTransitOut', 'inbound', 'outbound'].map((a) => `SUM(${s(a)})`).join(', ');
    const floor = {
      daily: `SELECT ${s('warehouseId')}, ${sums} FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} = '${d1}' GROUP BY ${s('warehouseId')}`,
      detail: `SELECT ${s('warehouseId')}, ${s('carrierCodeId')}, ${sums} FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} = '${d1}' GROUP BY ${s('warehouseId')}, ${s('carrierCodeId')}`,
      // the page and its total
      batch: [
        `SELECT * FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} >= '${d31}' AND ${s('day')} <= '${d1}' ORDER BY ${s('day')}, ${s('warehouseId')}, ${s('carrierCodeId')}, id LIMIT 10`,
        `SELECT COUNT(*) FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} >= '${d31}' AND ${s('day')} <= '${d1}'`,
      ],
      weekly: `SELECT ${s('day')}, ${s('warehouseId')}, ${sums} FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} >= '${dayString(today - 8 * DAY)}' AND ${s('day')} <= '${d1}' GROUP BY ${s('day')}, ${s('warehouseId')}`,
      quarter: `SELECT ${s('day')}, ${s('warehouseId')}, ${sums} FROM ${T} WHERE ${s('orgId')} = ${org} AND ${s('day')} >= '${dayString(today - 93 * DAY)}' AND ${s('day')} <= '${d1}' GROUP BY ${s('day')}, ${s('warehouseId')}`,
    };
    const cases: Case[] = [
      { label: 'daily, all warehouses', path: '/inventory-report/list', body: { page: 1, limit: 100 }, floor: floor.daily, bound: 2000 },
      { label: 'daily by code, all warehouses', path: '/inventory-report/detail', body: { page: 1, limit: 100 }, floor: floor.detail },
      {
        label: 'batch of 31 days, first page',
        path: '/inventory-report/batch',
        body: { time: [`${d31}T00:00:00Z`, `${d1}T23:59:59Z`], page: 1, limit: 10 },
        floor: floor.batch,
      },
      {
        label: 'weekly, all warehouses',
        path: '/inventory-report/week',
        body: { time: [`${d7}T00:00:00Z`, `${d1}T23:59:59Z`], page: 1, limit: 100 },
        floor: floor.weekly,
        bound: 5000,
      },
      {
        label: 'weekly over 93 days',
        path: '/inventory-report/week',
        body: { time: [Date.now() - 93 * DAY, Date.now() - DAY], page: 1, limit: 100 },
        floor: floor.quarter,
        bound: 5000,
      },
      // inventory's figures reader (one grouped scan of the carriers per distinct idle check time) plus the longest idle per cell
      { label: 'idle per warehouse and code', path: '/idle/carrier-code/list', body: { page: 1, limit: 100 } },
      { label: 'idle carriers, first page', path: '/idle/carrier/list', body: { page: 1, limit: 100 } },
    ];
    console.log(`\nreports on SQLite, ${CALLS} calls each (+1 warm-up), ${loadLine()}`);
    await runCases({ cases, calls: CALLS, floorCalls: CALLS, call, floor: (sql) => sqliteAll(raw, sql), width: 34 });
    // an export streamed: the 7-day batch (every warehouse and code: WAREHOUSES × CODES × 7 rows)
    const x = await streamedRss(post('/inventory-report/batch/export', { time: [`${d7}T00:00:00Z`, `${d1}T23:59:59Z`] }));
    console.log(
      `\nexport /inventory-report/batch/export, 7 days: ${(WAREHOUSES * CODES * 7).toLocaleString('en')} rows, ${(x.bytes / 1e6).toFixed(1)} MB in ${x.seconds.toFixed(1)} s; RSS ${(x.rss0 / 1e6).toFixed(0)} → peak ${(x.peak / 1e6).toFixed(0)} MB (+${((x.peak - x.rss0) / 1e6).toFixed(0)} MB, server and client in one process)`,
    );
    await sqliteClose(raw);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
