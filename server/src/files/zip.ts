/**
 * Zip archives (docx, xlsx, pptx) judged by their central directory before anything is
 * inflated: how many entries, how large each declares itself once inflated, and whether the
 * local entries lie back to back exactly as the directory says (so a reader that walks the
 * local headers, like exceljs' streaming reader, sees the very entries that were checked and
 * nothing smuggled between them). `inflatedSizes` then proves the declared sizes by inflating
 * with a cap — a zip bomb lies about them.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated */
  method: number;
  compressedSize: number;
  /** declared inflated size */
  size: number;
  /** the local header, data and data descriptor: [start, end) */
  start: number;
  dataStart: number;
  dataEnd: number;
  end: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** the central directory and end records: [directoryStart, fileSize) */
  directoryStart: number;
  fileSize: number;
}

export interface ZipLimits {
  maxEntries: number;
  /** declared inflated size of all entries together */
  maxTotalBytes: number;
}

/** Stored Office files (file uploads): generous, but an archive cannot expand without bound. */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 5_000, maxTotalBytes: 256 * 2 ** 20 };

export type ZipProblem = 'unreadable' | 'limits';

export class ZipError extends Error {
  constructor(
    public readonly problem: ZipProblem,
    detail: string,
  ) {
    super(detail);
  }
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const MAX32 = 0xffffffff;

const unreadable = (detail: string) => new ZipError('unreadable', detail);

const u64 = (b: Buffer, at: number): number => {
  const v = b.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw unreadable('size beyond 2^53');
  return Number(v);
};

/** The zip64 extra field's values, in their fixed order, for the fields that hold 0xFFFFFFFF. */
function zip64Extra(extra: Buffer, wanted: { size: boolean; compressed: boolean; offset: boolean }) {
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (i + 4 + len > extra.length) throw unreadable('extra field overruns');
    if (id === 0x0001) {
      let at = i + 4;
      const take = () => {
        if (at + 8 > i + 4 + len) throw unreadable('short zip64 field');
        const v = u64(extra, at);
        at += 8;
        return v;
      };
      return { size: wanted.size ? take() : undefined, compressed: wanted.compressed ? take() : undefined, offset: wanted.offset ? take() : undefined };
    }
    i += 4 + len;
  }
  throw unreadable('zip64 field missing');
}

/** Parses and checks the directory of the zip in `b`; throws ZipError. */
export function parseZip(b: Buffer, limits: ZipLimits): ZipDirectory {
  // End of central directory: the last 22 bytes plus a comment of up to 65535 bytes.
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b.readUInt32LE(i) === EOCD && i + 22 + b.readUInt16LE(i + 20) === b.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable('no end of central directory');
  if (b.readUInt16LE(eocd + 4) !== 0 || b.readUInt16LE(eocd + 6) !== 0) throw unreadable('multi-disk archive');
  let count = b.readUInt16LE(eocd + 10);
  let cdSize = b.readUInt32LE(eocd + 12);
  let cdOffset = b.readUInt32LE(eocd + 16);
  let cdEnd = eocd;
  if (count === 0xffff || cdSize === MAX32 || cdOffset === MAX32) {
    const loc = eocd - 20;
    if (loc < 0 || b.readUInt32LE(loc) !== ZIP64_LOCATOR) throw unreadable('zip64 locator missing');
    const rec = u64(b, loc + 8);
    if (rec + 56 > loc || b.readUInt32LE(rec) !== ZIP64_EOCD) throw unreadable('zip64 end record missing');
    count = u64(b, rec + 32);
    cdSize = u64(b, rec + 40);
    cdOffset = u64(b, rec + 48);
    cdEnd = rec;
  }
  if (count > limits.maxEntries) throw new ZipError('limits', `${count} entries`);
  if (cdOffset + cdSize !== cdEnd) throw unreadable('central directory does not end where the end record starts');

  const entries: ZipEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > cdEnd || b.readUInt32LE(at) !== CENTRAL) throw unreadable('bad central directory entry');
    const flags = b.readUInt16LE(at + 8);
    const method = b.readUInt16LE(at + 10);
    let compressedSize = b.readUInt32LE(at + 20);
    let size = b.readUInt32LE(at + 24);
    const nameLen = b.readUInt16LE(at + 28);
    const extraLen = b.readUInt16LE(at + 30);
    const commentLen = b.readUInt16LE(at + 32);
    let start = b.readUInt32LE(at + 42);
    const nameBytes = b.subarray(at + 46, at + 46 + nameLen);
    const extra = b.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen);
    if (size === MAX32 || compressedSize === MAX32 || start === MAX32) {
      const z = zip64Extra(extra, { size: size === MAX32, compressed: compressedSize === MAX32, offset: start === MAX32 });
      size = z.size ?? size;
      compressedSize = z.compressed ?? compressedSize;
      start = z.offset ?? start;
    }
    at += 46 + nameLen + extraLen + commentLen;
    if (flags & 0x41) throw unreadable('encrypted entry');
    if (method !== 0 && method !== 8) throw unreadable(`compression method ${method}`);
    if (method === 0 && compressedSize !== size) throw unreadable('stored entry sizes differ');
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipError('limits', `more than ${limits.maxTotalBytes} bytes inflated`);

    // The local header must agree with the directory.
    if (start + 30 > b.length || b.readUInt32LE(start) !== LOCAL) throw unreadable('bad local header');
    const localFlags = b.readUInt16LE(start + 6);
    const localCompressed = b.readUInt32LE(start + 18);
    const localNameLen = b.readUInt16LE(start + 26);
    const localExtraLen = b.readUInt16LE(start + 28);
    if (b.readUInt16LE(start + 8) !== method || !b.subarray(start + 30, start + 30 + localNameLen).equals(nameBytes))
      throw unreadable('local header differs from directory');
    const dataStart = start + 30 + localNameLen + localExtraLen;
    const dataEnd = dataStart + compressedSize;
    if (localCompressed !== 0 && localCompressed !== MAX32 && localCompressed !== compressedSize) throw unreadable('local size differs from directory');
    let end = dataEnd;
    if (localFlags & 0x08) {
      // data descriptor, with or without its signature
      const zip64 = localCompressed === MAX32;
      end += (dataEnd + 4 <= b.length && b.readUInt32LE(dataEnd) === DESCRIPTOR ? 4 : 0) + (zip64 ? 20 : 12);
    }
    if (end > cdOffset) throw unreadable('entry overruns the directory');
    entries.push({ name: nameBytes.toString('utf8'), method, compressedSize, size, start, dataStart, dataEnd, end });
  }
  if (at !== cdEnd) throw unreadable('central directory size mismatch');

  // Back to back from the first byte to the directory: nothing hidden, nothing shared.
  const byStart = [...entries].sort((x, y) => x.start - y.start);
  let expected = 0;
  for (const e of byStart) {
    if (e.start !== expected) throw unreadable('gap or overlap between entries');
    expected = e.end;
  }
  if (expected !== cdOffset) throw unreadable('data between the last entry and the directory');
  return { entries, directoryStart: cdOffset, fileSize: b.length };
}

/**
 * null when the archive at `path` is sound and within `limits` — every entry inflated (off
 * the event loop, capped at its declared size) to prove it — else what is wrong.
 */
export async function checkZip(path: string, limits: ZipLimits): Promise<ZipProblem | null> {
  try {
    const dir = parseZip(await readFile(path), limits);
    for (const e of dir.entries) await verifyEntry(path, e);
    return null;
  } catch (err) {
    if (err instanceof ZipError) return err.problem;
    if (err instanceof RangeError) return 'unreadable';
    throw err;
  }
}

/**
 * Inflates `entry` of the file at `path` off the event loop (zlib's thread pool), never
 * past its declared size: 'limits' when it inflates to more (a bomb), 'unreadable' when to
 * less or not at all. `onChunk` sees the inflated bytes as they come (and may throw a
 * ZipError to stop).
 */
export function verifyEntry(path: string, entry: ZipEntry, onChunk?: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (entry.compressedSize === 0) return entry.size === 0 ? resolve() : reject(unreadable('empty data'));
    const source = createReadStream(path, { start: entry.dataStart, end: entry.dataEnd - 1 });
    const inflate = entry.method === 8 ? createInflateRaw() : null;
    let seen = 0;
    let done = false;
    const stop = (err: unknown) => {
      if (done) return;
      done = true;
      source.destroy();
      inflate?.destroy();
      if (err) reject(err);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      seen += chunk.length;
      if (seen > entry.size) return stop(new ZipError('limits', `${entry.name} inflates past its declared ${entry.size} bytes`));
      try {
        onChunk?.(chunk);
      } catch (err) {
        stop(err);
      }
    };
    const onEnd = () => stop(seen === entry.size ? null : unreadable(`${entry.name} inflates to ${seen}, declares ${entry.size}`));
    source.on('error', () => stop(unreadable('read failed')));
    if (inflate) {
      inflate.on('error', () => stop(unreadable(`${entry.name} does not inflate`)));
      inflate.on('data', onData);
      inflate.on('end', onEnd);
      source.pipe(inflate);
    } else {
      source.on('data', (chunk) => onData(chunk as Buffer));
      source.on('end', onEnd);
    }
  });
}

/** Counts occurrences of `needle` across chunks (a match may straddle two). */
export function occurrences(needle: string): { push(chunk: Buffer): number; readonly count: number } {
  const n = Buffer.from(needle, 'latin1');
  let carry = Buffer.alloc(0);
  let count = 0;
  return {
    push(chunk) {
      const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      for (let i = b.indexOf(n); i >= 0; i = b.indexOf(n, i + n.length)) count++;
      carry = Buffer.from(b.subarray(Math.max(0, b.length - n.length + 1)));
      return count;
    },
    get count() {
      return count;
    },
  };
}
