/**
 * Task 60 over the telemetry plugin's store: the vehicle plugin's GPS report contributes the
 * task type and the mail carries the same workbook as the report's export (a sheet per day,
 * a sheet per device), for the last full day — the organisation's trackers only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime } from '@rti/plugin-telemetry/testing';
import { haversine } from '@rti/common';
import { zoneOffset } from '@rti/server/plugin-api';
import { ok, xlsxAttachment } from './support';

const haversineKm = (lat1: number, lng1: number, lat2: number, lng2: number) => haversine(lng1, lat1, lng2, lat2) / 1000;

let ts: TestServer;
let dir: string;
const DAY = 86_400_000;
const yesterday = new Date(Math.floor(Date.now() / DAY) * DAY - DAY); // UTC midnight

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-gps-'));
  Object.assign(process.env, {
    MQTT_PORT: '0',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    SIMULATOR_DEVICES: '0',
    TELEMETRY_STORE: 'segments',
    SCHEDULER_TIMEZONE: 'UTC',
    SMTP_URL: '',
  });
  ts = await startTestServer({ plugins: ['telemetry', 'map', 'vehicle', 'scheduler'], config: { dataDir: dir } });
  const rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  for (const [caller, tag] of [
    [ts.a, 'A'],
    [ts.b, 'B'],
  ] as const) {
    const model = (await ok(caller, '/device-model/create', { name: `Model ${tag}`, batteryThreshold: 20, offlineCheckTime: 30 })).id;
    await ok(caller, '/device-gps/create', { sn: `G-${tag}`, name: `Tracker ${tag}`, deviceModelId: model, useStatus: 20 });
  }
  const t0 = yesterday.getTime() + 10 * 3600_000;
  const fix = (org: number, sn: string, i: number, speed: number) => ({
    org,
    sn,
    time: t0 + i * 60_000,
    dataType: 10,
    longitude: 121,
    latitude: 31 + i * 0.01,
    speed,
  });
  await rt.store!.write([
    {
      series: 'gps',
      rows: [
        fix(ts.orgA, 'G-A', 0, 20),
        fix(ts.orgA, 'G-A', 1, 55),
        fix(ts.orgA, 'G-A', 2, 30),
        { org: ts.orgA, sn: 'G-A', time: t0 + 3 * 60_000, dataType: 20, eventCode: '018', eventValue: '1' },
        // today: outside the last full day
        { ...fix(ts.orgA, 'G-A', 0, 99), time: Date.now() - 1000 },
        fix(ts.orgB, 'G-B', 0, 80),
      ],
    },
  ]);
}, 60_000);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('mails one line per tracker and day with the GPS report screen’s figures', async () => {
  const id = (await ok(ts.a, '/task-config/create', { name: 60, type: 20, cron: '0 7 * * *', available: true, mailTo: 'fleet@example.com', validityPeriod: 1 }))
    .id;
  const run = await ok(ts.a, '/task-config/run', { id });
  expect(run).toMatchObject({ status: 'succeeded', rowCount: 1 });
  const { rows, sheets } = await xlsxAttachment(fs.readFileSync(run.outboxFile, 'utf8'));
  // the export's workbook: per day, then per device
  expect(sheets).toEqual(['Per day', 'Per device']);
  const km = Math.round((haversineKm(31, 121, 31.01, 121) + haversineKm(31.01, 121, 31.02, 121)) * 1000) / 1000;
  // the export's per-day sheet also names the carrier (empty here)
  expect(rows[0]).toEqual([
    'GPS SN',
    'Name',
    'Carrier',
    'Day',
    'Distance (km)',
    'Odometer (km)',
    'Running (h)',
    'Stopping (h)',
    'No signal (h)',
    'Max speed (km/h)',
    'Alarms',
    'Min temp (°C)',
    'Max temp (°C)',
    'Points',
  ]);
  const line = Object.fromEntries((rows[0] as string[]).map((h, i) => [h, rows[1][i]]));
  // two minutes between fixes at 55 and 30 km/h: running; the alarm row counts as a point, not a fix
  expect(line).toMatchObject({
    'GPS SN': 'G-A',
    Name: 'Tracker A',
    Day: yesterday.toISOString().slice(0, 10),
    'Distance (km)': km,
    'Running (h)': 0.03,
    'Stopping (h)': 0,
    'No signal (h)': 0,
    'Max speed (km/h)': 55,
    Alarms: 1,
    Points: 4,
  });
  expect(rows).toHaveLength(2);
  expect(km).toBeGreaterThan(2.2);
});

it('cuts days at the zone’s midnights, daylight saving included', () => {
  const berlin = zoneOffset('Europe/Berlin');
  expect(berlin(Date.UTC(2026, 0, 15))).toBe(60);
  expect(berlin(Date.UTC(2026, 6, 15))).toBe(120);
  expect(zoneOffset('Asia/Shanghai')(Date.UTC(2026, 6, 15))).toBe(480);
  expect(zoneOffset('America/New_York')(Date.UTC(2026, 0, 15))).toBe(-300);
  expect(zoneOffset('UTC')(Date.UTC(2026, 0, 15))).toBe(0);
});
