/**
 * Trucks (/truck/list, /truck, /truck/export): rows derived from ship orders travelling by
 * land — status from the order's steps, quantities from its lines, never typed twice.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world, type World } from './support-orders';

let ts: TestServer;
let w: World;
const Truck = Enums.truckStatus;
const land = Enums.transportType.land;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
});
afterAll(() => ts?.close());

describe('trucks report', () => {
  it('follows the order: loading → in transit → finished, with quantity, arrival and difference', async () => {
    const o = await shipOrder(ts.a, w, 4, { transportType: land, conveyanceNo: 'SH-TRK-88' }, ['C1', 'C2']);
    // a sea order is not a truck shipment
    await shipOrder(ts.a, w, 1, { transportType: Enums.transportType.sea, conveyanceNo: 'VESSEL-1' });
    const row = async () => (await ok(ts.a, '/truck/list', { sn: 'SH-TRK-88', page: 1, limit: 20 })).list;

    let rows = await row();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      orderNo: o.orderNo,
      sn: 'SH-TRK-88',
      status: Truck.loading,
      quantity: 4,
      arrivalQuantity: 0,
      difference: 0,
      fromWarehouse: 'Shanghai Hub A',
      toWarehouse: 'Osaka A',
      transportDays: null,
      position: null,
    });
    expect((await ok(ts.a, '/truck/list', { sn: 'VESSEL', page: 1, limit: 20 })).total).toBe(0);

    await ok(ts.a, '/ship-order/release', { id: o.id });
    rows = await row();
    expect(rows[0].status).toBe(Truck.inTransit);
    expect(rows[0].transportDays).toBeGreaterThanOrEqual(0);
    expect((await ok(ts.a, '/truck/list', { status: Truck.inTransit, page: 1, limit: 50 })).list.map((r: any) => r.id)).toContain(o.id);
    expect((await ok(ts.a, '/truck/list', { status: Truck.loading, page: 1, limit: 50 })).list.map((r: any) => r.id)).not.toContain(o.id);

    // receive three of the four: the fourth is the difference
    const lines = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: o.id, page: 1, limit: 10 })).list;
    const receipt = await ok(ts.a, '/receipt/save', {
      shipOrderId: o.id,
      warehouseId: w.osaka,
      lines: lines.slice(0, 3).map((l: any) => ({ carrierId: l.carrierId })),
    });
    await ok(ts.a, '/receipt/receive', { id: receipt.id });
    expect((await row())[0].status).toBe(Truck.inTransit);
    await ok(ts.a, '/receipt/close', { id: receipt.id });
    rows = await row();
    expect(rows[0]).toMatchObject({ status: Truck.finished, quantity: 4, arrivalQuantity: 3, difference: -1 });

    const detail = await ok(ts.a, '/truck', { id: o.id });
    expect(detail).toMatchObject({ orderNo: o.orderNo, quantity: 4, arrivalQuantity: 3 });
    expect(detail.containers.map((c: any) => [c.containerNo, c.quantity]).sort()).toEqual([
      ['C1', 2],
      ['C2', 2],
    ]);
    expect(detail.carrierCodes).toHaveLength(1);
    expect(detail.carrierCodes[0]).toMatchObject({ quantity: 4, arrivalQuantity: 3, difference: -1 });
  });

  it('a cancelled order is a deleted truck; /truck refuses non-truck and foreign orders alike', async () => {
    const o = await shipOrder(ts.a, w, 1, { transportType: land, conveyanceNo: 'SH-TRK-99' });
    await ok(ts.a, '/ship-order/cancel', { id: o.id, remark: 'no truck' });
    expect((await ok(ts.a, '/truck/list', { sn: 'SH-TRK-99', page: 1, limit: 5 })).list[0].status).toBe(Truck.deleted);
    const sea = await shipOrder(ts.a, w, 1, { transportType: Enums.transportType.sea });
    const refused = await ts.a.call('/truck', { id: sea.id });
    expect(refused.body.code).toBe(10002);
    const foreign = await ts.b.call('/truck', { id: o.id });
    expect(foreign.body.code).toBe(10002);
    expect((await ts.b.call('/truck/list', { sn: 'SH-TRK', page: 1, limit: 5 })).body.data).toMatchObject({ total: 0 });
  });

  it('exports the same rows as a workbook', async () => {
    const res = await ts.a.fetch('/truck/export', { sn: 'SH-TRK-88' });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.subarray(0, 2).toString()).toBe('PK');
  });
});
