/**
 * The active segment's postings as one flat log: per row, its posting (one per series,
 * organisation and device key), time and line location, in typed arrays. Those live outside the
 * JS heap, so the GC never copies them; per-device JS arrays grown row by row were promoted and
 * reallocated all the time, the biggest garbage source of the stored path.
 *
 * Per-device lists, which queries and the sealed index need, come from the log on demand:
 * a query scans it once (a few ms for a full 64 MiB segment), and sealing groups it by posting
 * with one counting pass.
 */

/** Postings of one device in one segment, in arrival order (the sealed index's shape). */
export interface Posting {
  times: ArrayLike<number>;
  /** byte offset × 65536 + line length */
  locs: ArrayLike<number>;
}

/** series index → org → key → posting */
export type PostingMap = Map<number, Map<number, Map<string, Posting>>>;

const INITIAL = 1 << 14;

export class PostingLog {
  /** entries in the log */
  n = 0;
  private ids = new Int32Array(INITIAL);
  private times = new Float64Array(INITIAL);
  private locs = new Float64Array(INITIAL);
  /** posting id → its series index, organisation and key */
  private readonly pSeries: number[] = [];
  private readonly pOrg: number[] = [];
  private readonly pKey: string[] = [];
  private readonly byKey = new Map<number, Map<number, Map<string, number>>>();
  /** device slot (directory/device-slots.ts) → posting id + 1; 0 = not seen in this segment */
  private bySlot = new Int32Array(0);

  /** The posting of a device; `slot` (≥ 0) makes it an array index instead of three map lookups. */
  posting(si: number, org: number, key: string, slot: number): number {
    if (slot >= 0 && slot < this.bySlot.length) {
      const p = this.bySlot[slot];
      if (p !== 0) return p - 1;
    }
    let byOrg = this.byKey.get(si);
    if (!byOrg) this.byKey.set(si, (byOrg = new Map()));
    let keys = byOrg.get(org);
    if (!keys) byOrg.set(org, (keys = new Map()));
    let p = keys.get(key);
    if (p === undefined) {
      p = this.pKey.length;
      this.pSeries.push(si);
      this.pOrg.push(org);
      this.pKey.push(key);
      keys.set(key, p);
    }
    if (slot >= 0) {
      if (slot >= this.bySlot.length) {
        const next = new Int32Array(Math.max(slot + 1, this.bySlot.length * 2, 1024));
        next.set(this.bySlot);
        this.bySlot = next;
      }
      this.bySlot[slot] = p + 1;
    }
    return p;
  }

  add(posting: number, time: number, loc: number): void {
    const i = this.n;
    if (i === this.ids.length) this.grow();
    this.ids[i] = posting;
    this.times[i] = time;
    this.locs[i] = loc;
    this.n = i + 1;
  }

  /** Forgets the entries of lines at or after byte `size` (a batch rolled back). */
  truncate(size: number): void {
    let n = this.n;
    while (n > 0 && Math.floor(this.locs[n - 1] / 65536) >= size) n--;
    this.n = n;
  }

  /** key → posting id, for the organisation's postings of a series (undefined: none in this segment) */
  keysOf(si: number, org: number): ReadonlyMap<string, number> | undefined {
    return this.byKey.get(si)?.get(org);
  }

  /** Calls `visit` for every entry of the wanted postings (in log order) within [from, to]. */
  scan(want: readonly number[], from: number, to: number, visit: (time: number, loc: number) => void): void {
    if (want.length === 0) return;
    const mark = new Uint8Array(this.pKey.length);
    for (const p of want) mark[p] = 1;
    const { ids, times, locs } = this;
    for (let i = 0; i < this.n; i++) {
      if (mark[ids[i]] === 0) continue;
      const t = times[i];
      if (t >= from && t <= to) visit(t, locs[i]);
    }
  }

  /** The newest entry of each wanted posting (ties: the later line). */
  newest(want: readonly number[]): Map<number, { t: number; loc: number }> {
    const best = new Map<number, { t: number; loc: number }>();
    if (want.length === 0) return best;
    const mark = new Uint8Array(this.pKey.length);
    for (const p of want) mark[p] = 1;
    const { ids, times, locs } = this;
    for (let i = 0; i < this.n; i++) {
      const p = ids[i];
      if (mark[p] === 0) continue;
      const b = best.get(p);
      if (!b) best.set(p, { t: times[i], loc: locs[i] });
      else if (times[i] >= b.t) {
        b.t = times[i];
        b.loc = locs[i];
      }
    }
    return best;
  }

  /** The log grouped by posting (arrival order kept): the sealed segment's index. */
  grouped(): PostingMap {
    const P = this.pKey.length;
    const start = new Int32Array(P + 1);
    for (let i = 0; i < this.n; i++) start[this.ids[i] + 1]++;
    for (let p = 0; p < P; p++) start[p + 1] += start[p];
    const times = new Float64Array(this.n);
    const locs = new Float64Array(this.n);
    const at = start.slice(0, P);
    for (let i = 0; i < this.n; i++) {
      const k = at[this.ids[i]]++;
      times[k] = this.times[i];
      locs[k] = this.locs[i];
    }
    const m: PostingMap = new Map();
    for (let p = 0; p < P; p++) {
      if (start[p + 1] === start[p]) continue; // every entry of it was rolled back
      let byOrg = m.get(this.pSeries[p]);
      if (!byOrg) m.set(this.pSeries[p], (byOrg = new Map()));
      let keys = byOrg.get(this.pOrg[p]);
      if (!keys) byOrg.set(this.pOrg[p], (keys = new Map()));
      keys.set(this.pKey[p], { times: times.subarray(start[p], start[p + 1]), locs: locs.subarray(start[p], start[p + 1]) });
    }
    return m;
  }

  private grow(): void {
    const size = this.ids.length * 2;
    const ids = new Int32Array(size);
    ids.set(this.ids);
    const times = new Float64Array(size);
    times.set(this.times);
    const locs = new Float64Array(size);
    locs.set(this.locs);
    this.ids = ids;
    this.times = times;
    this.locs = locs;
  }
}
