/**
 * Ingest benchmark: beacon readings/s through a real broker, the decoders, the journal and the
 * store, next to the parse-only floor (receive + decode + discard) measured in the same run.
 *
 *   npx tsx bench/ingest/ingest-bench.ts [--duration=10] [--rate=120000] [--batch=100]
 *       [--gateways=100] [--rounds=3] [--modes=floor,floor-paced,aedes-segments,mosquitto-segments,aedes-sqlite,aedes-influx]
 *
 * --rate is the offered load in readings/s for the store modes (0 = as fast as acknowledgements
 * allow); `floor` runs unthrottled, `floor-paced` at --rate (the same offered load as the store
 * modes: fewer frames per event-loop turn cost more per reading). `aedes-null` (not in the
 * default list) runs the journal and pipeline into a store that keeps nothing: it separates the
 * store's cost from the pipeline's. --rules=0 leaves the derived-state engine out
 * (default on: every stored batch goes through the rules, as in the server, and the latency
 * is reading → state applied; the sink's database writes are the server's, not measured).
 * Figures are for the ingest process (CPU includes SQLite's threads); the load generator runs
 * in a child process and brokers/influxd are separate processes whose CPU is reported alongside.
 *
 * The headline ratio is readings per CPU-second of the ingest process, stored path over floor:
 * comparable while other work shares the cores. The modes run in --rounds interleaved rounds
 * (sqlite, influx and null in the first only) and the summary gives each figure's median.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Intake,
  InfluxTelemetryStore,
  SegmentTelemetryStore,
  SnapshotDirectory,
  SqliteTelemetryStore,
  startEmbeddedBroker,
  startIngest,
  type DecodedFrame,
  type DirectorySnapshot,
  type FrameSink,
  type TelemetryStore,
} from '@rti/ingest';
import { LatencyHistogram } from '@rti/ingest/pipeline/latency';
import { StateEngine } from '@rti/ingest/state/state-engine';
import { Fleet } from '@rti/ingest/state/fleet';
import { startInfluxdb, startMosquitto, tempDir } from '../../ingest/test/helpers/services';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const DURATION = Number(arg('duration', '10')) * 1000;
const WARMUP = Math.min(2000, DURATION / 4);
const RATE = Number(arg('rate', '120000'));
const BATCH = Number(arg('batch', '100'));
const GATEWAYS = Number(arg('gateways', '100'));
const RULES = arg('rules', '1') !== '0';
const MODES = arg('modes', 'floor,floor-paced,aedes-segments,mosquitto-segments,aedes-sqlite,aedes-influx').split(',');
const ROUNDS = Math.max(1, Number(arg('rounds', '3')));
/** slow or diagnostic modes: measured in the first round only */
const ONCE = new Set(['aedes-sqlite', 'aedes-influx', 'aedes-null']);
const BEACONS_PER_GW = 200;

const mac = (prefix: string, i: number) =>
  `${prefix}${i
    .toString(16)
    .toUpperCase()
    .padStart(12 - prefix.length, '0')}`;
const gateways = Array.from({ length: GATEWAYS }, (_, g) => ({
  mac: mac('AC23', g),
  username: `gw${g}`,
  password: `Bench${g}Pass`,
  beacons: Array.from({ length: BEACONS_PER_GW }, (_, b) => mac('E2', g * BEACONS_PER_GW + b)),
}));
const snapshot: DirectorySnapshot = {
  orgs: [{ id: 1, code: 'BENCH' }],
  gateways: gateways.map((g, i) => ({
    id: i + 1,
    orgId: 1,
    orgCode: 'BENCH',
    mac: g.mac,
    sn: `GW-${i}`,
    role: 'slave',
    mqttUsername: g.username,
    mqttPasswordHash: g.password,
  })),
  beacons: gateways.flatMap((g) => g.beacons.map((m) => ({ orgId: 1, mac: m }))),
  gps: [],
};
// The rules' master data: every beacon on a carrier, gateways in 10 warehouses (purpose 10),
// one device model with a battery threshold — what the state engine looks up per reading.
const WAREHOUSES = 10;
const fleet = () =>
  new Fleet({
    models: [{ id: 1, batteryThreshold: 20, offlineCheckTime: 60 }],
    warehouses: Array.from({ length: WAREHOUSES }, (_, w) => ({
      id: w + 1,
      orgId: 1,
      name: `W${w}`,
      longitude: 11 + w,
      latitude: 50,
      radius: 500,
      idleCheckTime: 120,
      bleInbound: true,
      bleOutbound: true,
      bleDeDup: true,
      gpsInbound: true,
      gpsOutbound: true,
    })),
    routes: [],
    devices: [
      ...gateways.map((g, i) => ({
        id: i + 1,
        orgId: 1,
        kind: 'slave-gateway' as const,
        key: g.mac,
        sn: `GW-${i}`,
        modelId: 1,
        carrierId: null,
        warehouseId: (i % WAREHOUSES) + 1,
        purpose: 10,
      })),
      ...gateways.flatMap((g, i) =>
        g.beacons.map((m, b) => ({
          id: 100_000 + i * BEACONS_PER_GW + b,
          orgId: 1,
          kind: 'beacon' as const,
          key: m,
          sn: `B-${m}`,
          modelId: 1,
          carrierId: 1 + i * BEACONS_PER_GW + b,
        })),
      ),
    ],
    carriers: gateways.flatMap((_, i) =>
      Array.from({ length: BEACONS_PER_GW }, (_, b) => ({
        id: 1 + i * BEACONS_PER_GW + b,
        orgId: 1,
        sn: `C-${i}-${b}`,
        name: null,
        carrierCodeId: null,
        beaconId: 100_000 + i * BEACONS_PER_GW + b,
        gpsId: null,
        warehouseId: null,
        transportStatus: null,
      })),
    ),
  });

// Bench credentials are compared as stored; the real server hash costs only at CONNECT.
const directory = new SnapshotDirectory(async (p, h) => p === h, snapshot);

function procCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
  } catch {
    return 0;
  }
}

interface Probe {
  rows(): number;
  backlog(): number;
  latency(): { p50: number; p99: number } | null;
  resetLatency(): void;
  drained(): Promise<void>;
}

function publish(url: string, rate: number, window: number): Promise<{ sent: number; acked: number; behind: number; readingsSent: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'publisher.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify({ url, org: 'BENCH', gateways, batch: BATCH, rate, durationMs: DURATION, window }));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`publisher exited ${code}`))));
  });
}

async function measure(name: string, url: string, rate: number, probe: Probe, otherPid?: () => number | undefined) {
  const window = rate === 0 ? 20 : 1000;
  let peakRss = 0;
  const backlog: number[] = [];
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    backlog.push(probe.backlog());
  }, 250);
  const pub = publish(url, rate, window);
  await new Promise((r) => setTimeout(r, WARMUP));
  probe.resetLatency();
  const r0 = probe.rows();
  const c0 = process.cpuUsage();
  const o0 = procCpuMs(otherPid?.());
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, DURATION - WARMUP));
  const ms = performance.now() - t0;
  const rows = probe.rows() - r0;
  const cpu = process.cpuUsage(c0);
  const other = procCpuMs(otherPid?.()) - o0;
  const lat = probe.latency();
  const p = await pub;
  await Promise.race([probe.drained(), new Promise((r) => setTimeout(r, 20000))]);
  clearInterval(sampler);
  const half = Math.floor(backlog.length / 2);
  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  const result = {
    mode: name,
    offered: rate === 0 ? 'max' : rate,
    readingsPerSec: Math.round((rows / ms) * 1000),
    backlogFirstHalf: avg(backlog.slice(0, half)),
    backlogSecondHalf: avg(backlog.slice(half)),
    p50ms: lat?.p50 ?? null,
    p99ms: lat?.p99 ?? null,
    ingestCpuCores: +((cpu.user + cpu.system) / 1000 / ms).toFixed(2),
    // readings per CPU-second of the ingest process: comparable even when other work shares the cores
    readingsPerCpuSec: Math.round(rows / ((cpu.user + cpu.system) / 1e6)),
    brokerOrDbCpuCores: otherPid ? +(other / ms).toFixed(2) : null,
    publisherCpuMs: p.cpuMs,
    peakRssMB: Math.round(peakRss / 1048576),
    publisherBehind: p.behind,
  };
  console.log(JSON.stringify(result));
  return result;
}

class DiscardSink implements FrameSink {
  rows = 0;
  accept(_raw: unknown, frame: DecodedFrame): 'accepted' {
    this.rows += frame.rows.length;
    return 'accepted';
  }
  whenWritable() {
    return Promise.resolve();
  }
}

async function floor(rate = 0) {
  const sink = new DiscardSink();
  const intake = new Intake({ directory, pipeline: sink, maxFramesPerSecond: 0 });
  const broker = await startEmbeddedBroker({ intake, directory, port: 0, host: '127.0.0.1' });
  const probe: Probe = { rows: () => sink.rows, backlog: () => 0, latency: () => null, resetLatency() {}, drained: async () => {} };
  const r = await measure(rate ? 'floor-paced' : 'floor (aedes, receive+decode+discard)', `mqtt://127.0.0.1:${broker.port}`, rate, probe);
  await broker.close();
  return r;
}

async function full(name: string, store: TelemetryStore, opts: { mosquitto?: boolean; otherPid?: () => number | undefined }) {
  const dir = tempDir('bench');
  const mosq = opts.mosquitto ? await startMosquitto() : undefined;
  // the server's state work minus its database writes: rules per stored batch, flush every second
  let effects = 0;
  const engine = RULES ? new StateEngine({ onEffect: () => void effects++ }) : undefined;
  engine?.setFleet(fleet());
  const stateLatency = new LatencyHistogram();
  const flusher = engine ? setInterval(() => engine.flush(), 1000) : undefined;
  const svc = await startIngest({
    store,
    directory,
    dataDir: dir,
    pipeline: engine
      ? {
          onStored: (batches) => {
            engine.applyBatch(batches);
            const now = Date.now();
            // every 10th reading, weighted: the measuring must not cost more than what it measures
            for (const bt of batches) for (let i = 0; i < bt.rows.length; i += 10) stateLatency.add(now - bt.rows[i].time, Math.min(10, bt.rows.length - i));
          },
        }
      : undefined,
    mqttPort: mosq ? null : 0,
    mqttHost: '127.0.0.1',
    external: mosq ? { url: mosq.url, clientId: 'bench-worker', group: 'bench' } : undefined,
    intake: { maxFramesPerSecond: 0 },
  });
  await svc.external?.ready;
  const probe: Probe = {
    rows: () => svc.pipeline.stats().storedRows,
    backlog: () => svc.pipeline.stats().backlogRows,
    latency: () =>
      engine
        ? { p50: stateLatency.percentile(0.5), p99: stateLatency.percentile(0.99) }
        : { p50: svc.pipeline.latency.percentile(0.5), p99: svc.pipeline.latency.percentile(0.99) },
    resetLatency: () => (engine ? stateLatency.reset() : svc.pipeline.latency.reset()),
    drained: () => svc.pipeline.drained(),
  };
  const url = mosq ? mosq.url : `mqtt://127.0.0.1:${svc.broker!.port}`;
  const r = await measure(name, url, RATE, probe, mosq ? mosq.pid : opts.otherPid);
  await svc.stop();
  if (flusher) clearInterval(flusher);
  if (engine) console.log(`#   rules: ${engine.stats.readings} readings applied, ${engine.stats.unknown} unknown, ${effects} effects`);
  await mosq?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
  return r;
}

type Result = Awaited<ReturnType<typeof measure>>;

async function run(mode: string): Promise<Result> {
  if (mode === 'floor') return floor();
  if (mode === 'floor-paced') return floor(RATE);
  if (/^(aedes|mosquitto)-(segments|sqlite)$/.test(mode)) {
    const dir = tempDir('bench-store');
    const store = mode.endsWith('sqlite') ? new SqliteTelemetryStore({ file: path.join(dir, 'telemetry.db') }) : new SegmentTelemetryStore({ dir });
    const r = await full(mode, store, { mosquitto: mode.startsWith('mosquitto') });
    fs.rmSync(dir, { recursive: true, force: true });
    return r;
  }
  if (mode === 'aedes-null') {
    let mark = 0;
    const store: TelemetryStore = {
      engine: 'null',
      init: async () => {},
      write: async (_b, m) => void (mark = m ?? mark),
      appliedMark: async () => mark,
      query: async () => ({ list: [], total: 0 }),
      latest: async () => [],
      ping: async () => true,
      close: async () => {},
    };
    return full(mode, store, {});
  }
  if (mode === 'aedes-influx') {
    const influx = await startInfluxdb();
    const r = await full(mode, new InfluxTelemetryStore({ url: influx.url, database: 'bench' }), { otherPid: influx.pid });
    await influx.cleanup();
    return r;
  }
  throw new Error(`unknown mode ${mode}`);
}

const pct = (a: number, b: number) => (100 * a) / b;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const short = (mode: string) => mode.split(' ')[0];

console.log(
  `# ingest bench: rules ${RULES ? 'on (latency = reading → state)' : 'off (latency = reading → stored)'}, ${GATEWAYS} gateways × ${BATCH} readings/message, ${DURATION / 1000}s per mode (${WARMUP / 1000}s warm-up), ${ROUNDS} round(s), offered ${RATE || 'max'} readings/s, Node ${process.versions.node}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
// Rounds interleave the modes, so each round's ratios compare runs made minutes apart at most:
// load from other work on a shared machine drifts; the median of the rounds is the figure.
const rounds: Array<Map<string, Result>> = [];
for (let round = 1; round <= ROUNDS; round++) {
  const results = new Map<string, Result>();
  for (const mode of MODES) if (round === 1 || !ONCE.has(mode)) results.set(mode, await run(mode));
  rounds.push(results);
  const f = results.get('floor');
  const fp = results.get('floor-paced');
  for (const [mode, r] of results)
    if (!mode.startsWith('floor'))
      console.log(
        `# round ${round} ${mode}: ${r.readingsPerSec} readings/s; per CPU-second ${r.readingsPerCpuSec}` +
          (f ? ` = ${pct(r.readingsPerCpuSec, f.readingsPerCpuSec).toFixed(1)} % of the floor (${f.readingsPerCpuSec})` : '') +
          (fp ? `, ${pct(r.readingsPerCpuSec, fp.readingsPerCpuSec).toFixed(1)} % of the floor at the same pace (${fp.readingsPerCpuSec})` : ''),
      );
}
console.log(`# summary, median of ${ROUNDS} round(s) [min–max]:`);
for (const mode of MODES) {
  const rs = rounds.map((r) => r.get(mode)).filter((r): r is Result => !!r);
  const line = [
    `${short(mode)}: ${Math.round(median(rs.map((r) => r.readingsPerSec)))} readings/s, ${Math.round(median(rs.map((r) => r.readingsPerCpuSec)))} per CPU-second`,
  ];
  if (!mode.startsWith('floor')) {
    line.push(
      `p50 ${median(rs.map((r) => r.p50ms ?? 0))} ms, p99 ${median(rs.map((r) => r.p99ms ?? 0))} ms, peak RSS ${Math.max(...rs.map((r) => r.peakRssMB))} MB`,
    );
    for (const peer of ['floor', 'floor-paced']) {
      const ratios = rounds.filter((r) => r.get(mode) && r.get(peer)).map((r) => pct(r.get(mode)!.readingsPerCpuSec, r.get(peer)!.readingsPerCpuSec));
      if (ratios.length)
        line.push(
          `${median(ratios).toFixed(1)} % of ${peer === 'floor' ? 'the floor' : 'the floor at the same pace'} per CPU-second [${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}]`,
        );
    }
  }
  console.log(`#   ${line.join('; ')}`);
}
console.log(
  `# load average after: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
process.exit(0);
