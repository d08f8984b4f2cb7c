/**
 * Pool analytics at pool scale (issue 19 "Speed": turns and dwell for a year < 5 s, a partner
 * statement < 1 s; at 1,000,000 carriers, 500 warehouses and 20,000,000 in/out rows run with
 * `--carriers=1000000 --trips=5`). Each carrier makes `--trips` loops in the last year between a
 * plant (the first fifth of the warehouses, owned by supplier partners) and a customer warehouse
 * (owned by customer partners, ten warehouses each): 4 in/out rows a loop. Over real HTTP as the
 * organisation's administrator, each call beside its raw-SQL floor (the SELECT computing the same
 * answer, run directly through sqlite3 on the same file; the turns' figures are compared with the
 * call's, a difference stops the bench) and the ratio; an export's RSS growth is printed.
 *
 *   node bench/pool-analytics/run.mjs [--warehouses=500] [--codes=50] [--carriers=200000] [--trips=5] [--calls=3]
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
const CARRIERS = arg('carriers', 200_000);
const TRIPS = arg('trips', 5);
const CALLS = arg('calls', 3);
const DAY = 86_400_000;
const PLANTS = Math.max(1, Math.floor(WAREHOUSES / 5));
const PARTNERS = Math.ceil(WAREHOUSES / 10);

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
    type Answer = { total: number; list: Array<Record<string, number | string | null>> };
    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
        body: JSON.stringify(body),
      });
    const call = async (c: Case): Promise<Answer> => {
      const json = (await (await post(c.path, c.body)).json()) as { code: number; message: string; data: Answer };
      if (json.code !== 0) throw new Error(`${c.path}: ${json.message}`);
      return json.data;
    };
    const raw = await openSqlite(file);
    const io_ = (a: string) => n.col('carrier-inout', a);
    const T = n.table('carrier-inout');
    const from = Date.now() - 365 * DAY;
    const to = Date.now();
    const year = [new Date(from).toISOString(), new Date(to).toISOString()];
    // the stored datetime text ('YYYY-MM-DD HH:MM:SS.SSS +00:00'); the end bound unindexed as the plugin writes it
    const stored = (t: number) => `'${new Date(t).toISOString().replace('T', ' ').replace('Z', ' +00:00')}'`;
    const e = `(julianday(${io_('confirmTime')}) - 2440587.5)`;
    const dir = io_('direction');
    /*
     * The turns' answer in SQL alone (README "Definitions"): per (warehouse, carrier) the period's
     * counts, Σ departures − Σ arrivals and first/last times, then per warehouse or code the
     * carriers, arrivals, departures, cycles, cycle time, visits and held carrier-days. No carrier
     * of the fixture stands through the whole year (each moved in it), so there are no cells
     * without rows.
     */
    const cells = `SELECT w, c, code, nIn, nOut,
        s + (CASE WHEN nIn > 0 AND (maxOut IS NULL OR maxIn > maxOut) THEN ${to / DAY} ELSE 0 END) - (CASE WHEN nOut > 0 AND (minIn IS NULL OR minOut < minIn) THEN ${from / DAY} ELSE 0 END) AS held,
        nIn + (CASE WHEN nOut > 0 AND (minIn IS NULL OR minOut < minIn) THEN 1 ELSE 0 END) AS visits,
        MAX(nOut - 1, 0) AS cycles, CASE WHEN nOut > 1 THEN maxOut - minOut ELSE 0 END AS span
      FROM (SELECT ${io_('warehouseId')} AS w, ${io_('carrierId')} AS c, MAX(${io_('carrierCodeId')}) AS code,
          SUM(CASE WHEN ${dir} = 10 THEN 1 ELSE 0 END) AS nIn, SUM(CASE WHEN ${dir} = 20 THEN 1 ELSE 0 END) AS nOut,
          SUM(CASE WHEN ${dir} = 20 THEN ${e} ELSE -${e} END) AS s,
          MIN(CASE WHEN ${dir} = 10 THEN ${e} END) AS minIn, MAX(CASE WHEN ${dir} = 10 THEN ${e} END) AS maxIn,
          MIN(CASE WHEN ${dir} = 20 THEN ${e} END) AS minOut, MAX(CASE WHEN ${dir} = 20 THEN ${e} END) AS maxOut
        FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('confirmTime')} >= ${stored(from)} AND +${io_('confirmTime')} <= ${stored(to)}
        GROUP BY ${io_('warehouseId')}, ${io_('carrierId')})`;
    const figures = (key: string, carriers: string) =>
      `SELECT ${key} AS key, ${carriers} AS carriers, SUM(nIn) AS arrivals, SUM(nOut) AS departures, SUM(cycles) AS cycles, SUM(span) / NULLIF(SUM(cycles), 0) AS cycleDays,
        SUM(visits) AS visits, SUM(held) AS carrierDays FROM (${cells}) GROUP BY ${key}`;
    const perWarehouse = figures('w', 'COUNT(*)');
    const perCode = figures('code', 'COUNT(DISTINCT c)');
    // the statement of partner 1 (plants 1–10) for the last full month
    const d = new Date();
    const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const m0 = `${month}-01 00:00:00`;
    const m1 = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString().slice(0, 10) + ' 00:00:00';
    const p1 = 'IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)';
    const statementFloor = [
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, MAX(CASE WHEN ${dir} = 10 THEN ${e} END), MAX(CASE WHEN ${dir} = 20 THEN ${e} END) FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${p1} AND ${io_('confirmTime')} < '${m0}' GROUP BY ${io_('warehouseId')}, ${io_('carrierId')}`,
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, ${dir}, ${io_('confirmTime')} FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${p1} AND ${io_('confirmTime')} >= '${m0}' AND ${io_('confirmTime')} < '${m1}' ORDER BY ${io_('confirmTime')}, id`,
    ];
    const cases: Case[] = [
      { label: 'turns per warehouse, a year', path: '/pool-analytics/turns/list', body: { time: year, page: 1, limit: 100 }, floor: perWarehouse, bound: 5000 },
      {
        label: 'turns per carrier code, a year',
        path: '/pool-analytics/turns/list',
        body: { time: year, by: 30, page: 1, limit: 100 },
        floor: perCode,
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
      { label: 'pool-size check, a year', path: '/pool-analytics/pool-size/list', body: { time: year }, floor: perCode, bound: 5000 },
    ];
    /** the call's rows against the floor's: the same groups and figures (to the call's 2 decimals) */
    const check = (c: Case, answer: Answer, floorRows: unknown[][]): string | void => {
      if (c.floor !== perWarehouse && c.floor !== perCode) return;
      const rows = new Map((floorRows[0] as Array<Record<string, number>>).map((r) => [String(r.key), r]));
      const keyOf = (r: Record<string, unknown>) => String(c.path.includes('pool-size') ? r.carrierCodeId : r.key);
      const fields = c.path.includes('pool-size') ? ['cycleDays'] : ['carriers', 'arrivals', 'departures', 'cycles', 'cycleDays', 'visits', 'carrierDays'];
      const wrong: string[] = [];
      if (!c.path.includes('pool-size') && answer.total !== rows.size) wrong.push(`total ${answer.total} ≠ ${rows.size}`);
      for (const r of answer.list) {
        const f = rows.get(keyOf(r));
        if (!f) wrong.push(`${keyOf(r)} missing`);
        else for (const k of fields) if (Math.abs(Number(r[k] ?? 0) - Number(f[k] ?? 0)) > 0.011) wrong.push(`${keyOf(r)}.${k} ${r[k]} ≠ ${f[k]}`);
      }
      if (wrong.length) throw new Error(`${c.label}: the call and the floor differ: ${wrong.slice(0, 5).join('; ')}`);
      return `same answer (${answer.list.length} rows × ${fields.length} figures)`;
    };
    // which index the year's grouped read takes (the covering (org, warehouse, carrier, time, direction, code) one: no table reads, no sort)
    const plan = await sqliteAll<{ detail: string }>(raw, `EXPLAIN QUERY PLAN ${perWarehouse}`);
    console.log(`plan of the year's grouped read: ${plan.map((p) => p.detail).join('; ')}`);
    console.log(`\npool analytics on SQLite, ${CALLS} calls each (+1 warm-up), ${loadLine()}`);
    await runCases({ cases, calls: CALLS, floorCalls: Math.min(CALLS, 2), call, floor: (sql) => sqliteAll(raw, sql), check });
    console.log(`after the calls: ${loadLine()}`);
    // an export streamed: every partner's statement of the month (the visits beyond the free period on the second sheet)
    const x = await streamedRss(post('/pool-analytics/partner-statement/export', { month }));
    console.log(
      `\nexport /pool-analytics/partner-statement/export, every partner, ${month}: ${(x.bytes / 1e6).toFixed(1)} MB in ${x.seconds.toFixed(1)} s; RSS ${(x.rss0 / 1e6).toFixed(0)} → peak ${(x.peak / 1e6).toFixed(0)} MB (+${((x.peak - x.rss0) / 1e6).toFixed(0)} MB, server and client in one process)`,
    );
    await sqliteClose(raw);
  } finally {
    await server.close();
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${file}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
