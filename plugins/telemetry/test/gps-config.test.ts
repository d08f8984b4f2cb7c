/**
 * GPS configuration reaches the tracker (issue 21 #3): /device-gps/configure publishes the
 * device row's cycles and thresholds on rti/<org>/gps/<sn>/config through the embedded broker;
 * a master gateway relaying the tracker answers on …/config/ack; configStatus goes configuring
 * → effective with the values sent, or error with the reason kept (refusal, values not sent,
 * no answer in time). Batch, resend, another organisation's ids, a slave gateway's answers.
 */
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enums } from '@rti/metadata';
import { GW_PASSWORD, connectGateway, ok, seedFleet, startRig, type Fleet, type Rig } from './fixtures';
import { openStream } from './stream-client';

const STATUS = Enums.gpsConfigStatus;
const MASTER_MAC = 'AC233FC0A0FF';
let rig: Rig;
let fleet: Fleet;
let master: MqttClient;
/** configurations the master gateway received, newest last */
const received: Array<{ topic: string; body: any }> = [];

const device = async (id: number, language = 'en-US') => (await rig.ts.a.call<any>('/device-gps', { id }, { language })).body.data;
const until = async (id: number, status: number) => {
  await expect.poll(async () => (await device(id)).configStatus, { timeout: 10_000, interval: 50 }).toBe(status);
  return device(id);
};
const nextConfig = async (sn: string, after: number) => {
  await expect.poll(() => received.filter((r) => r.body.sn === sn).length, { timeout: 5000, interval: 20 }).toBeGreaterThan(after);
  return received.filter((r) => r.body.sn === sn).at(-1)!.body;
};
const answer = (sn: string, body: unknown, client = master) =>
  client.publishAsync(`rti/${fleet.orgCode}/gps/${sn}/config/ack`, JSON.stringify(body), { qos: 1 });

beforeAll(async () => {
  process.env.GPS_CONFIG_TIMEOUT_MS = '1500';
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
  const modelId = (await ok(rig.ts.a, '/device-model/list', { limit: 1 })).list[0].id;
  await ok(rig.ts.a, '/device-master-gateway/create', {
    sn: 'MASTER-A',
    name: 'Master A',
    mac: MASTER_MAC,
    deviceModelId: modelId,
    warehouseId: fleet.warehouseA,
    purpose: 10,
    useStatus: 20,
    mqttClientId: 'm-A',
    mqttUsername: 'u-master-A',
    mqttPassword: GW_PASSWORD,
  });
  await rig.rt.refresh();
  master = await connectGateway(rig.mqttUrl, 'u-master-A');
  master.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
  const granted = await master.subscribeAsync(`rti/${fleet.orgCode}/gps/+/config`, { qos: 1 });
  expect(granted[0].qos).toBe(1);
});
afterAll(async () => {
  await master?.endAsync();
  await rig?.close();
  delete process.env.GPS_CONFIG_TIMEOUT_MS;
});

describe('GPS configuration', () => {
  it('sends the device row’s values and becomes effective when the tracker applies them', async () => {
    const before = received.length;
    const sent = await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    expect(sent).toMatchObject({ sent: 1, devices: [{ id: fleet.gpsId, sn: 'GT-A', sent: true }] });
    const row = await device(fleet.gpsId);
    expect(row.configStatus).toBe(STATUS.configuring);
    const msg = await nextConfig('GT-A', 0);
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.topic).toBe(`rti/${fleet.orgCode}/gps/GT-A/config`);
    expect(msg.requestId).toBe(sent.devices[0].requestId);
    expect(msg.config).toEqual({
      reportCycle: row.reportCycle,
      sensorSampleCycle: row.sensorSampleCycle,
      sensorRecordCycle: row.sensorRecordCycle,
      sensorReportCycle: row.sensorReportCycle,
      locateModel: row.locateModel,
      highTempThreshold: Number(row.highTempThreshold),
      lowTempThreshold: Number(row.lowTempThreshold),
      shakeThreshold: Number(row.shakeThreshold),
      highHumidityThreshold: row.highHumidityThreshold,
      lowHumidityThreshold: row.lowHumidityThreshold,
    });
    // a warehouse-restricted member's list follows too: GPS devices are not bound to a warehouse
    const restricted = await rig.ts.callerFor(await rig.ts.addUser(rig.ts.orgA, 'carol', { warehouseIds: [fleet.warehouseB] }), rig.ts.orgA);
    const stream = await openStream(rig.ts.url, restricted);
    await answer('GT-A', { requestId: msg.requestId, status: 'applied', applied: msg.config });
    const done = await until(fleet.gpsId, STATUS.effective);
    expect(done.configError).toBeNull();
    const live = await stream.waitFor((e) => e.event === 'gps-config' && e.data.configStatus === STATUS.effective);
    expect(live.data).toEqual({ id: fleet.gpsId, configStatus: STATUS.effective });
    stream.close();
  });

  it('keeps the reason of a refusal, shown in the reader’s language', async () => {
    const n = received.filter((r) => r.body.sn === 'GT-A').length;
    await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    const msg = await nextConfig('GT-A', n);
    await answer('GT-A', { requestId: msg.requestId, status: 'refused', reason: 'sensor cycle out of range' });
    const row = await until(fleet.gpsId, STATUS.notEffective);
    expect(row.configError).toBe('The device refused the configuration: sensor cycle out of range');
    expect((await device(fleet.gpsId, 'zh-CN')).configError).toBe('设备拒绝了该配置：sensor cycle out of range');
  });

  it('refuses an acknowledgement of values that were not sent', async () => {
    const n = received.filter((r) => r.body.sn === 'GT-A').length;
    await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    const msg = await nextConfig('GT-A', n);
    await answer('GT-A', { requestId: msg.requestId, status: 'applied', applied: { ...msg.config, reportCycle: msg.config.reportCycle + 1, extra: 1 } });
    const row = await until(fleet.gpsId, STATUS.notEffective);
    expect(row.configError).toContain('acknowledged values it was not sent');
    expect(row.configError).toContain(`reportCycle ${msg.config.reportCycle + 1} (sent ${msg.config.reportCycle})`);
    expect(row.configError).toContain('extra (not sent)');
    // a late right answer to the same request changes nothing any more
    await answer('GT-A', { requestId: msg.requestId, status: 'applied', applied: msg.config });
    await new Promise((r) => setTimeout(r, 300));
    expect((await device(fleet.gpsId)).configStatus).toBe(STATUS.notEffective);
  });

  it('ends in error when the tracker does not answer in time', async () => {
    await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    expect((await device(fleet.gpsId)).configStatus).toBe(STATUS.configuring);
    const row = await until(fleet.gpsId, STATUS.notEffective);
    expect(row.configError).toBe('The device did not answer within 2 seconds');
  });

  it('configures many trackers at once; a resend supersedes the unanswered send', async () => {
    const modelId = (await ok(rig.ts.a, '/device-model/list', { limit: 1 })).list[0].id;
    const ids = [fleet.gpsId];
    for (const sn of ['GT-A2', 'GT-A3'])
      ids.push((await ok(rig.ts.a, '/device-gps/create', { sn, name: sn, deviceModelId: modelId, useStatus: 20, reportCycle: 6 })).id);
    const counts = (sn: string) => received.filter((r) => r.body.sn === sn).length;
    const before = { a2: counts('GT-A2'), a3: counts('GT-A3') };
    const sent = await ok(rig.ts.a, '/device-gps/configure', { ids });
    expect(sent.sent).toBe(3);
    for (const id of ids) expect((await device(id)).configStatus).toBe(STATUS.configuring);
    const first = await nextConfig('GT-A2', before.a2);
    expect(first.config.reportCycle).toBe(6);
    await ok(rig.ts.a, '/device-gps/configure', { id: ids[1] });
    const second = await nextConfig('GT-A2', before.a2 + 1);
    expect(second.requestId).not.toBe(first.requestId);
    await answer('GT-A2', { requestId: first.requestId, status: 'applied', applied: first.config });
    await new Promise((r) => setTimeout(r, 300));
    expect((await device(ids[1])).configStatus).toBe(STATUS.configuring);
    await answer('GT-A2', { requestId: second.requestId, status: 'applied', applied: second.config });
    await until(ids[1], STATUS.effective);
    const third = await nextConfig('GT-A3', before.a3);
    await answer('GT-A3', { requestId: third.requestId, status: 'applied', applied: third.config });
    await until(ids[2], STATUS.effective);
  });

  it('sets the status back to pending when a configured value is edited', async () => {
    await ok(rig.ts.a, '/device-gps/update', { id: fleet.gpsId, reportCycle: 12 });
    const row = await device(fleet.gpsId);
    expect(row.configStatus).toBe(STATUS.pending);
    expect(row.configError).toBeNull();
    await ok(rig.ts.a, '/device-gps/update', { id: fleet.gpsId, remark: 'no config change' });
    expect((await device(fleet.gpsId)).configStatus).toBe(STATUS.pending);
  });

  it("refuses another organisation's trackers, bad ids and a slave gateway's answers", async () => {
    const foreign = await rig.ts.b.call<any>('/device-gps/configure', { ids: [fleet.gpsId] });
    expect(foreign.body.code).toBe(10002);
    expect((await device(fleet.gpsId)).configStatus).toBe(STATUS.pending);
    expect((await rig.ts.a.call<any>('/device-gps/configure', {})).body.code).toBe(10001);
    expect((await rig.ts.a.call<any>('/device-gps/configure', { ids: ['x'] })).body.code).toBe(10001);
    // a slave gateway may neither listen to trackers' configurations nor answer for them
    const n = received.filter((r) => r.body.sn === 'GT-A').length;
    await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    const msg = await nextConfig('GT-A', n);
    const slave = await connectGateway(rig.mqttUrl, 'u-A-AC233FC0A002');
    await expect(slave.subscribeAsync(`rti/${fleet.orgCode}/gps/+/config`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    const closed = new Promise<void>((resolve) => slave.once('close', () => resolve()));
    void answer('GT-A', { requestId: msg.requestId, status: 'applied', applied: msg.config }, slave).catch(() => undefined);
    await closed;
    slave.end(true);
    expect((await device(fleet.gpsId)).configStatus).toBe(STATUS.configuring);
    // an answer naming no awaited request is ignored
    await answer('GT-A', { requestId: 'not-a-request', status: 'applied', applied: msg.config });
    await answer('GT-A', 'not json');
    await answer('GT-A', { requestId: msg.requestId, status: 'applied', applied: msg.config });
    await until(fleet.gpsId, STATUS.effective);
  });

  it('needs its own code, ApiDeviceGpsConfigure (a role without it: 10005, nothing sent)', async () => {
    const codes = rig.ts.server.listPermissionCodes().filter((c) => c !== 'ApiDeviceGpsConfigure');
    const role = await ok(rig.ts.a, '/role/create', { name: 'no configure', pcPermissions: codes, pdaPermissions: [] });
    const erin = await rig.ts.callerFor(await rig.ts.addUser(rig.ts.orgA, 'erin', { roleIds: [role.id] }), rig.ts.orgA);
    const n = received.length;
    const refused = await erin.call<any>('/device-gps/configure', { id: fleet.gpsId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(10005);
    expect(received.length).toBe(n);
    await ok(rig.ts.a, '/role/update', { id: role.id, pcPermissions: [...codes, 'ApiDeviceGpsConfigure'] });
    expect((await erin.call<any>('/device-gps/configure', { id: fleet.gpsId })).body.code).toBe(0);
  });
});
