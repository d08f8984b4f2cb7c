/**
 * Import benchmark: a generated N-row carrier file (default 100,000) uploaded through the real
 * multipart call and imported by the background engine on a fresh SQLite database; prints
 * rows/s, wall time and the server process's peak RSS. Target: 100,000 rows in < 30 s.
 * In the same run, first the parse floor: the same file read and checked by the engine's dry
 * run (streamed read, cell parsing, validation, ref and uniqueness lookups; nothing written),
 * and the ratio import / floor.
 *
 *   npx tsx bench/import/import-bench.ts [--rows=100000] [--resource=carrier|device-beacon]
 *       [--plugins=master-data,licence|none]   (the domain plugins whose hooks run on imported rows)
 */
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startTestServer } from '../../server/test/support/test-server';
import { tempDataDir } from '../../server/test/import-fixtures';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ROWS = Number(arg('rows', '100000'));
const RESOURCE = arg('resource', 'carrier');
const PLUGIN_ARG = arg('plugins', 'master-data,licence');
const PLUGINS: string[] | false = PLUGIN_ARG === 'none' ? false : PLUGIN_ARG.split(',');
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
/** user + system CPU of this process (server and client): a figure the machine's load barely moves */
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

let peak = 0;
// memoryUsage.rss() alone: the full memoryUsage() walks the heap and would cost the import CPU.
const sample = () => void (peak = Math.max(peak, process.memoryUsage.rss()));
const sampler = setInterval(sample, 50);

async function writeFile(path: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('import');
  if (RESOURCE === 'carrier') {
    ws.addRow(['sn', 'name', 'carrierCodeId', 'projectId', 'limits', 'status', 'startTime', 'remark']).commit();
    for (let i = 1; i <= ROWS; i++)
      ws.addRow([`BC${String(i).padStart(7, '0')}`, `Box ${i}`, 'CC-1', 'P-1', 'Unlimited', 'New', '2026-01-01 08:00:00', i % 10 ? null : 'checked']).commit();
  } else {
    ws.addRow(['sn', 'mac', 'deviceModelId']).commit();
    for (let i = 1; i <= ROWS; i++)
      ws.addRow([
        `BB${String(i).padStart(7, '0')}`,
        `AA:${[16, 8, 0].map((s) => ((i >> s) & 255).toString(16).padStart(2, '0')).join(':')}:00:01`,
        'DM-1',
      ]).commit();
  }
  ws.commit();
  await wb.commit();
}

async function main() {
  const dataDir = tempDataDir();
  const file = join(dataDir, `bench-${RESOURCE}.xlsx`);
  await writeFile(file);
  const size = statSync(file).size;
  const ts = await startTestServer({ config: { dataDir }, plugins: PLUGINS, logError: (m, e) => console.error(m, (e as Error)?.message ?? '') });
  try {
    const make = async (resource: string, body: Record<string, unknown>) => {
      const r = await ts.a.call(`/${resource}/create`, body);
      if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
      return r.body.data.id as number;
    };
    const project = await make('project', { name: 'P-1' });
    await make('carrier-code', { code: 'CC-1', name: 'Box', projectId: project, type: 10 });
    await make('device-model', { name: 'DM-1' });
    await ts.server.audit.flush();
    const floorStart = performance.now();
    const floorCpu = process.cpuUsage();
    const floor = await ts.server.imports.dryRun(RESOURCE, ts.server.systemContext(ts.orgA), file);
    const floorSeconds = (performance.now() - floorStart) / 1000;
    const floorCpuSeconds = cpuSeconds(process.cpuUsage(floorCpu));
    if (floor.success !== ROWS) throw new Error(`dry run: ${floor.success} of ${ROWS} rows passed (${floor.message ?? 'rows refused'})`);
    const floorPeak = peak;
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    peak = baseline;

    const started = performance.now();
    const cpu = process.cpuUsage();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), `bench-${RESOURCE}.xlsx`);
    const res = await fetch(`${ts.url}/api/${RESOURCE}/import`, { method: 'POST', headers: { Token: ts.a.token, OrgId: String(ts.orgA) }, body: form });
    const up = (await res.json()) as { code: number; message: string; data: { importId: number } };
    if (up.code !== 0) throw new Error(`upload refused: ${up.message}`);
    const accepted = performance.now();
    let status: { status: number; successVolume: number; failedVolume: number; processedVolume: number; message: string | null; importErrors: unknown[] };
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await ts.a.call(`/${RESOURCE}/import/status`, { importId: up.data.importId })).body.data;
      if (status.status !== 10) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const importCpuSeconds = cpuSeconds(process.cpuUsage(cpu));
    await ts.server.audit.flush();
    const opLogs = await ts.server.db.models['operation-log'].count();
    console.log(`import ${RESOURCE}: ${ROWS} rows, file ${mb(size)} MB, plugins ${PLUGINS ? PLUGINS.join('+') : 'none'}; load average ${load()}`);
    console.log(
      `  parse floor (read + check, no writes): ${floorSeconds.toFixed(1)} s = ${Math.round(ROWS / floorSeconds)} rows/s, CPU ${floorCpuSeconds.toFixed(1)} s, peak RSS ${mb(floorPeak)} MB`,
    );
    console.log(
      `  upload answered in ${((accepted - started) / 1000).toFixed(2)} s; finished in ${seconds.toFixed(1)} s = ${Math.round(ROWS / seconds)} rows/s, CPU ${importCpuSeconds.toFixed(1)} s`,
    );
    console.log(
      `  success ${status.successVolume}, failed ${status.failedVolume}${status.message ? `, message: ${status.message}` : ''}${status.importErrors.length ? `, first error ${JSON.stringify(status.importErrors[0])}` : ''}`,
    );
    console.log(
      `  RSS baseline ${mb(baseline)} MB, peak ${mb(peak)} MB (+${mb(peak - baseline)} MB); operation-log rows ${opLogs}, dropped ${ts.server.audit.dropped()}`,
    );
    console.log(`  import / parse floor = ${(seconds / floorSeconds).toFixed(2)} (wall), ${(importCpuSeconds / floorCpuSeconds).toFixed(2)} (CPU)`);
    console.log(`  target < 30 s: ${seconds < 30 ? 'met' : 'missed'}`);
  } finally {
    clearInterval(sampler);
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
