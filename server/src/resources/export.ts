/**
 * xlsx export streamed straight to the response (exceljs WorkbookWriter, no shared strings):
 * same filters, sorts and scope as list, headers and enum values translated, refs as labels.
 * Rows come in keyset pages and are committed as written; the next page is read only once
 * the zip and the client have taken the last one, so memory stays flat whatever the count.
 */
import ExcelJS from 'exceljs';
import { fieldLabelKey, resourceLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Response } from 'express';
import { exportPages } from './export-pages';
import type { Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { isSecret } from './validate';
import type { ScopedRepository } from './repository';
import type { Row } from './serialize';

/** Columns of an export: the list columns, minus secrets, hidden and structured data. */
export function exportFields(res: ResourceDef): FieldDef[] {
  return res.fields.filter((f) => f.list !== false && !isSecret(f) && !f.hidden && f.type !== 'json' && f.type !== 'permissions');
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD HH:mm:ss in UTC (the API's time zone). */
export const formatDateTime = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

function cellValue(f: FieldDef, row: Row, meta: Metadata, t: (key: string) => string): string | number | null {
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
      return formatDateTime(v as string);
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

/**
 * Waits until the rows written so far have left the process. exceljs pushes sheet bytes into
 * the zip without back-pressure (its StreamBuf ignores write() === false), so a fast database
 * would pile the whole sheet up in the zip's input buffer ahead of deflate; and deflate's
 * output waits on a slow client. Both are checked here.
 */
async function taken(sheet: ExcelJS.Worksheet, res: Response): Promise<void> {
  const zipInput = ((sheet as unknown as { stream?: { pipes?: Drainable[] } }).stream?.pipes ?? [])[0];
  while (!res.destroyed && ((zipInput && backlog(zipInput) > ZIP_BACKLOG) || res.writableNeedDrain)) {
    if (res.writableNeedDrain) await first(res as unknown as Drainable, ['drain', 'close'], 1000);
    else await first(zipInput!, ['drain', 'data'], 50);
  }
}

export async function streamExport(repo: ScopedRepository, body: Record<string, unknown>, res: Response, meta: Metadata, t: TFunction, lang: Language): Promise<void> {
  const tr = (key: string) => t(lang, key);
  const resource = repo.resource;
  const fields = exportFields(resource);
  // Parse before the first byte: bad filters still answer with an envelope.
  repo.parse({ ...body, page: undefined, limit: undefined });
  const title = tr(resourceLabelKey(resource));
  const fileName = `${resource.name}-${new Date().toISOString().slice(0, 10)}.xlsx`;
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = fields.map((f) => ({ header: tr(fieldLabelKey(f)), key: f.name, width: Math.max(12, Math.round((typeof f.list === 'object' && f.list.width ? f.list.width : 120) / 7)) }));
  for await (const rows of exportPages(repo, body)) {
    for (const row of rows) sheet.addRow(fields.map((f) => cellValue(f, row, meta, tr))).commit();
    await taken(sheet, res);
    if (res.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}
