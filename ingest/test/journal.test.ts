import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../src/journal/journal';
import { tempDir } from './helpers/services';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const rec = (i: number) => ({
  kind: 1,
  org: 7,
  receivedAt: 1763780000000 + i,
  source: 'AC233FC0A1B2',
  payload: Buffer.from(`{"n":${i},"pad":"${'x'.repeat(i % 50)}"}`),
});

describe('intake journal', () => {
  it('numbers records, reads them back in order across segments, and deletes stored segments', () => {
    const dir = tempDir('journal');
    dirs.push(dir);
    const j = new Journal({ dir, segmentBytes: 1024, fsyncMs: 0 });
    for (let i = 1; i <= 100; i++) expect(j.append(rec(i))).toBe(i);
    const back = j.read(41, 30);
    expect(back.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, k) => 41 + k));
    expect(back[0]).toMatchObject({ kind: 1, org: 7, source: 'AC233FC0A1B2', receivedAt: 1763780000041 });
    expect(JSON.parse(back[0].payload.toString()).n).toBe(41);
    // continuing where the cursor stopped
    expect(j.read(71, 100).map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, k) => 71 + k));
    const before = fs.readdirSync(dir).filter((f) => f.endsWith('.seg')).length;
    j.commit(90);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.seg')).length).toBeLessThan(before);
    expect(j.read(91, 100).map((r) => r.seq)).toEqual(Array.from({ length: 10 }, (_, k) => 91 + k));
    j.close();
  });

  it('reopens after a crash: keeps the checkpoint, cuts a torn last record, continues numbering', () => {
    const dir = tempDir('journal-crash');
    dirs.push(dir);
    const j = new Journal({ dir, segmentBytes: 4096, fsyncMs: 0 });
    for (let i = 1; i <= 20; i++) j.append(rec(i));
    j.commit(12);
    j.close();
    const segs = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.seg'))
      .sort();
    fs.appendFileSync(path.join(dir, segs[segs.length - 1]), Buffer.from([200, 0, 0, 0, 1, 2, 3])); // half a record
    const k = new Journal({ dir, segmentBytes: 4096, fsyncMs: 0 });
    expect(k.committedSeq).toBe(12);
    expect(k.lastSeq).toBe(20);
    expect(k.read(13, 100).map((r) => r.seq)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
    expect(k.append(rec(21))).toBe(21);
    expect(k.read(21, 1)[0].receivedAt).toBe(1763780000021);
    k.close();
  });

  it('reports full at its bound', () => {
    const dir = tempDir('journal-full');
    dirs.push(dir);
    const j = new Journal({ dir, segmentBytes: 512, maxBytes: 2048, fsyncMs: 0 });
    let n = 0;
    while (!j.full) j.append(rec(++n));
    expect(j.bytes).toBeGreaterThanOrEqual(2048);
    j.commit(n);
    expect(j.full).toBe(false);
    j.close();
  });
});
