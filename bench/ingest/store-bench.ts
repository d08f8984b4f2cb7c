/**
 * Store-only comparison behind the embedded-store choice (docs/TELEMETRY.md §6): writes
 * 300,000 beacon rows in 5,000-row batches into each engine and prints rows/s and CPU time per
 * row (CPU time stays meaningful when other processes share the cores; wall time does not).
 *
 *   npx tsx bench/ingest/store-bench.ts [--rows=300000] [--engines=segments,sqlite,influxdb]
 */
import fs from 'node:fs';
import path from 'node:path';
import { InfluxTelemetryStore, SegmentTelemetryStore, SqliteTelemetryStore, type SeriesRow, type TelemetryStore } from '@rti/ingest';
import { startInfluxdb, tempDir } from '../../ingest/test/helpers/services';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const N = Number(arg('rows', '300000'));
const ENGINES = arg('engines', 'segments,sqlite,influxdb').split(',');
const T = Date.now() - 3600_000;
const rows: SeriesRow[] = Array.from({ length: N }, (_, k) => ({
  org: 1,
  mac: `E2${(k % 20000).toString(16).toUpperCase().padStart(10, '0')}`,
  time: T + k,
  gatewayMac: 'AC233FC0A1B2',
  rssi: -60 - (k % 30),
  battery: 80,
  temperature: 20.5,
  humidity: 40,
  uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
  major: 1,
  minor: k % 65536,
  txPower: -59,
}));

async function run(name: string, store: TelemetryStore, otherPid?: number) {
  await store.init();
  const other0 = otherPid ? procCpuMs(otherPid) : 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 5000) await store.write([{ series: 'beacon', rows: rows.slice(i, i + 5000) }], i / 5000 + 1);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpuMs = (c.user + c.system) / 1000 + (otherPid ? procCpuMs(otherPid) - other0 : 0);
  const q0 = performance.now();
  const page = await store.query({ series: 'beacon', org: 1, key: 'E20000000007', limit: 10 });
  const qms = performance.now() - q0;
  console.log(
    JSON.stringify({
      engine: name,
      rowsPerSec: Math.round((N / ms) * 1000),
      cpuMicrosPerRow: +((cpuMs * 1000) / N).toFixed(2),
      deviceQueryMs: +qms.toFixed(1),
      deviceRows: page.total,
    }),
  );
  await store.close();
}

function procCpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

console.log(`# store bench: ${N} beacon rows, 5000-row batches, Node ${process.versions.node}; CPU includes SQLite's threads and influxd`);
for (const e of ENGINES) {
  const dir = tempDir(`store-${e}`);
  if (e === 'segments') await run(e, new SegmentTelemetryStore({ dir }));
  else if (e === 'sqlite') await run(e, new SqliteTelemetryStore({ file: path.join(dir, 't.sqlite') }));
  else if (e === 'influxdb') {
    const influx = await startInfluxdb();
    await run(e, new InfluxTelemetryStore({ url: influx.url, database: 'bench' }), influx.pid());
    await influx.cleanup();
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
