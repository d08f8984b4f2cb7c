/**
 * Pool analytics at pool scale (issue 19 "Speed": turns and dwell for a year < 5 s, a partner
 * statement < 1 s; at 1,000,000 carriers, 500 warehouses and 20,000,000 in/out rows run with
 * `--carriers=1000000 --trips=5`). Each carrier makes `--trips` loops in the last year between a
 * plant (the first fifth of the warehouses, owned by supplier partners) and a customer warehouse
 * (owned by customer partners, ten warehouses each): 4 in/out rows a loop. Over real HTTP as the
 * organisation's administrator, each call beside its raw-SQL floor (the SELECT computing the same
 * answer: on SQLite run directly through sqlite3 on the same file, on MariaDB through the server's
 * pool; the turns' figures are compared with the call's, a difference stops the bench) and the
 * ratio; an export's RSS growth is printed.
 *
 * The data is written once by bulk SQL (bench/lib/source.ts): SQLite into a file cached under
 * <tmpdir>/rti-bench/ (RTI_BENCH_DIR moves it), MariaDB/MySQL (TEST_MYSQL_URL, or `--mariadb` for
 * a throwaway server) into a database named by the size; `--fresh` rebuilds. The in/out times are
 * relative to the build, so a cache some weeks old loses its first loops from the year.
 *
 *   node bench/pool-analytics/run.mjs [--warehouses=500] [--codes=50] [--carriers=200000] [--trips=5] [--calls=3]
 *                                     [--warmup=1] [--only=<label or path part>|export|pdf] [--fresh] [--mariadb]
 */
import { QueryTypes } from 'sequelize';
import { loadLine, openSqlite, runCases, sqliteAll, sqliteClose, streamedRss, type Case } from '../lib/measure';
import { columnsOf } from '../lib/sql';
import { finishLoad, cachedDatabase, dialectSql, flag, type Dialect } from '../lib/source';
import { denseStore } from './dense-store';
import { bootPool, type Answer } from './common';
import { benchOrganisation, signIn } from '../lib/session';
import { dayOf, dayStart } from '../../server/src/reports/time';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const CARRIERS = arg('carriers', 200_000);
const TRIPS = arg('trips', 5);
const CALLS = arg('calls', 3);
/** unmeasured calls first (0 at a scale where one call takes minutes) */
const WARMUP = arg('warmup', 1);
const DAY = 86_400_000;
const PLANTS = Math.max(1, Math.floor(WAREHOUSES / 5));
const PARTNERS = Math.ceil(WAREHOUSES / 10);
const ORG_CODE = 'BENCHPOOL';
const SIZE = `${CARRIERS}-${WAREHOUSES}-${CODES}-${TRIPS}`;

/** Builds the pool by bulk SQL, secondary indexes dropped for the load and rebuilt by the server's schema step (not measured). */
async function build(databaseUrl: string): Promise<void> {
  const t0 = performance.now();
  const server = await bootPool(databaseUrl);
  try {
    const models = server.db.models;
    const seq = server.db.sequelize;
    const dialect = server.db.dialect as Dialect;
    const d = dialectSql(dialect);
    const exec = (sql: string) => seq.query(sql).catch((err: Error) => Promise.reject(Object.assign(err, { sql: sql.slice(0, 400) })));
    const { org, project } = await benchOrganisation(server, ORG_CODE, 'Bench pool');
    const T = Object.fromEntries(
      ['supplier-customer', 'location', 'warehouse', 'carrier-code', 'carrier', 'carrier-inout'].map((r) => [r, columnsOf(server, r)]),
    );
    if (dialect === 'sqlite') for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await exec(`PRAGMA ${pragma}`);
    else await exec('SET unique_checks = 0');
    const qi = seq.getQueryInterface();
    for (const r of ['carrier', 'carrier-inout']) {
      for (const ix of (await qi.showIndex(T[r].name)) as Array<{ name: string; unique: boolean; primary: boolean }>) {
        if (ix.unique || ix.primary || ix.name === 'PRIMARY') continue;
        await qi.removeIndex(T[r].name, ix.name);
      }
    }
    const base = new Date().toISOString();
    const now = d.at(new Date());
    const rows = (count: number, fn: (i: number) => string) => Array.from({ length: count }, (_, i) => fn(i + 1)).join(',');
    await exec(
      `INSERT INTO ${T['supplier-customer'].table} (id, ${T['supplier-customer'].list(['orgId', 'type', 'entCode', 'name', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(PARTNERS, (j) => `(${j}, ${org}, ${j <= Math.ceil(PLANTS / 10) ? 10 : 20}, 'P${j}', 'Partner ${j}', 1, ${now}, ${now})`)}`,
    );
    await exec(
      `INSERT INTO ${T.location.table} (id, ${T.location.list(['orgId', 'supplierCustomerId', 'name', 'type', 'longitude', 'latitude', 'fenceRadius', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, ${Math.ceil(i / 10)}, 'Site ${i}', ${i <= PLANTS ? 10 : 20}, 120, 30, 200, ${now}, ${now})`)}`,
    );
    await exec(
      `INSERT INTO ${T.warehouse.table} (id, ${T.warehouse.list(['orgId', 'code', 'name', 'locationId', 'createdAt', 'updatedAt'])}) VALUES ${rows(WAREHOUSES, (i) => `(${i}, ${org}, 'WH-${i}', 'Warehouse ${i}', ${i}, ${now}, ${now})`)}`,
    );
    await exec(
      `INSERT INTO ${T['carrier-code'].table} (id, ${T['carrier-code'].list(['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])}) VALUES ${rows(CODES, (i) => `(${i}, ${org}, ${project}, 'CC-${i}', 'Code ${i}', 10, 1, ${now}, ${now})`)}`,
    );
    // carriers: each back at its plant after its last loop
    let s = d.seq(1, CARRIERS);
    await exec(
      `INSERT INTO ${T.carrier.table} (id, ${T.carrier.list(['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'inboundTime', 'createdAt', 'updatedAt'])})
       ${s.with}SELECT n, ${org}, ${d.cat(`'C'`, d.pad('n', 8))}, ${d.cat(`'Carrier '`, 'n')}, 1 + n % ${CODES}, ${project}, 10, 1 + n % ${PLANTS}, 10, 10, 1,
       ${d.secondsBefore(base, `(1 + n % 20) * 86400`)}, ${now}, ${now} FROM ${s.from}`,
    );
    // in/out rows: loop t of carrier k starts (365 - 20 - t × 64) days ago plus k % 240 hours: out plant, in customer +1 d,
    // out customer +cycle/2, in plant +cycle − 1 d, cycle 10 + k % 20 days
    const legs = [
      ['20', `1 + n % ${PLANTS}`, '0'],
      ['10', `${PLANTS + 1} + n % ${WAREHOUSES - PLANTS}`, '24'],
      ['20', `${PLANTS + 1} + n % ${WAREHOUSES - PLANTS}`, '(10 + n % 20) * 12'],
      ['10', `1 + n % ${PLANTS}`, '(9 + n % 20) * 24'],
    ];
    for (let t = 0; t < TRIPS; t++) {
      for (const [direction, wh, hours] of legs) {
        s = d.seq(1, CARRIERS);
        await exec(
          `INSERT INTO ${T['carrier-inout'].table} (${T['carrier-inout'].list(['orgId', 'carrierId', 'sn', 'carrierCodeId', 'direction', 'warehouseId', 'confirmTime', 'createdAt', 'updatedAt'])})
           ${s.with}SELECT ${org}, n, ${d.cat(`'C'`, d.pad('n', 8))}, 1 + n % ${CODES}, ${direction}, ${wh},
           ${d.secondsBefore(base, `${345 - t * 64} * 86400 - (n % 240 + ${hours}) * 3600`)}, ${now}, ${now} FROM ${s.from}`,
        );
      }
    }
    const loaded = performance.now();
    await finishLoad(
      seq,
      models,
      server.metadata,
      Object.values(T).map((t) => t.table),
    );
    console.log(
      `built: ${WAREHOUSES} warehouses (${PLANTS} plants), ${PARTNERS} partners, ${CODES} codes, ${CARRIERS.toLocaleString('en')} carriers, ${(CARRIERS * TRIPS * 4).toLocaleString('en')} in/out rows on ${dialect}; rows ${((loaded - t0) / 1000).toFixed(0)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}

async function main() {
  if (flag('dense-store')) return denseStore();
  const source = await cachedDatabase('pool-analytics', SIZE, build);
  const server = await bootPool(source.url);
  const { url } = await server.listen(0);
  try {
    const seq = server.db.sequelize;
    const dialect = server.db.dialect as Dialect;
    const dl = dialectSql(dialect);
    const { org, post, call } = await signIn(server, url, ORG_CODE);
    // the floor: SQLite read directly through sqlite3 on the same file, MariaDB through the server's own pool
    const raw = source.file ? await openSqlite(source.file) : null;
    const select = (sql: string) => (raw ? sqliteAll(raw, sql) : seq.query(sql, { type: QueryTypes.SELECT }));
    const IO = columnsOf(server, 'carrier-inout');
    const io_ = IO.c;
    const T = IO.table;
    const from = Date.now() - 365 * DAY;
    const to = Date.now();
    const year = [new Date(from).toISOString(), new Date(to).toISOString()];
    // the stored datetime (SQLite's text 'YYYY-MM-DD HH:MM:SS.SSS +00:00')
    const stored = (t: number) => dl.at(new Date(t));
    const e = dl.epochDays(io_('confirmTime'));
    const dir = io_('direction');
    // the turns count whole days of the organisation (the server's zone here): the floor cuts the same days
    const zone = server.config.timeZone;
    const start = dayStart(dayOf(from, zone), zone);
    const end = dayStart(dayOf(to + DAY, zone), zone);
    /*
     * The turns' answer in SQL alone (README "Definitions"), from the history instead of the
     * kept flows: every row of the organisation up to the period's end with the row before it at
     * its (warehouse, carrier) (LAG) and the latest departure before it, then the period's rows
     * summed per warehouse or code — arrivals, departures, visits ending (a departure after an
     * arrival) and their days, cycles (a departure after a departure there) and their days.
     */
    const prior = `PARTITION BY ${io_('warehouseId')}, ${io_('carrierId')} ORDER BY ${io_('confirmTime')}`;
    const events = `SELECT ${io_('warehouseId')} AS w, ${io_('carrierCodeId')} AS code, ${dir} AS d, ${e} AS t, ${io_('confirmTime')} AS at,
        LAG(${dir}) OVER (${prior}) AS pd, LAG(${e}) OVER (${prior}) AS pt,
        MAX(CASE WHEN ${dir} = 20 THEN ${e} END) OVER (${prior} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS po
      FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('confirmTime')} < ${stored(end)}`;
    const cycle = 'd = 20 AND po IS NOT NULL';
    const figures = (key: string) =>
      `SELECT ${key} AS grp, SUM(CASE WHEN d = 10 THEN 1 ELSE 0 END) AS arrivals, SUM(CASE WHEN d = 20 THEN 1 ELSE 0 END) AS departures,
        SUM(CASE WHEN d = 20 AND pd = 10 THEN 1 ELSE 0 END) AS visits, SUM(CASE WHEN d = 20 AND pd = 10 THEN t - pt ELSE 0 END) AS carrierDays,
        SUM(CASE WHEN ${cycle} THEN 1 ELSE 0 END) AS cycles,
        SUM(CASE WHEN ${cycle} THEN t - po ELSE 0 END) / NULLIF(SUM(CASE WHEN ${cycle} THEN 1 ELSE 0 END), 0) AS cycleDays
      FROM (${events}) AS x WHERE at >= ${stored(start)} GROUP BY ${key}`;
    const perWarehouse = figures('w');
    const perCode = figures('code');
    // the statements of the last full month: partner 1 (a supplier: plants 1–10, where every carrier stands at the
    // end of its loops — 100,000 visits open at the month's start) and partner 12 (a customer: warehouses 111–120)
    const d = new Date();
    const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const m0 = `${month}-01 00:00:00`;
    const m1 = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString().slice(0, 10) + ' 00:00:00';
    const partnerWarehouses = (partner: number) => `IN (${Array.from({ length: 10 }, (_, i) => (partner - 1) * 10 + i + 1).join(', ')})`;
    const statementFloor = (partner: number) => [
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, MAX(CASE WHEN ${dir} = 10 THEN ${e} END), MAX(CASE WHEN ${dir} = 20 THEN ${e} END) FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${partnerWarehouses(partner)} AND ${io_('confirmTime')} < '${m0}' GROUP BY ${io_('warehouseId')}, ${io_('carrierId')} HAVING MAX(CASE WHEN ${dir} = 20 THEN ${e} END) IS NULL OR MAX(CASE WHEN ${dir} = 20 THEN ${e} END) < MAX(${e})`,
      `SELECT ${io_('warehouseId')}, ${io_('carrierId')}, ${dir}, ${io_('confirmTime')} FROM ${T} WHERE ${io_('orgId')} = ${org} AND ${io_('warehouseId')} ${partnerWarehouses(partner)} AND ${io_('confirmTime')} >= '${m0}' AND ${dl.sqlite ? '+' : ''}${io_('confirmTime')} < '${m1}' ORDER BY ${io_('warehouseId')}, ${io_('carrierId')}, ${io_('confirmTime')}, id`,
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
        floor: statementFloor(1),
        bound: 1000,
      },
      {
        label: 'partner statement, a customer, a month',
        path: '/pool-analytics/partner-statement/list',
        body: { month, partnerId: 12 },
        floor: statementFloor(12),
        bound: 1000,
      },
      { label: 'partner balance history, 90 days', path: '/pool-analytics/partner-history/list', body: { time: [Date.now() - 90 * DAY, Date.now()] } },
      { label: 'pool-size check, a year', path: '/pool-analytics/pool-size/list', body: { time: year }, floor: perCode, bound: 5000 },
    ];
    /** the call's rows against the floor's: the same groups and figures (to the call's 2 decimals) */
    const check = (c: Case, answer: Answer, floorRows: unknown[][]): string | void => {
      if (c.floor !== perWarehouse && c.floor !== perCode) return;
      const rows = new Map((floorRows[0] as Array<Record<string, number>>).map((r) => [String(r.grp), r]));
      const keyOf = (r: Record<string, unknown>) => String(c.path.includes('pool-size') ? r.carrierCodeId : r.key);
      const fields = c.path.includes('pool-size') ? ['cycleDays'] : ['arrivals', 'departures', 'cycles', 'cycleDays', 'visits', 'carrierDays'];
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
    /*
     * The flows kept ahead of the read (ctx.rollups): the first start on this data builds every
     * day (kept in the cached database after); then a day's movements written now are caught up
     * as the next read would, and taken out again (the day recomputed: the cache stays as built).
     */
    const flows = server.rollups.get('pool-analytics.flows')!;
    let t0 = performance.now();
    const built = await flows.catchUp(org);
    console.log(
      built.days
        ? `flows kept ahead: built ${built.days} days (${built.rows.toLocaleString('en')} day and month rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${loadLine()}`
        : `flows kept ahead: already caught up (${((performance.now() - t0) / 1000).toFixed(2)} s)`,
    );
    const dayRows = Math.round((CARRIERS * TRIPS * 4) / 365);
    const top = Number(((await select(`SELECT MAX(id) AS m FROM ${T}`)) as Array<{ m: number }>)[0].m);
    // a day's departures from the plants, each after the carrier's arrival there (a visit and a cycle each),
    // stamped over the next minute: after every row counted so far, as rows written now are
    const s1 = dl.seq(1, dayRows);
    await seq.query(
      `INSERT INTO ${T} (${IO.list(['orgId', 'carrierId', 'sn', 'carrierCodeId', 'direction', 'warehouseId', 'confirmTime', 'createdAt', 'updatedAt'])})
       ${s1.with}SELECT ${org}, n, ${dl.cat(`'C'`, dl.pad('n', 8))}, 1 + n % ${CODES}, 20, 1 + n % ${PLANTS}, ${dl.secondsBefore(new Date(Date.now() + 60_000).toISOString(), 'n % 60')}, ${stored(Date.now())}, ${stored(Date.now())} FROM ${s1.from}`,
    );
    t0 = performance.now();
    const caught = await flows.catchUp(org);
    console.log(
      `flows kept ahead: a day's ${dayRows.toLocaleString('en')} new rows caught up in ${((performance.now() - t0) / 1000).toFixed(2)} s (${caught.days} day(s), ${caught.rows.toLocaleString('en')} day and month rows rewritten), ${loadLine()}`,
    );
    await seq.query(`DELETE FROM ${T} WHERE id > ${top}`);
    await flows.recompute(org, dayOf(Date.now() - 60_000, zone), dayOf(Date.now() + 61_000, zone));
    console.log(
      `\npool analytics on ${source.label}: ${CARRIERS.toLocaleString('en')} carriers, ${WAREHOUSES} warehouses, ${(CARRIERS * TRIPS * 4).toLocaleString('en')} in/out rows; ${CALLS} calls each (+${WARMUP} warm-up), ${loadLine()}`,
    );
    const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
    await runCases({
      cases: cases.filter((c) => !only || c.label.includes(only) || c.path.includes(only)),
      calls: CALLS,
      floorCalls: Math.min(CALLS, 2),
      call,
      floor: select,
      check,
      warmup: WARMUP,
    });
    console.log(`after the calls: ${loadLine()}`);
    // an export streamed: every partner's statement of the month (the visits beyond the free period on the second sheet)
    if (!only || only === 'export') {
      const x = await streamedRss(post('/pool-analytics/partner-statement/export', { month }));
      console.log(
        `\nexport /pool-analytics/partner-statement/export, every partner, ${month}: ${(x.bytes / 1e6).toFixed(1)} MB in ${x.seconds.toFixed(1)} s; RSS ${(x.rss0 / 1e6).toFixed(0)} → peak ${(x.peak / 1e6).toFixed(0)} MB (+${((x.peak - x.rss0) / 1e6).toFixed(0)} MB, server and client in one process)`,
      );
    }
    // the supplier's statement as a PDF: the figures and its 20,000 longest visits beyond the free period
    if (!only || only === 'pdf') {
      const x = await streamedRss(post('/pool-analytics/partner-statement/pdf', { month, partnerId: 1 }));
      console.log(
        `\nPDF /pool-analytics/partner-statement/pdf, partner 1, ${month}: ${(x.bytes / 1e6).toFixed(1)} MB in ${x.seconds.toFixed(1)} s; RSS ${(x.rss0 / 1e6).toFixed(0)} → peak ${(x.peak / 1e6).toFixed(0)} MB (+${((x.peak - x.rss0) / 1e6).toFixed(0)} MB)`,
      );
    }
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
