/**
 * Task 60, GPS report mail: for each GPS tracker of the organisation and each of the last
 * full days (validity period, default 1) in the scheduler's zone, the same figures as the
 * GPS report screen (/gps/report): distance, odometer, running, stopping and no-signal hours,
 * top speed, alarms, temperature range and data points. They come from the vehicle plugin's
 * report (plugins/vehicle/shared/report.ts), with days cut at the zone's midnights (daylight
 * saving included).
 */
import { CronExpressionParser } from 'cron-parser';
import type {} from '@rti/plugin-telemetry/api'; // types tryUse('telemetry')
import { dailyReport, hours } from '@rti/plugin-vehicle/report';
import { headers, type ReportColumn } from '@rti/plugin-vehicle/report-columns';
import { gpsRows, toPoint } from '@rti/plugin-vehicle/gps-rows';
import type { Outcome, RunContext } from '../task';
import { formatTime, workbook, zoneOffset } from '../xlsx';

/** the per-day columns of the GPS report export, with its headers */
const COLUMNS: ReportColumn[] = ['sn', 'name', 'day', 'distanceKm', 'mileageKm', 'running', 'stopping', 'silent', 'maxSpeed', 'alarms', 'tempMin', 'tempMax', 'points'];

export async function gpsReportMail(rc: RunContext): Promise<Outcome> {
  const store = rc.plugin.tryUse('telemetry')?.store;
  if (!store) return { kind: 'skipped', reason: rc.t('scheduler.skip.noTelemetry') };
  const days = rc.task.validityPeriod && rc.task.validityPeriod > 0 ? rc.task.validityPeriod : 1;
  // the last full days: from midnight `days` days ago to today's midnight, in the zone
  const midnight = CronExpressionParser.parse('0 0 0 * * *', { tz: rc.timezone, currentDate: new Date(rc.now.getTime() + 1) }).prev().getTime();
  const midnights = CronExpressionParser.parse('0 0 0 * * *', { tz: rc.timezone, currentDate: new Date(midnight) });
  let from = midnight;
  for (let i = 0; i < days; i++) from = midnights.prev().getTime();
  const to = midnight - 1;
  const trackers = (await rc.plugin.repo('device-gps', rc.call).findAll({ attributes: ['id', 'sn', 'name'], order: [['sn', 'ASC']], raw: true })) as unknown as Array<{ sn: string; name: string }>;
  const offsetAt = zoneOffset(rc.timezone);
  const lines: Array<Record<string, unknown>> = [];
  for (const g of trackers) {
    const points = (await gpsRows(store, rc.call.orgId!, String(g.sn), from, to, Infinity)).map(toPoint);
    for (const d of dailyReport(points, { offsetAt })) lines.push({ ...d, sn: g.sn, name: g.name, running: hours(d.runningMs), stopping: hours(d.stoppingMs), silent: hours(d.silentMs) });
  }
  const period = { from: formatTime(from, rc.timezone), to: formatTime(to, rc.timezone) };
  if (!lines.length) return { kind: 'empty', reason: rc.t('scheduler.empty.gpsReport', period) };
  const content = await workbook(
    rc.t('scheduler.sheet.gpsReport'),
    headers(rc.plugin.t, rc.language, COLUMNS).map((header, i) => ({ header, key: COLUMNS[i], width: i < 2 ? 18 : 14 })),
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
