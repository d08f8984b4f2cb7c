/**
 * The receiver's day over the API (issue 17), as warehouse-restricted operators at each end —
 * never as administrator: a carrier in transit is seen at both ends of its open order and by
 * no third warehouse; a receipt starts with what was shipped; receiving by scan, by container
 * and by ticked lines, partially and more than once; refusals name serials in the caller's
 * language; closing marks the rest missing. And the document-flow mechanisms under it, each
 * broken once on purpose while writing this (see the comments).
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world, type World } from './support-orders';

const RL = Enums.receiptLineStatus;
const R = Enums.receiptStatus;
let ts: TestServer;
let w: World;
let third: number;
/** restricted to the shipper warehouse, to the receiver, to a third warehouse */
let clerk: Caller;
let receiver: Caller;
let stranger: Caller;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
  third = (await ok(ts.a, '/warehouse/create', { code: 'KB', name: 'Kobe' })).id;
  // the operators' role: the shipping documents' calls without deletes, and reading carriers and
  // their in/out rows — what a clerk and a receiver do daily, nothing of master data or System
  const role = (
    await ok(ts.a, '/role/create', { name: 'Shipping operator', pcPermissions: operatorCodes(await ok(ts.a, '/permission/all', {})), pdaPermissions: [] })
  ).id;
  const operator = async (name: string, warehouseId: number) =>
    ts.callerFor(await ts.addUser(ts.orgA, name, { warehouseIds: [warehouseId], roleIds: [role] }), ts.orgA);
  clerk = await operator('clerk-sh', w.shanghai);
  receiver = await operator('recv-os', w.osaka);
  stranger = await operator('kobe-op', third);
}, 120_000);
afterAll(() => ts?.close());

interface PermissionNode {
  code?: string;
  path?: string;
  type?: number;
  children?: PermissionNode[];
}
const DAILY = /^\/(ship-order|ship-order-detail|delivery|delivery-detail|receipt|receipt-detail)(\/|$)|^\/carrier(\/list)?$|^\/carrier-inout\/list$/;
/** API codes of the calls a shipping operator makes (no deletes) */
function operatorCodes(tree: PermissionNode[]): string[] {
  const out: string[] = [];
  const walk = (n: PermissionNode) => {
    if (n.type === 30 && n.code && n.path && DAILY.test(n.path) && !n.path.endsWith('/delete')) out.push(n.code);
    for (const c of n.children ?? []) walk(c);
  };
  tree.forEach(walk);
  return [...new Set(out)];
}

/** an order of n boxes (over containers) made and released by the shipper's clerk */
async function shipped(n: number, containers: string[] = []) {
  const doc = await shipOrder(ts.a, w, n, {}, containers);
  await ok(clerk, '/ship-order/release', { id: doc.id });
  const lines = (await ok(clerk, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 100 })).list;
  return { doc, lines: lines as Array<{ carrierId: number; carrierSn: string; containerNo: string | null }> };
}

const receiptLines = async (caller: Caller, receiptId: number) =>
  (await ok(caller, '/receipt-detail/list', { receiptId, page: 1, limit: 100, sort: 'id' })).list as any[];

describe('the receiver, restricted to the receiving warehouse', () => {
  it('works with a narrow role: no master data, no deletes', async () => {
    expect((await receiver.call('/warehouse/create', { code: 'NO', name: 'Nope' })).body.code).toBe(10005);
    expect((await clerk.call('/ship-order/delete', { id: 1 })).body.code).toBe(10005);
  });

  it('sees the carriers in transit to it (and the shipper sees them too); a third warehouse does not', async () => {
    const { lines } = await shipped(2);
    const sn = lines[0].carrierSn;
    expect((await ok(receiver, '/carrier/list', { sn, page: 1, limit: 10 })).total).toBe(1);
    expect((await ok(clerk, '/carrier/list', { sn, page: 1, limit: 10 })).total).toBe(1);
    expect((await ok(stranger, '/carrier/list', { sn, page: 1, limit: 10 })).total).toBe(0);
    expect((await stranger.call('/carrier', { id: lines[0].carrierId })).body.code).toBe(10002);
  });

  it('receives partially and more than once, by scan, container and ticked lines; closing marks the rest missing', async () => {
    const { doc, lines } = await shipped(6, ['C-1', 'C-2']);
    // the form asks the order for the header: warehouses and transport come from it
    const pre = await ok(receiver, '/receipt/prefill', { shipOrderId: doc.id });
    expect(pre.defaults).toMatchObject({ warehouseId: w.osaka, shipperWarehouseId: w.shanghai });
    expect(pre.lines).toBe(6);
    const receipt = await ok(receiver, '/receipt/create', { shipOrderId: doc.id });
    expect(receipt).toMatchObject({ warehouseId: w.osaka, shipperWarehouseId: w.shanghai, status: R.new, expectedAmount: 6 });
    expect((await receiptLines(receiver, receipt.id)).map((l) => l.status)).toEqual(Array(6).fill(RL.expected));

    // first pass: one serial (typed with spaces), a serial twice, a serial of nothing
    const first = await ok(receiver, '/receipt-detail/scan', {
      receiptId: receipt.id,
      keys: [` ${lines[0].carrierSn} `, lines[1].carrierSn, lines[1].carrierSn, 'NO-SUCH'],
    });
    expect(first.accepted.map((a: any) => a.key)).toEqual([lines[0].carrierSn, lines[1].carrierSn]);
    expect(first.refused.map((r: any) => [r.key, r.reason])).toEqual([
      [lines[1].carrierSn, 'twice'],
      ['NO-SUCH', 'unknown'],
    ]);
    expect(first.refused[0].message).toContain(lines[1].carrierSn);
    expect(first.header).toMatchObject({ status: R.receiving, receivedAmount: 2, expectedAmount: 4 });
    // second pass: one already received is refused by name (in Japanese), a container takes its lines
    const again = await ok(receiver, '/receipt-detail/scan', { receiptId: receipt.id, keys: [lines[0].carrierSn], containers: ['C-2'] });
    expect(again.refused).toEqual([expect.objectContaining({ key: lines[0].carrierSn, reason: 'done' })]);
    const ja = await receiver.call('/receipt-detail/scan', { receiptId: receipt.id, keys: [lines[0].carrierSn] }, { language: 'ja-JP' });
    expect(ja.body.data.refused[0].message).toMatch(/[\u3040-\u30ff]/);
    expect(ja.body.data.refused[0].message).toContain(lines[0].carrierSn);
    // ticked lines: the receiver's line step
    const open = (await receiptLines(receiver, receipt.id)).filter((l) => l.status === RL.expected);
    expect(open.length).toBeGreaterThan(0);
    await ok(receiver, '/receipt-detail/receive', { ids: [open[0].id] });
    const before = await ok(receiver, '/receipt', { id: receipt.id });
    expect(before.expectedAmount).toBe(open.length - 1);
    // the carriers received stand in the receiver's warehouse, one inbound row each
    expect((await ok(receiver, '/carrier', { id: lines[0].carrierId })).warehouseId).toBe(w.osaka);
    expect(
      (await ok(receiver, '/carrier-inout/list', { carrierId: lines[0].carrierId, direction: Enums.inoutDirection.inbound, page: 1, limit: 10 })).total,
    ).toBe(1);

    const closed = await ok(receiver, '/receipt/close', { id: receipt.id });
    expect(closed).toMatchObject({ status: R.closed, expectedAmount: 0, missingAmount: open.length - 1 });
    const order = await ok(receiver, '/ship-order', { id: doc.id });
    expect(order).toMatchObject({ status: Enums.shipOrderStatus.received, missingAmount: open.length - 1 });
    // a closed receipt takes no more scans
    const late = await receiver.call('/receipt-detail/scan', { receiptId: receipt.id, keys: [open[1].carrierSn] });
    expect(late.body.data.refused[0].reason).toBe('rule');
  });

  it('refuses a receipt from an order not in transit, and a header that disagrees with the order, writing nothing', async () => {
    const doc = await shipOrder(ts.a, w, 1);
    const early = await receiver.call('/receipt/create', { shipOrderId: doc.id }, { language: 'zh-CN' });
    // not released: the receiver cannot even see it as an inbound order yet? it can (receiver warehouse), but not receive it
    expect(early.body.code).toBe(10004);
    expect(early.body.message).toContain(doc.orderNo);
    await ok(clerk, '/ship-order/release', { id: doc.id });
    const wrong = await ts.a.call('/receipt/create', { shipOrderId: doc.id, warehouseId: third });
    expect(wrong.body.code).toBe(10001);
    expect((await ok(ts.a, '/receipt/list', { shipOrderId: doc.id, page: 1, limit: 5 })).total).toBe(0);
  });

  it('a carrier standing in the receiving warehouse is not an extra arrival', async () => {
    const { doc } = await shipped(1);
    const [here] = (await ok(ts.a, '/carrier/list', { warehouseId: w.osaka, page: 1, limit: 1 })).list.length
      ? (await ok(ts.a, '/carrier/list', { warehouseId: w.osaka, page: 1, limit: 1 })).list
      : [await ok(ts.a, '/carrier/create', { sn: `HERE-${Date.now()}`, carrierCodeId: w.codeId, warehouseId: w.osaka, status: 10 })];
    const receipt = await ok(receiver, '/receipt/create', { shipOrderId: doc.id });
    const got = await ok(receiver, '/receipt-detail/scan', { receiptId: receipt.id, keys: [here.sn] });
    expect(got.accepted).toEqual([]);
    expect(got.refused[0].message).toContain(here.sn);
    expect((await receiptLines(receiver, receipt.id)).length).toBe(1);
  });

  it('two receivers scanning the same carrier at once: exactly one records it', async () => {
    const { doc, lines } = await shipped(1);
    const receipt = await ok(receiver, '/receipt/create', { shipOrderId: doc.id });
    const other = await ts.callerFor(await ts.addUser(ts.orgA, `recv-2-${Date.now()}`, { warehouseIds: [w.osaka] }), ts.orgA);
    // (a second receiver with the organisation's full role: the race is the point here)
    const [a, b] = await Promise.all([receiver, other].map((c) => ok(c, '/receipt-detail/scan', { receiptId: receipt.id, keys: [lines[0].carrierSn] })));
    expect(a.accepted.length + b.accepted.length).toBe(1);
    expect(
      (await ok(receiver, '/carrier-inout/list', { carrierId: lines[0].carrierId, direction: Enums.inoutDirection.inbound, page: 1, limit: 10 })).total,
    ).toBe(1);
  });
});

describe('steps run from code', () => {
  it("a step moving another document goes through that document's step: its stamp and operation are recorded", async () => {
    const doc = await shipOrder(ts.a, w, 2);
    const lines = (await ok(clerk, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list;
    await ok(clerk, '/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids: [lines[0].id] });
    const order = await ok(clerk, '/ship-order', { id: doc.id });
    // released by the step (stamped), not by a raw write; the other line still pending
    expect(order).toMatchObject({ status: Enums.shipOrderStatus.released });
    expect(order.releasedBy).toBeTruthy();
    const after = (await ok(clerk, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10, sort: 'id' })).list;
    expect(after.map((l: any) => l.status)).toEqual([Enums.shipOrderLineStatus.shipped, Enums.shipOrderLineStatus.pending]);
  });

  it('release checks the shipper warehouse again: a carrier moved away after it was put on the order does not ship', async () => {
    const doc = await shipOrder(ts.a, w, 2);
    const lines = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10, sort: 'id' })).list;
    await ok(ts.a, '/carrier/update', { id: lines[0].carrierId, warehouseId: w.osaka });
    const got = await ts.a.call('/ship-order/release', { id: doc.id }, { language: 'zh-CN' });
    expect(got.body.code).toBe(10004);
    expect(got.body.message).toContain(lines[0].carrierSn);
    expect((await ok(ts.a, '/ship-order', { id: doc.id })).status).toBe(Enums.shipOrderStatus.new);
    expect((await ok(ts.a, '/carrier', { id: lines[1].carrierId })).warehouseId).toBe(w.shanghai);
  });

  it('delivery lines in batches (SPEC /delivery-detail/batch/add, /batch/update): reasons per serial, values all or none', async () => {
    const doc = await shipOrder(ts.a, w, 3);
    const lines = (await ok(clerk, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10, sort: 'id' })).list;
    const delivery = await ok(clerk, '/delivery/create', { shipOrderId: doc.id });
    // header from the order: the clerk's warehouse and the order's receiver
    expect(delivery).toMatchObject({ warehouseId: w.shanghai, receiverWarehouseId: w.osaka });
    const other = await shipOrder(ts.a, w, 1);
    const otherSn = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: other.id, page: 1, limit: 1 })).list[0].carrierSn;
    const got = await ok(clerk, '/delivery-detail/batch/add', {
      deliveryId: delivery.id,
      sns: [lines[0].carrierSn, lines[0].carrierSn, 'NOPE', otherSn],
      carrierIds: [lines[1].carrierId],
      containerNo: 'K-1',
    });
    expect(got.added).toBe(2);
    expect(got.failed.map((f: any) => [f.sn, f.reason])).toEqual([
      [lines[0].carrierSn, 60],
      ['NOPE', 20],
      [otherSn, 10],
    ]);
    // the last one is not pending on this delivery's order: the document's own rule names it
    expect(got.failed[2].message).toContain(otherSn);
    const dLines = (await ok(clerk, '/delivery-detail/list', { deliveryId: delivery.id, page: 1, limit: 10, sort: 'id' })).list;
    expect(dLines.map((l: any) => [l.carrierSn, l.containerNo])).toEqual([
      [lines[0].carrierSn, 'K-1'],
      [lines[1].carrierSn, 'K-1'],
    ]);
    expect((await ok(clerk, '/delivery-detail/batch/update', { ids: dLines.map((l: any) => l.id), containerNo: 'K-2' })).updated).toBe(2);
    await ok(clerk, '/delivery/load', { id: delivery.id });
    // frozen once loading: refused, and no line changed
    const frozen = await clerk.call('/delivery-detail/batch/update', { ids: dLines.map((l: any) => l.id), containerNo: 'K-3' });
    expect(frozen.body.code).toBe(10004);
    const after = (await ok(clerk, '/delivery-detail/list', { deliveryId: delivery.id, page: 1, limit: 10 })).list;
    expect(after.every((l: any) => l.containerNo === 'K-2')).toBe(true);
    for (const path of ['/delivery-detail/import', '/delivery-detail/import/status', '/receipt-detail/import', '/receipt-detail/import/status'])
      expect(ts.server.calls.has(path), path).toBe(true);
  });
});
