import { describe, expect, it } from 'vitest';
import { PostingLog } from '../src/store/posting-log';

const loc = (offset: number, len: number) => offset * 65536 + len;

describe('posting log (the active segment’s postings)', () => {
  it('finds a posting by slot or by key, the same one either way', () => {
    const log = new PostingLog();
    const a = log.posting(0, 1, 'E2C56DB5DFFB', 70_000); // a slot far past the table: grown, not sparse
    expect(log.posting(0, 1, 'E2C56DB5DFFB', -1)).toBe(a);
    expect(log.posting(0, 1, 'E2C56DB5DFFB', 70_000)).toBe(a);
    expect(log.posting(0, 2, 'E2C56DB5DFFB', -1)).not.toBe(a);
    expect(log.posting(1, 1, 'E2C56DB5DFFB', -1)).not.toBe(a);
    expect([...log.keysOf(0, 1)!]).toEqual([['E2C56DB5DFFB', a]]);
  });

  it('scans the wanted postings in arrival order within a time range, and finds each one’s newest entry', () => {
    const log = new PostingLog();
    const a = log.posting(0, 1, 'A', -1);
    const b = log.posting(0, 1, 'B', -1);
    // more entries than the initial capacity, interleaved
    for (let i = 0; i < 40_000; i++) log.add(i % 3 === 0 ? b : a, 1000 + i, loc(i * 10, 10));
    const seen: number[] = [];
    log.scan([b], 1000, 1010, (t) => seen.push(t));
    expect(seen).toEqual([1000, 1003, 1006, 1009]);
    log.add(a, 40_998, loc(400_000, 10)); // same time as a's newest so far: the later line wins
    const newest = log.newest([a, b]);
    expect(newest.get(a)).toEqual({ t: 40_998, loc: loc(400_000, 10) });
    expect(newest.get(b)).toEqual({ t: 40_999, loc: loc(399_990, 10) });
  });

  it('rolls back the entries of a failed batch and groups the rest by device for the index', () => {
    const log = new PostingLog();
    const a = log.posting(0, 1, 'A', -1);
    const b = log.posting(0, 1, 'B', -1);
    log.add(a, 1, loc(0, 10));
    log.add(b, 2, loc(10, 10));
    log.add(a, 3, loc(20, 10));
    const c = log.posting(2, 1, 'C', -1);
    log.add(c, 4, loc(30, 10)); // the batch that failed started at byte 30
    log.truncate(30);
    expect(log.n).toBe(3);
    const m = log.grouped();
    expect(Array.from(m.get(0)!.get(1)!.get('A')!.times)).toEqual([1, 3]);
    expect(Array.from(m.get(0)!.get(1)!.get('A')!.locs)).toEqual([loc(0, 10), loc(20, 10)]);
    expect(Array.from(m.get(0)!.get(1)!.get('B')!.times)).toEqual([2]);
    expect(m.has(2)).toBe(false); // nothing of C survived
  });
});
