/**
 * From "accepted" to "stored". accept() appends the raw frame to the journal (durable) and
 * caches its decoded rows in memory; one writer drains them to the store in journal order,
 * in batches of about batchRows rows or after lingerMs, retrying a failing store with
 * exponential back-off. While the store is down the journal grows and the memory cache stops
 * at maxQueuedRows; the writer then reads the backlog back from the journal. A full journal
 * either refuses new frames (default: the sender is not acknowledged and retries) or drops
 * its oldest segment, counted.
 */
import type { DecodedFrame } from '../decoders/types';
import type { Journal, JournalRecord } from '../journal/journal';
import type { SeriesBatch, TelemetryStore } from '../store/telemetry-store';
import type { SeriesRow } from '../store/series';
import { LatencyHistogram } from './latency';

export interface RawFrame {
  /** small integer naming the decoder (see intake's KIND_CODES) */
  kind: number;
  org: number;
  source: string;
  receivedAt: number;
  payload: Buffer;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
}

export interface PipelineOptions {
  store: TelemetryStore;
  journal: Journal;
  /** decodes a journal record again when the backlog is read back from disk */
  redecode: (rec: JournalRecord) => DecodedFrame | null;
  batchRows?: number;
  lingerMs?: number;
  maxQueuedRows?: number;
  /**
   * While the store is up but slower than the intake, acknowledgements wait once this many
   * rows are waiting for the store (default 20,000: four batches), until half of them are stored: senders
   * slow to the store's pace instead of the backlog (and latency) growing without end.
   * A store that is down is not waited for: the journal takes the traffic.
   */
  highWaterRows?: number;
  fullPolicy?: 'refuse' | 'drop-oldest';
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** called after each stored batch (derived state, live events) */
  onStored?: (batches: readonly SeriesBatch[]) => void;
  log?: Logger;
}

export interface PipelineStats {
  acceptedFrames: number;
  acceptedRows: number;
  /** rows of frames accepted by this process that are stored */
  storedRows: number;
  /** rows of frames journaled by a previous run and stored on replay */
  replayedRows: number;
  storedBatches: number;
  /** rows accepted by this process but not yet stored */
  backlogRows: number;
  /** frames in the journal not yet stored (includes a previous run's) */
  backlogFrames: number;
  journalBytes: number;
  refusedFull: number;
  droppedFull: number;
  storeFailures: number;
  storeUp: boolean;
  latencyP50: number;
  latencyP99: number;
}

interface Pending {
  seq: number;
  frame: DecodedFrame;
  receivedAt: number;
}

const PROBE_MS = 1000;

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export class IngestPipeline {
  readonly latency = new LatencyHistogram();
  private readonly store: TelemetryStore;
  private readonly journal: Journal;
  private readonly batchRows: number;
  private readonly lingerMs: number;
  private readonly maxQueuedRows: number;
  private readonly log: Logger;
  /** consumed slots are cleared at once: a frame's rows must not outlive their batch (see takeBatch) */
  private queue: Array<Pending | undefined> = [];
  private queueHead = 0;
  private queuedRows = 0;
  /** frames past the memory cache: the writer must read them from the journal */
  private overflow = false;
  private nextSeq = 1;
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private storeUp = true;
  private backoffMs: number;
  private waiters: Array<() => void> = [];
  private readonly highWater: number;
  private congestion: { promise: Promise<void>; release: () => void } | undefined;
  private idleWaiters: Array<() => void> = [];
  private sleeping: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  /** journal records up to this sequence were written by a previous run */
  private replayUntil = 0;
  private readonly s = {
    acceptedFrames: 0,
    acceptedRows: 0,
    storedRows: 0,
    replayedRows: 0,
    storedBatches: 0,
    refusedFull: 0,
    droppedFull: 0,
    storeFailures: 0,
  };

  constructor(private readonly opts: PipelineOptions) {
    this.store = opts.store;
    this.journal = opts.journal;
    this.batchRows = opts.batchRows ?? 5000;
    this.lingerMs = opts.lingerMs ?? 50;
    this.maxQueuedRows = opts.maxQueuedRows ?? 200_000;
    this.highWater = opts.highWaterRows ?? 20_000;
    this.backoffMs = opts.retryInitialMs ?? 250;
    this.log = opts.log ?? silentLogger;
  }

  /** Resumes after a restart: everything journaled but not stored is replayed first. */
  async start(): Promise<void> {
    const applied = await this.store.appliedMark();
    this.nextSeq = Math.max(this.journal.committedSeq, applied) + 1;
    if (applied > this.journal.committedSeq) this.journal.commit(applied);
    this.replayUntil = this.journal.lastSeq;
    if (this.nextSeq <= this.journal.lastSeq) {
      this.overflow = true;
      this.log.info(`ingest: replaying ${this.journal.lastSeq - this.nextSeq + 1} journaled frames`);
      this.kick(0);
    }
  }

  /**
   * Durably accepts a decoded frame. 'full' means the journal is at its bound under the refuse
   * policy: do not acknowledge the sender; whenWritable() resolves when there is room again.
   */
  accept(raw: RawFrame, frame: DecodedFrame): 'accepted' | 'full' {
    if (this.journal.full) {
      if (this.opts.fullPolicy === 'drop-oldest') {
        const lost = this.journal.dropOldest();
        this.s.droppedFull += lost;
        this.log.warn(`ingest: journal full, dropped ${lost} unstored frames (drop-oldest policy)`);
        this.nextSeq = Math.max(this.nextSeq, this.journal.committedSeq + 1);
        this.overflow = true;
      }
      if (this.journal.full) {
        this.s.refusedFull++;
        return 'full';
      }
    }
    const { seq } = this.journal.appendGrouped(raw);
    const n = frame.rows.length;
    this.s.acceptedFrames++;
    this.s.acceptedRows += n;
    if (!this.overflow && this.queuedRows + n <= this.maxQueuedRows) {
      this.queue.push({ seq, frame, receivedAt: raw.receivedAt });
      this.queuedRows += n;
    } else this.overflow = true;
    this.schedule();
    return 'accepted';
  }

  /** Non-null until the frames accepted in this event-loop turn are on disk: acknowledge after it. */
  durable(): Promise<void> | null {
    return this.journal.unwritten;
  }

  /** A promise to wait on before acknowledging, when the store falls behind (see highWaterRows). */
  congested(): Promise<void> | null {
    if (this.congestion) return this.congestion.promise;
    if (!this.storeUp || this.s.acceptedRows - this.s.storedRows < this.highWater) return null;
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    this.congestion = { promise, release };
    return promise;
  }

  private relieve(): void {
    if (this.congestion && (!this.storeUp || this.s.acceptedRows - this.s.storedRows < this.highWater / 2)) {
      this.congestion.release();
      this.congestion = undefined;
    }
  }

  whenWritable(): Promise<void> {
    if (!this.journal.full) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves when everything accepted so far is stored (tests, shutdown). */
  drained(): Promise<void> {
    if (this.nextSeq > this.journal.lastSeq && !this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): PipelineStats {
    return {
      ...this.s,
      backlogRows: this.s.acceptedRows - this.s.storedRows,
      backlogFrames: Math.max(0, this.journal.lastSeq - this.nextSeq + 1),
      journalBytes: this.journal.bytes,
      storeUp: this.storeUp,
      latencyP50: this.latency.percentile(0.5),
      latencyP99: this.latency.percentile(0.99),
    };
  }

  /** Stops writing after the current batch (flushing what is cached when the store is up). */
  async stop(flushTimeoutMs = 5000): Promise<void> {
    if (this.storeUp) await Promise.race([this.drained(), new Promise((r) => setTimeout(r, flushTimeoutMs).unref())]);
    this.stopped = true;
    this.congestion?.release();
    if (this.timer) clearTimeout(this.timer);
    this.sleeping?.wake();
    while (this.writing) await new Promise((r) => setTimeout(r, 10));
    this.journal.close();
  }

  private schedule(): void {
    if (this.writing || this.stopped) return;
    if (this.queuedRows >= this.batchRows || this.overflow) this.kick(0);
    else if (!this.timer) this.kick(this.lingerMs);
  }

  private kick(ms: number): void {
    if (this.timer) {
      if (ms > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  private takeBatch(): { pending: Pending[]; last: number } | null {
    // the store never gets ahead of the journal
    this.journal.flush();
    const pending: Pending[] = [];
    let rows = 0;
    // memory first, as long as it continues the journal order
    // Each taken slot is cleared: left in the array until the next compaction, a frame's rows
    // would live for hundreds of frames, survive two scavenges and be promoted to the old
    // generation — most of the stored path's GC cost.
    while (this.queueHead < this.queue.length && rows < this.batchRows) {
      const p = this.queue[this.queueHead]!;
      if (p.seq < this.nextSeq) {
        this.queue[this.queueHead++] = undefined;
        this.queuedRows -= p.frame.rows.length;
        continue;
      }
      if (p.seq !== this.nextSeq + pending.length) break;
      pending.push(p);
      rows += p.frame.rows.length;
      this.queue[this.queueHead++] = undefined;
      this.queuedRows -= p.frame.rows.length;
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    if (pending.length === 0 && this.overflow) {
      const from = this.nextSeq;
      const recs = this.journal.read(from, Math.max(16, Math.ceil(this.batchRows / 50)));
      if (recs.length === 0) {
        if (this.queueHead >= this.queue.length) this.overflow = false;
        return null;
      }
      for (const rec of recs) {
        const frame = this.opts.redecode(rec) ?? { series: '', org: rec.org, source: rec.source, rows: [] };
        pending.push({ seq: rec.seq, frame, receivedAt: rec.receivedAt });
      }
    }
    if (pending.length === 0) return null;
    return { pending, last: pending[pending.length - 1].seq };
  }

  private async flush(): Promise<void> {
    if (this.writing || this.stopped) return;
    this.writing = true;
    try {
      await this.drain();
    } catch (err) {
      // the journal's disk failed under us (full, I/O error): say so and try again shortly
      this.log.error('ingest: journal read/write failed', err);
      this.writing = false;
      if (!this.stopped) this.kick(1000);
      return;
    } finally {
      this.writing = false;
    }
    if (this.nextSeq > this.journal.lastSeq) for (const w of this.idleWaiters.splice(0)) w();
    else this.schedule();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = this.takeBatch();
      if (!batch) break;
      const batches = group(batch.pending);
      if (!(await this.writeWithRetry(batches, batch.last))) return;
      const now = Date.now();
      let rows = 0;
      let replayed = 0;
      for (const p of batch.pending) {
        if (p.seq <= this.replayUntil) replayed += p.frame.rows.length;
        else {
          this.latency.add(now - p.receivedAt, p.frame.rows.length);
          rows += p.frame.rows.length;
        }
      }
      this.s.replayedRows += replayed;
      this.journal.commit(batch.last);
      this.nextSeq = batch.last + 1;
      this.s.storedRows += rows;
      this.s.storedBatches++;
      try {
        this.opts.onStored?.(batches);
      } catch (err) {
        // the rows are stored; a failing consumer must not stall ingest
        this.log.error('ingest: onStored hook failed', err);
      }
      this.relieve();
      if (!this.journal.full) for (const w of this.waiters.splice(0)) w();
      if (this.queuedRows < this.batchRows && !this.overflow) break;
    }
  }

  /** false when stopped before the batch could be written (it stays in the journal). */
  private async writeWithRetry(batches: SeriesBatch[], mark: number): Promise<boolean> {
    const max = this.opts.retryMaxMs ?? 30_000;
    for (;;) {
      try {
        await this.store.write(batches, mark);
        if (!this.storeUp) this.log.info(`ingest: ${this.store.engine} store is back`);
        this.storeUp = true;
        this.backoffMs = this.opts.retryInitialMs ?? 250;
        return !this.stopped;
      } catch (err) {
        this.s.storeFailures++;
        if (this.storeUp) this.log.error(`ingest: ${this.store.engine} store write failed; buffering in the journal and retrying`, err);
        this.storeUp = false;
        this.relieve();
        if (this.stopped) return false;
        // full jitter keeps several workers from retrying in lockstep
        const wait = Math.round(this.backoffMs / 2 + Math.random() * (this.backoffMs / 2));
        this.backoffMs = Math.min(this.backoffMs * 2, max);
        // back-off, but probe the store every second so a store that returns is used at once
        // instead of after the remaining back-off (up to retryMaxMs)
        await new Promise<void>((resolve) => {
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            clearInterval(probe);
            resolve();
          };
          const timer = setTimeout(finish, wait);
          const probe = setInterval(
            () =>
              void this.store.ping().then(
                (up) => up && finish(),
                () => undefined,
              ),
            PROBE_MS,
          );
          this.sleeping = { timer, wake: finish };
        });
        this.sleeping = undefined;
        if (this.stopped) return false;
      }
    }
  }
}

/**
 * One batch per series; slots are kept only when every frame of the series carries them. Arrays
 * are sized from a first count: grown row by row, a 5,000-row batch leaves its smaller copies to the GC.
 */
function group(pending: Pending[]): SeriesBatch[] {
  const bySeries = new Map<string, { series: string; rows: SeriesRow[]; slots?: number[]; n: number; withSlots: boolean }>();
  for (const p of pending) {
    const f = p.frame;
    if (!f.series || f.rows.length === 0) continue;
    let b = bySeries.get(f.series);
    if (!b) bySeries.set(f.series, (b = { series: f.series, rows: [], n: 0, withSlots: true }));
    b.n += f.rows.length;
    if (!f.slots) b.withSlots = false;
  }
  for (const b of bySeries.values()) {
    b.rows = new Array<SeriesRow>(b.n);
    if (b.withSlots) b.slots = new Array<number>(b.n);
    b.n = 0;
  }
  for (const p of pending) {
    const f = p.frame;
    if (!f.series || f.rows.length === 0) continue;
    const b = bySeries.get(f.series)!;
    const { rows, slots } = b;
    let at = b.n;
    for (let i = 0; i < f.rows.length; i++, at++) {
      rows[at] = f.rows[i];
      if (slots) slots[at] = f.slots![i];
    }
    b.n = at;
  }
  return [...bySeries.values()].map(({ series, rows, slots }) => (slots ? { series, rows, slots } : { series, rows }));
}
