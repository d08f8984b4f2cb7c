import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_MAC, GATE_A, GATE_B, HALL_A, connectGateway, ok, push, scan, seedFleet, settle, startRig, type Fleet, type Rig } from './fixtures';

let rig: Rig;
let fleet: Fleet;
const T = Date.now() - 10 * 60_000;

beforeAll(async () => {
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
});
afterAll(async () => rig?.close());

describe('readings to derived state (real server, broker, decoders, store)', () => {
  it('a gate pass published over MQTT with the gateway credentials writes one outbound row and moves the carrier', async () => {
    const c = await connectGateway(rig.mqttUrl, `u-A-${GATE_A}`);
    for (let k = 0; k < 3; k++) await c.publishAsync(`rti/ORGA/gw/${GATE_A}/scan`, JSON.stringify(scan(GATE_A, T + k * 2000, { battery: 80 })), { qos: 1 });
    await c.endAsync();
    await settle(rig);
    const rows = await ok(rig.ts.a, '/carrier-inout/list', { carrierId: fleet.carrierId });
    expect(rows.total).toBe(1);
    expect(rows.list[0]).toMatchObject({ direction: 20, warehouseId: fleet.warehouseA, sn: 'C-A' });
    const carrier = await ok(rig.ts.a, '/carrier', { id: fleet.carrierId });
    expect(carrier).toMatchObject({ transportStatus: 20, outboundWarehouseId: fleet.warehouseA });
    expect(carrier.warehouseId).toBeNull();
    const beacon = await ok(rig.ts.a, '/device-beacon', { id: fleet.beaconId });
    expect(beacon).toMatchObject({ status: 10, battery: 80 });
    expect(Date.parse(beacon.lastReportTime)).toBe(T + 4000);
    const logs = await ok(rig.ts.a, '/carrier-log/list', { carrierId: fleet.carrierId });
    expect(logs.list.map((l: any) => [l.event, l.oldValue, l.newValue])).toContainEqual([70, '0', '20']);
    const beaconLogs = await ok(rig.ts.a, '/device-beacon-log/list', { beaconId: fleet.beaconId });
    expect(beaconLogs.list.map((l: any) => l.event)).toContain(40);
  });

  it('arriving through the destination gate writes an inbound row and places the carrier', async () => {
    await push(rig, `rti/ORGA/gw/${GATE_B}/scan`, scan(GATE_B, T + 5 * 60_000));
    const rows = await ok(rig.ts.a, '/carrier-inout/list', { carrierId: fleet.carrierId, sortByConfirmTime: true });
    expect(rows.list.map((r: any) => [r.direction, r.warehouseId])).toEqual([
      [20, fleet.warehouseA],
      [10, fleet.warehouseB],
    ]);
    expect(await ok(rig.ts.a, '/carrier', { id: fleet.carrierId })).toMatchObject({
      warehouseId: fleet.warehouseB,
      transportStatus: 10,
      inboundWarehouseId: fleet.warehouseB,
    });
  });

  it('low battery opens one beacon alert however many readings, feeds the notification menu, and is processed once', async () => {
    for (let k = 0; k < 4; k++) await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T + 6 * 60_000 + k * 1000, { battery: 12 + k }));
    const list = await ok(rig.ts.a, '/device-alert/beacon/list', { status: 0 });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ beaconSn: 'B-A', reason: 10, status: 0, beaconId: fleet.beaconId });

    const feed = await ok(rig.ts.a, '/device-alert/unsolved');
    expect(Object.keys(feed).sort()).toEqual(['beacon', 'carrier', 'gps', 'masterGateway', 'slaveGateway']);
    expect(feed.beacon.total).toBe(1);
    expect((await ok(rig.ts.b, '/device-alert/unsolved')).beacon.total).toBe(0);

    // another organisation cannot see or process it
    const foreign = await rig.ts.b.call('/device-alert/beacon/process', { id: list.list[0].id });
    expect(foreign.body.code).toBe(10002);

    const done = await ok(rig.ts.a, '/device-alert/beacon/process', { id: list.list[0].id, remark: 'battery replaced' });
    expect(done).toMatchObject({ status: 10, processedBy: 'alice', remark: 'battery replaced' });
    expect(done.processedAt).toBeTruthy();
    expect((await ok(rig.ts.a, '/device-alert/unsolved')).beacon.total).toBe(0);
    const bad = await rig.ts.a.call('/device-alert/beacon/process', {});
    expect(bad.body.code).toBe(10001);
  });

  it('GPS threshold breach: code 036 alert with report time; data points readable with paging and time range', async () => {
    await push(rig, `rti/ORGA/gps/GT-A/report`, {
      sn: 'GT-A',
      reports: [
        { ts: T + 7 * 60_000, dataType: 30, temperature1: 75 },
        { ts: T + 7 * 60_000 + 1, dataType: 10, longitude: 11, latitude: 50, altitude: 10 },
      ],
    });
    const alerts = await ok(rig.ts.a, '/device-alert/gps/list', { dataType: 20 });
    expect(alerts.list.map((a: any) => a.code)).toEqual(['036']);
    // a fence row of the organisation: entering it writes a fence-log row
    const fenceId = (await ok(rig.ts.a, '/fence/create', { name: 'Yard', longitude: 11.5, latitude: 50, radius: 1000 })).id;
    await rig.rt.refresh();
    await push(rig, `rti/ORGA/gps/GT-A/report`, { sn: 'GT-A', reports: [{ ts: T + 7 * 60_000 + 2, dataType: 10, longitude: 11.5, latitude: 50.001 }] });
    const fenceLog = await ok(rig.ts.a, '/fence/log/list', { fenceId });
    expect(fenceLog.list.map((r: any) => [r.deviceSn, r.action, r.deviceType])).toEqual([['GT-A', 10, 20]]);
    expect(Date.parse(alerts.list[0].reportTime)).toBe(T + 7 * 60_000);

    const points = await ok(rig.ts.a, '/data-points/beacon/list', { mac: BEACON_MAC, page: 1, limit: 2 });
    expect(points.total).toBeGreaterThanOrEqual(8);
    expect(points.list).toHaveLength(2);
    expect(points.list[0]).toMatchObject({ mac: BEACON_MAC });
    const ranged = await ok(rig.ts.a, '/data-points/beacon/list', { mac: BEACON_MAC, time: [new Date(T).toISOString(), T + 4000], limit: 50 });
    expect(ranged.total).toBe(3);
    const gps = await ok(rig.ts.a, '/data-points/gps/list', { sn: 'GT-A' });
    expect(gps.total).toBe(3);
    expect(gps.list[1].ts).toBe(new Date(T + 7 * 60_000 + 1).toISOString());
    const newest = await ok(rig.ts.a, '/data-points/gps', { sn: 'GT-A' });
    expect(newest).toMatchObject({ dataType: 10, longitude: 11.5, latitude: 50.001 });
    const gwLog = await ok(rig.ts.a, '/data-points/gateway/list', { mac: GATE_A });
    expect(gwLog.total).toBeGreaterThanOrEqual(1); // the broker's connect/disconnect of the gate gateway
    expect(gwLog.list[0]).toMatchObject({ mac: GATE_A });
    expect((await ok(rig.ts.b, '/data-points/beacon/list', { mac: BEACON_MAC })).total).toBe(0);
    const file = await rig.ts.a.fetch('/data-points/beacon/export', { beaconId: fleet.beaconId });
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });

  it('device and carrier columns are flushed in batches and the state survives in the state table', async () => {
    const before = rig.rt.sink.counts.flushes;
    for (let k = 0; k < 5; k++)
      rig.rt.ingest!.intake.handleMqtt(`rti/ORGA/gw/${HALL_A}/scan`, Buffer.from(JSON.stringify(scan(HALL_A, T + 8 * 60_000 + k * 1000, { battery: 50 }))));
    await settle(rig);
    expect(rig.rt.sink.counts.flushes).toBe(before + 1);
    const [rows] = (await rig.ts.server.db.sequelize.query(`SELECT subject, data FROM telemetry_state WHERE subject = 'beacon/${fleet.beaconId}'`)) as [
      any[],
      unknown,
    ];
    expect(JSON.parse(rows[0].data)).toMatchObject({ battery: 50, status: 10, gatewayMac: HALL_A });
    // lastReportTime alone is rewritten at most once a minute per device
    const updates = rig.rt.sink.counts.devices;
    await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T + 8 * 60_000 + 10_000, { battery: 50 }));
    expect(rig.rt.sink.counts.devices).toBe(updates);
    await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T + 8 * 60_000 + 70_000, { battery: 50 }));
    expect(rig.rt.sink.counts.devices).toBe(updates + 1);
    expect(Date.parse((await ok(rig.ts.a, '/device-beacon', { id: fleet.beaconId })).lastReportTime)).toBe(T + 8 * 60_000 + 70_000);
  });

  it('the ticker runs the time-based rules: silent devices go offline with one data-missing alert each', async () => {
    const later = T + 3 * 60 * 60_000;
    rig.rt.engine.tick(later);
    rig.rt.engine.tick(later + 60_000);
    await rig.rt.flush();
    expect(await ok(rig.ts.a, '/device-beacon', { id: fleet.beaconId })).toMatchObject({ status: 20 });
    const missing = await ok(rig.ts.a, '/device-alert/beacon/list', { reason: 70 });
    expect(missing.total).toBe(1);
    const gps = await ok(rig.ts.a, '/device-alert/gps/list', { code: '084' });
    expect(gps.total).toBe(1);
    const gw = await ok(rig.ts.a, '/device-alert/slave-gateway/list', { reason: 20 });
    expect(gw.total).toBeGreaterThanOrEqual(1);
  });
});
