/**
 * History exports: the points of a history (or mix history) as xlsx, one row per point with
 * its sensors, events on their own sheet. Same query, scope and limits as the history call.
 */
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { HistoryAnswer } from './history';

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
