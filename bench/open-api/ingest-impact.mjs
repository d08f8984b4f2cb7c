// Does a webhook burst slow ingest? (issue 21: "without slowing the ingest bench by more than 5 %")
//
//   node bench/open-api/ingest-impact.mjs [--rounds=3] [--duration=8] [--rate=0]
//
// Runs the ingest bench (bench/ingest, broker + decoders + journal + segment store + rules) alone
// and while webhook bursts of 10,000 events are delivered by an API server in another process
// (bench/open-api, restarted until the ingest run ends) — as in production, where ingest workers
// and API instances are separate processes sharing a machine. Rounds interleave the two, so load
// drifting on a shared machine touches both alike. Prints, per run and as medians, readings/s and
// readings per CPU-second of the ingest process (its headline figure, comparable when other work
// shares the cores) and the change with the burst running.
import { spawn } from 'node:child_process';
import { loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ROUNDS = Number(arg('rounds', '3'));
const DURATION = arg('duration', '8');
const RATE = arg('rate', '0');
const tsx = join(root, 'node_modules/.bin/tsx');

function ingest() {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['bench/ingest/ingest-bench.ts', `--duration=${DURATION}`, '--rounds=1', '--modes=aedes-segments', `--rate=${RATE}`], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"mode"'));
      if (code !== 0 || !line) return reject(new Error(`ingest bench exited ${code}:\n${out}`));
      resolve(JSON.parse(line));
    });
  });
}

/** webhook bursts, one after another, until stopped: `started` once the first one is enqueueing */
function bursts() {
  let stopped = false;
  let child = null;
  let begin;
  const started = new Promise((r) => (begin = r));
  const rates = [];
  const done = (async () => {
    while (!stopped) {
      await new Promise((resolve) => {
        child = spawn(process.execPath, ['bench/open-api/run.mjs', '--only=webhooks', '--events=10000'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('# burst: enqueueing')) begin();
        });
        child.on('exit', () => {
          const m = /: (\d+) deliveries\/s/.exec(out);
          if (m) rates.push(Number(m[1]));
          begin();
          resolve();
        });
      });
    }
  })();
  return {
    started,
    async stop() {
      stopped = true;
      child?.kill('SIGTERM');
      await done;
      return rates;
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (a, b) => ((a / b - 1) * 100).toFixed(1);

console.log(
  `# ingest with and without webhook bursts: ${ROUNDS} round(s), ${DURATION}s ingest runs, offered ${RATE === '0' ? 'max' : RATE} readings/s, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const alone = [];
const loaded = [];
const burstRates = [];
for (let round = 1; round <= ROUNDS; round++) {
  const a = await ingest();
  alone.push(a);
  const b = bursts();
  // ingest is measured once the first burst's server is up and its events are being queued
  await b.started;
  const w = await ingest();
  burstRates.push(...(await b.stop()));
  loaded.push(w);
  console.log(
    `# round ${round}: alone ${a.readingsPerSec} readings/s, ${a.readingsPerCpuSec} per CPU-second; with bursts ${w.readingsPerSec} readings/s (${pct(w.readingsPerSec, a.readingsPerSec)} %), ${w.readingsPerCpuSec} per CPU-second (${pct(w.readingsPerCpuSec, a.readingsPerCpuSec)} %)`,
  );
}
const m = (xs, k) => median(xs.map((x) => x[k]));
console.log(
  `# medians: readings/s alone ${m(alone, 'readingsPerSec')}, with bursts ${m(loaded, 'readingsPerSec')} (${pct(m(loaded, 'readingsPerSec'), m(alone, 'readingsPerSec'))} %)`,
);
console.log(
  `#          per CPU-second alone ${m(alone, 'readingsPerCpuSec')}, with bursts ${m(loaded, 'readingsPerCpuSec')} (${pct(m(loaded, 'readingsPerCpuSec'), m(alone, 'readingsPerCpuSec'))} %; target: no worse than −5 %)`,
);
console.log(
  `#          p99 latency alone ${m(alone, 'p99ms')} ms, with bursts ${m(loaded, 'p99ms')} ms; bursts completed meanwhile: ${burstRates.length} (median ${median(burstRates) || 0} deliveries/s)`,
);
console.log(
  `# load after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
