/**
 * Carrier ↔ device binding through the real calls: refusal of a device bound elsewhere (in
 * every language), the device's carrierId following the carrier, bound devices kept from
 * deletion, and the carrier/device log events of SPEC §4 written with each write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, seedBasics, startWithPlugin, type Basics, type TestServer } from './fixtures';

let ts: TestServer;
let a: Basics;

beforeAll(async () => {
  ts = await startWithPlugin();
  a = await seedBasics(ts, ts.a, 'A');
});
afterAll(() => ts?.close());

const carrier = (sn: string, extra: Record<string, unknown> = {}) => ok(ts.a, '/carrier/create', { sn, carrierCodeId: a.carrierCodeId, ...extra });
const events = async (path: string, filter: Record<string, unknown>) =>
  ((await ok(ts.a, path, { ...filter, limit: 100, sortById: true })).list as Array<Record<string, unknown>>).map((r) => r.event);
const beacon = (id: number) => ok(ts.a, '/device-beacon', { id });

describe('binding a beacon or GPS', () => {
  it('points the device at the carrier and logs register and bind events', async () => {
    const c = await carrier('C-1', { beaconId: a.beacons[0], gpsId: a.gpsId });
    expect((await beacon(a.beacons[0])).carrierId).toBe(c.id);
    expect((await ok(ts.a, '/device-gps', { id: a.gpsId })).carrierId).toBe(c.id);
    expect(await events('/carrier-log/list', { carrierId: c.id })).toEqual([10, 20, 40]);
    expect(await events('/device-beacon-log/list', { beaconId: a.beacons[0] })).toEqual([10, 20]);
    expect(await events('/device-gps-log/list', { gpsId: a.gpsId })).toEqual([10, 20]);
    const log = (await ok(ts.a, '/carrier-log/list', { carrierId: c.id, event: [20] })).list[0];
    expect(log).toMatchObject({ beaconId: a.beacons[0], operator: 'alice', orgId: ts.orgA });
    expect(Date.parse(log.time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a device already bound to another carrier, in the caller language', async () => {
    const en = await ts.a.call('/carrier/create', { sn: 'C-2', carrierCodeId: a.carrierCodeId, beaconId: a.beacons[0] });
    expect(en.body.code).toBe(10003);
    expect(en.body.message).toBe('Beacon B-A-1 is already bound to carrier C-1');
    const zh = await ts.a.call('/carrier/create', { sn: 'C-2', carrierCodeId: a.carrierCodeId, gpsId: a.gpsId }, { language: 'zh-CN' });
    expect(zh.body.message).toBe('GPS设备 G-A 已绑定到载具 C-1');
    const ja = await ts.a.call('/carrier/create', { sn: 'C-2', carrierCodeId: a.carrierCodeId, beaconId: a.beacons[0] }, { language: 'ja-JP' });
    expect(ja.body.message).toContain('B-A-1');
    expect(ja.body.message).toContain('紐付け');
    // nothing half-written: no carrier C-2, no log rows for it
    expect((await ok(ts.a, '/carrier/list', { sn: 'C-2' })).total).toBe(0);
    const c2 = await carrier('C-2');
    const refused = await ts.a.call('/carrier/update', { id: c2.id, beaconId: a.beacons[0] });
    expect(refused.body.code).toBe(10003);
    expect((await beacon(a.beacons[0])).carrierId).not.toBe(c2.id);
  });

  it('moves the binding on update: old device freed, new one bound, both logged', async () => {
    const c = (await ok(ts.a, '/carrier/list', { sn: 'C-1' })).list[0];
    await ok(ts.a, '/carrier/update', { id: c.id, beaconId: a.beacons[1] });
    expect((await beacon(a.beacons[0])).carrierId).toBeNull();
    expect((await beacon(a.beacons[1])).carrierId).toBe(c.id);
    expect(await events('/carrier-log/list', { carrierId: c.id })).toEqual([10, 20, 40, 30, 20]);
    expect(await events('/device-beacon-log/list', { beaconId: a.beacons[0] })).toEqual([10, 20, 30]);
    // the freed beacon can now go to another carrier
    const c3 = await carrier('C-3', { beaconId: a.beacons[0] });
    expect((await beacon(a.beacons[0])).carrierId).toBe(c3.id);
  });

  it('keeps a bound device from deletion and frees devices of a deleted carrier', async () => {
    const refused = await ts.a.call('/device-beacon/delete', { id: a.beacons[1] });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toBe('Device B-A-2 is bound to carrier C-1; unbind it first');
    const c = (await ok(ts.a, '/carrier/list', { sn: 'C-1' })).list[0];
    await ok(ts.a, '/carrier/delete', { id: c.id });
    expect((await beacon(a.beacons[1])).carrierId).toBeNull();
    expect((await ok(ts.a, '/device-gps', { id: a.gpsId })).carrierId).toBeNull();
    expect(await events('/device-gps-log/list', { gpsId: a.gpsId })).toEqual([10, 20, 30]);
    await ok(ts.a, '/device-beacon/delete', { id: a.beacons[1] });
  });

  it('logs status and use-status changes made through the status calls', async () => {
    const c = await carrier('C-4', { beaconId: a.beacons[2] });
    await ok(ts.a, '/carrier/status/update', { id: c.id, status: 20 });
    const logs = (await ok(ts.a, '/carrier-log/list', { carrierId: c.id, event: [60] })).list;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ oldValue: '0', newValue: '20' });
    await ok(ts.a, '/device-beacon/status/update', { id: a.beacons[2], useStatus: 20 });
    const dl = (await ok(ts.a, '/device-beacon-log/list', { beaconId: a.beacons[2], event: [50] })).list;
    expect(dl[0]).toMatchObject({ oldValue: '10', newValue: '20', carrierId: c.id });
  });

  it('keeps logs inside the organisation', async () => {
    expect((await ok(ts.b, '/carrier-log/list', { limit: 100 })).total).toBe(0);
    expect((await ok(ts.b, '/device-beacon-log/list', { limit: 100 })).total).toBe(0);
    const c = (await ok(ts.a, '/carrier/list', { sn: 'C-4' })).list[0];
    // B cannot bind A's beacon: it is not a row B can reference
    const b = await seedBasics(ts, ts.b, 'B');
    const got = await ts.b.call('/carrier/create', { sn: 'X-1', carrierCodeId: b.carrierCodeId, beaconId: a.beacons[2] });
    expect(got.body.code).toBe(10001);
    expect((await beacon(a.beacons[2])).carrierId).toBe(c.id);
  });
});
