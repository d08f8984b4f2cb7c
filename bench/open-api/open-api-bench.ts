/**
 * Open API bench (issue 21 item 4), two parts, each beside its floor:
 *
 * 1. REST list vs the console's list call for the same page: N carriers (default 100,000) in a
 *    temp SQLite database (direct SQL, the server's schema), then `GET /rest/v1/carrier?…` with
 *    a named token and `POST /api/carrier/list` with a session, interleaved call by call (warehouse
 *    eq + two statuses + sort by sn, pages 1..P of 20); beside them the SQL the list call ran,
 *    executed directly through sqlite3 (the raw floor). Prints p50/p95 of each and the ratios
 *    REST / console (target p95 within 10 %) and REST / raw.
 * 2. Webhook burst: E events (default 10,000) queued for one subscription and delivered by the
 *    server's worker to a receiver in this process (node http); deliveries/s from the first
 *    enqueue to the last delivery received (target ≥ 1,000/s), beside the floor: the same POSTs
 *    sent straight by this process with the worker's concurrency and keep-alive (no database).
 *
 *   node bench/open-api/run.mjs [--rows=100000] [--calls=200] [--pages=10] [--events=10000] [--only=webhooks]
 */
import { createServer as createHttpServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import sqlite3 from 'sqlite3';
import { startTestServer } from '../../server/test/support/test-server';
import { WebhookQueue } from '../../plugins/open-api/server/webhooks';

process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.WEBHOOK_POLL_MS = process.env.WEBHOOK_POLL_MS ?? '50';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const ROWS = arg('rows', 100_000);
const CALLS = arg('calls', 200);
const PAGES = arg('pages', 10);
const EVENTS = arg('events', 10_000);
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
const WAREHOUSES = 50;
const LIMIT = 20;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (ms: number) => ms.toFixed(2).padStart(7);
const line = (label: string, xs: number[]) => console.log(`  ${label.padEnd(44)} p50 ${fmt(percentile(xs, 50))} ms  p95 ${fmt(percentile(xs, 95))} ms`);

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
}
const run = (d: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => d.run(sql, params, (err) => (err ? reject(err) : resolve())));
const all = (d: sqlite3.Database, sql: string) =>
  new Promise<unknown[]>((resolve, reject) => d.all(sql, [], (err, rows) => (err ? reject(err) : resolve(rows))));

async function main() {
  const ts = await startTestServer({ plugins: ['open-api'], logError: () => undefined });
  if (ts.db.dialect !== 'sqlite') throw new Error('the open-api bench runs on SQLite (unset TEST_MYSQL_URL)');
  const file = ts.db.url.replace(/^sqlite:/, '');
  try {
    const make = async (resource: string, body: Record<string, unknown>) => {
      const r = await ts.a.call(`/${resource}/create`, body);
      if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
      return r.body.data.id as number;
    };
    // --only=webhooks: the burst alone (bench/open-api/ingest-impact.mjs runs it beside ingest)
    if (ONLY !== 'webhooks') {
      const project = await make('project', { name: 'Bench' });
      const code = await make('carrier-code', { code: 'CC-1', name: 'Code 1', projectId: project, type: 10 });
      const warehouses: number[] = [];
      for (let i = 1; i <= WAREHOUSES; i++)
        warehouses.push(await make('warehouse', { code: `WH-${i}`, name: `Warehouse ${i}`, minInventory: 0, maxInventory: 100000 }));
      const m = ts.server.db.sequelize.models.carrier;
      const col = (attr: string) => `"${m.getAttributes()[attr]?.field ?? attr}"`;
      const table = `"${String(m.getTableName())}"`;
      const raw = await open(file);
      await run(raw, 'PRAGMA busy_timeout = 15000');
      await run(raw, 'BEGIN IMMEDIATE');
      await run(
        raw,
        `INSERT INTO ${table} (${['orgId', 'sn', 'name', 'carrierCodeId', 'projectId', 'type', 'limits', 'warehouseId', 'status', 'loadingStatus', 'transportStatus', 'cycleCount', 'startTime', 'createdAt', 'updatedAt'].map(col).join(', ')})
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
       SELECT ?, printf('C%08d', (n * 7919) % ? + 1), 'Carrier ' || n, ?, ?, 10, 0, ? + (n * 31) % ?,
              CASE WHEN n % 20 < 12 THEN 10 WHEN n % 20 < 15 THEN 0 WHEN n % 20 < 18 THEN 20 ELSE 50 END,
              10, 10, n % 50, '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00', '2026-01-01 00:00:00.000 +00:00'
       FROM seq`,
        [ROWS, ts.orgA, ROWS, code, project, warehouses[0], WAREHOUSES],
      );
      await run(raw, 'COMMIT');
      await run(raw, 'ANALYZE');
      const token = (await ts.a.call('/open-api-token/create', { name: 'bench', ratePerMinute: 100_000 })).body.data.token as string;

      // ---- 1. REST list vs the console's list call, same pages
      let seed = 42;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const pages = Array.from({ length: CALLS }, (_, i) => ({ warehouseId: warehouses[rand(WAREHOUSES)], page: (i % PAGES) + 1 }));
      const consoleCall = async (p: (typeof pages)[number]) => {
        const t = performance.now();
        const r = await ts.a.call('/carrier/list', { warehouseId: p.warehouseId, status: [10, 20], sortBySn: true, page: p.page, limit: LIMIT });
        const ms = performance.now() - t;
        if (r.body.code !== 0) throw new Error(`list: ${r.body.message}`);
        return { ms, ids: (r.body.data.list as Array<{ id: number }>).map((x) => x.id) };
      };
      const restCall = async (p: (typeof pages)[number], headers: Record<string, string> = { Authorization: `Bearer ${token}` }) => {
        const t = performance.now();
        const res = await fetch(
          `${ts.url}/rest/v1/carrier?warehouseId=${p.warehouseId}&status=10&status=20&_sort=sn&_order=asc&_start=${(p.page - 1) * LIMIT}&_end=${p.page * LIMIT}`,
          { headers },
        );
        const rows = (await res.json()) as Array<{ id: number }>;
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`REST list: ${res.status} ${JSON.stringify(rows)}`);
        return { ms, ids: rows.map((x) => x.id) };
      };
      for (const p of pages.slice(0, 20)) {
        await consoleCall(p);
        await restCall(p);
      }
      const consoleMs: number[] = [];
      const restMs: number[] = [];
      const restSessionMs: number[] = [];
      for (const [i, p] of pages.entries()) {
        // alternate which goes first, so neither always meets a warmer cache
        const [a, b] = i % 2 ? [await consoleCall(p), await restCall(p)] : [await restCall(p), await consoleCall(p)].reverse();
        if (JSON.stringify(a.ids) !== JSON.stringify(b.ids)) throw new Error(`page ${p.page} of warehouse ${p.warehouseId}: REST and the call differ`);
        consoleMs.push(a.ms);
        restMs.push(b.ms);
        // the same REST page with the console user's session: REST's own cost without the token's
        restSessionMs.push((await restCall(p, { Token: ts.a.token })).ms);
      }
      // the raw floor: the statements the list call ran, straight through sqlite3
      const sequelize = ts.server.db.sequelize as unknown as { options: { logging: unknown } };
      const rawMs: number[] = [];
      for (const p of pages) {
        const sqls: string[] = [];
        sequelize.options.logging = (sql: string) => sqls.push(sql.replace(/^Executing \([^)]*\): /, ''));
        await consoleCall(p);
        sequelize.options.logging = false;
        const selects = sqls.filter((q) => /^SELECT/i.test(q) && /carrier/.test(q));
        const t = performance.now();
        for (const q of selects) await all(raw, q);
        rawMs.push(performance.now() - t);
      }
      console.log(
        `\n1. list: ${CALLS} pages of ${LIMIT} (warehouse eq, status in [10, 20], sort by sn, pages 1..${PAGES}) over ${ROWS.toLocaleString('en')} carriers, interleaved`,
      );
      line('REST GET /rest/v1/carrier (named token)', restMs);
      line('console POST /api/carrier/list (session)', consoleMs);
      line('REST GET /rest/v1/carrier (same session)', restSessionMs);
      line('raw sqlite3, the carrier statements of the call', rawMs);
      const r95 = percentile(restMs, 95) / percentile(consoleMs, 95);
      console.log(
        `  REST / console: p50 ${(percentile(restMs, 50) / percentile(consoleMs, 50)).toFixed(2)}×, p95 ${r95.toFixed(2)}× (target ≤ 1.10: ${r95 <= 1.1 ? 'met' : 'MISSED'})`,
      );
      console.log(
        `  REST / raw: p50 ${(percentile(restMs, 50) / percentile(rawMs, 50)).toFixed(2)}×, p95 ${(percentile(restMs, 95) / percentile(rawMs, 95)).toFixed(2)}×`,
      );
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }

    // ---- 2. webhook burst
    let got = 0;
    let last = 0;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((r) => (done = r));
    const receiver = createHttpServer({ keepAliveTimeout: 30_000 }, (req, res) => {
      req.resume();
      req.on('end', () => {
        res.end();
        if (req.url === '/hook' && ++got === EVENTS) {
          last = performance.now();
          done();
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const port = (receiver.address() as AddressInfo).port;
    const hook = await ts.a.call('/webhook/create', { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
    if (hook.body.code !== 0) throw new Error(`webhook: ${hook.body.message}`);
    const queue = new WebhookQueue(ts.server.db.sequelize, () => undefined);
    await queue.reload();
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      orgId: ts.orgA,
      event: 'bench.burst',
      data: { n: i, sn: `C${String(i).padStart(8, '0')}`, status: 10 },
    }));
    // the marker ingest-impact.mjs waits for before it measures ingest
    console.log('# burst: enqueueing');
    const t0 = performance.now();
    await queue.enqueue(events);
    const queued = performance.now() - t0;
    await finished;
    const seconds = (last - t0) / 1000;

    // the floor: the same POSTs from here, 100 in flight on 64 keep-alive sockets, no database
    got = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const body = JSON.stringify({ id: 1, event: 'bench.burst', occurredAt: new Date().toISOString(), data: events[0].data });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/floor',
            method: 'POST',
            agent,
            headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const f0 = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        while (sent < EVENTS) {
          sent++;
          await post();
        }
      }),
    );
    const floorSeconds = (performance.now() - f0) / 1000;
    agent.destroy();
    receiver.close();
    const rate = EVENTS / seconds;
    const floorRate = EVENTS / floorSeconds;
    console.log(`\n2. webhook burst: ${EVENTS.toLocaleString('en')} events, one subscription, receiver in this process`);
    console.log(
      `  queued (one INSERT per 500) in ${queued.toFixed(0)} ms; all delivered ${seconds.toFixed(2)} s after the first enqueue: ${rate.toFixed(0)} deliveries/s (target ≥ 1,000: ${rate >= 1000 ? 'met' : 'MISSED'})`,
    );
    console.log(`  floor (same POSTs sent directly, no queue): ${floorRate.toFixed(0)} POSTs/s; worker / floor ${(rate / floorRate).toFixed(2)}×`);

    // ---- 3. what the ingest path pays: a live event handed to the webhook queue (telemetry's onRaised listener)
    const emitter = new WebhookQueue(ts.server.db.sequelize, () => undefined);
    await emitter.reload();
    const perEvent = (orgId: number) => {
      const n = 15_000;
      const t = performance.now();
      for (let i = 0; i < n; i++) emitter.emit({ orgId, event: 'live.inout', data: { carrierId: i, direction: 10 } });
      return ((performance.now() - t) * 1e6) / n;
    };
    const idle = perEvent(ts.orgB);
    const listened = perEvent(ts.orgA);
    console.log(
      `\n3. a live event handed to webhooks on the ingest path (no I/O there): ${idle.toFixed(0)} ns when its organisation has no subscription, ${listened.toFixed(0)} ns when it has one (buffered for the worker)`,
    );
    console.log(
      `\nload average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
