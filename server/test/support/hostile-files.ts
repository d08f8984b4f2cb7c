/**
 * Hostile files for the upload tests, built byte by byte: images whose header declares more
 * pixels than the file holds (decompression bombs), a large but allowed image, workbooks with
 * huge declared dimensions, huge shared strings, too many rows or parts, and zip bombs (parts
 * that inflate past their declared size, or declare sizes beyond the limits).
 */
import ExcelJS from 'exceljs';
import { crc32, deflateSync } from 'node:zlib';
import { buildZip, unzip, type ZipPart } from './zips';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of `width` × `height` RGB pixels; with `rows` only that many scanlines are stored. */
export function png(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  // Scanlines of zeros (filter byte 0 + black pixels): a bomb's few KB inflate to gigabytes.
  const line = 1 + width * 3;
  const raw = Buffer.alloc(line * Math.min(rows, height));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG header declaring `width` × `height` (after an EXIF-sized APP1), and no real scan. */
export function jpegHeader(width: number, height: number): Buffer {
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x80, 0x02]), Buffer.from('Exif\0\0'), Buffer.alloc(0x8002 - 2 - 6)]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof, Buffer.from([0xff, 0xd9])]);
}

/** A small real workbook (header + one row) as exceljs writes it, unpacked. */
export async function workbookParts(): Promise<ZipPart[]> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(['sn', 'name']);
  ws.addRow(['HOSTILE-1', 'shared text']);
  return unzip(Buffer.from(await wb.xlsx.writeBuffer()));
}

const replace = (parts: ZipPart[], name: RegExp, part: Partial<ZipPart>) => parts.map((p) => (name.test(p.name) ? { ...p, ...part } : p));
const SHEET = /^xl\/worksheets\/sheet1\.xml$/;
const STRINGS = /^xl\/sharedStrings\.xml$/;
const sheetXml = (body: string, dimension = '') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${dimension}<sheetData>${body}</sheetData></worksheet>`,
  );

/** Workbooks an import must refuse when uploaded, by name. */
export async function xlsxBombs(): Promise<Record<string, Buffer>> {
  const base = await workbookParts();
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>sn</t></is></c></row>';
  return {
    // <dimension ref="A1:XFD1048576"/>: every cell of the largest sheet Excel allows
    hugeDimension: buildZip(replace(base, SHEET, { data: sheetXml(header, '<dimension ref="A1:XFD1048576"/>') })),
    // 40 MB of shared strings (deflates to a few KB)
    hugeSharedStrings: buildZip(
      replace(base, STRINGS, {
        data: Buffer.from(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${'a'.repeat(40 * 2 ** 20)}</t></si></sst>`),
      }),
    ),
    // 600,000 distinct (empty) shared strings that lie about their count
    manySharedStrings: buildZip(
      replace(base, STRINGS, {
        data: Buffer.from(
          `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">${'<si><t/></si>'.repeat(600_000)}</sst>`,
        ),
      }),
    ),
    // 250,000 rows, no dimension element
    tooManyRows: buildZip(
      replace(base, SHEET, {
        data: sheetXml(header + Array.from({ length: 250_000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>1</v></c></row>`).join('')),
      }),
    ),
    // the sheet declares 2 KB and inflates to 32 MB (a zip bomb lying in both headers)
    lyingSheet: buildZip(replace(base, SHEET, { data: Buffer.alloc(32 * 2 ** 20, 0x20), declaredSize: 2048 })),
    // honest headers beyond the limit: 300 MB declared for one part (never inflated)
    hugeDeclared: buildZip([...base, { name: 'xl/media/image1.png', data: Buffer.alloc(16), declaredSize: 300 * 2 ** 20 }]),
    // 6,000 parts
    tooManyParts: buildZip([...base, ...Array.from({ length: 6_000 }, (_, i) => ({ name: `xl/media/p${i}.bin`, data: Buffer.from('x'), store: true }))]),
    // bytes smuggled in front of the first part (the directory no longer matches)
    smuggled: Buffer.concat([Buffer.from('PK\u0003\u0004 smuggled'), buildZip(base)]),
    // a part that is not deflate data
    garbageDeflate: buildZip(replace(base, SHEET, { body: Buffer.alloc(64, 0xff) })),
  };
}
