import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_MAC, GATE_A, ok, orgToken, pushHttp, scan, seedFleet, settle, startRig, type Fleet, type Rig } from './fixtures';

let rig: Rig;
let fleet: Fleet;
let token: string;
let tokenB: string;
const T = Date.now() - 5 * 60_000;
const zh = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../server/src/i18n/messages/zh-CN.json'), 'utf8')).server;

beforeAll(async () => {
  rig = await startRig({ plugins: ['open-api'] });
  fleet = await seedFleet(rig, rig.ts.a);
  token = await orgToken(rig.ts.a);
  tokenB = await orgToken(rig.ts.b);
  await rig.rt.refresh();
});
afterAll(async () => rig?.close());

describe('HTTP push through the server (/api/ingest/*, organisation token)', () => {
  it('a GPS vendor push is stored, readable through the data-points calls and drives the rules', async () => {
    const body = {
      sn: 'GT-A',
      reports: [
        { ts: T, dataType: 30, temperature1: 75 },
        { ts: T + 1, dataType: 10, longitude: 11, latitude: 50, altitude: 10, speed: 42 },
      ],
    };
    const r = await pushHttp(rig, 'gps', JSON.stringify(body), token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, data: { accepted: 2, dropped: {} } });
    await settle(rig);
    const points = await ok(rig.ts.a, '/data-points/gps/list', { sn: 'GT-A' });
    expect(points.total).toBe(2);
    expect(points.list.find((p: any) => p.dataType === 10)).toMatchObject({ longitude: 11, latitude: 50, speed: 42 });
    // the rules saw it: threshold alert 036 and the tracker online with its report time
    const alerts = await ok(rig.ts.a, '/device-alert/gps/list', { code: '036' });
    expect(alerts.list.map((a: any) => [a.code, Date.parse(a.reportTime)])).toEqual([['036', T]]);
    expect(await ok(rig.ts.a, '/device-gps', { id: fleet.gpsId })).toMatchObject({ status: 10 });
    // organisation B sees none of it
    expect((await ok(rig.ts.b, '/data-points/gps/list', { sn: 'GT-A' })).total).toBe(0);
  });

  it('a gateway without MQTT pushes scans; the gate pass moves the carrier', async () => {
    const payloads = [0, 1, 2].map((k) => JSON.stringify(scan(GATE_A, T + 60_000 + k * 2000, { battery: 77 })));
    for (const p of payloads) expect((await pushHttp(rig, 'gateway/scan', p, token)).body).toMatchObject({ code: 0, data: { accepted: 1 } });
    expect((await pushHttp(rig, 'gateway/heartbeat', JSON.stringify({ gatewayMac: GATE_A, uptime: 5 }), token)).body.code).toBe(0);
    await settle(rig);
    expect((await ok(rig.ts.a, '/data-points/beacon/list', { mac: BEACON_MAC })).total).toBe(3);
    const inout = await ok(rig.ts.a, '/carrier-inout/list', { carrierId: fleet.carrierId });
    expect(inout.list.map((x: any) => [x.direction, x.warehouseId])).toEqual([[20, fleet.warehouseA]]);
  });

  it('a missing or wrong token is 401 in the caller language; a person session is not a device', async () => {
    const missing = await pushHttp(rig, 'gps', '{}', null, 'zh-CN');
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe(10006);
    const english = await pushHttp(rig, 'gps', '{}', null, 'en-US');
    expect(missing.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect(missing.body.message).not.toBe(english.body.message);
    const wrong = await pushHttp(rig, 'gps', '{}', 'rti_not-a-token');
    expect([wrong.status, wrong.body.code]).toEqual([401, 10006]);
    const person = await rig.ts.a.call('/ingest/gps', { sn: 'GT-A', longitude: 1, latitude: 1 });
    expect([person.status, person.body.code]).toEqual([403, 10005]);
  });

  it('refuses devices of another organisation, bad JSON, bad fields and oversized bodies, and counts them', async () => {
    const counters = rig.rt.ingest!.intake.counters;
    const before = {
      json: counters.frames['malformed-json'] ?? 0,
      unknown: counters.readings['unknown-device'] ?? 0,
      gw: counters.frames['unknown-device'] ?? 0,
      big: counters.frames.oversized ?? 0,
    };
    // B's token: GT-A and GATE_A are organisation A's (B has no devices)
    const foreign = await pushHttp(rig, 'gps', JSON.stringify({ sn: 'GT-A', longitude: 1, latitude: 1 }), tokenB, 'en-US');
    expect(foreign.body).toMatchObject({ code: 10002, message: 'The selected SN does not exist' });
    expect((await pushHttp(rig, 'gateway/scan', JSON.stringify(scan(GATE_A, T)), tokenB)).body.code).toBe(10002);
    const bad = await pushHttp(rig, 'gps', '{"sn":"GT-A",', token, 'zh-CN');
    expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 10012, zh.errors['10012']]);
    const wrongType = await pushHttp(rig, 'gps', JSON.stringify({ sn: 'GT-A', reports: 'soon' }), token);
    expect(wrongType.body).toMatchObject({ code: 10001, message: 'The format of reports is wrong' });
    expect((await pushHttp(rig, 'gateway/scan', JSON.stringify({ readings: [] }), token)).body).toMatchObject({
      code: 10001,
      message: 'Please input gatewayMac',
    });
    const big = await pushHttp(rig, 'gps', JSON.stringify({ sn: 'GT-A', location: 'x'.repeat(300 * 1024) }), token);
    expect([big.status, big.body.code]).toEqual([413, 10011]);
    const huge = await pushHttp(rig, 'gps', ' '.repeat(1100 * 1024), token);
    expect([huge.status, huge.body.code]).toEqual([413, 10011]);
    expect(counters.frames['malformed-json']).toBe(before.json + 1);
    expect(counters.readings['unknown-device']).toBe(before.unknown + 1);
    expect(counters.frames['unknown-device']).toBe(before.gw + 1);
    expect(counters.frames.oversized).toBe(before.big + 2);
    // nothing of it was stored
    await settle(rig);
    expect((await ok(rig.ts.a, '/data-points/gps/list', { sn: 'GT-A' })).total).toBe(2);
  });
});
