/**
 * Zip archives built byte by byte for upload tests: real workbooks re-packed, entries that lie
 * about their inflated size (zip bombs), padding to an exact file size.
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseZip } from '../../src/files/zip';

export interface ZipPart {
  name: string;
  data: Buffer;
  /** deflate (default) or store */
  store?: boolean;
  /** the inflated size written in the headers (a bomb declares less than it holds) */
  declaredSize?: number;
  /** the deflated bytes as written (not deflate data, for a broken part) */
  body?: Buffer;
}

export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const body = p.body ?? (p.store ? p.data : deflateRawSync(p.data, { level: 9 }));
    const size = p.declaredSize ?? p.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(p.store ? 0 : 8, 8);
    local.writeUInt32LE(crc32(p.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(p.store ? 0 : 8, 10);
    cd.writeUInt32LE(crc32(p.data), 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    central.push(cd, name);
    offset += 30 + name.length + body.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBytes, end]);
}

/** The entries of a zip (a workbook exceljs wrote), inflated. */
export function unzip(zip: Buffer): ZipPart[] {
  return parseZip(zip, { maxEntries: 10_000, maxTotalBytes: 2 ** 31 }).entries.map((e) => {
    const raw = zip.subarray(e.dataStart, e.dataEnd);
    return { name: e.name, data: e.method === 8 ? inflateRawSync(raw) : Buffer.from(raw) };
  });
}

/** The workbook with one more stored part, so that the file is exactly `bytes` long. */
export function padZip(zip: Buffer, bytes: number): Buffer {
  const parts = unzip(zip);
  const pad = (n: number) => buildZip([...parts, { name: 'docProps/padding.bin', data: Buffer.alloc(Math.max(0, n), 0x20), store: true }]);
  const first = pad(0);
  return pad(bytes - first.length);
}
