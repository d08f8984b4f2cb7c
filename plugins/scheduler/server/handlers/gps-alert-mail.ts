/**
 * Task 70, GPS alert mail: the organisation's unsolved GPS alerts raised within the validity
 * period (days, default 1) whose reading breaches one of the row's settings — battery at or
 * below `battery` %, a temperature probe at or above `envTemperature` °C, a humidity probe at
 * or above `envHumidity` %, |acceleration| at or above `accSpeed` G. A row with no setting
 * takes every unsolved alert of the period.
 */
import { Op } from 'sequelize';
import type { Outcome, RunContext, TaskRow } from '../task';
import { formatTime, workbook } from '../xlsx';

const DAY = 86_400_000;
const MAX_ALERTS = 10_000;
/** SPEC §4 alert status: unsolved */
const UNSOLVED = 0;

type Reading = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

function readingOf(raw: unknown): Reading {
  if (typeof raw === 'string') {
    try {
      return (JSON.parse(raw) as Reading) ?? {};
    } catch {
      return {};
    }
  }
  return raw && typeof raw === 'object' ? (raw as Reading) : {};
}

const maxOf = (r: Reading, names: string[]) => {
  const v = names.map((n) => num(r[n])).filter((x): x is number => x !== null);
  return v.length ? Math.max(...v) : null;
};

export interface AlertFigures {
  battery: number | null;
  temperature: number | null;
  humidity: number | null;
  acceleration: number | null;
}

export function figuresOf(raw: unknown): AlertFigures {
  const r = readingOf(raw);
  const acc = num(r.acceleration);
  return {
    battery: num(r.battery),
    temperature: maxOf(r, ['temperature1', 'temperature2', 'temperature3', 'temperature']),
    humidity: maxOf(r, ['humidity1', 'humidity2', 'humidity3', 'humidity']),
    acceleration: acc === null ? null : Math.abs(acc),
  };
}

/** True when the reading breaches a configured setting (or when none is configured). */
export function matchesSettings(f: AlertFigures, t: Pick<TaskRow, 'battery' | 'envTemperature' | 'envHumidity' | 'accSpeed'>): boolean {
  const checks: boolean[] = [];
  if (t.battery !== null) checks.push(f.battery !== null && f.battery <= t.battery);
  if (t.envTemperature !== null) checks.push(f.temperature !== null && f.temperature >= t.envTemperature);
  if (t.envHumidity !== null) checks.push(f.humidity !== null && f.humidity >= t.envHumidity);
  if (t.accSpeed !== null) checks.push(f.acceleration !== null && f.acceleration >= t.accSpeed);
  return checks.length === 0 || checks.some(Boolean);
}

export async function gpsAlertMail(rc: RunContext): Promise<Outcome> {
  const days = rc.task.validityPeriod && rc.task.validityPeriod > 0 ? rc.task.validityPeriod : 1;
  const to = rc.now;
  const from = new Date(to.getTime() - days * DAY);
  const repo = rc.plugin.repo('device-gps-alert', rc.call);
  const found = await repo.findAll({ where: { status: UNSOLVED, reportTime: { [Op.gte]: from, [Op.lte]: to } }, order: [['reportTime', 'DESC']], limit: MAX_ALERTS });
  const rows = await repo.serialize(found);
  const picked = rows.map((r) => ({ r, f: figuresOf(r.rawData) })).filter(({ f }) => matchesSettings(f, rc.task));
  const period = { from: formatTime(from, rc.timezone), to: formatTime(to, rc.timezone) };
  if (!picked.length) return { kind: 'empty', reason: rc.t('scheduler.empty.gpsAlerts', period) };
  const content = await workbook(
    rc.t('scheduler.sheet.gpsAlerts'),
    [
      { header: rc.t('scheduler.col.gpsSn'), key: 'gpsSn', width: 18 },
      { header: rc.t('scheduler.col.code'), key: 'code', width: 10 },
      { header: rc.t('scheduler.col.reportTime'), key: 'reportTime', width: 18 },
      { header: rc.t('scheduler.col.warehouse'), key: 'warehouse', width: 20 },
      { header: rc.t('scheduler.col.message'), key: 'message', width: 40 },
      { header: rc.t('scheduler.col.battery'), key: 'battery', width: 12 },
      { header: rc.t('scheduler.col.temperature'), key: 'temperature', width: 14 },
      { header: rc.t('scheduler.col.humidity'), key: 'humidity', width: 12 },
      { header: rc.t('scheduler.col.acceleration'), key: 'acceleration', width: 14 },
    ],
    picked.map(({ r, f }) => ({
      gpsSn: r.gpsSn,
      code: r.code,
      reportTime: formatTime(r.reportTime, rc.timezone),
      warehouse: r.warehouseIdLabel ?? '',
      message: r.message ?? '',
      ...f,
    })),
  );
  return {
    kind: 'report',
    report: {
      title: rc.t('enums.taskName.gpsAlertMail'),
      text: rc.t('scheduler.text.gpsAlerts', { count: picked.length, ...period }),
      attachment: { filename: `gps-alerts-${period.to.slice(0, 10)}.xlsx`, content },
      rows: picked.length,
    },
  };
}
