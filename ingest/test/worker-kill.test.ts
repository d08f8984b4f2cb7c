/**
 * Nothing acknowledged is lost when an ingest worker process is killed (SIGKILL) mid-batch
 * and restarted: acknowledged frames are in its journal, unacknowledged ones are redelivered
 * by the broker's persistent session, and the store's mark makes the replay exactly-once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { SegmentTelemetryStore } from '../src/store/segment-store';
import type { PipelineStats } from '../src/pipeline/pipeline';
import { GW, scanPayload, waitUntil } from './helpers/fixtures';
import { haveBinary, MOSQUITTO, startMosquitto, tempDir, type RunningMosquitto } from './helpers/services';

const here = path.dirname(fileURLToPath(import.meta.url));
const available = haveBinary(MOSQUITTO);

interface Child {
  proc: ChildProcess;
  stats: PipelineStats | null;
  ready: Promise<void>;
}

function spawnWorker(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'helpers', 'worker-child.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const child: Child = { proc, stats: null, ready: Promise.resolve() };
  let buf = '';
  child.ready = new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    proc.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === 'ready') resolve();
        else if (line.startsWith('{')) child.stats = JSON.parse(line) as PipelineStats;
      }
    });
  });
  return child;
}

describe.runIf(available)('ingest worker killed mid-batch', () => {
  let broker: RunningMosquitto;
  const dir = tempDir('kill');
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await broker?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing and counts nothing twice', async () => {
    broker = await startMosquitto();
    const env = { BROKER_URL: broker.url, DATA_DIR: dir, CLIENT_ID: 'ingest-kill', GROUP: 'kill' };
    const first = spawnWorker(env);
    children.push(first.proc);
    await first.ready;

    const pub = mqtt.connect(broker.url, { clientId: 'gw-kill', clean: false, protocolVersion: 4 });
    await new Promise((r) => pub.once('connect', r));
    const FRAMES = 400;
    const PER = 25;
    let acked = 0;
    const sending = (async () => {
      for (let i = 0; i < FRAMES; i++) {
        await pub.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(300_000 + i * PER, PER), { qos: 1 });
        acked++;
      }
    })();
    await waitUntil(() => (first.stats?.acceptedRows ?? 0) >= 2000, 20000, 'the first worker to be busy');
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));

    const second = spawnWorker(env);
    children.push(second.proc);
    await second.ready;
    await sending;
    expect(acked).toBe(FRAMES);
    // the restarted worker stores the rest: its journal backlog and the broker's queue (which
    // may be empty when the kill came late — then everything is in the journal)
    await new Promise((r) => setTimeout(r, 500));
    await waitUntil(
      () => !!second.stats && second.stats.backlogFrames === 0 && second.stats.backlogRows === 0,
      30000,
      'the restarted worker to catch up',
    ).catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(second.stats)}`);
    });
    await new Promise((r) => setTimeout(r, 300));
    second.proc.kill('SIGTERM');
    await new Promise((r) => second.proc.once('exit', r));
    await pub.endAsync();

    const store = new SegmentTelemetryStore({ dir: path.join(dir, 'segments') });
    await store.init();
    const seen = new Set<number>();
    let total = 0;
    for (let page = 1; ; page++) {
      const r = await store.query({ series: 'beacon', org: 1, page, limit: 1000 });
      for (const row of r.list) seen.add((row.major as number) * 65536 + (row.minor as number));
      total = r.total;
      if (r.list.length < 1000) break;
    }
    await store.close();
    expect(seen.size).toBe(FRAMES * PER);
    expect(total).toBe(FRAMES * PER);
  }, 60_000);
});
