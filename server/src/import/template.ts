/** The import template of a resource: its import columns as headers, in the caller's language. */
import ExcelJS from 'exceljs';
import { fieldLabelKey, resourceLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Response } from 'express';
import type { Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { importPlan } from './columns';

/**
 * A column must be filled in the file when the field is required without a default, or when
 * the import declares a reason code for it being empty (SPEC lists such columns).
 */
export const mustFill = (res: ResourceDef, f: FieldDef): boolean =>
  (f.required && f.default === undefined) || res.import?.codes?.[f.name]?.required !== undefined;

/** Required columns are marked with " *" (the import accepts headers with or without it). */
export const templateHeader = (res: ResourceDef, f: FieldDef, lang: Language, t: TFunction): string =>
  t(lang, fieldLabelKey(f)) + (mustFill(res, f) ? ' *' : '');

export async function writeTemplate(res: ResourceDef, meta: Metadata, lang: Language, t: TFunction, out: Response): Promise<void> {
  const fields = importPlan(res, meta).fields;
  const title = t(lang, resourceLabelKey(res));
  out.status(200);
  out.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  out.setHeader('Content-Disposition', `attachment; filename="${res.name}-template.xlsx"; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = fields.map((f) => ({ header: templateHeader(res, f, lang, t), key: f.name, width: 20 }));
  sheet.getRow(1).font = { bold: true };
  // Enum and bool columns get a drop-down of their labels in the same language.
  fields.forEach((f, i) => {
    const choices =
      f.type === 'enum'
        ? (meta.enums[f.enum ?? ''] ?? []).map((e) => t(lang, e.label))
        : f.type === 'bool'
          ? [t(lang, 'server.values.yes'), t(lang, 'server.values.no')]
          : null;
    if (!choices?.length) return;
    const list = `"${choices.map((c) => c.replace(/[",]/g, ' ')).join(',')}"`;
    if (list.length > 255) return; // Excel's limit for inline lists
    const col = sheet.getColumn(i + 1).letter;
    (sheet as unknown as { dataValidations: { add(range: string, v: object): void } }).dataValidations.add(`${col}2:${col}10001`, {
      type: 'list',
      allowBlank: true,
      formulae: [list],
    });
  });
  sheet.getRow(1).commit();
  sheet.commit();
  await workbook.commit();
}
