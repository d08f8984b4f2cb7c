/**
 * xlsx export streamed straight to the response (exceljs WorkbookWriter): same filters,
 * sorts and scope as list, headers and enum values translated, refs as labels. Rows are
 * fetched and committed in chunks, so memory stays flat however many rows there are.
 */
import ExcelJS from 'exceljs';
import { fieldLabelKey, resourceLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Response } from 'express';
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
  for await (const rows of repo.chunks(body)) {
    for (const row of rows) sheet.addRow(fields.map((f) => cellValue(f, row, meta, tr))).commit();
    // exceljs ignores back-pressure: wait for a slow client here, or the zip buffers every row.
    if (res.writableNeedDrain) await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
    if (res.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}
