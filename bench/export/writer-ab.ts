/**
 * A/B of the xlsx writer alone, interleaved in one process so machine load hits both sides
 * alike: (A) exceljs WorkbookWriter driven directly as export.ts did before report definitions
 * (addRow().commit(), the old zip/response back-pressure check per page), (B) the server's one
 * writer, xlsxWriter (resources/export.ts), as resource exports, report exports and mails use
 * it. Both write N rows of 12 cells (pages of 200, yielding to the event loop between pages as
 * a database read does) into a sink that drains like a socket.
 *
 *   node --import tsx bench/export/writer-ab.ts [--rows=200000] [--rounds=3]
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { xlsxWriter } from '../../server/src/resources/export';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ROWS = Number(arg('rows', '200000'));
const ROUNDS = Number(arg('rounds', '3'));
const PAGE = 200;

const row = (i: number) => [`EX${String(i).padStart(7, '0')}`, `Box ${i}`, 'CC-1', 'P-1', i % 2 ? 'Warehouse 1' : null, 'Normal', 'Idle', 'In transit', i % 50, '2026-01-01 00:00:00', i % 7 ? null : 'checked', '2026-01-01 00:00:00'];
const headers = ['sn', 'name', 'code', 'project', 'warehouse', 'type', 'status', 'transport', 'cycles', 'start', 'remark', 'created'];

function sink(): Writable & { bytes: number } {
  const s = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _e, done) {
      s.bytes = (s.bytes ?? 0) + chunk.length;
      setImmediate(done); // a socket hands data back asynchronously
    },
  }) as Writable & { bytes: number };

  return s;
}

const done = (s: Writable) => new Promise<void>((r) => s.on('finish', () => r()));

interface Drainable {
  writableNeedDrain?: boolean;
  _writableState?: { length: number };
  _readableState?: { length: number };
  once(event: string, fn: () => void): unknown;
  off(event: string, fn: () => void): unknown;
}
const backlog = (s: Drainable) => (s._writableState?.length ?? 0) + (s._readableState?.length ?? 0);
const first = (stream: Drainable, events: string[], ms: number) =>
  new Promise<void>((resolve) => {
    const fin = () => {
      clearTimeout(timer);
      for (const e of events) stream.off(e, fin);
      resolve();
    };
    const timer = setTimeout(fin, ms);
    for (const e of events) stream.once(e, fin);
  });

/** A: the writer as export.ts drove exceljs before (copied from commit 87293ff). */
async function before(): Promise<number> {
  const out = sink();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet('Carrier');
  sheet.columns = headers.map((h) => ({ header: h, key: h, width: 16 }));
  for (let i = 0; i < ROWS; i += PAGE) {
    for (let j = i; j < Math.min(ROWS, i + PAGE); j++) sheet.addRow(row(j)).commit();
    await new Promise(setImmediate);
    const zipInput = ((sheet as unknown as { stream?: { pipes?: Drainable[] } }).stream?.pipes ?? [])[0];
    while ((zipInput && backlog(zipInput) > 1 << 20) || out.writableNeedDrain) {
      if (out.writableNeedDrain) await first(out as unknown as Drainable, ['drain', 'close'], 1000);
      else await first(zipInput!, ['drain', 'data'], 50);
    }
  }
  sheet.commit();
  const finished = done(out);
  await wb.commit();
  await finished;
  return out.bytes;
}

/** B: the one writer. */
async function after(): Promise<number> {
  const out = sink();
  const w = xlsxWriter(out);
  const sheet = w.sheet('Carrier', headers.map((h) => ({ header: h })));
  for (let i = 0; i < ROWS; i += PAGE) {
    for (let j = i; j < Math.min(ROWS, i + PAGE); j++) sheet.add(row(j));
    await new Promise(setImmediate);
    await w.taken();
  }
  const finished = done(out);
  await w.commit();
  await finished;
  return out.bytes;
}

async function main() {
  const times: Record<'A' | 'B', number[]> = { A: [], B: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, fn] of (r % 2 ? [['B', after], ['A', before]] : [['A', before], ['B', after]]) as Array<['A' | 'B', () => Promise<number>]>) {
      global.gc?.();
      const t = performance.now();
      const bytes = await fn();
      const s = (performance.now() - t) / 1000;
      times[k].push(s);
      console.log(`round ${r + 1} ${k === 'A' ? 'before (exceljs direct)' : 'after (xlsxWriter)     '}: ${(ROWS / s).toFixed(0)} rows/s, ${(bytes / 1024).toFixed(0)} KB`);
    }
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const a = ROWS / median(times.A);
  const b = ROWS / median(times.B);
  console.log(`median: before ${a.toFixed(0)} rows/s, after ${b.toFixed(0)} rows/s (${((b / a - 1) * 100).toFixed(1)} %)`);
}

void main();
