/**
 * The ship-order monitor's positions from the server (real telemetry runtime: readings through
 * the intake, state flushed): an order in transit is where its truck's GPS, a GPS tracker on
 * one of its carriers, or the gateway that last heard one of its carriers' beacons saw it last
 * — the newest fix since departure, with its time and source. No fix (or only one from before
 * the trip): no position, and the console estimates along the route.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let modelId: number;
let codeId: number;
let truckCodeId: number;
const wh = { A: 0, B: 0 };
const GATE = { A: 'AC233FC0D002', B: 'AC233FC0E002' };
let seq = 0;

async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/** a carrier in warehouse A, optionally with a beacon and/or a GPS tracker bound */
async function box(
  opts: { beacon?: boolean; gps?: boolean; sn?: string; code?: number } = {},
): Promise<{ id: number; sn: string; mac?: string; gpsSn?: string }> {
  const k = ++seq;
  const mac = opts.beacon ? `E2C56DB6${k.toString(16).toUpperCase().padStart(4, '0')}` : undefined;
  const gpsSn = opts.gps ? `GT-MON-${k}` : undefined;
  const beaconId = mac ? (await ok(ts.a, '/device-beacon/create', { sn: `BM-${k}`, mac, deviceModelId: modelId, useStatus: 20 })).id : null;
  const gpsId = gpsSn ? (await ok(ts.a, '/device-gps/create', { sn: gpsSn, name: `Tracker ${k}`, deviceModelId: modelId, useStatus: 20 })).id : null;
  const sn = opts.sn ?? `MON-${k}`;
  const id = (await ok(ts.a, '/carrier/create', { sn, carrierCodeId: opts.code ?? codeId, warehouseId: wh.A, status: 10, beaconId, gpsId })).id;
  // master-data's binding hook does this in production; this server loads shipping and telemetry only
  if (beaconId) await ts.server.db.models['device-beacon'].update({ carrierId: id }, { where: { id: beaconId } });
  if (gpsId) await ts.server.db.models['device-gps'].update({ carrierId: id }, { where: { id: gpsId } });
  return { id, sn, mac, gpsSn };
}

async function settle(): Promise<void> {
  await rt.ingest!.pipeline.drained();
  await rt.flush();
}

async function gpsReport(sn: string, time: number, longitude: number, latitude: number): Promise<void> {
  const r = rt.ingest!.intake.handleMqtt(
    `rti/ORGA/gps/${sn}/report`,
    Buffer.from(JSON.stringify({ sn, reports: [{ ts: time, dataType: 10, longitude, latitude }] })),
  );
  if (r.status !== 'accepted') throw new Error(`report refused: ${r.status}`);
  await settle();
}

async function heard(gatewayMac: string, macs: string[], time: number): Promise<void> {
  const r = rt.ingest!.intake.handleMqtt(
    `rti/ORGA/gw/${gatewayMac}/scan`,
    Buffer.from(JSON.stringify({ gatewayMac, time, readings: macs.map((mac) => ({ mac, rssi: -60, time })) })),
  );
  if (r.status !== 'accepted') throw new Error(`scan refused: ${r.status}`);
  await settle();
}

async function shipped(carrierIds: number[], extra: Record<string, unknown> = {}) {
  const doc = await ok(ts.a, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: wh.A,
    receiverWarehouseId: wh.B,
    ...extra,
    lines: carrierIds.map((carrierId) => ({ carrierId })),
  });
  return ok(ts.a, '/ship-order/release', { id: doc.id });
}

const onMap = async (id: number) => ((await ok(ts.a, '/ship-order/list4map', {})) as any[]).find((r) => r.id === id);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-ship-monitor-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'shipping'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  modelId = (await ok(ts.a, '/device-model/create', { name: 'Tag', offlineCheckTime: 600 })).id;
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-MON', name: 'Box', projectId, type: 10, available: true })).id;
  truckCodeId = (await ok(ts.a, '/carrier-code/create', { code: 'TRUCK', name: 'Truck', projectId, type: 40, available: true })).id;
  for (const [k, lng] of [
    ['A', 121.5],
    ['B', 135.5],
  ] as const) {
    const locationId = (await ok(ts.a, '/location/create', { name: `Site ${k}`, longitude: lng, latitude: 34, fenceRadius: 500, type: 0 })).id;
    wh[k] = (await ok(ts.a, '/warehouse/create', { code: `M${k}`, name: `Depot ${k}`, locationId, bleInboundEnabled: true, bleOutboundEnabled: true })).id;
    await ok(ts.a, '/device-slave-gateway/create', {
      sn: `GATE-M${k}`,
      name: `Gate ${k}`,
      mac: GATE[k],
      deviceModelId: modelId,
      warehouseId: wh[k],
      purpose: 20,
      useStatus: 20,
    });
  }
  await ok(ts.a, '/route/create', { routeName: 'A-B', fromWarehouseId: wh.A, toWarehouseId: wh.B, transportType: 20, transportTime: 600 });
  await rt.refresh();
});
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/ship-order/list4map positions', () => {
  it("the truck's GPS; a newer fix of a tracker on board wins; get4map answers the same", async () => {
    const truck = await box({ gps: true, sn: 'TRUCK-SH-01', code: truckCodeId });
    const [plain, tracked] = [await box(), await box({ gps: true })];
    await rt.refresh();
    const doc = await shipped([plain.id, tracked.id], { conveyanceNo: truck.sn });
    const t1 = Date.now() + 1000;
    await gpsReport(truck.gpsSn!, t1, 128.25, 33.5);
    expect((await onMap(doc.id)).position).toEqual({ longitude: 128.25, latitude: 33.5, time: new Date(t1).toISOString(), source: 'truck', sn: truck.gpsSn });
    await gpsReport(tracked.gpsSn!, t1 + 60_000, 129, 33.75);
    expect((await onMap(doc.id)).position).toMatchObject({
      longitude: 129,
      latitude: 33.75,
      source: 'tracker',
      sn: tracked.gpsSn,
      time: new Date(t1 + 60_000).toISOString(),
    });
    const one = await ok(ts.a, '/ship-order/get4map', { id: doc.id });
    expect(one.position).toMatchObject({ source: 'tracker', sn: tracked.gpsSn });
    // another organisation sees neither the order nor its position
    expect((await ok(ts.b, '/ship-order/list4map', {})).map((r: any) => r.id)).not.toContain(doc.id);
  });

  it("the last gateway that heard a carrier's beacon: its warehouse, when and which gate", async () => {
    const [a, b] = [await box({ beacon: true }), await box({ beacon: true })];
    await rt.refresh();
    const doc = await shipped([a.id, b.id]);
    const t = Date.now() + 2000;
    await heard(GATE.A, [a.mac!], t);
    expect((await onMap(doc.id)).position).toEqual({
      longitude: 121.5,
      latitude: 34,
      time: new Date(t).toISOString(),
      source: 'gateway',
      sn: 'GATE-MA',
      warehouse: { id: wh.A, name: 'Depot A' },
    });
    // the other carrier heard later at the receiver's gate: the order is there now
    await heard(GATE.B, [b.mac!], t + 3 * 3_600_000);
    expect((await onMap(doc.id)).position).toMatchObject({
      longitude: 135.5,
      latitude: 34,
      source: 'gateway',
      sn: 'GATE-MB',
      warehouse: { id: wh.B, name: 'Depot B' },
    });
  });

  it('no fix, or only one from before the trip: no position (the console estimates along the route)', async () => {
    const bare = await box();
    const quiet = await shipped([bare.id]);
    expect((await onMap(quiet.id)).position).toBeNull();
    // the truck last reported two hours before this departure: that is not where the order is
    const truck = await box({ gps: true, sn: 'TRUCK-SH-02', code: truckCodeId });
    await rt.refresh();
    await gpsReport(truck.gpsSn!, Date.now() - 2 * 3_600_000, 121.6, 34.1);
    const stale = await shipped([(await box()).id], { conveyanceNo: truck.sn });
    expect((await onMap(stale.id)).position).toBeNull();
    // the legend does not need positions and still counts the orders
    const legend = await ok(ts.a, '/ship-order/listlegend4map', {});
    expect(legend.find((l: any) => l.key === '2').count).toBeGreaterThanOrEqual(2);
  });
});
