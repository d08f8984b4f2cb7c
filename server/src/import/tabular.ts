/**
 * CSV imports and column mapping (docs/SERVER.md "Imports: CSV and column mapping"):
 * - a CSV file is decoded (UTF-8, with or without BOM; UTF-16 with its BOM; anything else is
 *   refused as a wrong encoding rather than imported as mojibake), its separator detected
 *   (comma, semicolon or tab: what the header line holds most of outside quotes), parsed
 *   (RFC 4180 quotes) and written as a workbook whose row numbers are the file's record
 *   numbers, so the one import runner reads it and reasons name the row the user sees;
 * - the first rows of either kind of file are read for the mapping step's preview;
 * - a mapping (file column header → field) replaces the header matching; a required column
 *   that no file column maps to is refused before the job exists, naming it by its label.
 */
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { fieldLabelKey, type FieldDef } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import type { Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { cellText, headerMatcher, readCell, type CellValue } from './cells';
import { openWorkbook, WORKBOOK_LIMITS } from './workbook';

export type Separator = ',' | ';' | '\t';

export interface CsvTable {
  rows: string[][];
  separator: Separator;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  bom: boolean;
}

/** What the server says of a file it cannot read (translated by `server.import.*`). */
export class TabularRefusal extends ApiError {
  constructor(lang: Language, t: TFunction, key: string, params: Record<string, unknown> = {}) {
    super(ErrorCode.validation, t(lang, `server.import.${key}`, params));
  }
}

/** Text of a CSV file: BOMs say UTF-8 or UTF-16; without one it must be valid UTF-8. */
export function decodeCsv(buf: Buffer): { text: string; encoding: CsvTable['encoding']; bom: boolean } | null {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return decodeUtf8(buf.subarray(3), true);
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf-16le', bom: true };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf-16be', bom: true };
  return decodeUtf8(buf, false);
}

function decodeUtf8(buf: Buffer, bom: boolean) {
  try {
    // fatal: a Latin-1 or Shift-JIS/GBK file is refused, not read as replacement characters
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'utf-8' as const, bom };
  } catch {
    return null;
  }
}

/** The separator the header line holds most of outside quotes (comma when none). */
export function detectSeparator(text: string): Separator {
  const counts: Record<Separator, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  const best = (Object.keys(counts) as Separator[]).sort((a, b) => counts[b] - counts[a])[0];
  return counts[best] > 0 ? best : ',';
}

/** RFC 4180 records (quoted cells may hold separators, quotes "" and line breaks). */
export function parseCsv(text: string, separator: Separator): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === separator) {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' || c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A CSV upload read, or refused naming why (encoding, too many rows or columns). */
export async function readCsv(path: string, lang: Language, t: TFunction): Promise<CsvTable> {
  const decoded = decodeCsv(await readFile(path));
  if (!decoded) throw new TabularRefusal(lang, t, 'csvEncoding');
  const separator = detectSeparator(decoded.text);
  const rows = parseCsv(decoded.text, separator);
  const limits = WORKBOOK_LIMITS;
  if (rows.length > limits.maxRows + 1 || rows.some((r) => r.length > limits.maxColumns)) {
    throw new TabularRefusal(lang, t, 'csvTooLarge', { rows: limits.maxRows, columns: limits.maxColumns });
  }
  return { rows, separator, encoding: decoded.encoding, bom: decoded.bom };
}

/** Writes the CSV's records as the first sheet of a workbook: record n is sheet row n. */
export async function csvToWorkbook(table: CsvTable, path: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('import');
  for (const r of table.rows) sheet.addRow(r.map((v) => (v.trim() === '' ? null : v))).commit();
  sheet.commit();
  await workbook.commit();
}

/** The header (first filled row) and up to `limit` rows after it of a workbook, as the user sees them. */
export async function workbookHead(path: string, limit: number): Promise<{ header: Array<string | null>; rows: Array<Array<string | null>>; total: number }> {
  const source = await openWorkbook(path, WORKBOOK_LIMITS);
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      worksheets: 'emit',
      entries: 'ignore',
    });
    let header: Array<string | null> | null = null;
    const rows: Array<Array<string | null>> = [];
    let total = 0;
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const cells: CellValue[] = [];
        let filled = false;
        row.eachCell((cell, col) => {
          const v = readCell(cell);
          cells[col] = v;
          if (v !== null) filled = true;
        });
        if (!filled) continue;
        const texts = Array.from(cells, (c) => cellText(c ?? null)).slice(1);
        if (!header) header = texts;
        else {
          total++;
          if (rows.length < limit) rows.push(texts);
        }
      }
      break;
    }
    return { header: header ?? [], rows, total };
  } finally {
    source.destroy();
  }
}

/** The mapping a header gets without one given: a column named like a field (any language) maps to it. */
export function suggestMapping(header: Array<string | null>, fields: FieldDef[], t: TFunction): Record<string, string> {
  const match = headerMatcher(fields, t);
  const out: Record<string, string> = {};
  for (const h of header) {
    if (h === null || h.trim() === '') continue;
    const f = match(h);
    if (f && !Object.values(out).includes(f)) out[h] = f;
  }
  return out;
}

/**
 * A mapping sent by the console: file header → field of the import (or '' for a column left
 * out). Refuses an unknown field and a field two columns map to; answers the mapping.
 */
export function readMapping(raw: string | undefined, fields: FieldDef[], lang: Language, t: TFunction): Record<string, string> | null {
  if (raw === undefined || raw.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new TabularRefusal(lang, t, 'mappingInvalid');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TabularRefusal(lang, t, 'mappingInvalid');
  const out: Record<string, string> = {};
  const taken = new Map<string, string>();
  for (const [header, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === null || field === '' || field === undefined) continue;
    const f = fields.find((x) => x.name === field);
    if (typeof field !== 'string' || !f) throw new TabularRefusal(lang, t, 'mappingInvalid');
    const label = t(lang, fieldLabelKey(f));
    if (taken.has(field)) throw new TabularRefusal(lang, t, 'mappingTwice', { column: label, first: taken.get(field), second: header });
    taken.set(field, header);
    out[header] = field;
  }
  return out;
}

/**
 * Refuses, before any row is read for writing, a mapping (or a header) that gives a required
 * column no file column: named by its label in the caller's language.
 */
export function checkRequiredColumns(header: Array<string | null>, mapping: Record<string, string>, fields: FieldDef[], lang: Language, t: TFunction): void {
  const present = new Set(
    header
      .filter((h): h is string => h !== null)
      .map((h) => mapping[h])
      .filter(Boolean),
  );
  const missing = fields.filter((f) => f.required && f.default === undefined && !present.has(f.name));
  if (missing.length) {
    const labels = missing.map((f) => t(lang, fieldLabelKey(f)));
    throw new TabularRefusal(lang, t, missing.length === 1 ? 'columnMissing' : 'columnsMissing', { column: labels[0], columns: labels.join(', ') });
  }
}
