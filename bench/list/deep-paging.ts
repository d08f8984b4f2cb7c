/**
 * Paging to the last row of a large list (issue 23 item 5): N rows (default 1,000,000) of one
 * organisation in a temp SQLite database, then the generated list call over real HTTP as the
 * console pages: the first page (count capped at 10,000), the page after the cap, "Last page"
 * (the farthest page the server takes: counts every row, answers an empty page with the exact
 * total) and the real last page it then moves to (OFFSET N-10). Prints each call's time
 * (median of 5) and what it answered.
 *
 *   npx tsx bench/list/deep-paging.ts [--rows=1000000]
 */
import { cpus, loadavg } from 'node:os';
import sqlite3 from 'sqlite3';
import { startTestServer } from '../../server/test/support/test-server';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const ROWS = arg('rows', 1_000_000);
const LIMIT = 10;
const MAX_PAGE = 1_000_000;

const run = (d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => d.run(sql, params, (err) => (err ? reject(err) : resolve())));

async function main() {
  const ts = await startTestServer({ logError: () => undefined });
  try {
    if (ts.db.dialect !== 'sqlite') throw new Error('runs on SQLite (unset TEST_MYSQL_URL)');
    const m = ts.server.db.sequelize.models.project;
    const col = (attr: string) => `"${m.getAttributes()[attr]?.field ?? attr}"`;
    const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
      const d = new sqlite3.Database(ts.db.url.replace(/^sqlite:/, ''), (err) => (err ? reject(err) : resolve(d)));
    });
    await run(raw, 'PRAGMA busy_timeout = 15000');
    const started = performance.now();
    await run(raw, 'BEGIN IMMEDIATE');
    await run(
      raw,
      `INSERT INTO "${String(m.getTableName())}" (${['orgId', 'name', 'createdAt', 'updatedAt'].map(col).join(', ')})
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT ?, printf('P-%07d', n), '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00' FROM seq`,
      [ROWS, ts.orgA],
    );
    await run(raw, 'COMMIT');
    await run(raw, 'ANALYZE');
    console.log(`fixture: ${ROWS.toLocaleString('en')} projects in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const call = async (body: Record<string, unknown>) => {
      const times: number[] = [];
      let data: { list: Array<{ name: string }>; total: number; totalCapped?: boolean } | undefined;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const r = await ts.a.call('/project/list', body);
        times.push(performance.now() - t);
        if (r.body.code !== 0) throw new Error(r.body.message);
        data = r.body.data;
      }
      times.sort((a, b) => a - b);
      return { ms: times[2], data: data! };
    };
    const say = (label: string, r: Awaited<ReturnType<typeof call>>) =>
      console.log(
        `  ${label.padEnd(44)} ${r.ms.toFixed(1).padStart(8)} ms  total ${r.data.total}${r.data.totalCapped ? ' (more)' : ''}, rows ${r.data.list.length}${r.data.list.length ? ` ${r.data.list[0].name}…${r.data.list.at(-1)!.name}` : ''}`,
      );
    const lastPage = Math.ceil(ROWS / LIMIT);
    say('first page', await call({ page: 1, limit: LIMIT }));
    say('page 1,001 (past the cap)', await call({ page: 1001, limit: LIMIT }));
    const probe = await call({ page: MAX_PAGE, limit: LIMIT });
    say(`"Last page" probe (page ${MAX_PAGE.toLocaleString('en')})`, probe);
    say(`last page ${lastPage.toLocaleString('en')}`, await call({ page: Math.ceil(probe.data.total / LIMIT), limit: LIMIT }));
    say('last page sorted by id descending (row 1 last)', await call({ page: lastPage, limit: LIMIT, sortById: false }));
    console.log(
      `load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs`,
    );
    raw.close();
  } finally {
    await ts.close();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
