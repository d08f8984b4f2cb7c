/**
 * xlsx export streamed straight to the response through the server's one xlsx writer
 * (xlsxWriter below, also used by report exports and report mails): same filters, sorts and
 * scope as list, headers and enum values translated, refs as labels.
 * Rows come in keyset pages and are committed as written; the next page is read only once
 * the zip and the client have taken the last one, so memory stays flat whatever the count.
 */
import ExcelJS from 'exceljs';
import { fieldLabelKey, resourceLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Response } from 'express';
import { Writable } from 'node:stream';
import { exportPages } from './export-pages';
import type { Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { isSecret } from './validate';
import type { ScopedRepository } from './repository';
import type { Row } from './serialize';
import { formatTime } from '../reports/time';

/** Columns of an export: the list columns, minus secrets, hidden and structured data. */
export function exportFields(res: ResourceDef): FieldDef[] {
  return res.fields.filter((f) => f.list !== false && !isSecret(f) && !f.hidden && f.type !== 'json' && f.type !== 'permissions');
}

/** YYYY-MM-DD HH:mm:ss in a zone: the organisation's, which its imports read wall-clock times in, so an exported file imports back unchanged. */
export const formatDateTime = (iso: string, zone: string = 'UTC'): string => formatTime(iso, zone);

/** A field's value as exports and prints show it: enum labels, reference titles, times in `zone`. */
export function cellValue(f: FieldDef, row: Row, meta: Metadata, t: (key: string) => string, zone: string): string | number | null {
  const v = row[f.name];
  if (v === null || v === undefined) return null;
  const enumLabel = (x: unknown) => {
    const e = (meta.enums[f.enum ?? ''] ?? []).find((ev) => String(ev.value) === String(x));
    return e ? t(e.label) : String(x);
  };
  switch (f.type) {
    case 'enum':
      return enumLabel(v);
    case 'enums':
      return (v as unknown[]).map(enumLabel).join(', ');
    case 'ref':
      return (row[`${f.name}Label`] as string | null) ?? String(v);
    case 'refs':
      return ((row[`${f.name}Labels`] as unknown[]) ?? []).filter((x) => x !== null).join(', ');
    case 'bool':
      return t(v ? 'server.values.yes' : 'server.values.no');
    case 'datetime':
      return formatDateTime(v as string, zone);
    case 'int':
    case 'decimal':
      return v as number;
    case 'lnglat':
    case 'image':
    case 'file':
      return Array.isArray(v) ? v.join(', ') : String(v);
    default:
      return String(v);
  }
}

/** Bytes above which the writer waits for the zip (deflate) to catch up. */
const ZIP_BACKLOG = 1 << 20;

interface Drainable {
  writableNeedDrain?: boolean;
  _writableState?: { length: number };
  _readableState?: { length: number };
  once(event: string, fn: () => void): unknown;
  off(event: string, fn: () => void): unknown;
}

const backlog = (s: Drainable) => (s._writableState?.length ?? 0) + (s._readableState?.length ?? 0);

/** Resolves on the first of `events` on `stream`, or after `ms` (a stream that went away). */
const first = (stream: Drainable, events: string[], ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const e of events) stream.off(e, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const e of events) stream.once(e, done);
  });

/** A sheet's entry stream in the zip (archiver's readable-stream PassThrough). */
type ZipInput = Drainable & { _readableState?: { length: number; pipesCount?: number; pipes?: unknown } };
/** Piped into the archive: readable-stream 2 counts pipes, Node's streams list them. */
const piped = (s: ZipInput) => {
  const st = s._readableState;
  return Boolean(st && ((st.pipesCount ?? 0) > 0 || (Array.isArray(st.pipes) ? st.pipes.length > 0 : st.pipes)));
};

export type CellValue = string | number | boolean | null;

export interface XlsxColumn {
  header: string;
  /** characters (default 16) */
  width?: number;
}

export interface XlsxSheet {
  /** one row of cells in column order, written (committed) at once */
  add(cells: CellValue[]): void;
  /** ends the sheet: its zip entry closes and the next sheet's starts streaming */
  commit(): void;
}

/**
 * The one xlsx writer of the server: resource exports, report exports and report mails all
 * write through it (exceljs WorkbookWriter, no styles, no shared strings), so back-pressure
 * and sheet rules live in one place.
 */
export interface XlsxWriter {
  sheet(name: string, columns: XlsxColumn[]): XlsxSheet;
  /**
   * Waits until the rows written so far have left the process. exceljs pushes sheet bytes into
   * the zip without back-pressure (its StreamBuf ignores write() === false), so a fast source
   * would pile the whole sheet up in the zip's input buffer ahead of deflate; and deflate's
   * output waits on a slow client. Both are checked here; call it after each page of rows.
   */
  taken(): Promise<void>;
  /** the target went away (client closed the download): stop writing */
  readonly closed: boolean;
  /** ends every sheet and the workbook */
  commit(): Promise<void>;
}

/** Excel allows 31 characters and none of []:*?/\ in a sheet name. */
export const sheetName = (name: string): string => name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1';

export function xlsxWriter(out: Writable): XlsxWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheets: ExcelJS.Worksheet[] = [];
  const target = out as unknown as Drainable & { destroyed?: boolean };
  const used = new Set<string>();
  return {
    sheet(name, columns) {
      // names must differ within a workbook
      let unique = sheetName(name);
      for (let i = 2; used.has(unique); i++) unique = `${sheetName(name).slice(0, 28)} ${i}`;
      used.add(unique);
      const ws = workbook.addWorksheet(unique);
      ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 16 }));
      sheets.push(ws);
      let open = true;
      return {
        add: (cells) => ws.addRow(cells).commit(),
        commit: () => {
          if (open) ws.commit();
          open = false;
        },
      };
    },
    async taken() {
      // Only the entry the zip is reading (its input piped into the archive) can drain. Its next
      // chunk taken ('data') lets the next page be read while deflate works; a sheet queued
      // behind it is left alone: a 'data' listener there would set it flowing into nothing,
      // taking its bytes from the zip.
      const zipInputs = sheets
        .map((ws) => ((ws as unknown as { stream?: { pipes?: ZipInput[] } }).stream?.pipes ?? [])[0])
        .filter((s): s is ZipInput => !!s && piped(s));
      for (;;) {
        if (target.destroyed) return;
        if (target.writableNeedDrain) {
          await first(target, ['drain', 'close'], 1000);
          continue;
        }
        const full = zipInputs.find((s) => piped(s) && backlog(s) > ZIP_BACKLOG);
        if (!full) return;
        await first(full, ['drain', 'data'], 50);
      }
    },
    get closed() {
      return Boolean(target.destroyed);
    },
    async commit() {
      for (const ws of sheets) if (!(ws as unknown as { committed?: boolean }).committed) ws.commit();
      await workbook.commit();
    },
  };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Status and headers of a streamed xlsx answer; `title` names the file in the user's language. */
export function xlsxResponse(res: Response, fileName: string, title?: string): void {
  res.status(200);
  res.setHeader('Content-Type', XLSX_TYPE);
  const ascii = fileName.replace(/[^\w.-]+/g, '_');
  res.setHeader('Content-Disposition', `attachment; filename="${ascii}"${title ? `; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}` : ''}`);
}

/** A whole workbook in memory (mail attachments): the same writer into a buffer. */
export async function xlsxBuffer(build: (w: XlsxWriter) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve);
    sink.on('error', reject);
  });
  const w = xlsxWriter(sink);
  await build(w);
  await w.commit();
  await finished;
  return Buffer.concat(chunks);
}

export async function streamExport(
  repo: ScopedRepository,
  body: Record<string, unknown>,
  res: Response,
  meta: Metadata,
  t: TFunction,
  lang: Language,
  zone = 'UTC',
): Promise<void> {
  const tr = (key: string) => t(lang, key);
  const resource = repo.resource;
  const fields = exportFields(resource);
  // Parse before the first byte: bad filters still answer with an envelope.
  repo.parse({ ...body, page: undefined, limit: undefined });
  const title = tr(resourceLabelKey(resource));
  xlsxResponse(res, `${resource.name}-${new Date().toISOString().slice(0, 10)}.xlsx`, title);
  const workbook = xlsxWriter(res);
  const sheet = workbook.sheet(
    title,
    fields.map((f) => ({
      header: tr(fieldLabelKey(f)),
      width: Math.max(12, Math.round((typeof f.list === 'object' && f.list.width ? f.list.width : 120) / 7)),
    })),
  );
  for await (const rows of exportPages(repo, body)) {
    for (const row of rows) sheet.add(fields.map((f) => cellValue(f, row, meta, tr, zone)));
    await workbook.taken();
    if (workbook.closed) return;
  }
  await workbook.commit();
}
