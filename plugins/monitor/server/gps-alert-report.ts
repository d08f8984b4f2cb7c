/**
 * GPS alert report (/device-alert/gps/report/list and /export, and the "GPS alert mail" task
 * type, SPEC §9 taskName 70): the organisation's unsolved GPS alerts raised in the range whose
 * reading (the alert's rawData) breaches one of the thresholds — battery at or below
 * `battery` %, a temperature probe at or above `envTemperature` °C, a humidity probe at or
 * above `envHumidity` %, |acceleration| at or above `accSpeed` G. No threshold: every
 * unsolved alert of the range. A task-config row's own settings are the thresholds of its mail.
 */
import { Enums } from '@rti/metadata';
import { Op } from 'sequelize';
import { DAY_MS, dayOf, formatTime, timeRange, type PluginServerContext, type ReportQuery, type TimeRange } from '@rti/server/plugin-api';

/** alerts read per report at most (the thresholds apply to each reading, after the query) */
export const MAX_ALERTS = 10_000;

export interface AlertThresholds {
  battery: number | null;
  envTemperature: number | null;
  envHumidity: number | null;
  accSpeed: number | null;
}

interface Params extends Partial<AlertThresholds> {
  time: TimeRange;
}

type Reading = Record<string, unknown>;
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

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

/** The figures of an alert's reading: battery, highest temperature and humidity probe, |acceleration|. */
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

/** True when the reading breaches a configured threshold (or when none is configured). */
export function matchesSettings(f: AlertFigures, t: Partial<AlertThresholds>): boolean {
  const checks: boolean[] = [];
  if (t.battery != null) checks.push(f.battery !== null && f.battery <= t.battery);
  if (t.envTemperature != null) checks.push(f.temperature !== null && f.temperature >= t.envTemperature);
  if (t.envHumidity != null) checks.push(f.humidity !== null && f.humidity >= t.envHumidity);
  if (t.accSpeed != null) checks.push(f.acceleration !== null && f.acceleration >= t.accSpeed);
  return checks.length === 0 || checks.some(Boolean);
}

export function defineGpsAlertReport(ctx: PluginServerContext): void {
  const unsolved = Enums.alertStatus.unsolved;

  /** The matching alerts, newest first (the thresholds need each reading, so they apply here). */
  async function alerts(q: ReportQuery<Params>) {
    const repo = ctx.repo('device-gps-alert', q.ctx);
    const { from, to } = q.params.time;
    const found = await repo.findAll({
      where: { status: unsolved, reportTime: { [Op.gte]: new Date(from), [Op.lte]: new Date(to) } },
      order: [
        ['reportTime', 'DESC'],
        ['id', 'DESC'],
      ],
      limit: MAX_ALERTS,
    });
    return (await repo.serialize(found))
      .map((r) => ({
        id: r.id,
        gpsSn: r.gpsSn,
        code: r.code,
        reportTime: r.reportTime,
        warehouse: r.warehouseIdLabel ?? null,
        message: r.message ?? null,
        ...figuresOf(r.rawData),
      }))
      .filter((r) => matchesSettings(r, q.params));
  }
  const period = (q: { params: Params; zone: string | number }) => ({
    from: formatTime(q.params.time.from, q.zone, false),
    to: formatTime(q.params.time.to, q.zone, false),
  });

  ctx.reports.define<Params>({
    name: 'monitor.gps-alerts',
    title: 'monitor.report.gpsAlerts.title',
    path: '/device-alert/gps/report',
    parameters: [
      timeRange({ defaultDays: 1, maxDays: 93 }),
      { name: 'battery', type: 'int', label: 'fields.batteryAlert', min: 0, max: 100, unit: 'percent' },
      { name: 'envTemperature', type: 'decimal', min: -100, max: 200, unit: 'celsius' },
      { name: 'envHumidity', type: 'decimal', min: 0, max: 100, unit: 'percent' },
      { name: 'accSpeed', type: 'decimal', min: 0, max: 100, unit: 'g' },
    ],
    columns: [
      { key: 'gpsSn', label: 'monitor.report.gpsAlerts.gpsSn', width: 18 },
      { key: 'code', label: 'monitor.report.gpsAlerts.code', width: 10 },
      { key: 'reportTime', label: 'monitor.report.gpsAlerts.reportTime', type: 'datetime', width: 20 },
      { key: 'warehouse', label: 'monitor.report.gpsAlerts.warehouse', width: 20 },
      { key: 'message', label: 'monitor.report.gpsAlerts.message', width: 40 },
      { key: 'battery', label: 'monitor.report.gpsAlerts.battery', unit: 'percent', type: 'decimal', width: 12 },
      { key: 'temperature', label: 'monitor.report.gpsAlerts.temperature', unit: 'celsius', type: 'decimal', width: 16 },
      { key: 'humidity', label: 'monitor.report.gpsAlerts.humidity', unit: 'percent', type: 'decimal', width: 12 },
      { key: 'acceleration', label: 'monitor.report.gpsAlerts.acceleration', unit: 'g', type: 'decimal', width: 16 },
    ],
    rowKey: 'id',
    async rows(q, w) {
      const all = await alerts(q);
      return { list: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    async *scan(q) {
      yield await alerts(q);
    },
    maxRows: MAX_ALERTS,
    fileName: (q) => `gps-alerts-${dayOf(q.params.time.to, q.zone)}`,
    schedule: {
      taskName: 'gpsAlertMail',
      parameters: ({ task, now }) => {
        const days = Number(task.validityPeriod) > 0 ? Number(task.validityPeriod) : 1;
        return {
          time: [now.getTime() - days * DAY_MS, now.getTime()],
          battery: task.battery,
          envTemperature: task.envTemperature,
          envHumidity: task.envHumidity,
          accSpeed: task.accSpeed,
        };
      },
      summary: (run, r) => run.t('monitor.report.gpsAlerts.text', { count: r.rows, ...period({ params: r.params, zone: run.timezone }) }),
      empty: (run, p) => run.t('monitor.report.gpsAlerts.empty', period({ params: p, zone: run.timezone })),
    },
  });
}
