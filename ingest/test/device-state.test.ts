import { loadMetadata } from '@rti/metadata';
import { createDatabase, type Database } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceStateTracker } from '../src/state/device-state';
import type { SeriesRow } from '../src/store/series';

let db: Database;
let tracker: DeviceStateTracker;
let orgId: number;
let now = Date.UTC(2026, 10, 22, 8, 0, 0);
const ids: Record<string, number> = {};

const beacon = (battery: number, at = now): SeriesRow => ({ org: orgId, mac: 'E2C56DB5DFFB', time: at, rssi: -60, battery, gatewayMac: 'AC233FC0A1B2' });
const gateway = (connection: number, at = now): SeriesRow => ({ org: orgId, mac: 'AC233FC0A1B2', time: at, connection });
const row = async (resource: string, id: number) => (await db.models[resource].findByPk(id, { raw: true })) as unknown as Record<string, unknown>;
const rows = async (resource: string) => (await db.models[resource].findAll({ raw: true, order: [['id', 'ASC']] })) as unknown as Array<Record<string, unknown>>;

beforeAll(async () => {
  db = createDatabase('sqlite::memory:', { metadata: loadMetadata(), log: () => undefined });
  await db.migrate();
  const m = db.models;
  orgId = (await m.organization.create({ code: 'ACME', name: 'Acme', available: true })).get('id') as number;
  const model = (await m['device-model'].create({ orgId, name: 'Tag model', batteryThreshold: 20, offlineCheckTime: 10 })).get('id') as number;
  ids.beacon = (await m['device-beacon'].create({ orgId, sn: 'B-1', name: 'Tag 1', mac: 'E2:C5:6D:B5:DF:FB', deviceModelId: model, useStatus: 20, status: 0 })).get('id') as number;
  ids.gateway = (await m['device-slave-gateway'].create({ orgId, sn: 'GW-1', name: 'Gate', mac: 'AC233FC0A1B2', deviceModelId: model, useStatus: 20, status: 0 })).get('id') as number;
  tracker = new DeviceStateTracker({ database: db, now: () => now, flushMs: 0, sweepMs: 0 });
  await tracker.start();
});

afterAll(async () => {
  await tracker?.stop();
  await db?.close();
});

describe('derived device state', () => {
  it('marks a reporting device online with its battery and last report time, logging the change', async () => {
    tracker.observe([{ series: 'beacon', rows: [beacon(80, now - 5000), beacon(79)] }]);
    await tracker.flush();
    const b = await row('device-beacon', ids.beacon);
    expect(b).toMatchObject({ status: 10, battery: 79 });
    expect(new Date(b.lastReportTime as string).getTime()).toBe(Math.floor(now / 60000) * 60000);
    expect(await rows('device-beacon-log')).toEqual([expect.objectContaining({ beaconId: ids.beacon, event: 40, oldValue: '0', newValue: '10' })]);
  });

  it('opens one battery alert while the battery stays low and clears it once recovered', async () => {
    now += 60_000;
    tracker.observe([{ series: 'beacon', rows: [beacon(15)] }]);
    await tracker.flush();
    now += 60_000;
    tracker.observe([{ series: 'beacon', rows: [beacon(14)] }]);
    await tracker.flush();
    let alerts = await rows('device-beacon-alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ beaconId: ids.beacon, beaconSn: 'B-1', reason: 10, status: 0, clearedAt: null });
    now += 60_000;
    tracker.observe([{ series: 'beacon', rows: [beacon(22)] }]); // inside the hysteresis band: still open
    await tracker.flush();
    expect((await rows('device-beacon-alert'))[0].clearedAt).toBeNull();
    tracker.observe([{ series: 'beacon', rows: [beacon(90)] }]);
    await tracker.flush();
    alerts = await rows('device-beacon-alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].clearedAt).not.toBeNull();
  });

  it('marks a silent device offline after its model offlineCheckTime, once', async () => {
    now += 9 * 60_000;
    await tracker.sweep();
    expect((await row('device-beacon', ids.beacon)).status).toBe(10);
    now += 2 * 60_000;
    await tracker.sweep();
    await tracker.sweep();
    expect((await row('device-beacon', ids.beacon)).status).toBe(20);
    const logs = (await rows('device-beacon-log')).filter((l) => l.event === 40);
    expect(logs.map((l) => `${l.oldValue}→${l.newValue}`)).toEqual(['0→10', '10→20']);
  });

  it('follows gateway disconnection and reconnection with one alert', async () => {
    tracker.observe([{ series: 'gateway', rows: [gateway(10)] }]);
    await tracker.flush();
    expect((await row('device-slave-gateway', ids.gateway)).status).toBe(10);
    now += 1000;
    tracker.observe([{ series: 'gateway', rows: [gateway(20)] }]);
    await tracker.flush();
    tracker.observe([{ series: 'gateway', rows: [gateway(20, now + 1)] }]);
    await tracker.flush();
    expect((await row('device-slave-gateway', ids.gateway)).status).toBe(20);
    let alerts = await rows('device-slave-gateway-alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ slaveGatewayId: ids.gateway, slaveGatewaySn: 'GW-1', reason: 20, clearedAt: null });
    now += 1000;
    tracker.observe([{ series: 'gateway', rows: [gateway(10)] }]);
    await tracker.flush();
    expect((await row('device-slave-gateway', ids.gateway)).status).toBe(10);
    alerts = await rows('device-slave-gateway-alert');
    expect(alerts[0].clearedAt).not.toBeNull();
  });

  it('resumes from the database after a restart (open alerts are not opened again)', async () => {
    now += 60_000;
    tracker.observe([{ series: 'beacon', rows: [beacon(10)] }]);
    await tracker.flush();
    const again = new DeviceStateTracker({ database: db, now: () => now, flushMs: 0, sweepMs: 0 });
    await again.start();
    now += 60_000;
    again.observe([{ series: 'beacon', rows: [beacon(9)] }]);
    await again.flush();
    expect((await rows('device-beacon-alert')).filter((a) => a.clearedAt === null)).toHaveLength(1);
    await again.stop();
  });
});
