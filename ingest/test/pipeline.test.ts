import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Intake } from '../src/intake';
import { Journal } from '../src/journal/journal';
import { IngestPipeline } from '../src/pipeline/pipeline';
import { startIngest } from '../src/ingest-service';
import { InfluxTelemetryStore } from '../src/store/influx-store';
import type { TelemetryStore } from '../src/store/telemetry-store';
import { directory, ORG, GW, scanPayload, sqliteIn, waitUntil } from './helpers/fixtures';
import { haveBinary, INFLUXD, startInfluxdb, tempDir } from './helpers/services';

const dirs: string[] = [];
const OUTAGE_MS = Number(process.env.INGEST_OUTAGE_SECONDS ?? 1.5) * 1000;
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function stack(
  dir: string,
  store: TelemetryStore,
  over: { maxQueuedRows?: number; maxBytes?: number; segmentBytes?: number; fullPolicy?: 'refuse' | 'drop-oldest' } = {},
) {
  const journal = new Journal({ dir: path.join(dir, 'journal'), segmentBytes: over.segmentBytes ?? 64 * 1024, maxBytes: over.maxBytes, fsyncMs: 0 });
  let intake: Intake | undefined;
  const pipeline = new IngestPipeline({
    store,
    journal,
    redecode: (r) => intake!.redecode(r),
    batchRows: 500,
    lingerMs: 5,
    maxQueuedRows: over.maxQueuedRows,
    fullPolicy: over.fullPolicy,
    retryInitialMs: 20,
    retryMaxMs: 100,
  });
  intake = new Intake({ directory: directory(), pipeline, maxFramesPerSecond: 0 });
  return { journal, pipeline, intake };
}

async function distinctMinors(store: TelemetryStore): Promise<{ total: number; distinct: number }> {
  const seen = new Set<number>();
  let total = 0;
  for (let page = 1; ; page++) {
    const r = await store.query({ series: 'beacon', org: ORG.id, page, limit: 1000, order: 'asc' });
    for (const row of r.list) seen.add((row.major as number) * 65536 + (row.minor as number));
    total = r.total;
    if (r.list.length < 1000) break;
  }
  return { total, distinct: seen.size };
}

describe('ingest pipeline', () => {
  it('batches accepted frames into the store and empties the journal', async () => {
    const dir = tempDir('pipe');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const { pipeline, intake, journal } = stack(dir, store);
    await pipeline.start();
    const results = Array.from({ length: 40 }, (_, i) => intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50)));
    for (const r of results) expect(r).toMatchObject({ status: 'accepted', rows: 50 });
    // the frames of one event-loop turn go to the journal in one write; acknowledgements wait for it
    const last = results[results.length - 1] as { ackAfter?: Promise<void> };
    expect(last.ackAfter).toBeInstanceOf(Promise);
    expect(journal.bytes).toBeGreaterThan(0);
    await last.ackAfter;
    const onDisk = fs
      .readdirSync(journal.dir)
      .filter((f) => f.endsWith('.seg'))
      .reduce((n, f) => n + fs.statSync(path.join(journal.dir, f)).size, 0);
    expect(onDisk).toBe(journal.bytes);
    await pipeline.drained();
    expect(await distinctMinors(store)).toEqual({ total: 2000, distinct: 2000 });
    expect(store.writes).toBeLessThanOrEqual(8); // ~500-row batches, not one write per frame
    expect(pipeline.stats()).toMatchObject({ acceptedRows: 2000, storedRows: 2000, backlogRows: 0, storeUp: true });
    expect(journal.committedSeq).toBe(40);
    await pipeline.stop();
    await store.close();
  });

  it('buffers in the journal while the store is down, beyond the memory cache, and replays in order', async () => {
    const dir = tempDir('pipe-down');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const { pipeline, intake } = stack(dir, store, { maxQueuedRows: 1000 });
    await pipeline.start();
    store.down = true;
    for (let i = 0; i < 100; i++) intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50));
    await waitUntil(() => pipeline.stats().storeFailures >= 2, 5000, 'retries');
    expect(pipeline.stats()).toMatchObject({ storeUp: false, storedRows: 0, backlogRows: 5000 });
    store.down = false;
    await pipeline.drained();
    expect(await distinctMinors(store)).toEqual({ total: 5000, distinct: 5000 });
    // journal order is kept: row ids ascend with the minor numbers
    const first = await store.query({ series: 'beacon', org: 1, order: 'asc', limit: 3 });
    expect(first.list.map((r) => r.minor)).toEqual([0, 1, 2]);
    expect(pipeline.stats()).toMatchObject({ storeUp: true, backlogRows: 0 });
    await pipeline.stop();
    await store.close();
  });

  it('refuses (does not acknowledge) when the journal is full, and takes frames again once drained', async () => {
    const dir = tempDir('pipe-full');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const { pipeline, intake } = stack(dir, store, { maxBytes: 64 * 1024, segmentBytes: 16 * 1024 });
    await pipeline.start();
    store.down = true;
    const results = [];
    for (let i = 0; i < 40; i++) results.push(intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 20, 20)));
    const full = results.filter((r) => r.status === 'full');
    expect(full.length).toBeGreaterThan(0);
    expect(pipeline.stats().refusedFull).toBe(full.length);
    const late = intake.acceptWhenWritable(full[0] as Extract<(typeof results)[number], { status: 'full' }>);
    store.down = false;
    expect(await late).toMatchObject({ status: 'accepted' });
    await pipeline.drained();
    const accepted = results.filter((r) => r.status === 'accepted').length + 1;
    expect((await distinctMinors(store)).total).toBe(accepted * 20);
    await pipeline.stop();
    await store.close();
  });

  it('holds acknowledgements back while a live store lags, not while it is down', async () => {
    const dir = tempDir('pipe-lag');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const journal = new Journal({ dir: path.join(dir, 'journal'), fsyncMs: 0 });
    let intake: Intake | undefined;
    const pipeline = new IngestPipeline({ store, journal, redecode: (r) => intake!.redecode(r), batchRows: 500, lingerMs: 5, highWaterRows: 1000 });
    intake = new Intake({ directory: directory(), pipeline, maxFramesPerSecond: 0 });
    await pipeline.start();
    const results = Array.from({ length: 30 }, (_, i) => intake!.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50)));
    const held = results.filter((r) => r.status === 'accepted' && r.ackAfter !== undefined);
    expect(held.length).toBeGreaterThan(0);
    // every frame is already journaled; the held acknowledgements are released as the store catches up
    await Promise.all(held.map((r) => (r as { ackAfter: Promise<void> }).ackAfter));
    expect(pipeline.stats().backlogRows).toBeLessThan(1000);
    await pipeline.drained();
    store.down = true;
    const during = Array.from({ length: 30 }, (_, i) => intake!.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload((30 + i) * 50, 50)));
    await waitUntil(() => !pipeline.stats().storeUp, 5000, 'store marked down');
    // once the store is known to be down, held acknowledgements are released and new ones are not held
    await Promise.all(during.map((r) => (r.status === 'accepted' ? r.ackAfter : undefined)));
    const down = intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(9000, 50)) as { status: string; ackAfter?: Promise<void> };
    expect(down.status).toBe('accepted');
    // only the journal write is waited for, not the (down) store
    await Promise.race([down.ackAfter, new Promise((_, reject) => setTimeout(() => reject(new Error('acknowledgement held')), 1000))]);
    store.down = false;
    await pipeline.drained();
    expect((await distinctMinors(store)).total).toBe(3050);
    await pipeline.stop();
    await store.close();
  });

  it('drop-oldest policy loses the oldest unstored frames and counts them', async () => {
    const dir = tempDir('pipe-drop');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const { pipeline, intake } = stack(dir, store, { maxBytes: 64 * 1024, segmentBytes: 16 * 1024, fullPolicy: 'drop-oldest', maxQueuedRows: 100 });
    await pipeline.start();
    store.down = true;
    for (let i = 0; i < 60; i++) expect(intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 20, 20)).status).toBe('accepted');
    const dropped = pipeline.stats().droppedFull;
    expect(dropped).toBeGreaterThan(0);
    store.down = false;
    await pipeline.drained();
    const { total } = await distinctMinors(store);
    // whatever was still cached in memory when its segment was dropped may already be stored
    expect(total).toBeGreaterThanOrEqual((60 - dropped) * 20);
    expect(total).toBeLessThan(60 * 20);
    await pipeline.stop();
    await store.close();
  });

  it('replays exactly once after the worker dies mid-batch', async () => {
    const dir = tempDir('pipe-crash');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const a = stack(dir, store);
    await a.pipeline.start();
    for (let i = 0; i < 10; i++) a.intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50));
    await a.pipeline.drained();
    store.down = true; // the next batches never make it: the "process" dies here
    for (let i = 10; i < 30; i++) a.intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50));
    await a.pipeline.stop(0);
    // also simulate a crash between store commit and journal checkpoint: rewind the checkpoint
    fs.writeFileSync(path.join(dir, 'journal', 'checkpoint'), '3');
    store.down = false;
    const b = stack(dir, store);
    await b.pipeline.start();
    await waitUntil(async () => (await distinctMinors(store)).total >= 1500, 10000, 'replay');
    await b.pipeline.drained();
    expect(await distinctMinors(store)).toEqual({ total: 1500, distinct: 1500 });
    await b.pipeline.stop();
    await store.close();
  });

  it('keeps storing when the onStored consumer throws', async () => {
    const dir = tempDir('pipe-hook');
    dirs.push(dir);
    const store = sqliteIn(dir);
    await store.init();
    const journal = new Journal({ dir: path.join(dir, 'journal'), fsyncMs: 0 });
    let calls = 0;
    let intake: Intake | undefined;
    const pipeline = new IngestPipeline({
      store,
      journal,
      redecode: (r) => intake!.redecode(r),
      batchRows: 100,
      lingerMs: 1,
      onStored: () => {
        calls++;
        throw new Error('rule bug');
      },
    });
    intake = new Intake({ directory: directory(), pipeline, maxFramesPerSecond: 0 });
    await pipeline.start();
    for (let i = 0; i < 5; i++) intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 100, 100));
    await pipeline.drained();
    expect(calls).toBeGreaterThanOrEqual(5);
    expect((await distinctMinors(store)).total).toBe(500);
    await pipeline.stop();
    await store.close();
  });

  it('recognises a redelivered frame after a restart even when it was already stored', async () => {
    const dir = tempDir('pipe-dup');
    dirs.push(dir);
    const frame = scanPayload(0, 20);
    const a = await startIngest({ store: sqliteIn(dir), directory: directory(), dataDir: dir, mqttPort: null, pipeline: { lingerMs: 1 } });
    a.intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, frame);
    await a.pipeline.drained(); // stored and committed; imagine the PUBACK never left
    await a.stop();
    const b = await startIngest({ store: sqliteIn(dir), directory: directory(), dataDir: dir, mqttPort: null, pipeline: { lingerMs: 1 } });
    expect(b.intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, frame, undefined, true)).toEqual({ status: 'dropped', reason: 'duplicate' });
    // the same bytes without DUP are a new message (a gateway may resend identical content)
    expect(b.intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, frame)).toMatchObject({ status: 'accepted', rows: 20 });
    await b.pipeline.drained();
    expect((await distinctMinors(b.store)).total).toBe(40);
    await b.stop();
  });

  it('survives an InfluxDB outage: buffered, retried, stored once it is back', { timeout: OUTAGE_MS + 30_000 }, async () => {
    if (!haveBinary(INFLUXD)) return;
    const db = await startInfluxdb();
    const dir = tempDir('pipe-influx');
    dirs.push(dir);
    try {
      const store = new InfluxTelemetryStore({ url: db.url, database: 'rti_pipe', timeoutMs: 1000 });
      await store.init();
      const { pipeline, intake } = stack(dir, store, { maxQueuedRows: 500 });
      await pipeline.start();
      await db.stop();
      for (let i = 0; i < 30; i++) intake.handleMqtt(`rti/ACME/gw/${GW}/scan`, scanPayload(i * 50, 50));
      await waitUntil(() => pipeline.stats().storeFailures >= 1, 5000, 'a failed write');
      // INGEST_OUTAGE_SECONDS=60 runs the one-minute outage (docs/TELEMETRY.md §3)
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      expect(pipeline.stats()).toMatchObject({ storedRows: 0, storeUp: false, backlogRows: 1500 });
      await db.start();
      const back = Date.now();
      await waitUntil(() => pipeline.stats().storedRows === 1500, 15000, 'catch-up');
      // the store is probed every second during back-off, so recovery does not wait out the back-off
      expect(Date.now() - back).toBeLessThan(5000);
      expect((await store.query({ series: 'beacon', org: 1 })).total).toBe(1500);
      await pipeline.stop();
    } finally {
      await db.cleanup();
    }
  });
});
