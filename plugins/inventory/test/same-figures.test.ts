/**
 * One count of "in stock" (the carrier's declared filter `inStock`): the real-time inventory, the
 * dashboard's inventory per warehouse and the ship order form's "in stock" answer the same number
 * for a pool mixing what counts (in the warehouse, idle, status unknown) with what does not (lost,
 * scrapped, in transit) — each was counted its own way before.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let warehouseId: number;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'dashboard'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const codeId = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  warehouseId = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
  const { carrierStatus: S, transportStatus: T } = Enums;
  const pool: Array<[number, number]> = [
    [S.inUse, T.inWarehouse],
    [S.inUse, T.inWarehouse],
    [S.standby, T.idle],
    [S.inUse, T.unknown],
    [S.lost, T.inWarehouse],
    [S.scrapped, T.inWarehouse],
    [S.inUse, T.inTransit],
  ];
  let n = 0;
  for (const [status, transportStatus] of pool) {
    const { id } = await ok(ts.a, '/carrier/create', { sn: `SF-${++n}`, carrierCodeId: codeId, warehouseId, status });
    // eslint-disable-next-line rti/no-raw-models -- the fixture sets the transport status the telemetry engine would
    await ts.server.db.models.carrier.update({ transportStatus }, { where: { id } });
  }
}, 120_000);
afterAll(() => ts?.close());

it('the real-time inventory, the dashboard and the ship order form count the same carriers in stock', async () => {
  const realtime = await ok(ts.a, '/inventory/realtime', { warehouseId, page: 1, limit: 10 });
  const dashboard = await ok(ts.a, '/dashboard');
  const setup = await ok(ts.a, '/ship-order/setup', { shipperWarehouseId: warehouseId });
  const figures = [
    realtime.list[0].inStock,
    dashboard.inventory.find((w: any) => w.id === warehouseId).count,
    setup.shipperWarehouses.find((w: any) => w.id === warehouseId).inStock,
  ];
  expect(figures).toEqual([4, 4, 4]);
});
