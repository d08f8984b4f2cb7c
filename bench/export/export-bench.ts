/**
 * Export benchmark: N carriers (default 200,000) streamed to xlsx through the real
 * `/carrier/export` call on a fresh SQLite database; prints rows/s, bytes and the server
 * process's peak RSS while exporting. Target: peak RSS < 300 MB.
 *
 *   node --expose-gc --import tsx bench/export/export-bench.ts [--rows=200000] [--filter=true]   (SQLite)
 */
import { loadavg } from 'node:os';
import { startTestServer } from '../../server/test/support/test-server';
import { tempDataDir } from '../../server/test/import-fixtures';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ROWS = Number(arg('rows', '200000'));
const FILTER = arg('filter', 'false') === 'true';
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

let peak = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 50);

async function main() {
  const ts = await startTestServer({ config: { dataDir: tempDataDir() }, plugins: false });
  try {
    const make = async (resource: string, body: Record<string, unknown>) => (await ts.a.call(`/${resource}/create`, body)).body.data.id as number;
    const project = await make('project', { name: 'P-1' });
    const code = await make('carrier-code', { code: 'CC-1', name: 'Box', projectId: project, type: 10 });
    const warehouse = await make('warehouse', { code: 'W1', name: 'Warehouse 1' });
    // Seeded inside the database (recursive CTE): the benchmark measures the export, and the
    // server's memory is not inflated by building the rows in JavaScript first.
    const seedStart = performance.now();
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    await ts.server.db.sequelize.query(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS - 1})
       INSERT INTO carrier (org_id, sn, name, carrier_code_id, project_id, warehouse_id, type, limits, status, loading_status, transport_status, cycle_count, start_time, remark, created_at, updated_at)
       SELECT ${ts.orgA}, printf('EX%07d', i), 'Box ' || i, ${code}, ${project}, CASE WHEN i % 2 = 1 THEN ${warehouse} END, 10, 0, (i % 3) * 10, 0, 10, i % 50, '${now}',
              CASE WHEN i % 7 = 0 THEN 'checked' END, '${now}', '${now}' FROM n`,
    );
    const seeded = (performance.now() - seedStart) / 1000;
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    peak = baseline;
    peakHeap = process.memoryUsage().heapUsed;
    const started = performance.now();
    const body = FILTER ? { status: [10, 20], sortBySn: false } : {};
    const res = await ts.a.fetch('/carrier/export', body);
    if (!res.ok || !res.headers.get('content-type')?.includes('spreadsheetml')) throw new Error(`export refused: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let firstByte = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!bytes) firstByte = performance.now() - started;
      bytes += value.length;
    }
    const seconds = (performance.now() - started) / 1000;
    const exported = FILTER ? Math.round((ROWS * 2) / 3) : ROWS;
    console.log(
      `export carrier: ${ROWS} rows in the table (seeded in ${seeded.toFixed(1)} s), ${exported} exported${FILTER ? ' (status filter, sort by sn desc)' : ''}; load average ${load()}`,
    );
    console.log(
      `  first byte after ${Math.round(firstByte)} ms; finished in ${seconds.toFixed(1)} s = ${Math.round(exported / seconds)} rows/s; ${mb(bytes)} MB xlsx`,
    );
    console.log(`  heap used peak ${mb(peakHeap)} MB; after the export ${mb(process.memoryUsage().heapUsed)} MB`);
    console.log(
      `  RSS baseline ${mb(baseline)} MB, peak ${mb(peak)} MB (+${mb(peak - baseline)} MB); target peak < 300 MB: ${peak < 300 * 1024 * 1024 ? 'met' : 'missed'}`,
    );
  } finally {
    clearInterval(sampler);
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
