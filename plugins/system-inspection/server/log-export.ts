/**
 * System log export: the organisation's request log (admin log) and operation log over a time
 * range, as one xlsx with a sheet each, streamed. Rows come through the caller's scoped
 * repositories, newest first, at most LOG_EXPORT_CAP per sheet.
 */
import ExcelJS from 'exceljs';
import { Op } from 'sequelize';
import type { Response } from 'express';
import { ApiError, ErrorCode, tKey, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';

export const LOG_EXPORT_CAP = 20_000;
const DAY = 86_400_000;

/** `time: [from, to]` (ISO or epoch ms, either end optional); default the last 7 days */
export function logRange(body: Record<string, unknown>, now = Date.now()): [Date, Date] {
  const raw = Array.isArray(body.time) ? body.time : [body.startTime, body.endTime];
  const parse = (v: unknown, fallback: number): Date => {
    if (v === undefined || v === null || v === '') return new Date(fallback);
    const d = new Date(typeof v === 'number' ? v : String(v));
    if (Number.isNaN(d.getTime())) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey('fields.time'), type: tKey('validation.types.datetime') });
    return d;
  };
  const from = parse(raw[0], now - 7 * DAY);
  const to = parse(raw[1], now);
  if (from > to) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey('fields.time'), type: tKey('validation.types.datetime') });
  return [from, to];
}

const SHEETS = [
  { resource: 'admin-log', columns: ['time', 'operator', 'ip', 'method', 'path', 'responseCode', 'message', 'userAgent'] },
  { resource: 'operation-log', columns: ['time', 'operator', 'ip', 'object', 'action', 'objectName', 'content'] },
];

export async function writeLogExport(res: Response, ctx: PluginServerContext, call: RequestContext, range: [Date, Date]): Promise<void> {
  const stamp = new Date().toISOString().slice(0, 10);
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="system-log-${stamp}.xlsx"`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  for (const sheet of SHEETS) {
    if (!ctx.metadata.resources[sheet.resource]) continue;
    const ws = wb.addWorksheet(sheet.resource);
    ws.columns = sheet.columns.map((c) => ({ header: ctx.t(call.language, `fields.${c}`), key: c, width: c === 'message' || c === 'content' || c === 'userAgent' ? 50 : 20 }));
    const repo = ctx.repo(sheet.resource, call);
    const rows = await repo.findAll({ where: { time: { [Op.between]: range } }, order: [['time', 'DESC'], ['id', 'DESC']], limit: LOG_EXPORT_CAP, raw: true });
    for (const r of rows as unknown as Array<Record<string, unknown>>) {
      ws.addRow(sheet.columns.map((c) => (c === 'time' ? new Date(r[c] as string).toISOString().replace('T', ' ').slice(0, 19) : (r[c] ?? '')))).commit();
    }
    ws.commit();
  }
  await wb.commit();
}
