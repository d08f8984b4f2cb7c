/**
 * The report group at pool scale (issue 19 "Speed": daily report for all warehouses < 2 s, weekly
 * < 5 s, exports streamed with flat memory). The reports read inventory's daily closing
 * snapshots (500 warehouses × 50 codes = 25,000 rows a day), so the data is the snapshots of
 * `--days` days plus `--carriers` carriers for the idle reports (in/out rows are not read by any
 * of these reports: they are in the snapshots' inbound/outbound). Over real HTTP as the
 * organisation's administrator, each call next to its raw-SQL floor (the grouped SELECT the
 * answer needs; on SQLite run directly through sqlite3 on the same file, on MariaDB through the
 * server's pool) and the ratio; the export's RSS growth is printed. The data is written once and
 * kept like the other pool-scale benches' (bench/lib/source.ts: RTI_BENCH_DIR, TEST_MYSQL_URL or
 * `--mariadb`, `--fresh`).
 *
 *   node bench/reports/run.mjs [--warehouses=500] [--codes=50] [--days=100] [--carriers=200000] [--calls=5]
 *                              [--only=<label part>] [--fresh] [--mariadb]
 */
import { QueryTypes } from 'sequelize';
import { createServer } from '../../server/src/index';
import { loadLine, openSqlite, runCases, sqliteAll, sqliteClose, streamedRss, type Case } from '../lib/measure';
import { columnsOf } from '../lib/sql';
import { finishLoad, cachedDatabase, dialectSql, type Dialect } from '../lib/source';
import { benchOrganisation, signIn } from '../lib/session';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const DAYS = arg('days', 100);
const CARRIERS = arg('carriers', 200_000);
const CALLS = arg('calls', 5);
const DAY = 86_400_000;
const ORG_CODE = 'BENCHREP';
const SIZE = `${WAREHOUSES}-${CODES}-${DAYS}-${CARRIERS}`;

const dayString = (t: number) => new Date(t).toISOString().slice(0, 10);

const boot = (databaseUrl: string) =>
  createServer({
    databaseUrl,
    plugins: ['shipping', 'inventory', 'reports'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });

/** Builds the snapshots and carriers by bulk SQL, secondary indexes dropped for the load and rebuilt by the schema step (not measured). */
async function build(databaseUrl: string): Promise<void> {
  const t0 = performance.now();
  const server = await boot(databaseUrl);
  try {
    const models = server.db.models;
    const seq = server.db.sequelize;
    const dialect = server.db.dialect as Dialect;
    const d = dialectSql(dialect);
    const exec = (sql: string) => seq.query(sql).catch((err: Error) => Promise.reject(Object.assign(err, { sql: sql.slice(0, 400) })));
    const { org, project } = await benchOrganisation(server, ORG_CODE, 'Bench reports');
    const T = Object.fromEntries(['warehouse', 'carrier-code', 'inventory-snapshot', 'carrier'].map((r) => [r, columnsOf(server, r)]));
    if (dialect === 'sqlite') for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await exec(`PRAGMA ${pragma}`);
    else await exec('SET unique_checks = 0');
    const qi = seq.getQueryInterface();
    for (const r of ['carrier', 'inventory-snapshot']) {
      for (const ix of (await qi.showIndex(T[r].name)) as Array<{ name: string; unique: boolean; primary: boolean }>) {
        if (ix.unique || ix.primary || ix.name === 'PRIMARY') continue;
        await qi.removeIndex(T[r].name, ix.name);
      }
    }
    const base = new Date().toISOString();
    const now = d.at(new Date());
    const rows = (count: number, fn: (i: number) => string) => Array.from({ length: count }, (_, i) => fn(i + 1)).join(',');
    await exec(
      `INSERT INTO ${T.warehouse.table} (id, ${T.warehouse.list(['orgId', 'code', 'name', 'minInventory', 'maxInventory', 'theoryInventory', 'idleCheckTime', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, 'WH-${i}', 'Warehouse ${i}', 500, 3000, 2000, ${1440 * (1 + (i % 7))}, ${now}, ${now})`)}`,
    );
    await exec(
      `INSERT INTO ${T['carrier-code'].table} (id, ${T['carrier-code'].list(['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(CODES, (i) => `(${i}, ${org}, ${project}, 'CC-${i}', 'Code ${i}', 10, 1, ${now}, ${now})`)}`,
    );
    // a day's snapshots: every warehouse × code
    const snap = T['inventory-snapshot'].list([
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
    const per = WAREHOUSES * CODES;
    for (let dd = 1; dd <= DAYS; dd++) {
      const day = dayString(today - dd * DAY);
      const s = d.seq(0, per - 1);
      await exec(
        `INSERT INTO ${T['inventory-snapshot'].table} (${snap}) SELECT ${org}, '${day}', i, j, 20 + ((i * 7 + j * 13 + ${dd}) % 40), (i + j) % 3, (i * j + ${dd}) % 5, 5, 5, (i + ${dd}) % 4, (j + ${dd}) % 4, (i + j + ${dd}) % 6, (i * 3 + j + ${dd}) % 6, ${now}, ${now}
         FROM (${s.with}SELECT 1 + (n - n % ${CODES}) / ${CODES} AS i, 1 + n % ${CODES} AS j FROM ${s.from}) AS x`,
      );
    }
    const s = d.seq(1, CARRIERS);
    await exec(
      `INSERT INTO ${T.carrier.table} (${T.carrier.list(['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'inboundTime', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT ${org}, ${d.cat(`'C'`, d.pad('n', 8))}, ${d.cat(`'Carrier '`, 'n')}, 1 + n % ${CODES}, ${project}, 10, 1 + n % ${WAREHOUSES}, 10, 10, CASE WHEN n % 50 = 0 THEN 30 ELSE 10 END,
       ${d.secondsBefore(base, `(n % 30) * 86400`)}, ${now}, ${now} FROM ${s.from}`,
    );
    const loaded = performance.now();
    await finishLoad(
      seq,
      models,
      server.metadata,
      Object.values(T).map((t) => t.table),
    );
    console.log(
      `built: ${WAREHOUSES} warehouses × ${CODES} codes × ${DAYS} days = ${(per * DAYS).toLocaleString('en')} snapshot rows, ${CARRIERS.toLocaleString('en')} carriers on ${dialect}; rows ${((loaded - t0) / 1000).toFixed(0)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}

async function main() {
  const source = await cachedDatabase('reports', SIZE, build);
  const server = await boot(source.url);
  const { url } = await server.listen(0);
  try {
    const seq = server.db.sequelize;
    const { org, post, call } = await signIn<{ total: number }>(server, url, ORG_CODE);
    const today = Date.parse(`${dayString(Date.now())}T00:00:00Z`);
    // the floor: SQLite read directly through sqlite3 on the same file, MariaDB through the server's own pool
    const raw = source.file ? await openSqlite(source.file) : null;
    const select = (sql: string) => (raw ? sqliteAll(raw, sql) : seq.query(sql, { type: QueryTypes.SELECT }));
    const S = columnsOf(server, 'inventory-snapshot');
    const s = S.c;
    const T = S.table;
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
    console.log(
      `\nreports on ${source.label}: ${WAREHOUSES} warehouses × ${CODES} codes × ${DAYS} days = ${(WAREHOUSES * CODES * DAYS).toLocaleString('en')} snapshot rows, ${CARRIERS.toLocaleString('en')} carriers; ${CALLS} calls each (+1 warm-up), ${loadLine()}`,
    );
    const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
    await runCases({ cases: cases.filter((c) => !only || c.label.includes(only)), calls: CALLS, floorCalls: CALLS, call, floor: select, width: 34 });
    console.log(`after the calls: ${loadLine()}`);
    // an export streamed: the 7-day batch (every warehouse and code: WAREHOUSES × CODES × 7 rows)
    const x = await streamedRss(post('/inventory-report/batch/export', { time: [`${d7}T00:00:00Z`, `${d1}T23:59:59Z`] }));
    console.log(
      `\nexport /inventory-report/batch/export, 7 days: ${(WAREHOUSES * CODES * 7).toLocaleString('en')} rows, ${(x.bytes / 1e6).toFixed(1)} MB in ${x.seconds.toFixed(1)} s; RSS ${(x.rss0 / 1e6).toFixed(0)} → peak ${(x.peak / 1e6).toFixed(0)} MB (+${((x.peak - x.rss0) / 1e6).toFixed(0)} MB, server and client in one process)`,
    );
    if (raw) await sqliteClose(raw);
  } finally {
    await server.close();
    await source.stop?.();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
