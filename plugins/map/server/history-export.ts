/**
 * History exports as xlsx: the points of a history (or mix history), one row per point with
 * its sensors, events on their own sheet; and one sensor series per workbook. Same query,
 * scope and limits as the history call.
 */
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { HistoryAnswer } from './history';
import type { ReportLabels } from './report-labels';

export async function writeHistoryXlsx(res: Response, h: HistoryAnswer, name: string): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="${name}-${h.from.slice(0, 10)}-${h.to.slice(0, 10)}.xlsx"`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  const pts = wb.addWorksheet('track');
  pts.columns = ['time', 'longitude', 'latitude', 'speed', 'source'].map((c) => ({ header: c, key: c, width: 20 }));
  const tr = h.track;
  for (let i = 0; i < tr.t.length; i++) pts.addRow([new Date(tr.t[i]).toISOString(), tr.lng[i], tr.lat[i], tr.speed[i], tr.src[i] === 2 ? 'beacon' : 'gps']).commit();
  pts.commit();
  const sens = wb.addWorksheet('sensors');
  sens.columns = ['time', 'temperature', 'humidity', 'shock', 'pressure'].map((c) => ({ header: c, key: c, width: 16 }));
  const s = h.sensors;
  for (let i = 0; i < s.t.length; i++) sens.addRow([new Date(s.t[i]).toISOString(), s.temp[i], s.hum[i], s.shock[i], s.pres[i]]).commit();
  sens.commit();
  const ev = wb.addWorksheet('events');
  ev.columns = ['time', 'code', 'value', 'longitude', 'latitude'].map((c) => ({ header: c, key: c, width: 16 }));
  for (const e of h.events) ev.addRow([new Date(e.t).toISOString(), e.code, e.value, e.lng, e.lat]).commit();
  ev.commit();
  await wb.commit();
}

/** the four sensor series of a history, by the export call's name */
export const SENSOR_EXPORTS = { temperature: 'temp', humidity: 'hum', shock: 'shock', pressure: 'pres' } as const;
export type SensorExport = keyof typeof SENSOR_EXPORTS;

/** One sensor series as xlsx (time in the caller's offset, value), header in the caller's language. */
export async function writeSensorXlsx(res: Response, h: HistoryAnswer, sensor: SensorExport, labels: ReportLabels, utcOffset: number): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="${sensor}-${h.from.slice(0, 10)}-${h.to.slice(0, 10)}.xlsx"`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet(sensor);
  sheet.columns = [{ header: `${labels.time} (UTC${utcOffset < 0 ? '-' : '+'}${String(Math.trunc(Math.abs(utcOffset) / 60)).padStart(2, '0')}:${String(Math.abs(utcOffset) % 60).padStart(2, '0')})`, key: 't', width: 22 }, { header: labels[sensor], key: 'v', width: 18 }];
  const s = h.sensors;
  const v = s[SENSOR_EXPORTS[sensor]];
  for (let i = 0; i < s.t.length; i++) if (v[i] !== null) sheet.addRow([new Date(s.t[i] + utcOffset * 60_000).toISOString().slice(0, 19).replace('T', ' '), v[i]]).commit();
  sheet.commit();
  await wb.commit();
}
