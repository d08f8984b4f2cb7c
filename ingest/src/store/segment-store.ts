/**
 * Embedded default telemetry store: append-only segment files with per-device postings.
 *
 * Why not SQLite (also provided, sqlite-store.ts): a B-tree insert per reading costs several
 * microseconds of CPU, more than receiving and decoding the reading; appending a line and a
 * posting costs a fraction of that (docs/TELEMETRY.md, "Embedded store", has the numbers).
 *
 * Layout: <dir>/<YYYY-MM-DD>/<n>.dat holds rows of every series in arrival order, one line per
 * row (series, org, key, time, columns; tab-separated), and after every batch a "#<mark>" line.
 * A batch is one write(); a batch without its mark line (torn by a crash) is cut off on start,
 * and the last mark is the applied journal sequence — so replay is exactly-once. A segment is
 * sealed at segmentBytes or at midnight (UTC): its postings (series/org/key → times and
 * offsets) go to <n>.idx and its time range to <n>.meta, so queries open only the segments
 * whose time range overlaps and read only the rows they return. The active segment keeps its
 * postings as one flat log in typed arrays (posting-log.ts), grouped by device when sealed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { allSeries, type SeriesRow, type SeriesSchema } from './series';
import { PostingLog, type Posting, type PostingMap } from './posting-log';
import { keysOf, pageOf, type PointPage, type PointQuery, type SeriesBatch, type TelemetryStore } from './telemetry-store';

export interface SegmentStoreOptions {
  dir: string;
  /** seal a segment at this size (default 64 MiB) */
  segmentBytes?: number;
  /** days kept; older day folders are deleted by prune() (0 = forever) */
  retentionDays?: number;
  /** fdatasync after every batch (default true: the journal is trimmed once this returns) */
  fsync?: boolean;
  series?: readonly SeriesSchema[];
  /** clock for day partitions (tests) */
  now?: () => number;
}

interface Segment {
  file: string;
  base: string;
  minTime: number;
  maxTime: number;
  rows: number;
  sealed: boolean;
  /** sealed segments: per-device postings, loaded lazily from the index */
  postings?: PostingMap;
  /** the active segment: the flat posting log */
  log?: PostingLog;
}

/** A candidate row of a query: its time, segment and line location; n keeps arrival order for ties. */
interface Hit {
  t: number;
  seg: Segment;
  loc: number;
  n: number;
}

const MAX_LINE = 65535;
const SPECIAL = /[\t\n\\]/;

/** bytes reserved per line for the series, org, time, tabs and newline */
const LINE_RESERVE = 64;
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Appends a batch's text to a growing, reused buffer. Integers are written digit by digit. */
class LineWriter {
  buf = Buffer.allocUnsafe(1 << 20);
  pos = 0;

  /** makes room for n more bytes (a whole line's numbers and tabs are reserved at once) */
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  tab(): void {
    this.buf[this.pos++] = 9;
  }

  newline(): void {
    this.buf[this.pos++] = 10;
  }

  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /**
   * A string column, escaped: short plain-ASCII values (macs, uuids, codes — nearly all) are
   * copied byte by byte in one pass that also looks for what needs escaping; anything else
   * goes through escape() and the UTF-8 encoder.
   */
  field(s: string): void {
    const n = s.length;
    if (n <= 64) {
      this.room(n);
      const buf = this.buf;
      let p = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 128 || c === 9 || c === 10 || c === 92) break;
        buf[p++] = c;
      }
      if (i === n) {
        this.pos = p;
        return;
      }
    }
    this.text(escape(s));
  }

  /** a non-negative safe integer, as String() would write it */
  int(v: number): void {
    if (v < 2147483648) return this.int32(v);
    // epoch milliseconds and other large integers: two int32 halves, no float division per digit
    const hi = Math.floor(v / 1e8);
    this.int(hi);
    let lo = v - hi * 1e8;
    const buf = this.buf;
    const end = this.pos + 8;
    for (let i = end - 1; i >= this.pos; i--) {
      const q = (lo / 10) | 0;
      buf[i] = 48 + lo - q * 10;
      lo = q;
    }
    this.pos = end;
  }

  /** a non-negative integer below 2^31 */
  private int32(v: number): void {
    let digits = 1;
    while (digits < 10 && v >= POW10[digits]) digits++;
    const buf = this.buf;
    let i = this.pos + digits;
    this.pos = i;
    do {
      const q = (v / 10) | 0;
      buf[--i] = 48 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /**
   * A string column that repeats the previous row's value (same instance: a frame's gateway,
   * a fleet's uuid) copies that row's bytes instead of scanning the string again.
   */
  same(c: number, s: string): void {
    if (s === this.lastText[c]) {
      this.room(this.lastEnd[c] - this.lastStart[c]);
      return this.copyBack(this.lastStart[c], this.lastEnd[c]);
    }
    const start = this.pos;
    this.field(s);
    this.lastText[c] = s;
    this.lastStart[c] = start;
    this.lastEnd[c] = this.pos;
  }

  /**
   * A number column that repeats the previous row's value (a frame's time, a fleet's major or
   * txPower) copies that row's bytes: cheaper than writing its digits again. Slot 0 is the time.
   */
  sameNumber(c: number, v: number): void {
    if (v === this.lastNumber[c] && this.numberEnd[c] > 0) return this.copyBack(this.numberStart[c], this.numberEnd[c]);
    const start = this.pos;
    this.value(v);
    this.lastNumber[c] = v;
    this.numberStart[c] = start;
    this.numberEnd[c] = this.pos;
  }

  /** appends a copy of bytes [from, end) written earlier in this batch (room already made) */
  private copyBack(from: number, end: number): void {
    const buf = this.buf;
    const p = this.pos;
    const n = end - from;
    for (let i = 0; i < n; i++) buf[p + i] = buf[from + i];
    this.pos = p + n;
  }

  /** forgets the repeated values (a new batch starts at position 0) */
  reset(): void {
    this.pos = 0;
    this.lastText.fill(undefined);
    this.numberEnd.fill(0);
  }

  lastText: Array<string | undefined> = new Array(64).fill(undefined);
  lastStart: number[] = new Array(64).fill(0);
  lastEnd: number[] = new Array(64).fill(0);
  lastNumber: number[] = new Array(65).fill(0.5);
  numberStart: number[] = new Array(65).fill(0);
  numberEnd: number[] = new Array(65).fill(0);

  /** a column value as `${v}` would write it */
  value(v: unknown): void {
    if (typeof v === 'number' && (v | 0) === v) {
      // small integers (ids, rssi, counts): the common case, without the range and decimal checks
      let a = v;
      if (a < 0) {
        this.buf[this.pos++] = 45;
        a = -a;
      }
      if (a < 10) this.buf[this.pos++] = 48 + a;
      else if (a < 100) {
        const t = (a / 10) | 0;
        this.buf[this.pos] = 48 + t;
        this.buf[this.pos + 1] = 48 + a - t * 10;
        this.pos += 2;
      } else this.int(a);
      return;
    }
    if (typeof v !== 'number' || !(v > -1e12 && v < 1e15) || Object.is(v, -0)) return this.text(String(v));
    if (Number.isInteger(v)) {
      if (v < 0) {
        this.buf[this.pos++] = 45;
        v = -v;
      }
      return this.int(v as number);
    }
    // up to three decimals (sensor values): the only decimal of that form naming this double,
    // so it is what String() prints — written without allocating a string
    const k = Math.round(v * 1000);
    if (k / 1000 !== v || !(k > -1e15 && k < 1e15)) return this.text(String(v));
    let a = k;
    if (a < 0) {
      this.buf[this.pos++] = 45;
      a = -a;
    }
    const whole = Math.floor(a / 1000);
    let frac = a - whole * 1000;
    this.int(whole);
    this.buf[this.pos++] = 46;
    let digits = 3;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    const end = this.pos + digits;
    for (let i = end - 1; i >= this.pos; i--) {
      this.buf[i] = 48 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    this.pos = end;
  }
}

type LineEncoder = (w: LineWriter, row: SeriesRow, key: string) => void;

const IDENT = /^[A-Za-z_$][\w$]*$/;

/**
 * One line's encoder, generated per series: `row.rssi` with constant names instead of
 * `row[cols[c].name]` (a keyed load that goes megamorphic across a dozen column names).
 * Column names come from the series declarations (store/series.ts) and must be identifiers.
 */
function lineEncoder(si: number, schema: SeriesSchema): LineEncoder {
  const body = [
    `w.room(${LINE_RESERVE + schema.columns.length * 24});`,
    `w.int(${si}); w.tab(); w.value(row.org); w.tab(); w.field(key); w.tab(); v = row.time; if (typeof v === 'number') w.sameNumber(0, v); else w.value(v);`,
  ];
  for (const [ci, c] of schema.columns.entries()) {
    if (!IDENT.test(c.name)) throw new Error(`telemetry: column name "${c.name}" is not an identifier`);
    body.push(`w.tab(); v = row.${c.name};`);
    body.push(
      c.type === 'string'
        ? `if (v !== undefined && v !== null) { if (typeof v === 'string') w.same(${ci}, v); else w.field(String(v)); }`
        : `if (v !== undefined && v !== null) { if (typeof v === 'number') w.sameNumber(${ci + 1}, v); else w.value(v); }`,
    );
  }
  body.push('w.newline();');
  return new Function('w', 'row', 'key', `let v;\n${body.join('\n')}`) as LineEncoder;
}

function escape(v: string): string {
  return SPECIAL.test(v) ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n') : v;
}

function unescape(v: string): string {
  return v.includes('\\') ? v.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c)) : v;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class SegmentTelemetryStore implements TelemetryStore {
  readonly engine = 'segments';
  private readonly schemas: readonly SeriesSchema[];
  private readonly seriesIndex = new Map<string, number>();
  private readonly segmentBytes: number;
  private segments: Segment[] = [];
  private active: Segment | undefined;
  private fd = -1;
  private size = 0;
  private mark = 0;
  private cache: Segment[] = [];
  private readonly writer = new LineWriter();
  private readonly encoders: LineEncoder[] = [];

  constructor(private readonly opts: SegmentStoreOptions) {
    this.schemas = opts.series ?? allSeries;
    this.schemas.forEach((s, i) => this.seriesIndex.set(s.name, i));
    this.segmentBytes = opts.segmentBytes ?? 64 * 1024 * 1024;
  }

  async init(): Promise<void> {
    fs.mkdirSync(this.opts.dir, { recursive: true });
    for (const day of fs
      .readdirSync(this.opts.dir)
      .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
      .sort()) {
      const names = fs
        .readdirSync(path.join(this.opts.dir, day))
        .filter((f) => f.endsWith('.dat'))
        .sort((a, b) => parseInt(a) - parseInt(b));
      for (const name of names) {
        const base = path.join(this.opts.dir, day, name.slice(0, -4));
        if (fs.existsSync(`${base}.meta`)) {
          const meta = JSON.parse(fs.readFileSync(`${base}.meta`, 'utf8')) as { minTime: number; maxTime: number; rows: number; mark: number };
          this.segments.push({ file: `${base}.dat`, base, minTime: meta.minTime, maxTime: meta.maxTime, rows: meta.rows, sealed: true });
          this.mark = Math.max(this.mark, meta.mark);
        } else this.recover(base);
      }
    }
  }

  async write(batches: readonly SeriesBatch[], mark?: number): Promise<void> {
    const today = dayOf((this.opts.now ?? Date.now)());
    if (!this.active || this.size >= this.segmentBytes || !this.active.base.includes(`${path.sep}${today}${path.sep}`)) this.rotate(today);
    const seg = this.active!;
    const log = seg.log!;
    // Lines are encoded straight into one reused buffer: no per-row strings to build, flatten
    // and collect (the segment write was the stored path's biggest cost beside GC).
    const w = this.writer;
    w.reset();
    let offset = this.size;
    let minTime = seg.minTime;
    let maxTime = seg.maxTime;
    let rows = 0;
    for (const b of batches) {
      const si = this.seriesIndex.get(b.series);
      if (si === undefined) throw new Error(`telemetry: unknown series "${b.series}"`);
      const schema = this.schemas[si];
      const encode = this.encoderOf(si);
      const slots = b.slots;
      for (let r = 0; r < b.rows.length; r++) {
        const row = b.rows[r];
        const raw = row[schema.key];
        const key = typeof raw === 'string' ? raw : String(raw);
        const start = w.pos;
        encode(w, row, key);
        const len = w.pos - start;
        if (len > MAX_LINE) throw new Error('telemetry: row too long');
        // by slot when the intake supplied one (an array index), else by series, organisation and key
        log.add(log.posting(si, row.org, key, slots ? slots[r] : -1), row.time, offset * 65536 + len);
        offset += len;
        if (row.time < minTime) minTime = row.time;
        if (row.time > maxTime) maxTime = row.time;
        rows++;
      }
    }
    const m = mark ?? this.mark;
    w.room(LINE_RESERVE);
    w.text('#');
    w.int(m);
    w.newline();
    const bytes = w.pos;
    try {
      // synchronous: the writer's buffer is free again when this returns
      let done = 0;
      while (done < bytes) done += fs.writeSync(this.fd, w.buf, done, bytes - done);
      // the sync runs on the thread pool so the event loop keeps taking frames meanwhile
      if (this.opts.fsync !== false) {
        const fd = this.fd;
        await new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
      }
    } catch (err) {
      // undo the in-memory postings of this batch and the partial bytes on disk
      this.rollbackTo(seg, this.size);
      throw err;
    }
    this.size += bytes;
    seg.minTime = minTime;
    seg.maxTime = maxTime;
    seg.rows += rows;
    this.mark = m;
  }

  private encoderOf(si: number): LineEncoder {
    return (this.encoders[si] ??= lineEncoder(si, this.schemas[si]));
  }

  async appliedMark(): Promise<number> {
    return this.mark;
  }

  async query(q: PointQuery): Promise<PointPage> {
    const si = this.seriesIndex.get(q.series);
    if (si === undefined) throw new Error(`telemetry: unknown series "${q.series}"`);
    const keys = keysOf(q);
    if (keys && keys.length === 0) return { list: [], total: 0 };
    const from = q.from ?? -Infinity;
    const to = q.to ?? Infinity;
    const desc = q.order !== 'asc';
    // candidates: (time, segment, loc); arrival order breaks ties so pages are stable
    const hits: Hit[] = [];
    let n = 0;
    for (const seg of this.segments) {
      if (seg.rows === 0 || seg.maxTime < from || seg.minTime > to) continue;
      if (seg.log) {
        const byKey = seg.log.keysOf(si, q.org);
        if (!byKey) continue;
        const want = keys ? keys.map((k) => byKey.get(k)).filter((p): p is number => p !== undefined) : [...byKey.values()];
        seg.log.scan(want, from, to, (t, loc) => void hits.push({ t, seg, loc, n: n++ }));
        continue;
      }
      const byKey = this.postingsOf(seg).get(si)?.get(q.org);
      if (!byKey) continue;
      const lists = keys ? keys.map((k) => byKey.get(k)).filter((p): p is Posting => !!p) : [...byKey.values()];
      for (const p of lists)
        for (let i = 0; i < p.times.length; i++) {
          const t = p.times[i];
          if (t >= from && t <= to) hits.push({ t, seg, loc: p.locs[i], n: n++ });
        }
    }
    hits.sort((a, b) => (desc ? b.t - a.t || b.n - a.n : a.t - b.t || a.n - b.n));
    const { limit, offset } = pageOf(q);
    const page = hits.slice(offset, offset + limit);
    return { list: this.readRows(page), total: hits.length };
  }

  async latest(series: string, org: number, keys: readonly string[]): Promise<SeriesRow[]> {
    const si = this.seriesIndex.get(series);
    if (si === undefined) throw new Error(`telemetry: unknown series "${series}"`);
    const out: Hit[] = [];
    const missing = new Set(keys);
    for (let s = this.segments.length - 1; s >= 0 && missing.size > 0; s--) {
      const seg = this.segments[s];
      if (seg.log) {
        const byKey = seg.log.keysOf(si, org);
        if (!byKey) continue;
        const found: Array<[string, number]> = [];
        for (const k of missing) {
          const p = byKey.get(k);
          if (p !== undefined) found.push([k, p]);
        }
        const newest = seg.log.newest(found.map(([, p]) => p));
        for (const [k, p] of found) {
          const b = newest.get(p);
          if (!b) continue; // rolled back
          out.push({ t: b.t, seg, loc: b.loc, n: 0 });
          missing.delete(k);
        }
        continue;
      }
      const byKey = this.postingsOf(seg).get(si)?.get(org);
      if (!byKey) continue;
      for (const k of [...missing]) {
        const p = byKey.get(k);
        if (!p) continue;
        let best = 0;
        for (let i = 1; i < p.times.length; i++) if (p.times[i] >= p.times[best]) best = i;
        out.push({ t: p.times[best], seg, loc: p.locs[best], n: 0 });
        missing.delete(k);
      }
    }
    return this.readRows(out);
  }

  /** Deletes day folders older than the retention window. */
  async prune(now = (this.opts.now ?? Date.now)()): Promise<void> {
    const days = this.opts.retentionDays ?? 0;
    if (days <= 0) return;
    const cutoff = dayOf(now - days * 86400000);
    for (const day of fs.readdirSync(this.opts.dir)) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day >= cutoff) continue;
      this.segments = this.segments.filter((s) => !s.base.includes(`${path.sep}${day}${path.sep}`));
      this.cache = this.cache.filter((s) => this.segments.includes(s));
      fs.rmSync(path.join(this.opts.dir, day), { recursive: true, force: true });
    }
  }

  async ping(): Promise<boolean> {
    return this.fd >= 0 || this.active === undefined;
  }

  async close(): Promise<void> {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }

  // — segments —

  private rotate(day: string): void {
    if (this.active && this.fd >= 0) this.seal(this.active);
    const dir = path.join(this.opts.dir, day);
    fs.mkdirSync(dir, { recursive: true });
    const n = fs.readdirSync(dir).filter((f) => f.endsWith('.dat')).length;
    const base = path.join(dir, String(n + 1));
    const seg: Segment = { file: `${base}.dat`, base, minTime: Infinity, maxTime: -Infinity, rows: 0, sealed: false, log: new PostingLog() };
    this.fd = fs.openSync(seg.file, 'a');
    this.size = 0;
    this.active = seg;
    this.segments.push(seg);
  }

  private seal(seg: Segment): void {
    fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = -1;
    seg.postings = seg.log!.grouped();
    seg.log = undefined;
    writeIndex(`${seg.base}.idx`, seg.postings);
    fs.writeFileSync(`${seg.base}.meta`, JSON.stringify({ minTime: seg.minTime, maxTime: seg.maxTime, rows: seg.rows, mark: this.mark }));
    seg.sealed = true;
    this.remember(seg);
  }

  /** Rebuilds an unsealed segment's postings from its lines, cutting a torn last batch. */
  private recover(base: string): void {
    const file = `${base}.dat`;
    const buf = fs.readFileSync(file);
    const log = new PostingLog();
    const seg: Segment = { file, base, minTime: Infinity, maxTime: -Infinity, rows: 0, sealed: false, log };
    let off = 0;
    let good = 0;
    const pending: Array<[number, number, string, number, number]> = [];
    while (off < buf.length) {
      const nl = buf.indexOf(10, off);
      if (nl < 0) break;
      if (buf[off] === 35) {
        // "#mark": the batch before it is complete
        this.mark = Math.max(this.mark, Number(buf.toString('latin1', off + 1, nl)));
        for (const [si, org, key, t, loc] of pending) {
          log.add(log.posting(si, org, key, -1), t, loc);
          if (t < seg.minTime) seg.minTime = t;
          if (t > seg.maxTime) seg.maxTime = t;
          seg.rows++;
        }
        pending.length = 0;
        good = nl + 1;
      } else {
        const f = buf.toString('utf8', off, nl).split('\t', 4);
        pending.push([Number(f[0]), Number(f[1]), unescape(f[2]), Number(f[3]), off * 65536 + (nl + 1 - off)]);
      }
      off = nl + 1;
    }
    if (good < buf.length) fs.truncateSync(file, good);
    this.segments.push(seg);
    // keep appending to the newest unsealed segment of today; seal older ones
    if (this.active && this.fd >= 0) this.seal(this.active);
    this.active = seg;
    this.fd = fs.openSync(file, 'a');
    this.size = good;
  }

  private postingsOf(seg: Segment): PostingMap {
    if (seg.postings) return seg.postings;
    const postings = readIndex(`${seg.base}.idx`);
    seg.postings = postings;
    this.remember(seg);
    return postings;
  }

  /** Keeps at most 8 sealed segments' postings in memory. */
  private remember(seg: Segment): void {
    this.cache = this.cache.filter((s) => s !== seg);
    this.cache.push(seg);
    while (this.cache.length > 8) {
      const old = this.cache.shift()!;
      if (old.sealed && old !== this.active) old.postings = undefined;
    }
  }

  private readRows(hits: Array<{ seg: Segment; loc: number }>): SeriesRow[] {
    const fds = new Map<string, number>();
    try {
      return hits.map(({ seg, loc }) => {
        let fd = fds.get(seg.file);
        if (fd === undefined) fds.set(seg.file, (fd = fs.openSync(seg.file, 'r')));
        const len = loc % 65536;
        const buf = Buffer.allocUnsafe(len);
        fs.readSync(fd, buf, 0, len, Math.floor(loc / 65536));
        return this.parseLine(buf.toString('utf8', 0, len - 1));
      });
    } finally {
      for (const fd of fds.values()) fs.closeSync(fd);
    }
  }

  private parseLine(line: string): SeriesRow {
    const f = line.split('\t');
    const schema = this.schemas[Number(f[0])];
    const row: SeriesRow = { org: Number(f[1]), time: Number(f[3]) };
    row[schema.key] = unescape(f[2]);
    schema.columns.forEach((c, i) => {
      const v = f[4 + i];
      if (v === undefined || v === '') return;
      row[c.name] = c.type === 'string' ? unescape(v) : Number(v);
    });
    return row;
  }

  private rollbackTo(seg: Segment, size: number): void {
    try {
      fs.ftruncateSync(this.fd, size);
    } catch {
      /* the disk is gone; the next start cuts the torn batch */
    }
    seg.log!.truncate(size);
  }
}

/** <n>.idx: u32 header length, JSON [[series, org, key, count], …], then Float64 times and locs. */
function writeIndex(file: string, m: PostingMap): void {
  const head: Array<[number, number, string, number]> = [];
  let total = 0;
  for (const [si, byOrg] of m)
    for (const [org, keys] of byOrg) for (const [key, p] of keys) (head.push([si, org, key, p.times.length]), (total += p.times.length));
  const json = Buffer.from(JSON.stringify(head));
  const pad = (8 - ((4 + json.length) % 8)) % 8;
  const out = Buffer.alloc(4 + json.length + pad + total * 16);
  out.writeUInt32LE(json.length + pad, 0);
  json.copy(out, 4);
  out.fill(32, 4 + json.length, 4 + json.length + pad);
  const nums = new Float64Array(out.buffer, out.byteOffset + 4 + json.length + pad, total * 2);
  let i = 0;
  for (const byOrg of m.values())
    for (const keys of byOrg.values())
      for (const p of keys.values()) {
        nums.set(p.times, i);
        nums.set(p.locs, i + p.times.length);
        i += p.times.length * 2;
      }
  fs.writeFileSync(file, out);
}

function readIndex(file: string): PostingMap {
  const buf = fs.readFileSync(file);
  const hl = buf.readUInt32LE(0);
  const head = JSON.parse(buf.toString('utf8', 4, 4 + hl)) as Array<[number, number, string, number]>;
  const aligned = Buffer.alloc(buf.length - 4 - hl);
  buf.copy(aligned, 0, 4 + hl);
  const nums = new Float64Array(aligned.buffer, aligned.byteOffset, aligned.length / 8);
  const m: PostingMap = new Map();
  let i = 0;
  for (const [si, org, key, count] of head) {
    const times = nums.subarray(i, i + count);
    const locs = nums.subarray(i + count, i + 2 * count);
    i += 2 * count;
    let byOrg = m.get(si);
    if (!byOrg) m.set(si, (byOrg = new Map()));
    let keys = byOrg.get(org);
    if (!keys) byOrg.set(org, (keys = new Map()));
    keys.set(key, { times, locs });
  }
  return m;
}
