/**
 * The read of the kept flows at their densest (issue 19 "turns and dwell for a year < 5 s"): every
 * one of 500 warehouses × 50 carrier codes moving every day of the year — 9,125,000 day rows and
 * 300,000 month rows in `pool-flow` — where the pool bench's fixture moves each code through a
 * few warehouses. The store is written directly (the history behind it does not matter to the
 * read: nothing is pending, so a read does not catch up), then the turns a year per warehouse and
 * per code, and the pool-size check, over real HTTP beside their floor: the same sums read by SQL
 * from the same rows (month rows of the whole months, day rows of the months cut).
 *
 *   node bench/pool-analytics/run.mjs --dense-store [--warehouses=500] [--codes=50] [--calls=3] [--fresh] [--mariadb]
 */
import { QueryTypes } from 'sequelize';
import { dayOf } from '../../server/src/reports/time';
import { loadLine, openSqlite, runCases, sqliteAll, sqliteClose, type Case } from '../lib/measure';
import { columnsOf } from '../lib/sql';
import { finishLoad, cachedDatabase, dialectSql, type Dialect } from '../lib/source';
import { bootPool, type Answer } from './common';
import { benchOrganisation, signIn } from '../lib/session';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const WAREHOUSES = arg('warehouses', 500);
const CODES = arg('codes', 50);
const CALLS = arg('calls', 3);
const DAYS = 400;
const DAY = 86_400_000;
const ORG_CODE = 'BENCHDENSE';

async function build(databaseUrl: string): Promise<void> {
  const t0 = performance.now();
  const server = await bootPool(databaseUrl);
  try {
    const models = server.db.models;
    const seq = server.db.sequelize;
    const d = dialectSql(server.db.dialect as Dialect);
    const exec = (sql: string) => seq.query(sql);
    const { org, project } = await benchOrganisation(server, ORG_CODE, 'Bench dense');
    const T = Object.fromEntries(['warehouse', 'carrier-code', 'pool-flow'].map((r) => [r, columnsOf(server, r)]));
    if (d.sqlite) for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await exec(`PRAGMA ${pragma}`);
    const now = d.at(new Date());
    let s = d.seq(1, WAREHOUSES);
    await exec(
      `INSERT INTO ${T.warehouse.table} (id, ${T.warehouse.list(['orgId', 'code', 'name', 'createdAt', 'updatedAt'])}) ${s.with}SELECT n, ${org}, ${d.cat(`'WH-'`, 'n')}, ${d.cat(`'Warehouse '`, 'n')}, ${now}, ${now} FROM ${s.from}`,
    );
    s = d.seq(1, CODES);
    await exec(
      `INSERT INTO ${T['carrier-code'].table} (id, ${T['carrier-code'].list(['orgId', 'projectId', 'code', 'name', 'type', 'available', 'createdAt', 'updatedAt'])}) ${s.with}SELECT n, ${org}, ${project}, ${d.cat(`'CC-'`, 'n')}, ${d.cat(`'Code '`, 'n')}, 10, 1, ${now}, ${now} FROM ${s.from}`,
    );
    // a day row per warehouse, code and day of the last DAYS days (UTC, the server's zone here): one insert per day
    const F = T['pool-flow'];
    const cols = F.list([
      'orgId',
      'grain',
      'period',
      'warehouseId',
      'carrierCodeId',
      'arrivals',
      'departures',
      'visits',
      'stayDays',
      'cycles',
      'cycleDays',
      'createdAt',
      'updatedAt',
    ]);
    s = d.seq(0, WAREHOUSES * CODES - 1);
    for (let i = 0; i < DAYS; i++) {
      const day = new Date(Date.now() - i * DAY).toISOString().slice(0, 10);
      await exec(
        `INSERT INTO ${F.table} (${cols}) ${s.with}SELECT ${org}, 'day', '${day}', 1 + n % ${WAREHOUSES}, 1 + n ${d.sqlite ? '/' : 'DIV'} ${WAREHOUSES}, 1 + (n + ${i}) % 3, 1 + (n + ${i}) % 4, 1, 5 + (n % 7), 1, 10 + (n % 20), ${now}, ${now} FROM ${s.from}`,
      );
    }
    // the month rows: sums of the day rows
    await exec(
      `INSERT INTO ${F.table} (${cols}) SELECT ${org}, 'month', substr(${F.c('period')}, 1, 7), ${F.c('warehouseId')}, ${F.c('carrierCodeId')}, SUM(${F.c('arrivals')}), SUM(${F.c('departures')}), SUM(${F.c('visits')}), SUM(${F.c('stayDays')}), SUM(${F.c('cycles')}), SUM(${F.c('cycleDays')}), ${now}, ${now}
       FROM ${F.table} WHERE ${F.c('orgId')} = ${org} AND ${F.c('grain')} = 'day' GROUP BY substr(${F.c('period')}, 1, 7), ${F.c('warehouseId')}, ${F.c('carrierCodeId')}`,
    );
    const loaded = performance.now();
    await finishLoad(seq, models, server.metadata, [F.table]);
    console.log(
      `built: ${WAREHOUSES} warehouses × ${CODES} codes × ${DAYS} days of flows on ${server.db.dialect}; rows ${((loaded - t0) / 1000).toFixed(0)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}

export async function denseStore(): Promise<void> {
  const source = await cachedDatabase('pool-flows-dense', `${WAREHOUSES}-${CODES}-${DAYS}`, build);
  const server = await bootPool(source.url);
  const { url } = await server.listen(0);
  try {
    const seq = server.db.sequelize;
    const { org, call } = await signIn(server, url, ORG_CODE);
    const raw = source.file ? await openSqlite(source.file) : null;
    const select = (sql: string) => (raw ? sqliteAll(raw, sql) : seq.query(sql, { type: QueryTypes.SELECT }));
    const F = columnsOf(server, 'pool-flow');
    // a year to now, as the page asks it; the floor reads the same month and day rows
    const to = Date.now();
    const from = to - 365 * DAY;
    const zone = server.config.timeZone;
    const first = dayOf(from, zone);
    const last = dayOf(to, zone);
    // whole months from month rows, the months cut from day rows (as the platform reads them)
    const months: string[] = [];
    const ranges: Array<[string, string]> = [];
    for (
      let y = Number(first.slice(0, 4)), m = Number(first.slice(5, 7));
      `${y}-${String(m).padStart(2, '0')}` <= last.slice(0, 7);
      m === 12 ? ((y += 1), (m = 1)) : (m += 1)
    ) {
      const month = `${y}-${String(m).padStart(2, '0')}`;
      const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      const a = `${month}-01` < first ? first : `${month}-01`;
      const b = end > last ? last : end;
      if (a === `${month}-01` && b === end) months.push(month);
      else ranges.push([a, b]);
    }
    const where = `${F.c('orgId')} = ${org} AND ((${F.c('grain')} = 'month' AND ${F.c('period')} IN (${months.map((m) => `'${m}'`).join(', ')}))
      ${ranges.map(([a, b]) => `OR (${F.c('grain')} = 'day' AND ${F.c('period')} BETWEEN '${a}' AND '${b}')`).join(' ')})`;
    const floor = (key: string) =>
      `SELECT +${F.c(key)} AS grp, SUM(${F.c('arrivals')}) AS arrivals, SUM(${F.c('departures')}) AS departures, SUM(${F.c('visits')}) AS visits, SUM(${F.c('stayDays')}) AS carrierDays,
        SUM(${F.c('cycles')}) AS cycles, SUM(${F.c('cycleDays')}) * 1.0 / SUM(${F.c('cycles')}) AS cycleDays FROM ${F.table} WHERE ${where} GROUP BY grp`;
    const [{ n }] = (await select(`SELECT COUNT(*) AS n FROM ${F.table} WHERE ${where}`)) as Array<{ n: number }>;
    const year = [new Date(from).toISOString(), new Date(to).toISOString()];
    const cases: Case[] = [
      {
        label: 'turns per warehouse, a year',
        path: '/pool-analytics/turns/list',
        body: { time: year, page: 1, limit: 100 },
        floor: floor('warehouseId'),
        bound: 5000,
      },
      {
        label: 'turns per carrier code, a year',
        path: '/pool-analytics/turns/list',
        body: { time: year, by: 30, page: 1, limit: 100 },
        floor: floor('carrierCodeId'),
        bound: 5000,
      },
      { label: 'pool-size check, a year', path: '/pool-analytics/pool-size/list', body: { time: year }, floor: floor('carrierCodeId'), bound: 5000 },
    ];
    const check = (c: Case, answer: Answer, floorRows: unknown[][]): string | void => {
      const rows = new Map((floorRows[0] as Array<Record<string, number>>).map((r) => [String(r.grp), r]));
      const size = c.path.includes('pool-size');
      const fields = size ? ['cycleDays'] : ['arrivals', 'departures', 'cycles', 'cycleDays', 'visits', 'carrierDays'];
      const wrong: string[] = [];
      for (const r of answer.list) {
        const k = String(size ? r.carrierCodeId : r.key);
        const f = rows.get(k);
        if (!f) wrong.push(`${k} missing`);
        else for (const x of fields) if (Math.abs(Number(r[x] ?? 0) - Number(f[x] ?? 0)) > 0.011) wrong.push(`${k}.${x} ${r[x]} ≠ ${f[x]}`);
      }
      if (wrong.length) throw new Error(`${c.label}: the call and the floor differ: ${wrong.slice(0, 5).join('; ')}`);
      return `same answer (${answer.list.length} rows × ${fields.length} figures)`;
    };
    console.log(
      `\nkept flows at their densest on ${source.label}: ${WAREHOUSES} warehouses × ${CODES} codes every day; a year reads ${Number(n).toLocaleString('en')} rows (${first} … ${last}); ${CALLS} calls each (+1 warm-up), ${loadLine()}`,
    );
    await runCases({ cases, calls: CALLS, floorCalls: Math.min(CALLS, 2), call, floor: select, check, warmup: 1 });
    console.log(`after the calls: ${loadLine()}`);
    if (raw) await sqliteClose(raw);
  } finally {
    await server.close();
    await source.stop?.();
  }
}
