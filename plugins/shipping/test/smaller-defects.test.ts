/**
 * Issue 17's smaller defects, server side: the monitor names and places both ends of an order
 * for a warehouse-restricted user (and shows nothing else of the other warehouse); late has its
 * own colour; a truck row links to its detail, whose header is the sum of its rows; a ship plan
 * may go to any warehouse of the organisation, only its shipper must be the user's own.
 */
import { Enums, loadMetadata } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { truckRow } from '../server/trucks';
import { ok } from './support-orders';

let ts: TestServer;
const wh = { shanghai: 0, osaka: 0, tokyo: 0 };
let codeId = 0;
let seq = 0;
/** a user restricted to Osaka (the receiver) */
let olga: Caller;

async function boxes(n: number, warehouseId = wh.shanghai): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await ok(ts.a, '/carrier/create', { sn: `SD-${++seq}`, carrierCodeId: codeId, warehouseId, status: 10 })).id);
  return ids;
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-SD', name: 'Box', projectId, type: 10, available: true })).id;
  const places = [
    ['shanghai', 'Shanghai Hub', 121.47, 31.23],
    ['osaka', 'Osaka', 135.5, 34.69],
    ['tokyo', 'Tokyo', 139.69, 35.69],
  ] as const;
  for (const [key, name, longitude, latitude] of places) {
    const locationId = (await ok(ts.a, '/location/create', { name: `${name} site`, longitude, latitude, fenceRadius: 500, type: 0 })).id;
    wh[key] = (await ok(ts.a, '/warehouse/create', { code: key.toUpperCase(), name, locationId })).id;
  }
  olga = await ts.callerFor(await ts.addUser(ts.orgA, 'olga-osaka', { warehouseIds: [wh.osaka] }), ts.orgA);
});
afterAll(() => ts?.close());

describe('the monitor', () => {
  it('a restricted receiver sees both ends of an inbound order by name and position, and nothing else of the shipper warehouse', async () => {
    const doc = await ok(ts.a, '/ship-order/save', {
      type: 2,
      shipperWarehouseId: wh.shanghai,
      receiverWarehouseId: wh.osaka,
      lines: (await boxes(2)).map((carrierId) => ({ carrierId })),
    });
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const mine = ((await ok(olga, '/ship-order/list4map', {})) as any[]).find((r) => r.id === doc.id);
    expect(mine).toBeTruthy();
    expect(mine.from).toEqual({ id: wh.shanghai, name: 'Shanghai Hub', longitude: 121.47, latitude: 31.23 });
    expect(mine.to).toEqual({ id: wh.osaka, name: 'Osaka', longitude: 135.5, latitude: 34.69 });
    // the shipper warehouse stays outside her scope
    expect((await ok(olga, '/warehouse/list', { page: 1, limit: 50 })).list.map((w: any) => w.id)).toEqual([wh.osaka]);
    expect((await olga.call('/warehouse', { id: wh.shanghai })).body.code).toBe(10002);
    // an order between two warehouses neither of which is hers is not on her map at all
    const other = await ok(ts.a, '/ship-order/save', {
      type: 2,
      shipperWarehouseId: wh.shanghai,
      receiverWarehouseId: wh.tokyo,
      lines: (await boxes(1)).map((carrierId) => ({ carrierId })),
    });
    await ok(ts.a, '/ship-order/release', { id: other.id });
    expect(((await ok(olga, '/ship-order/list4map', {})) as any[]).map((r) => r.id)).not.toContain(other.id);
  });

  it('late orders have a colour of their own, unlike every status colour (delivered is red)', async () => {
    const legend = (await ok(ts.a, '/ship-order/listlegend4map', {})) as any[];
    const late = legend.find((l) => l.key === 'late');
    const statusColours = legend.filter((l) => l.key !== 'late').map((l) => l.color);
    expect(statusColours).toContain('error'); // delivered, SPEC §4
    expect(late.color).toBeTruthy();
    expect(statusColours).not.toContain(late.color);
  });
});

describe('trucks', () => {
  it('a row and its detail count alike: loaded = lines but the extra ones, arrived = received + extra', () => {
    // 15 lines of which one extra, none received yet, the receipt closed: 14 loaded, 1 arrived
    expect(
      truckRow({ id: 1, orderNo: 'SO1', status: 5, totalAmount: 15, receivedAmount: 0, missingAmount: 14, extraAmount: 1, tor: '2026-01-02T00:00:00Z' }),
    ).toMatchObject({ quantity: 14, arrivalQuantity: 1, difference: -13 });
    // on the road nothing arrived: no difference yet
    expect(truckRow({ id: 1, orderNo: 'SO1', status: 2, totalAmount: 4, receivedAmount: 0, extraAmount: 0 })).toMatchObject({
      quantity: 4,
      arrivalQuantity: 0,
      difference: 0,
    });
  });

  it('the report links each row to its detail; the detail header is the sum of its rows', async () => {
    const definition = await ok(ts.a, '/report/definition', { name: 'shipping.trucks' });
    expect(definition.columns.find((c: any) => c.key === 'orderNo').link).toBe('/report/truck/detail?id={id}');
    const doc = await ok(ts.a, '/ship-order/save', {
      type: 2,
      transportType: Enums.transportType.land,
      conveyanceNo: 'SD-TRUCK-1',
      shipperWarehouseId: wh.shanghai,
      receiverWarehouseId: wh.osaka,
      lines: (await boxes(3)).map((carrierId, i) => ({ carrierId, containerNo: i ? 'K2' : 'K1' })),
    });
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    let detail = await ok(ts.a, '/truck', { id: doc.id });
    const sum = (key: string, rows: any[]) => rows.reduce((n, r) => n + r[key], 0);
    expect(detail).toMatchObject({ quantity: 3, arrivalQuantity: 0, difference: 0 });
    expect(sum('difference', detail.carrierCodes)).toBe(detail.difference);
    await ok(ts.a, '/ship-order/receive', { id: doc.id });
    detail = await ok(ts.a, '/truck', { id: doc.id });
    for (const rows of [detail.carrierCodes, detail.containers]) {
      expect(sum('quantity', rows)).toBe(detail.quantity);
      expect(sum('arrivalQuantity', rows)).toBe(detail.arrivalQuantity);
      expect(sum('difference', rows)).toBe(detail.difference);
    }
    const [row] = (await ok(ts.a, '/truck/list', { sn: 'SD-TRUCK-1', page: 1, limit: 5 })).list;
    expect(row).toMatchObject({ quantity: detail.quantity, arrivalQuantity: detail.arrivalQuantity, difference: detail.difference });
  });
});

describe('ship plans', () => {
  it("go to any warehouse of the organisation; only the shipper must be the user's own", async () => {
    const shipper = await ts.callerFor(await ts.addUser(ts.orgA, 'sam-shanghai', { warehouseIds: [wh.shanghai] }), ts.orgA);
    const setup = await ok(shipper, '/ship-plan/setup', {});
    expect(setup.shipperWarehouses.map((w: any) => w.id)).toEqual([wh.shanghai]);
    expect(setup.receiverWarehouses.map((w: any) => w.id).sort()).toEqual([wh.shanghai, wh.osaka, wh.tokyo].sort());
    expect(setup.defaults.shipperWarehouseId).toBe(wh.shanghai);
    const plan = await ok(shipper, '/ship-plan/save', {
      type: Enums.shipPlanType.newBoxDelivery,
      shipperWarehouseId: wh.shanghai,
      receiverWarehouseId: wh.tokyo,
      lines: [{ carrierCodeId: codeId, qty: 2 }],
    });
    expect(plan.receiverWarehouseId).toBe(wh.tokyo);
    // a plan shipping from another warehouse to hers is refused: the shipper must be her own
    const refused = await olga.call('/ship-plan/save', {
      type: Enums.shipPlanType.newBoxDelivery,
      shipperWarehouseId: wh.shanghai,
      receiverWarehouseId: wh.osaka,
      lines: [{ carrierCodeId: codeId, qty: 1 }],
    });
    expect(refused.body.code).toBe(10001);
    expect(refused.body.message).toContain('Shipper warehouse');
    const zh = await olga.call(
      '/ship-plan/save',
      { type: Enums.shipPlanType.newBoxDelivery, shipperWarehouseId: wh.shanghai, receiverWarehouseId: wh.osaka, lines: [] },
      { language: 'zh-CN' },
    );
    expect(zh.body.message).toContain('只能使用您所属的仓库');
    // nor moved there later
    expect((await shipper.call('/ship-plan/update', { id: plan.id, shipperWarehouseId: wh.osaka })).body.code).not.toBe(0);
  });
});

describe('steps that ask first', () => {
  it('"Start loading" a delivery asks for confirmation like its release', () => {
    const steps = loadMetadata().resources.delivery.transitions ?? [];
    expect(steps.find((t) => t.name === 'load')).toMatchObject({ confirm: true });
    expect(steps.find((t) => t.name === 'release')).toMatchObject({ confirm: true });
  });
});
