/**
 * An import workbook, judged when it is uploaded and read in a fixed shape afterwards.
 *
 * checkWorkbook (upload, before the job exists): the zip's directory within bounds and back to
 * back (files/zip.ts); the parts the import reads — workbook, its relations, styles, shared
 * strings and the first worksheet — inflated with a cap at their declared sizes (a zip bomb
 * lies about them), counting the shared strings and the sheet's rows as they pass; a declared
 * sheet dimension beyond the limits is refused too. All of it runs in zlib's thread pool.
 *
 * openWorkbook (the job): a stream of only those parts, in the order exceljs' streaming reader
 * needs to read the sheet at once (relations, workbook, styles, shared strings, then the
 * sheet). In another order exceljs copies each sheet to a temporary file first, outside the
 * data folder and only removed at process exit; unread parts (images, other sheets) are
 * never inflated.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { occurrences, parseZip, verifyEntry, ZipError, type ZipDirectory, type ZipEntry, type ZipLimits } from '../files/zip';

export interface WorkbookLimits extends ZipLimits {
  /** rows an import reads (data rows, header excluded) */
  maxRows: number;
  maxColumns: number;
  /** xl/sharedStrings.xml, inflated */
  maxSharedStringsBytes: number;
  /** distinct shared strings */
  maxSharedStrings: number;
}

/**
 * docs/SERVER.md "Upload and import limits". The 5 MB upload of SPEC §9 holds about 200,000
 * typical rows; a legitimate workbook of that size inflates to well under 256 MB.
 */
export const WORKBOOK_LIMITS: WorkbookLimits = {
  maxEntries: 1_000,
  maxTotalBytes: 256 * 2 ** 20,
  maxRows: 200_000,
  maxColumns: 256,
  maxSharedStringsBytes: 32 * 2 ** 20,
  maxSharedStrings: 500_000,
};

export type WorkbookProblem = { kind: 'unreadable' } | { kind: 'limits' } | { kind: 'strings' } | { kind: 'dimension'; range: string } | { kind: 'rows' };

const WORKBOOK = 'xl/workbook.xml';
const RELS = 'xl/_rels/workbook.xml.rels';
const STYLES = 'xl/styles.xml';
const STRINGS = 'xl/sharedStrings.xml';
const SHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

interface Parts {
  dir: ZipDirectory;
  rels: ZipEntry;
  workbook: ZipEntry;
  styles?: ZipEntry;
  strings?: ZipEntry;
  sheet: ZipEntry;
}

function partsOf(dir: ZipDirectory): Parts {
  const named = (name: string) => dir.entries.find((e) => e.name === name);
  const rels = named(RELS);
  const workbook = named(WORKBOOK);
  // exceljs reads the sheets in the zip's order and the import takes the first one.
  const sheet = [...dir.entries].sort((a, b) => a.start - b.start).find((e) => SHEET.test(e.name));
  if (!rels || !workbook || !sheet) throw new ZipError('unreadable', 'not a workbook');
  return { dir, rels, workbook, styles: named(STYLES), strings: named(STRINGS), sheet };
}

/** "A1:C20" (or "C20") → its last row and column. */
export function dimensionOf(ref: string): { rows: number; columns: number } | null {
  const m = /^(?:[A-Z]{1,3}\d+:)?([A-Z]{1,3})(\d+)$/i.exec(ref.trim());
  if (!m) return null;
  const columns = [...m[1].toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  return { rows: Number(m[2]), columns };
}

/** Thrown from inside an inflate to stop it with a workbook problem. */
class Refusal extends Error {
  constructor(public readonly problem: WorkbookProblem) {
    super(problem.kind);
  }
}

/**
 * null when the workbook at `path` may be imported, else why not. `seen.rows` gets the rows of
 * the sheet counted on the way (header and blank rows included): the job's total for progress.
 */
export async function checkWorkbook(path: string, limits: WorkbookLimits = WORKBOOK_LIMITS, seen?: { rows: number }): Promise<WorkbookProblem | null> {
  try {
    const parts = partsOf(parseZip(await readFile(path), limits));
    for (const e of [parts.rels, parts.workbook, parts.styles]) if (e) await verifyEntry(path, e);
    if (parts.strings) {
      if (parts.strings.size > limits.maxSharedStringsBytes) return { kind: 'strings' };
      const counters = ['<si>', '<si ', '<si/'].map(occurrences);
      await verifyEntry(path, parts.strings, (chunk) => {
        if (counters.reduce((n, c) => n + c.push(chunk), 0) > limits.maxSharedStrings) throw new Refusal({ kind: 'strings' });
      });
    }
    // The header row and up to maxRows data rows; a declared dimension is judged from the sheet's head.
    const rows = ['<row ', '<row>'].map(occurrences);
    let head = '';
    await verifyEntry(path, parts.sheet, (chunk) => {
      if (head.length < 4096) {
        head += chunk.toString('latin1', 0, 4096 - head.length);
        const ref = /<dimension\s+ref="([^"]*)"/.exec(head)?.[1];
        const d = ref ? dimensionOf(ref) : null;
        if (d && (d.rows > limits.maxRows + 1 || d.columns > limits.maxColumns)) throw new Refusal({ kind: 'dimension', range: ref! });
      }
      if (rows.reduce((n, c) => n + c.push(chunk), 0) > limits.maxRows + 1) throw new Refusal({ kind: 'rows' });
    });
    if (seen) seen.rows = rows.reduce((n, c) => n + c.count, 0);
    return null;
  } catch (err) {
    if (err instanceof Refusal) return err.problem;
    if (err instanceof ZipError) return { kind: err.problem };
    if (err instanceof RangeError) return { kind: 'unreadable' };
    throw err;
  }
}

/** A stored zip entry holding `content` (an empty shared-strings part when the file has none). */
function storedEntry(name: string, content: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(zlib.crc32(content), 14);
  header.writeUInt32LE(content.length, 18);
  header.writeUInt32LE(content.length, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes, content]);
}

const EMPTY_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);

/** The parts an import reads, in reading order, as one zip stream (see the head comment). */
export async function openWorkbook(path: string, limits: WorkbookLimits = WORKBOOK_LIMITS): Promise<Readable> {
  const parts = partsOf(parseZip(await readFile(path), limits));
  const out = new PassThrough();
  const ranges: Array<[number, number] | Buffer> = [];
  for (const e of [parts.rels, parts.workbook, parts.styles]) if (e) ranges.push([e.start, e.end]);
  ranges.push(parts.strings ? [parts.strings.start, parts.strings.end] : storedEntry(STRINGS, EMPTY_STRINGS));
  ranges.push([parts.sheet.start, parts.sheet.end], [parts.dir.directoryStart, parts.dir.fileSize]);
  let closed = false;
  let current: Readable | null = null;
  // The reader stopped early (first sheet read, or a failure): release the file at once.
  out.on('close', () => {
    closed = true;
    current?.destroy();
  });
  void (async () => {
    for (const r of ranges) {
      if (closed) return;
      if (Buffer.isBuffer(r)) {
        if (!out.write(r)) await new Promise((ok) => (out.once('drain', ok), out.once('close', ok)));
        continue;
      }
      const [start, end] = r;
      if (end <= start) continue;
      const source = createReadStream(path, { start, end: end - 1 });
      current = source;
      source.pipe(out, { end: false });
      await new Promise<void>((ok, ko) => {
        source.on('end', () => ok());
        source.on('close', () => ok());
        source.on('error', ko);
      });
    }
    out.end();
  })().catch((err) => out.destroy(err));
  return out;
}
