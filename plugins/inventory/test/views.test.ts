/**
 * The inventory views against a hand-counted pool, as warehouse-restricted operators: figures per
 * warehouse and carrier code (in stock, maintenance, idle, empty/full, in transit to and from,
 * levels against min/max/theory), the drill-down to carriers, exports, the closing snapshot and
 * history, and the warehouse scope (an operator of one warehouse sees its own rows only, in every
 * view and export).
 */
import { Enums } from '@rti/metadata';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let shanghai: number;
let osaka: number;
let boxId: number;
let palletId: number;
let shOp: Caller;
let osOp: Caller;
let seq = 0;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

async function carriers(n: number, codeId: number, warehouseId: number, extra: Record<string, unknown> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await ok(ts.a, '/carrier/create', { sn: `IV-${++seq}`, carrierCodeId: codeId, warehouseId, status: 10, ...extra })).id);
  return ids;
}

async function readSheet(res: Response): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

/*
 * The pool (hand-counted):
 *   Shanghai BOX: 6 standing (1 damaged, 2 empty, 1 full, 1 marked idle); 2 shipped to Osaka (in transit)
 *   Shanghai PAL: 2 standing
 *   Osaka BOX:    1 standing; min 3 / max 10 for BOX in Osaka (below)
 *   warehouse Shanghai: min 2, max 6, theory 8
 *   one scrapped BOX in Shanghai: not counted
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  boxId = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  palletId = (await ok(ts.a, '/carrier-code/create', { code: 'PAL', name: 'Pallet', projectId, type: 30, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub', minInventory: 2, maxInventory: 6, theoryInventory: 8 })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
  await ok(ts.a, '/carrier-code/warehouse/create', {
    carrierCodeId: boxId,
    warehouseId: osaka,
    minInventory: 3,
    maxInventory: 10,
    outboundCheckTime: 60,
    idleCheckTime: 600,
  });
  const [damaged, e1, e2, f1] = await carriers(5, boxId, shanghai);
  await ok(ts.a, '/carrier/status/update', { id: damaged, status: Enums.carrierStatus.damaged });
  // loading and transport status are read-only on the API (the ingest keeps them): the test plays the ingest
  // eslint-disable-next-line rti/no-raw-models -- the test writes what the ingest would
  const model = ts.server.db.models.carrier;
  await model.update({ loadingStatus: Enums.loadingStatus.empty }, { where: { id: [e1, e2] } });
  await model.update({ loadingStatus: Enums.loadingStatus.full }, { where: { id: [f1] } });
  const [idle] = await carriers(1, boxId, shanghai);
  // eslint-disable-next-line rti/no-raw-models -- the test writes what the ingest would
  await ts.server.db.models.carrier.update({ transportStatus: Enums.transportStatus.idle }, { where: { id: idle } });
  await carriers(2, palletId, shanghai);
  await carriers(1, boxId, osaka);
  const scrapped = await carriers(1, boxId, shanghai);
  await ok(ts.a, '/carrier/status/update', { id: scrapped[0], status: Enums.carrierStatus.scrapped });
  const moving = await carriers(2, boxId, shanghai);
  const order = await ok(ts.a, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: shanghai,
    receiverWarehouseId: osaka,
    lines: moving.map((carrierId) => ({ carrierId })),
  });
  await ok(ts.a, '/ship-order/release', { id: order.id });
  const role = (
    await ok(ts.a, '/role/create', {
      name: 'Planner',
      pcPermissions: (await ok(ts.a, '/permission/all', {})).flatMap(function codes(n: any): string[] {
        return [...(n.type === 30 && /^\/inventory/.test(n.path ?? '') ? [n.code] : []), ...(n.children ?? []).flatMap(codes)];
      }),
      pdaPermissions: [],
    })
  ).id;
  shOp = await ts.callerFor(await ts.addUser(ts.orgA, 'plan-sh', { warehouseIds: [shanghai], roleIds: [role] }), ts.orgA);
  osOp = await ts.callerFor(await ts.addUser(ts.orgA, 'plan-os', { warehouseIds: [osaka], roleIds: [role] }), ts.orgA);
}, 120_000);
afterAll(() => ts?.close());

describe('figures now', () => {
  it('per warehouse and code, hand-counted', async () => {
    const rt = await ok(ts.a, '/inventory/realtime', { page: 1, limit: 50 });
    const pick = (w: number, c: number) => rt.list.find((r: any) => r.warehouseId === w && r.carrierCodeId === c);
    expect(pick(shanghai, boxId)).toMatchObject({ inStock: 6, maintenance: 1, available: 5, empty: 2, full: 1, idle: 1, inTransitOut: 2, inTransitIn: 0 });
    expect(pick(shanghai, palletId)).toMatchObject({ inStock: 2, maintenance: 0 });
    expect(pick(osaka, boxId)).toMatchObject({ inStock: 1, inTransitIn: 2, min: 3, max: 10, levelKey: 'below' });
    const q = await ok(ts.a, '/inventory/query', { page: 1, limit: 50 });
    const sh = q.list.find((r: any) => r.warehouseId === shanghai);
    expect(sh).toMatchObject({ inStock: 8, min: 2, max: 6, theory: 8, gap: 0, levelKey: 'above', inTransitOut: 2 });
    expect(q.total).toBe(2);
  });

  it('drill-down to the carriers behind a figure', async () => {
    const all = await ok(ts.a, '/inventory/real/detail', { warehouseId: shanghai, carrierCodeId: boxId, page: 1, limit: 50 });
    expect(all.total).toBe(6);
    const maint = await ok(ts.a, '/inventory/real/detail', { warehouseId: shanghai, view: 'maintain', page: 1, limit: 50 });
    expect(maint.total).toBe(1);
    expect(maint.list[0].status).toBe(Enums.carrierStatus.damaged);
    const bad = await ts.a.call('/inventory/real/detail', { view: 'nope', page: 1, limit: 5 }, { language: 'ja-JP' });
    expect(bad.body.code).toBe(10001);
  });

  it('in transit and under maintenance views', async () => {
    const tr = await ok(ts.a, '/inventory/transport', { page: 1, limit: 50 });
    expect(tr.list.map((r: any) => [r.warehouseId, r.inTransitIn, r.inTransitOut]).sort()).toEqual(
      [
        [osaka, 2, 0],
        [shanghai, 0, 2],
      ].sort(),
    );
    const mt = await ok(ts.a, '/inventory/maintain', { page: 1, limit: 50 });
    expect(mt.list.map((r: any) => [r.warehouseId, r.carrierCodeId, r.maintenance])).toEqual([[shanghai, boxId, 1]]);
  });
});

describe('warehouse scope', () => {
  it('an operator of one warehouse sees its own rows only, in every view and export', async () => {
    const rt = await ok(osOp, '/inventory/realtime', { page: 1, limit: 50 });
    expect(new Set(rt.list.map((r: any) => r.warehouseId))).toEqual(new Set([osaka]));
    // in transit to Osaka is Osaka's figure; Shanghai's outbound side is not shown to it
    expect(rt.list[0]).toMatchObject({ inStock: 1, inTransitIn: 2 });
    const q = await ok(osOp, '/inventory/query', { page: 1, limit: 50 });
    expect(q.list.map((r: any) => r.warehouseId)).toEqual([osaka]);
    const other = await ok(osOp, '/inventory/real/detail', { warehouseId: shanghai, page: 1, limit: 50 });
    expect(other.total).toBe(0);
    const mt = await ok(osOp, '/inventory/maintain', { page: 1, limit: 50 });
    expect(mt.total).toBe(0);
    const res = await osOp.fetch('/inventory/real/detail/all/export', {});
    const sheet = await readSheet(res);
    expect(sheet.some((r) => r.includes('Shanghai Hub'))).toBe(false);
    expect(sheet.some((r) => r.includes('Osaka'))).toBe(true);
    const shSheet = await readSheet(await shOp.fetch('/inventory/export', {}));
    expect(shSheet.some((r) => r.includes('Osaka'))).toBe(false);
    expect(shSheet.some((r) => r.includes('Shanghai Hub'))).toBe(true);
  });
});

describe('closing snapshots and history', () => {
  it("closing writes the day; history and the day's query read it, scoped", async () => {
    const { day } = await ok(shOp, '/inventory/snapshot/close', {});
    const q = await ok(ts.a, '/inventory/query', { day, page: 1, limit: 50 });
    expect(q.list.find((r: any) => r.warehouseId === shanghai)).toMatchObject({ inStock: 8, inTransitOut: 2 });
    const detail = await ok(ts.a, '/inventory/detail', { day, warehouseId: osaka, page: 1, limit: 50 });
    expect(detail.list.map((r: any) => [r.carrierCodeId, r.inStock, r.inTransitIn])).toEqual([[boxId, 1, 2]]);
    const hist = await ok(osOp, '/inventory/history', { time: [Date.now() - 86_400_000, Date.now()], page: 1, limit: 50 });
    expect(hist.list.map((r: any) => [r.day, r.warehouseId, r.inStock])).toEqual([[day, osaka, 1]]);
    // an adjustment recorded after the fact (yesterday) corrects the snapshots it reaches into
    const [box] = (await ok(ts.a, '/inventory/real/detail', { warehouseId: shanghai, carrierCodeId: boxId, view: 'full', page: 1, limit: 1 })).list;
    const adj = await ok(ts.a, '/inventory/adjustment/save', {
      type: Enums.inventoryAdjustType.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: box.id }],
    });
    await ok(ts.a, '/inventory/adjustment/out-in', { id: adj.id, adjustedTime: new Date(Date.now() - 86_400_000).toISOString() });
    const after = await ok(ts.a, '/inventory/detail', { day, carrierCodeId: boxId, page: 1, limit: 50 });
    expect(after.list.map((r: any) => [r.warehouseId, r.inStock]).sort()).toEqual(
      [
        [osaka, 2],
        [shanghai, 5],
      ].sort(),
    );
    // beyond the documented bound: refused, in the caller's language
    const far = await ts.a.call('/inventory/history', { time: [Date.now() - 400 * 86_400_000, Date.now()], page: 1, limit: 10 }, { language: 'zh-CN' });
    expect(far.body.code).toBe(10001);
  });
});
