/**
 * Task 60, GPS report mail: for each GPS tracker of the organisation and each of the last
 * full days (validity period, default 1) in the scheduler's zone — the number of position
 * fixes, the distance between consecutive fixes, the highest speed and the device events
 * (alarms) — from the telemetry plugin's data points.
 */
import type { SeriesRow } from '@rti/ingest';
import { CronExpressionParser } from 'cron-parser';
import { haversine } from '../../../map/shared/track';
import { telemetryRuntime } from '../../../telemetry/server/runtime';
import { gpsRows, num as n } from '../../../vehicle/server/telemetry';
import type { Outcome, RunContext } from '../task';
import { dayOf, formatTime, workbook } from '../xlsx';

/** gpsDataType: event report */
const EVENT = 20;

export interface DayFigures {
  day: string;
  points: number;
  distanceKm: number;
  maxSpeed: number | null;
  alarms: number;
}


/** Rows in ascending time → one line per day that has data. */
export function dailyFigures(rows: readonly SeriesRow[], timezone: string): DayFigures[] {
  const days = new Map<string, DayFigures & { last: [number, number] | null }>();
  for (const r of rows) {
    const day = dayOf(r.time, timezone);
    const d = days.get(day) ?? { day, points: 0, distanceKm: 0, maxSpeed: null, alarms: 0, last: null };
    days.set(day, d);
    if (Number(r.dataType) === EVENT && r.eventCode) {
      d.alarms++;
      continue;
    }
    const lat = n(r.latitude);
    const lng = n(r.longitude);
    if (lat === null || lng === null) continue;
    d.points++;
    if (d.last) d.distanceKm += haversine(d.last[1], d.last[0], lng, lat) / 1000;
    d.last = [lat, lng];
    const speed = n(r.speed);
    if (speed !== null) d.maxSpeed = d.maxSpeed === null ? speed : Math.max(d.maxSpeed, speed);
  }
  return [...days.values()].map(({ last: _last, ...d }) => ({ ...d, distanceKm: Math.round(d.distanceKm * 100) / 100 }));
}

export async function gpsReportMail(rc: RunContext): Promise<Outcome> {
  const store = telemetryRuntime(rc.plugin.database)?.store;
  if (!store) return { kind: 'skipped', reason: rc.t('scheduler.skip.noTelemetry') };
  const days = rc.task.validityPeriod && rc.task.validityPeriod > 0 ? rc.task.validityPeriod : 1;
  // the last full days: from midnight `days` days ago to today's midnight, in the zone
  const midnight = CronExpressionParser.parse('0 0 0 * * *', { tz: rc.timezone, currentDate: new Date(rc.now.getTime() + 1) }).prev().getTime();
  const midnights = CronExpressionParser.parse('0 0 0 * * *', { tz: rc.timezone, currentDate: new Date(midnight) });
  let from = midnight;
  for (let i = 0; i < days; i++) from = midnights.prev().getTime();
  const to = midnight - 1;
  const trackers = (await rc.plugin.repo('device-gps', rc.call).findAll({ attributes: ['id', 'sn', 'name'], order: [['sn', 'ASC']], raw: true })) as unknown as Array<{ sn: string; name: string }>;
  const lines: Array<Record<string, unknown>> = [];
  for (const g of trackers) {
    for (const d of dailyFigures(await gpsRows(store, rc.call.orgId!, String(g.sn), from, to, Infinity), rc.timezone)) lines.push({ sn: g.sn, name: g.name, ...d });
  }
  const period = { from: formatTime(from, rc.timezone), to: formatTime(to, rc.timezone) };
  if (!lines.length) return { kind: 'empty', reason: rc.t('scheduler.empty.gpsReport', period) };
  const content = await workbook(
    rc.t('scheduler.sheet.gpsReport'),
    [
      { header: rc.t('scheduler.col.gpsSn'), key: 'sn', width: 18 },
      { header: rc.t('scheduler.col.gpsName'), key: 'name', width: 18 },
      { header: rc.t('scheduler.col.day'), key: 'day', width: 12 },
      { header: rc.t('scheduler.col.points'), key: 'points', width: 10 },
      { header: rc.t('scheduler.col.distanceKm'), key: 'distanceKm', width: 14 },
      { header: rc.t('scheduler.col.maxSpeed'), key: 'maxSpeed', width: 14 },
      { header: rc.t('scheduler.col.alarms'), key: 'alarms', width: 10 },
    ],
    lines,
  );
  return {
    kind: 'report',
    report: {
      title: rc.t('enums.taskName.gpsReportMail'),
      text: rc.t('scheduler.text.gpsReport', { count: trackers.length, lines: lines.length, ...period }),
      attachment: { filename: `gps-report-${period.to.slice(0, 10)}.xlsx`, content },
      rows: lines.length,
    },
  };
}
