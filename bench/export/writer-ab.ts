/**
 * The server's one xlsx writer, xlsxWriter (resources/export.ts, as resource exports, report
 * exports and mails use it), next to its floor, interleaved in one process so machine load hits
 * both sides alike: (A) exceljs driven bare, (B) xlsxWriter. Both write N rows of 12 cells
 * (pages of 200, yielding to the event loop between pages as a database read does) into a sink
 * that drains like a socket. (Until a8827e1, A was a copy of the exceljs driving export.ts had
 * before report definitions; that comparison is in docs/SERVER.md "Exports".)
 *
 *   node --expose-gc --import tsx bench/export/writer-ab.ts [--rows=200000] [--rounds=3]
 */
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { xlsxWriter } from '../../server/src/resources/export';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ROWS = Number(arg('rows', '200000'));
const ROUNDS = Number(arg('rounds', '3'));
const PAGE = 200;

const row = (i: number) => [
  `EX${String(i).padStart(7, '0')}`,
  `Box ${i}`,
  'CC-1',
  'P-1',
  i % 2 ? 'Warehouse 1' : null,
  'Normal',
  'Idle',
  'In transit',
  i % 50,
  '2026-01-01 00:00:00',
  i % 7 ? null : 'checked',
  '2026-01-01 00:00:00',
];
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

/**
 * A: the floor, exceljs' WorkbookWriter driven bare (addRow().commit(), waiting only for the
 * sink's 'drain'): what any writer on exceljs costs at least. It keeps no eye on the zip, so a
 * fast source piles the sheet up ahead of deflate; xlsxWriter's
 * back-pressure is what B pays on top of it.
 */
async function floor(): Promise<number> {
  const out = sink();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet('Carrier');
  sheet.columns = headers.map((h) => ({ header: h, key: h, width: 16 }));
  for (let i = 0; i < ROWS; i += PAGE) {
    for (let j = i; j < Math.min(ROWS, i + PAGE); j++) sheet.addRow(row(j)).commit();
    await new Promise(setImmediate);
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  sheet.commit();
  const finished = done(out);
  await wb.commit();
  await finished;
  return out.bytes;
}

/** B: the one writer. */
async function writer(): Promise<number> {
  const out = sink();
  const w = xlsxWriter(out);
  const sheet = w.sheet(
    'Carrier',
    headers.map((h) => ({ header: h })),
  );
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
    for (const [k, fn] of (r % 2
      ? [
          ['B', writer],
          ['A', floor],
        ]
      : [
          ['A', floor],
          ['B', writer],
        ]) as Array<['A' | 'B', () => Promise<number>]>) {
      global.gc?.();
      const t = performance.now();
      const bytes = await fn();
      const s = (performance.now() - t) / 1000;
      times[k].push(s);
      console.log(
        `round ${r + 1} ${k === 'A' ? 'floor (exceljs bare)' : 'xlsxWriter          '}: ${(ROWS / s).toFixed(0)} rows/s, ${(bytes / 1024).toFixed(0)} KB`,
      );
    }
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const a = ROWS / median(times.A);
  const b = ROWS / median(times.B);
  console.log(
    `median: floor ${a.toFixed(0)} rows/s, xlsxWriter ${b.toFixed(0)} rows/s (${(a / b).toFixed(2)}× the floor's time), load ${loadavg()[0].toFixed(2)}`,
  );
}

void main();
