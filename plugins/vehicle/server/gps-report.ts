/**
 * GPS report (/gps/report/list, /gps/report/export): per tracker of the caller's scope, per
 * calendar day of the range (caller's time zone, body `tz` = minutes east of UTC): distance,
 * odometer, running/stopping time, top speed, alarms, temperature range (shared/report.ts).
 * The list pages over trackers, each with its days and totals; the export holds every tracker.
 */
import { Op, type WhereOptions } from 'sequelize';
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { Database } from '@rti/server';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { dailyReport, hours, totalOf, type DayReport } from '../shared/report';
import type { GpsReportRow } from '../shared/vehicle-answer';
import { carrierSnByTracker } from './carriers-of';
import { optId, parseRange, tzOf } from './range';
import { headers, sheetName, type ReportColumn } from './report-columns';
import { gpsRows, storeOf, toPoint } from './telemetry';

type Raw = Record<string, any>;
export const MAX_REPORT_DAYS = 31;
/** trackers in one export at most */
const MAX_EXPORT = 2000;

const likeOf = (s: string) => ({ [Op.like]: `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%` });

function trackerWhere(body: Record<string, unknown>): WhereOptions {
  const where: WhereOptions[] = [];
  const gpsId = optId(body.gpsId);
  const carrierId = optId(body.carrierId);
  if (gpsId !== undefined) where.push({ id: gpsId });
  if (carrierId !== undefined) where.push({ carrierId });
  if (typeof body.sn === 'string' && body.sn.trim()) where.push({ [Op.or]: [{ sn: likeOf(body.sn.trim()) }, { name: likeOf(body.sn.trim()) }] });
  return { [Op.and]: where };
}

async function reportRows(ctx: PluginServerContext, db: Database, call: RequestContext, trackers: Raw[], body: Record<string, unknown>): Promise<GpsReportRow[]> {
  const { from, to } = parseRange(body, 7, MAX_REPORT_DAYS);
  const tz = tzOf(body);
  const store = storeOf(ctx);
  const carrierSn = await carrierSnByTracker(ctx, call, trackers);
  const out: GpsReportRow[] = [];
  for (const g of trackers) {
    const days = dailyReport((await gpsRows(store, call.orgId!, String(g.sn), from, to)).map(toPoint), { tzOffsetMin: tz });
    out.push({ gpsId: Number(g.id), sn: String(g.sn), name: (g.name as string) ?? null, carrierSn: carrierSn.get(Number(g.id)) ?? null, days, total: totalOf(days) });
  }
  return out;
}

export async function gpsReportList(ctx: PluginServerContext, db: Database, call: RequestContext, body: Record<string, unknown>) {
  parseRange(body, 7, MAX_REPORT_DAYS); // refuse a bad range before any work
  const repo = ctx.repo('device-gps', call);
  const limit = Math.min(Math.max(1, Number(body.limit) || 10), 100);
  const page = Math.max(1, Number(body.page) || 1);
  const where = trackerWhere(body);
  const [rows, total] = await Promise.all([repo.findAll({ where, order: [['sn', 'ASC']], limit, offset: (page - 1) * limit }), repo.count(where)]);
  return { list: await reportRows(ctx, db, call, await repo.serialize(rows), body), total };
}


export async function gpsReportExport(ctx: PluginServerContext, db: Database, call: RequestContext, body: Record<string, unknown>, res: Response): Promise<void> {
  const { from, to } = parseRange(body, 7, MAX_REPORT_DAYS);
  const repo = ctx.repo('device-gps', call);
  const trackers = await repo.serialize(await repo.findAll({ where: trackerWhere(body), order: [['sn', 'ASC']], limit: MAX_EXPORT }));
  const report = await reportRows(ctx, db, call, trackers, body);
  const lang = call.language;
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="gps-report-${new Date(from).toISOString().slice(0, 10)}-${new Date(to).toISOString().slice(0, 10)}.xlsx"`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  const figures = (d: Omit<DayReport, 'day'>) => [d.distanceKm, d.mileageKm, hours(d.runningMs), hours(d.stoppingMs), hours(d.silentMs), d.maxSpeed, d.alarms, d.tempMin, d.tempMax, d.points];
  const FIG: ReportColumn[] = ['distanceKm', 'mileageKm', 'running', 'stopping', 'silent', 'maxSpeed', 'alarms', 'tempMin', 'tempMax', 'points'];
  const perDay = wb.addWorksheet(sheetName(ctx.t, lang, 'perDay'));
  perDay.columns = headers(ctx.t, lang, ['sn', 'name', 'carrier', 'day', ...FIG]).map((header) => ({ header, width: 16 }));
  for (const r of report) for (const d of r.days) perDay.addRow([r.sn, r.name, r.carrierSn, d.day, ...figures(d)]).commit();
  perDay.commit();
  const perDevice = wb.addWorksheet(sheetName(ctx.t, lang, 'perDevice'));
  perDevice.columns = headers(ctx.t, lang, ['sn', 'name', 'carrier', 'days', ...FIG]).map((header) => ({ header, width: 16 }));
  for (const r of report) perDevice.addRow([r.sn, r.name, r.carrierSn, r.total.days, ...figures(r.total)]).commit();
  perDevice.commit();
  await wb.commit();
}
