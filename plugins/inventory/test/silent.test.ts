/**
 * Book versus seen through the real telemetry runtime: beacons heard by a warehouse's gateway
 * (the real intake, engine and flush), then `/inventory/silent` lists the carriers the books place
 * in a warehouse that nothing heard within its tolerance, with where and when they were heard
 * last — and a restricted operator of another warehouse sees none of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { Enums } from '@rti/metadata';
import { pdfText } from '@rti/server/pdf-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let rt: TelemetryRuntime;
let dir: string;
let modelId: number;
let codeId: number;
let whA: number;
let whB: number;
const HALL_A = 'AC233FC0D001';
const HALL_B = 'AC233FC0E001';
let seq = 0;

async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

async function box(warehouseId: number): Promise<{ id: number; sn: string; mac: string }> {
  const k = ++seq;
  const mac = `E2C56DB6${k.toString(16).toUpperCase().padStart(4, '0')}`;
  const beaconId = (await ok(ts.a, '/device-beacon/create', { sn: `BS-${k}`, mac, deviceModelId: modelId, useStatus: 20 })).id;
  const sn = `SIL-${k}`;
  const id = (await ok(ts.a, '/carrier/create', { sn, carrierCodeId: codeId, warehouseId, status: 10, beaconId })).id;
  // eslint-disable-next-line rti/no-raw-models -- master-data's binding hook does this in production; this server does not load it
  await ts.server.db.models['device-beacon'].update({ carrierId: id }, { where: { id: beaconId } });
  return { id, sn, mac };
}

/** beacons heard by a gateway at a time, through the real intake, then applied and flushed */
async function heard(gatewayMac: string, macs: string[], time: number): Promise<void> {
  const r = rt.ingest!.intake.handleMqtt(
    `rti/ORGA/gw/${gatewayMac}/scan`,
    Buffer.from(JSON.stringify({ gatewayMac, time, readings: macs.map((mac) => ({ mac, rssi: -60, time })) })),
  );
  if (r.status !== 'accepted') throw new Error(`scan refused: ${r.status}`);
  await rt.ingest!.pipeline.drained();
  await rt.flush();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-inventory-silent-'));
  Object.assign(process.env, { MQTT_PORT: '0', STATE_FLUSH_MS: '100000', STATE_TICK_MS: '100000', SIMULATOR_DEVICES: '0', TELEMETRY_STORE: 'segments' });
  ts = await startTestServer({ plugins: ['telemetry', 'shipping', 'inventory'], config: { dataDir: dir } });
  rt = telemetryRuntime(ts.server.db)!;
  await rt.ready;
  modelId = (await ok(ts.a, '/device-model/create', { name: 'Tag', batteryThreshold: 20, offlineCheckTime: 600 })).id;
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-S', name: 'Box', projectId, type: 10, available: true })).id;
  // warehouse A tolerates 60 minutes of silence
  whA = (await ok(ts.a, '/warehouse/create', { code: 'WA', name: 'Warehouse A', idleCheckTime: 60 })).id;
  whB = (await ok(ts.a, '/warehouse/create', { code: 'WB', name: 'Warehouse B' })).id;
  await ok(ts.a, '/device-slave-gateway/create', {
    sn: 'HALL-A',
    name: 'Hall A',
    mac: HALL_A,
    deviceModelId: modelId,
    warehouseId: whA,
    purpose: 10,
    useStatus: 20,
  });
  await ok(ts.a, '/device-slave-gateway/create', {
    sn: 'HALL-B',
    name: 'Hall B',
    mac: HALL_B,
    deviceModelId: modelId,
    warehouseId: whB,
    purpose: 10,
    useStatus: 20,
  });
  await rt.refresh();
});
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/inventory/silent', () => {
  it('lists the carriers booked in a warehouse that nothing heard within its tolerance, with their last sighting', async () => {
    const fresh = await box(whA);
    const stale = await box(whA);
    const never = await box(whA);
    await rt.refresh();
    const now = Date.now();
    await heard(HALL_A, [stale.mac], now - 3 * 3_600_000);
    await heard(HALL_A, [fresh.mac], now - 10 * 60_000);
    const got = await ok(ts.a, '/inventory/silent', { warehouseId: whA, page: 1, limit: 20 });
    const bySn = new Map<string, any>(got.list.map((r: any) => [r.sn, r]));
    expect([...bySn.keys()].sort()).toEqual([never.sn, stale.sn].sort());
    expect(bySn.get(never.sn)).toMatchObject({ lastSeenAt: null, lastSeenWhere: null, warehouseName: 'Warehouse A' });
    expect(bySn.get(stale.sn)).toMatchObject({ lastSeenWhere: 'Warehouse A', toleranceMinutes: 60 });
    expect(bySn.get(stale.sn).silentHours).toBeGreaterThanOrEqual(2.9);
    // a longer tolerance asked for: only the one never heard
    const patient = await ok(ts.a, '/inventory/silent', { warehouseId: whA, minutes: 600, page: 1, limit: 20 });
    expect(patient.list.map((r: any) => r.sn)).toEqual([never.sn]);
  });

  it('a restricted operator of another warehouse sees none of them', async () => {
    const role = (
      await ok(ts.a, '/role/create', { name: 'Silent reader', pcPermissions: ['ApiInventorySilent', 'ApiInventorySilentExport'], pdaPermissions: [] })
    ).id;
    const other = await ts.callerFor(await ts.addUser(ts.orgA, 'silent-b', { warehouseIds: [whB], roleIds: [role] }), ts.orgA);
    const got = await ok(other, '/inventory/silent', { page: 1, limit: 50 });
    expect(got.list.every((r: any) => r.warehouseId === whB)).toBe(true);
    expect((await ok(other, '/inventory/silent', { warehouseId: whA, page: 1, limit: 50 })).total).toBe(0);
  });

  it("a count task made from them, closed by the warehouse's operator: one moved where it was heard, one written off as lost", async () => {
    const role = (
      await ok(ts.a, '/role/create', {
        name: 'Counter',
        pcPermissions: (await ok(ts.a, '/permission/all', {})).flatMap(function codes(n: any): string[] {
          return [...(n.type === 30 && /^\/(inventory|inventory-count-detail)\//.test(n.path ?? '') ? [n.code] : []), ...(n.children ?? []).flatMap(codes)];
        }),
        pdaPermissions: [],
      })
    ).id;
    const counter = await ts.callerFor(await ts.addUser(ts.orgA, 'counter-a', { warehouseIds: [whA], roleIds: [role] }), ts.orgA);
    // the silent page's row action makes it: the row's warehouse, then the task's page
    const [action] = (await ok(counter, '/report/definition', { name: 'inventory.silent' })).actions;
    expect(action).toMatchObject({
      call: '/inventory/count/from-silent',
      body: { warehouseId: '{warehouseId}' },
      open: '/inventory-manage/inventory/count/detail/{id}',
    });
    const row = (await ok(counter, '/inventory/silent', { warehouseId: whA, minutes: 60, page: 1, limit: 1 })).list[0];
    expect(row.warehouseId).toBe(whA);
    const task = await ok(counter, '/inventory/count/from-silent', { warehouseId: row.warehouseId, minutes: 60 });
    expect(task.countNo).toMatch(/^CT/);
    const lines = (await ok(counter, '/inventory-count-detail/list', { inventoryCountId: task.id, page: 1, limit: 50 })).list as any[];
    expect(lines.length).toBe(task.totalAmount);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // the count sheet the counter walks the warehouse with (the platform's `print`), in Chinese
    const sheet = await counter.fetch('/inventory/count/print', { id: task.id }, { language: 'zh-CN' });
    expect(sheet.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await sheet.arrayBuffer()));
    expect(text).toContain('盘点表');
    for (const l of lines) expect(text).toContain(l.carrierSn);
    // not every carrier has a result yet: refused naming them, in Japanese
    const early = await counter.call('/inventory/count/close', { id: task.id }, { language: 'ja-JP' });
    expect(early.body.code).toBe(10004);
    expect(early.body.message).toContain(lines[0].carrierSn);
    const [moved, lost, ...rest] = lines;
    // found in B: a planner who sees both warehouses says where (the counter of A cannot name B)
    expect((await counter.call('/inventory-count-detail/batch/update', { ids: [moved.id], lastSeenWarehouseId: whB })).body.code).toBe(10001);
    await ok(ts.a, '/inventory-count-detail/batch/update', { ids: [moved.id], lastSeenWarehouseId: whB });
    await ok(counter, '/inventory-count-detail/batch/update', { ids: [moved.id], result: Enums.inventoryCountResult.moved });
    await ok(counter, '/inventory-count-detail/batch/update', { ids: [lost.id], result: Enums.inventoryCountResult.lost });
    if (rest.length) await ok(counter, '/inventory-count-detail/batch/update', { ids: rest.map((l) => l.id), result: Enums.inventoryCountResult.confirmed });
    const closed = await ok(counter, '/inventory/count/close', { id: task.id });
    expect(closed).toMatchObject({ status: Enums.inventoryCountStatus.closed, movedAmount: 1, lostAmount: 1, pendingAmount: 0 });
    expect(await ok(ts.a, '/carrier', { id: moved.carrierId })).toMatchObject({ warehouseId: whB, transportStatus: Enums.transportStatus.inWarehouse });
    expect(await ok(ts.a, '/carrier', { id: lost.carrierId })).toMatchObject({ warehouseId: null, status: Enums.carrierStatus.lost });
    // both went through adjustment orders, adjusted, naming the task
    const adjustments = (await ok(ts.a, '/inventory/adjustment/list', { page: 1, limit: 10 })).list as any[];
    expect(
      adjustments
        .filter((a) => a.remark === task.countNo)
        .map((a) => [a.type, a.status])
        .sort(),
    ).toEqual(
      [
        [Enums.inventoryAdjustType.outAndIn, Enums.inventoryAdjustStatus.adjusted],
        [Enums.inventoryAdjustType.out, Enums.inventoryAdjustStatus.adjusted],
      ].sort(),
    );
    // the month's loss: one carrier of A, against A's average closing stock (today's close)
    await ok(ts.a, '/inventory/snapshot/close', {});
    const loss = await ok(counter, '/inventory/loss', { page: 1, limit: 10 });
    const stockA = (await ok(ts.a, '/inventory/query', { warehouseId: whA, day: new Date().toISOString().slice(0, 10), page: 1, limit: 1 })).list[0].inStock;
    const month = new Date().toISOString().slice(0, 7);
    expect(loss.list).toEqual([
      expect.objectContaining({ month, warehouseId: whA, lost: 1, averageStock: stockA, ratePercent: Math.round((1 / stockA) * 1000) / 10 }),
    ]);
    expect((await ok(ts.a, '/inventory/loss', { warehouseId: whB, page: 1, limit: 10 })).total).toBe(0);
  });
});
