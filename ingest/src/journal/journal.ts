/**
 * Intake journal: the durable buffer between "acknowledged" and "stored".
 *
 * Every accepted frame is appended (synchronously, so it survives a killed process) before the
 * sender is acknowledged; the writer commits a sequence number once the store holds every row
 * up to it, and fully committed segments are deleted. While the store is down the journal
 * grows, bounded by maxBytes; what happens when it is full is the caller's policy (refuse =
 * do not acknowledge, or drop the oldest segment, counted). An fsync runs every fsyncMs, so a
 * machine crash loses at most that window; a process crash loses nothing.
 *
 * Segment files are named by the first sequence number they hold; record layout:
 *   u32 length-of-rest | u8 kind | u32 org | f64 receivedAt | u16 sourceLength | source | payload
 */
import fs from 'node:fs';
import path from 'node:path';

export interface JournalRecord {
  kind: number;
  org: number;
  receivedAt: number;
  source: string;
  payload: Buffer;
}

export interface JournalOptions {
  dir: string;
  segmentBytes?: number;
  maxBytes?: number;
  fsyncMs?: number;
}

interface Segment {
  base: number;
  /** records in the segment */
  count: number;
  bytes: number;
  file: string;
}

const HEADER = 4 + 1 + 4 + 8 + 2;
const CHECKPOINT = 'checkpoint';
const READ_CHUNK = 1024 * 1024;
/** the group buffer starts at this size and is shrunk back to it after an outsized group */
const GROUP_BYTES = 1024 * 1024;

export class Journal {
  readonly dir: string;
  private readonly segmentBytes: number;
  readonly maxBytes: number;
  private readonly segments: Segment[] = [];
  private fd = -1;
  private cpFd = -1;
  private committed = 0;
  private totalBytes = 0;
  private dirty = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private cursor: { file: string; seq: number; offset: number } | undefined;
  /** the open group: records encoded back to back, written with one write() */
  private buf = Buffer.allocUnsafe(GROUP_BYTES);
  private pos = 0;
  private group: { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } | undefined;
  /** records removed unstored by dropOldest() */
  dropped = 0;

  constructor(opts: JournalOptions) {
    this.dir = opts.dir;
    this.segmentBytes = opts.segmentBytes ?? 64 * 1024 * 1024;
    this.maxBytes = opts.maxBytes ?? 1024 * 1024 * 1024;
    fs.mkdirSync(this.dir, { recursive: true });
    this.load();
    const ms = opts.fsyncMs ?? 1000;
    if (ms > 0) {
      this.syncTimer = setInterval(() => this.sync(), ms);
      this.syncTimer.unref();
    }
  }

  /** Highest sequence number appended (0 = none yet). */
  get lastSeq(): number {
    const s = this.segments[this.segments.length - 1];
    return s ? s.base + s.count - 1 : this.committed;
  }

  get committedSeq(): number {
    return this.committed;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get full(): boolean {
    return this.totalBytes >= this.maxBytes;
  }

  /** Appends one record and returns its sequence number. Synchronous by design (see header). */
  append(rec: JournalRecord): number {
    const { seq } = this.appendGrouped(rec);
    this.flush();
    return seq;
  }

  /**
   * Appends one record to the current group: every record of this event-loop turn goes to disk
   * in one write (not one write per frame). `written` resolves once the group is on disk —
   * acknowledge the sender after it, not before.
   */
  appendGrouped(rec: JournalRecord): { seq: number; written: Promise<void> } {
    let seg = this.segments[this.segments.length - 1];
    if (!seg || this.fd < 0 || seg.bytes >= this.segmentBytes) {
      this.flush();
      seg = this.rotate();
    }
    // header and payload are copied into the group buffer: no Buffer per frame, one write per group
    const srcLen = Buffer.byteLength(rec.source);
    const n = HEADER + srcLen + rec.payload.length;
    if (this.pos + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
      this.buf.copy(next, 0, 0, this.pos);
      this.buf = next;
    }
    const b = this.buf;
    const at = this.pos;
    b.writeUInt32LE(n - 4, at);
    b[at + 4] = rec.kind;
    b.writeUInt32LE(rec.org >>> 0, at + 5);
    b.writeDoubleLE(rec.receivedAt, at + 9);
    b.writeUInt16LE(srcLen, at + 17);
    b.write(rec.source, at + HEADER, srcLen, 'utf8');
    rec.payload.copy(b, at + HEADER + srcLen);
    this.pos = at + n;
    seg.count++;
    seg.bytes += n;
    this.totalBytes += n;
    this.dirty = true;
    if (!this.group) {
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => undefined); // observed by the senders' acknowledgements
      this.group = { promise, resolve, reject };
      setImmediate(() => {
        try {
          this.flush();
        } catch {
          /* the group's promise carries the error to every waiting sender */
        }
      });
    }
    return { seq: seg.base + seg.count - 1, written: this.group.promise };
  }

  /** The open group's promise, or null when everything appended is on disk. */
  get unwritten(): Promise<void> | null {
    return this.group?.promise ?? null;
  }

  /** Writes the open group now (before rotating, reading, storing past it or closing). */
  flush(): void {
    if (this.pos === 0) return;
    const bytes = this.pos;
    const group = this.group;
    this.pos = 0;
    this.group = undefined;
    try {
      let done = 0;
      while (done < bytes) {
        const n = fs.writeSync(this.fd, this.buf, done, bytes - done);
        if (n <= 0) throw new Error(`journal: short write (${done} of ${bytes} bytes)`);
        done += n;
      }
      if (this.buf.length > 16 * GROUP_BYTES) this.buf = Buffer.allocUnsafe(GROUP_BYTES);
      group?.resolve();
    } catch (err) {
      group?.reject(err as Error);
      throw err;
    }
  }

  /** Everything up to seq is in the store: persist the mark and delete finished segments. */
  commit(seq: number): void {
    if (seq <= this.committed) return;
    this.committed = seq;
    this.writeCheckpoint();
    // the newest fully stored segment stays one rotation longer: restarts seed redelivery
    // detection from it (Intake.seedRecent)
    while (this.segments.length > 2 && this.segments[1].base + this.segments[1].count - 1 <= seq) this.removeOldest();
  }

  /** Drops the oldest segment unstored (the drop-oldest policy); returns records lost. */
  dropOldest(): number {
    this.flush();
    if (this.segments.length <= 1) return 0;
    const seg = this.segments[0];
    const lost = seg.base + seg.count - 1 - Math.max(this.committed, seg.base - 1);
    this.removeOldest();
    this.committed = Math.max(this.committed, this.segments[0].base - 1);
    this.writeCheckpoint();
    this.dropped += lost;
    return lost;
  }

  /**
   * Reads up to max records starting at seq (replay after a restart or a memory overflow).
   * A cursor remembers where the previous read stopped, so draining a backlog reads each
   * segment once instead of rescanning it per batch.
   */
  read(fromSeq: number, max: number): Array<JournalRecord & { seq: number }> {
    this.flush();
    const out: Array<JournalRecord & { seq: number }> = [];
    for (const seg of this.segments) {
      if (seg.base + seg.count - 1 < fromSeq) continue;
      let seq = seg.base;
      let off = 0;
      if (this.cursor && this.cursor.file === seg.file && this.cursor.seq <= fromSeq && this.cursor.seq >= seg.base) ({ seq, offset: off } = this.cursor);
      const fd = fs.openSync(seg.file, 'r');
      try {
        let chunk = Buffer.allocUnsafe(READ_CHUNK);
        while (seq < seg.base + seg.count && out.length < max) {
          let n = fs.readSync(fd, chunk, 0, chunk.length, off);
          if (n < 4) break;
          const need = 4 + chunk.readUInt32LE(0);
          if (need > n) {
            if (need > chunk.length) chunk = Buffer.allocUnsafe(need);
            n = fs.readSync(fd, chunk, 0, need, off);
            if (n < need) break;
          }
          let p = 0;
          while (p + 4 <= n && seq < seg.base + seg.count && out.length < max) {
            const len = chunk.readUInt32LE(p);
            if (p + 4 + len > n) break;
            // copy out of the reused chunk: the payload outlives this read
            if (seq >= fromSeq) out.push({ seq, ...decodeRecord(Buffer.from(chunk.subarray(p, p + 4 + len)), 0, len) });
            p += 4 + len;
            seq++;
          }
          off += p;
        }
      } finally {
        fs.closeSync(fd);
      }
      this.cursor = { file: seg.file, seq, offset: off };
      if (out.length >= max) break;
    }
    return out;
  }

  /** Fixed-width overwrite in place: no open/close per batch, never a half-written number. */
  private writeCheckpoint(): void {
    if (this.cpFd < 0) {
      const file = path.join(this.dir, CHECKPOINT);
      this.cpFd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w');
    }
    fs.writeSync(this.cpFd, String(this.committed).padStart(20, ' '), 0);
  }

  /** Periodic flush to disk, on the thread pool (rotate and close sync synchronously). */
  sync(): void {
    if (this.dirty && this.fd >= 0) {
      this.dirty = false;
      fs.fdatasync(this.fd, () => undefined);
    }
  }

  close(): void {
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.flush();
    if (this.fd >= 0) fs.fdatasyncSync(this.fd);
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
    if (this.cpFd >= 0) fs.closeSync(this.cpFd);
    this.cpFd = -1;
  }

  private rotate(): Segment {
    if (this.fd >= 0) {
      fs.fdatasyncSync(this.fd);
      fs.closeSync(this.fd);
    }
    const base = this.lastSeq + 1;
    const file = path.join(this.dir, `${String(base).padStart(16, '0')}.seg`);
    this.fd = fs.openSync(file, 'a');
    const seg: Segment = { base, count: 0, bytes: 0, file };
    this.segments.push(seg);
    return seg;
  }

  private removeOldest(): void {
    const seg = this.segments.shift()!;
    this.totalBytes -= seg.bytes;
    fs.rmSync(seg.file, { force: true });
  }

  /** Rebuilds segment metadata from disk; a torn record at the tail (crash mid-write) is cut off. */
  private load(): void {
    const cp = path.join(this.dir, CHECKPOINT);
    if (fs.existsSync(cp)) this.committed = Number(fs.readFileSync(cp, 'utf8').trim()) || 0;
    const files = fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith('.seg'))
      .sort();
    for (const name of files) {
      const file = path.join(this.dir, name);
      const buf = fs.readFileSync(file);
      let off = 0;
      let count = 0;
      while (off + 4 <= buf.length) {
        const len = buf.readUInt32LE(off);
        if (len < HEADER - 4 || off + 4 + len > buf.length) break;
        off += 4 + len;
        count++;
      }
      if (off < buf.length) fs.truncateSync(file, off);
      this.segments.push({ base: Number(name.slice(0, -4)), count, bytes: off, file });
      this.totalBytes += off;
    }
    while (this.segments.length > 1 && this.segments[1].count > 0 && this.segments[1].base + this.segments[1].count - 1 <= this.committed) this.removeOldest();
    if (this.segments.length === 0 && this.committed > 0) {
      // keep numbering monotonic across restarts
      const base = this.committed + 1;
      const file = path.join(this.dir, `${String(base).padStart(16, '0')}.seg`);
      fs.writeFileSync(file, '');
      this.segments.push({ base, count: 0, bytes: 0, file });
    }
    const last = this.segments[this.segments.length - 1];
    if (last) this.fd = fs.openSync(last.file, 'a');
  }
}

function decodeRecord(buf: Buffer, off: number, len: number): JournalRecord {
  const srcLen = buf.readUInt16LE(off + 17);
  return {
    kind: buf.readUInt8(off + 4),
    org: buf.readUInt32LE(off + 5),
    receivedAt: buf.readDoubleLE(off + 9),
    source: buf.toString('utf8', off + HEADER, off + HEADER + srcLen),
    payload: buf.subarray(off + HEADER + srcLen, off + 4 + len),
  };
}
