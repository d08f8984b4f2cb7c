/**
 * Rebalancing suggestions against a hand-computed pool: the deficit warehouse is served by the
 * nearest surplus warehouses first, no more than they hold above their maximum; a suggestion
 * becomes a draft ship order through the ship order's own writes; a restricted operator's
 * suggestions stay within its warehouses.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let codeId: number;
const wh: Record<'A' | 'B' | 'C', number> = { A: 0, B: 0, C: 0 };
let seq = 0;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}
async function boxes(n: number, warehouseId: number): Promise<void> {
  for (let i = 0; i < n; i++) await ok(ts.a, '/carrier/create', { sn: `RB-${++seq}`, carrierCodeId: codeId, warehouseId, status: 10 });
}

/*
 * BOX: A holds 8 (max 5: 3 spare), C holds 5 (max 3: 2 spare), B holds 1 (min 4: needs 3).
 * Routes to B: C 50 km, A 100 km → C sends 2, A sends 1.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  for (const k of ['A', 'B', 'C'] as const) wh[k] = (await ok(ts.a, '/warehouse/create', { code: `R${k}`, name: `Depot ${k}` })).id;
  const cfg = (warehouseId: number, minInventory: number, maxInventory: number) =>
    ok(ts.a, '/carrier-code/warehouse/create', { carrierCodeId: codeId, warehouseId, minInventory, maxInventory, outboundCheckTime: 60, idleCheckTime: 600 });
  await cfg(wh.A, 1, 5);
  await cfg(wh.B, 4, 10);
  await cfg(wh.C, 0, 3);
  await ok(ts.a, '/route/create', { routeName: 'A-B', fromWarehouseId: wh.A, toWarehouseId: wh.B, transportType: 20, transportTime: 600, distance: 100 });
  await ok(ts.a, '/route/create', { routeName: 'C-B', fromWarehouseId: wh.C, toWarehouseId: wh.B, transportType: 20, transportTime: 300, distance: 50 });
  await boxes(8, wh.A);
  await boxes(5, wh.C);
  await boxes(1, wh.B);
}, 120_000);
afterAll(() => ts?.close());

describe('rebalancing suggestions', () => {
  it('serves the deficit from the nearest surplus first, within what each holds above its maximum', async () => {
    const got = await ok(ts.a, '/inventory/suggestion', { page: 1, limit: 20 });
    expect(got.list.map((s: any) => [s.fromWarehouseId, s.toWarehouseId, s.quantity, s.distanceKm])).toEqual([
      [wh.C, wh.B, 2, 50],
      [wh.A, wh.B, 1, 100],
    ]);
    expect(got.list[0]).toMatchObject({ carrierCodeId: codeId, daysLeft: 0, need: 3 });
  });

  it("the page offers the row action in the reader's language; its body, filled from a listed row, makes the order", async () => {
    const zh = await ts.a.call<any>('/report/definition', { name: 'inventory.suggestion' }, { language: 'zh-CN' });
    const [action] = zh.body.data.actions;
    expect(action).toMatchObject({ name: 'shipOrder', call: '/inventory/suggestion/ship-order', open: '/ship-order-manage/ship-order/detail/{id}' });
    expect(zh.body.data.texts[action.label]).toBe('生成发运单草稿');
    const row = (await ok(ts.a, '/inventory/suggestion', { page: 1, limit: 20 })).list[1];
    const body = Object.fromEntries(Object.entries(action.body as Record<string, string>).map(([k, v]) => [k, row[v.slice(1, -1)]]));
    expect(body).toEqual({ carrierCodeId: codeId, fromWarehouseId: wh.A, toWarehouseId: wh.B, quantity: 1 });
  });

  it("turns a suggestion into a draft ship order through the ship order's own writes", async () => {
    const order = await ok(ts.a, '/inventory/suggestion/ship-order', { carrierCodeId: codeId, fromWarehouseId: wh.A, toWarehouseId: wh.B, quantity: 1 });
    expect(order).toMatchObject({ status: Enums.shipOrderStatus.new, shipperWarehouseId: wh.A, receiverWarehouseId: wh.B, totalAmount: 1 });
    expect(order.orderNo).toMatch(/^SO/);
    // the carrier on the draft is no longer free: asking for all of A's boxes is refused, nothing created
    const before = (await ok(ts.a, '/ship-order/list', { page: 1, limit: 1 })).total;
    const r = await ts.a.call(
      '/inventory/suggestion/ship-order',
      { carrierCodeId: codeId, fromWarehouseId: wh.A, toWarehouseId: wh.B, quantity: 8 },
      { language: 'zh-CN' },
    );
    expect(r.body.code).toBe(10004);
    expect(r.body.message).toContain('7');
    expect(r.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await ok(ts.a, '/ship-order/list', { page: 1, limit: 1 })).total).toBe(before);
  });

  it('a restricted operator gets suggestions within its warehouses only', async () => {
    const role = (
      await ok(ts.a, '/role/create', { name: 'Planner B', pcPermissions: ['ApiInventorySuggestion', 'ApiInventorySuggestionShipOrder'], pdaPermissions: [] })
    ).id;
    const opB = await ts.callerFor(await ts.addUser(ts.orgA, 'plan-b', { warehouseIds: [wh.B], roleIds: [role] }), ts.orgA);
    expect((await ok(opB, '/inventory/suggestion', { page: 1, limit: 20 })).total).toBe(0);
    // and cannot ship from a warehouse that is not its own
    const r = await opB.call('/inventory/suggestion/ship-order', { carrierCodeId: codeId, fromWarehouseId: wh.C, toWarehouseId: wh.A, quantity: 1 });
    expect(r.body.code).not.toBe(0);
  });
});
