/**
 * Carriers really move with the shipping documents: release → receive end to end, and every
 * refusal leaves every carrier where it was (status, warehouse, in/out rows, logs).
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let shanghai: number;
let osaka: number;
let carrierCodeId: number;
let seq = 0;
const Status = Enums.shipOrderStatus;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/** n carriers standing in a warehouse: their ids and serials */
async function carriers(n: number, warehouseId: number, caller: Caller = ts.a, codeId = carrierCodeId): Promise<Array<{ id: number; sn: string }>> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const sn = `BOX-${++seq}`;
    out.push({ id: (await ok(caller, '/carrier/create', { sn, carrierCodeId: codeId, warehouseId, status: 10 })).id as number, sn });
  }
  return out;
}

const inWarehouse = async (warehouseId: number) => (await ok(ts.a, '/carrier/list', { warehouseId, page: 1, limit: 1 })).total as number;
const carrier = async (id: number) => ok(ts.a, '/carrier', { id });
const order = async (id: number) => ok(ts.a, '/ship-order', { id });

async function newOrder(ids: number[], extra: Record<string, unknown> = {}) {
  return ok(ts.a, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: shanghai,
    receiverWarehouseId: osaka,
    ...extra,
    lines: ids.map((carrierId) => ({ carrierId })),
  });
}

/** What a failed step must not have touched. */
async function snapshot(ids: number[]) {
  const rows = await Promise.all(ids.map(carrier));
  const inout = (await ok(ts.a, '/carrier-inout/list', { page: 1, limit: 1 })).total;
  const logs = (await ok(ts.a, '/carrier-log/list', { page: 1, limit: 1 })).total;
  return { carriers: rows.map((r) => [r.id, r.warehouseId, r.transportStatus, r.cycleCount]), inout, logs };
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  carrierCodeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-1', name: 'Box', projectId, type: 10, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
  await ok(ts.a, '/route/create', { routeName: 'SH-OS', fromWarehouseId: shanghai, toWarehouseId: osaka, transportType: 20, transportTime: 600 });
});
afterAll(() => ts?.close());

describe('release → receive', () => {
  it('moves exactly the shipped carriers from the shipper to the receiver warehouse', async () => {
    const boxes = await carriers(12, shanghai);
    const staying = boxes.slice(10);
    const shipped = boxes.slice(0, 10);
    const beforeSh = await inWarehouse(shanghai);
    const beforeOs = await inWarehouse(osaka);
    const doc = await newOrder(
      shipped.map((b) => b.id),
      { remark: '400 boxes to Osaka' },
    );
    expect(doc.orderNo).toMatch(/^SO\d{8}\d{4}$/);
    expect(doc.totalAmount).toBe(10);

    const released = await ok(ts.a, '/ship-order/release', { id: doc.id });
    expect(released.status).toBe(Status.released);
    expect(released.atd).toBeTruthy();
    // the route's transport time (600 min) starts at departure
    expect(new Date(released.dueAt).getTime() - new Date(released.atd).getTime()).toBeGreaterThanOrEqual(600 * 60_000 - 1000);
    expect(await inWarehouse(shanghai)).toBe(beforeSh - 10);
    const moving = await carrier(shipped[0].id);
    expect(moving).toMatchObject({ warehouseId: null, transportStatus: Enums.transportStatus.inTransit, outboundWarehouseId: shanghai });
    expect((await carrier(staying[0].id)).warehouseId).toBe(shanghai);
    const out = await ok(ts.a, '/carrier-inout/list', { shipOrderNo: doc.orderNo, page: 1, limit: 100 });
    expect(out.total).toBe(10);
    expect(out.list.every((r: any) => r.direction === Enums.inoutDirection.outbound && r.warehouseId === shanghai)).toBe(true);
    const logs = await ok(ts.a, '/carrier-log/list', { carrierId: shipped[0].id, page: 1, limit: 10 });
    expect(logs.list.some((l: any) => l.event === Enums.carrierLogEvent.transportStatusChange && l.newValue === String(Enums.transportStatus.inTransit))).toBe(
      true,
    );
    // the log's remark names the order in the reader's language (stored as a key and values)
    expect(logs.list.map((l: any) => l.remark)).toContain(`Shipped with ship order ${doc.orderNo}`);
    for (const [language, text] of [
      ['zh-CN', `随发运单 ${doc.orderNo} 发出`],
      ['ja-JP', `出荷オーダー ${doc.orderNo} で出荷`],
    ]) {
      const read = (await ts.a.call('/carrier-log/list', { carrierId: shipped[0].id, page: 1, limit: 10 }, { language })).body.data as any;
      expect(
        read.list.map((l: any) => l.remark),
        language,
      ).toContain(text);
    }

    const received = await ok(ts.a, '/ship-order/receive', { id: doc.id });
    expect(received).toMatchObject({ status: Status.received, receivedAmount: 10, missingAmount: 0, extraAmount: 0 });
    expect(await inWarehouse(osaka)).toBe(beforeOs + 10);
    expect(await inWarehouse(shanghai)).toBe(beforeSh - 10);
    expect(await carrier(shipped[0].id)).toMatchObject({
      warehouseId: osaka,
      transportStatus: Enums.transportStatus.inWarehouse,
      inboundWarehouseId: osaka,
      cycleCount: 1,
    });
    const inbound = await ok(ts.a, '/carrier-inout/list', { shipOrderNo: doc.orderNo, direction: Enums.inoutDirection.inbound, page: 1, limit: 100 });
    expect(inbound.total).toBe(10);
    const lines = await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 100 });
    expect(lines.list.every((l: any) => l.status === Enums.shipOrderLineStatus.received && l.receiptTime && l.deliveryTime)).toBe(true);
    expect(lines.list[0].carrierSn).toBe(shipped[0].sn);
  });

  it('a release and a receipt recorded after the fact are dated when they happened; a time in the future is refused', async () => {
    const boxes = await carriers(2, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const refused = await ts.a.call('/ship-order/release', { id: doc.id, atd: future }, { language: 'ja-JP' });
    expect(refused.body.code).toBe(10001);
    expect(refused.body.message).toContain('未来の日時は指定できません');
    expect((await order(doc.id)).status).toBe(Status.new);
    expect((await carrier(boxes[0].id)).warehouseId).toBe(shanghai);

    // left yesterday morning: the route's 600 minutes are over, the order is late
    const left = new Date(Date.now() - 30 * 3_600_000);
    const released = await ok(ts.a, '/ship-order/release', { id: doc.id, atd: left.toISOString() });
    expect(new Date(released.atd).getTime()).toBe(left.getTime());
    expect(new Date(released.dueAt).getTime()).toBe(left.getTime() + 600 * 60_000);
    const out = await ok(ts.a, '/carrier-inout/list', { shipOrderNo: doc.orderNo, page: 1, limit: 10 });
    expect(out.list.map((r: any) => new Date(r.confirmTime).getTime())).toEqual([left.getTime(), left.getTime()]);
    expect(new Date((await carrier(boxes[0].id)).outboundTime).getTime()).toBe(left.getTime());
    const map = await ok(ts.a, '/ship-order/list4map', {});
    expect((map.list ?? map).find((o: any) => o.id === doc.id)).toMatchObject({ late: true });

    const arrived = new Date(Date.now() - 2 * 3_600_000);
    const received = await ok(ts.a, '/ship-order/receive', { id: doc.id, tor: arrived.toISOString() });
    expect(new Date(received.tor).getTime()).toBe(arrived.getTime());
    expect(new Date(received.ata).getTime()).toBe(arrived.getTime());
    const inbound = await ok(ts.a, '/carrier-inout/list', { shipOrderNo: doc.orderNo, direction: Enums.inoutDirection.inbound, page: 1, limit: 10 });
    expect(inbound.list.map((r: any) => new Date(r.confirmTime).getTime())).toEqual([arrived.getTime(), arrived.getTime()]);
  });

  it('a delivery ships its lines and a receipt keeps missing and extra carriers', async () => {
    const boxes = await carriers(5, shanghai);
    // loaded by mistake at the shipper: it arrives without being on the order
    const [stray] = await carriers(1, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const delivery = await ok(ts.a, '/delivery/save', {
      shipOrderId: doc.id,
      warehouseId: shanghai,
      receiverWarehouseId: osaka,
      lines: boxes.map((b) => ({ carrierId: b.id })),
    });
    expect(delivery.deliveryNo).toMatch(/^DN/);
    await ok(ts.a, '/delivery/load', { id: delivery.id });
    await ok(ts.a, '/delivery/release', { id: delivery.id });
    expect((await order(doc.id)).status).toBe(Status.released);
    expect((await carrier(boxes[0].id)).transportStatus).toBe(Enums.transportStatus.inTransit);

    // four arrive, one is missing, and a carrier that was not on the order turns up
    const receipt = await ok(ts.a, '/receipt/create', { shipOrderId: doc.id, warehouseId: osaka });
    // the receipt starts with what was shipped, each expected
    expect(receipt).toMatchObject({ totalAmount: 5, expectedAmount: 5, receivedAmount: 0 });
    const added = await ok(ts.a, '/receipt-detail/batchcreatebycarrier', {
      receiptId: receipt.id,
      sns: [...boxes.slice(0, 4).map((b) => b.sn), stray.sn, 'NO-SUCH-BOX'],
    });
    expect(added.added).toBe(5);
    expect(added.failed).toEqual([expect.objectContaining({ sn: 'NO-SUCH-BOX', reason: 20 })]);
    // scanning received them: the receipt is receiving, one carrier still expected
    expect(added.receipt).toMatchObject({ status: Enums.receiptStatus.receiving, expectedAmount: 1, receivedAmount: 4, extraAmount: 1 });
    await ok(ts.a, '/receipt/close', { id: receipt.id });
    const after = await order(doc.id);
    expect(after).toMatchObject({ status: Status.received, receivedAmount: 4, missingAmount: 1, extraAmount: 1 });
    // the missing carrier does not stay in transit for ever: it is abnormal, and its log says why
    expect((await carrier(boxes[4].id)).transportStatus).toBe(Enums.transportStatus.abnormal);
    expect((await ok(ts.a, '/receipt', { id: receipt.id })).missingAmount).toBe(1);
    expect((await carrier(boxes[0].id)).warehouseId).toBe(osaka);
  });
});

describe('stamps and codes on the shipping list', () => {
  it('batch/add and receipt lines carry the carrier code; closing the receipt stamps who received the order and when', async () => {
    const boxes = await carriers(3, shanghai);
    const doc = await newOrder([]);
    const added = await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [boxes[0].sn], carrierIds: [boxes[1].id, boxes[2].id] });
    expect(added).toEqual({ added: 3, failed: [] });
    const lines = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list;
    expect(lines.map((l: any) => [l.carrierSn, l.carrierCodeId, l.carrierCodeIdLabel])).toEqual(boxes.map((b) => [b.sn, carrierCodeId, 'CC-1']));
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const receipt = await ok(ts.a, '/receipt/create', { shipOrderId: doc.id, warehouseId: osaka });
    const scanned = await ok(ts.a, '/receipt-detail/batchcreatebycarrier', { receiptId: receipt.id, sns: boxes.map((b) => b.sn) });
    const rLines = (await ok(ts.a, '/receipt-detail/list', { receiptId: receipt.id, page: 1, limit: 10 })).list;
    expect(rLines.every((l: any) => l.carrierCodeId === carrierCodeId)).toBe(true);
    // the first scanned line moved the receipt to receiving, stamped when receiving began
    const received = scanned.receipt;
    expect((await order(doc.id)).receivedBy).toBeNull();
    await ok(ts.a, '/receipt/close', { id: receipt.id });
    const after = await order(doc.id);
    expect(after.status).toBe(Status.received);
    expect(after.receivedBy).toBeTruthy();
    expect(after.tor).toBeTruthy();
    // arrival: when receiving began (the receipt's real date), the deliver step having been skipped
    expect(new Date(after.ata).getTime()).toBe(new Date(received.realDate).getTime());
    const shipped = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list;
    expect(shipped.every((l: any) => l.receiptBy === after.receivedBy && l.receiptTime && l.deliveryBy && l.deliveryTime)).toBe(true);
  });

  it("the order's own receive step fills the arrival time when no deliver step stamped it", async () => {
    const [box] = await carriers(1, shanghai);
    const doc = await newOrder([box.id]);
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const got = await ok(ts.a, '/ship-order/receive', { id: doc.id });
    expect(got.receivedBy).toBeTruthy();
    expect(got.ata).toBe(got.tor);
  });
});

describe('one status call per document (SPEC /delivery/updatestatus, /receipt/updatestatus)', () => {
  it('runs the step reaching the status sent; a wrong or unreachable status moves nothing', async () => {
    const boxes = await carriers(2, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const delivery = await ok(ts.a, '/delivery/save', {
      shipOrderId: doc.id,
      warehouseId: shanghai,
      receiverWarehouseId: osaka,
      lines: boxes.map((b) => ({ carrierId: b.id })),
    });
    const D = Enums.deliveryStatus;
    // released needs delivering first: the release step's own refusal, named in the caller's language
    const early = await ts.a.call('/delivery/updatestatus', { id: delivery.id, status: D.released });
    expect(early.body.code).toBe(10004);
    expect(early.body.message).toContain('New');
    const unreachable = await ts.a.call('/delivery/updatestatus', { id: delivery.id, status: D.new }, { language: 'ja-JP' });
    expect(unreachable.body.code).toBe(10001);
    expect(unreachable.body.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect((await ts.a.call('/delivery/updatestatus', { id: delivery.id, status: 99 })).body.code).toBe(10001);
    expect((await ts.a.call('/delivery/updatestatus', { id: delivery.id })).body.code).toBe(10001);
    expect((await carrier(boxes[0].id)).warehouseId).toBe(shanghai);

    expect((await ok(ts.a, '/delivery/updatestatus', { id: delivery.id, status: D.delivering })).status).toBe(D.delivering);
    // the release step's hook ships the carriers exactly as /delivery/release does
    expect((await ok(ts.a, '/delivery/updatestatus', { id: delivery.id, status: D.released })).realDate).toBeTruthy();
    expect((await carrier(boxes[0].id)).transportStatus).toBe(Enums.transportStatus.inTransit);
    expect((await order(doc.id)).status).toBe(Status.released);
    expect((await ok(ts.a, '/delivery/updatestatus', { ids: [delivery.id], status: D.closed }))[0].status).toBe(D.closed);
    // another organisation's document is not found
    expect((await ts.b.call('/delivery/updatestatus', { id: delivery.id, status: D.closed })).body.code).toBe(10002);

    const R = Enums.receiptStatus;
    const receipt = await ok(ts.a, '/receipt/create', { shipOrderId: doc.id, warehouseId: osaka });
    // receiving the receipt itself receives every carrier still expected on it
    expect((await ok(ts.a, '/receipt/updatestatus', { id: receipt.id, status: R.receiving })).status).toBe(R.receiving);
    expect((await carrier(boxes[1].id)).warehouseId).toBe(osaka);
    expect((await ok(ts.a, '/receipt/updatestatus', { id: receipt.id, status: R.closed })).status).toBe(R.closed);
    expect(await order(doc.id)).toMatchObject({ status: Status.received, receivedAmount: 2, missingAmount: 0 });
  });
});

describe('calls on chosen lines (SPEC §7)', () => {
  it('fetch/order/id finds an order by its number in the caller organisation only', async () => {
    const doc = await newOrder([]);
    expect(await ok(ts.a, '/ship-order/fetch/order/id', { orderNo: doc.orderNo })).toEqual({ id: doc.id, orderNo: doc.orderNo, status: Status.new });
    expect((await ts.b.call('/ship-order/fetch/order/id', { orderNo: doc.orderNo })).body.code).toBe(10002);
    expect((await ts.a.call('/ship-order/fetch/order/id', {})).body.code).toBe(10001);
  });

  it('batch/delivery ships chosen lines (releasing the order), batch/receipt receives chosen ones; wrong lines move nothing', async () => {
    const boxes = await carriers(4, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const lines = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list;
    const ids = lines.map((l: any) => l.id);
    // receiving lines never shipped: refused, nothing moved
    const before = await snapshot(boxes.map((b) => b.id));
    expect((await ts.a.call('/ship-order-detail/batch/receipt', { shipOrderId: doc.id, ids: ids.slice(0, 1) })).body.code).toBe(10004);
    // a line of another order is not found
    const other = await newOrder((await carriers(1, shanghai)).map((b) => b.id));
    const otherLine = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: other.id, page: 1, limit: 1 })).list[0].id;
    expect((await ts.a.call('/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids: [ids[0], otherLine] })).body.code).toBe(10002);
    expect(await snapshot(boxes.map((b) => b.id))).toEqual(before);

    const sent = await ok(ts.a, '/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids: ids.slice(0, 3) });
    expect(sent.shipped).toBe(3);
    expect(sent.order).toMatchObject({ status: Status.released });
    expect(sent.order.atd).toBeTruthy();
    expect((await carrier(boxes[0].id)).transportStatus).toBe(Enums.transportStatus.inTransit);
    expect((await carrier(boxes[3].id)).warehouseId).toBe(shanghai);
    const again = await ts.a.call('/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids: ids.slice(0, 1) }, { language: 'zh-CN' });
    expect(again.body.code).toBe(10004);
    expect(again.body.message).toContain(boxes[0].sn);

    const got = await ok(ts.a, '/ship-order-detail/batch/receipt', { shipOrderId: doc.id, ids: ids.slice(0, 2) });
    expect(got).toMatchObject({ received: 2, extra: 0, order: { receivedAmount: 2, status: Status.released } });
    expect(await carrier(boxes[0].id)).toMatchObject({ warehouseId: osaka, cycleCount: 1 });
    expect((await carrier(boxes[2].id)).transportStatus).toBe(Enums.transportStatus.inTransit);
    // a cancelled order takes no departures
    const cancelled = await newOrder((await carriers(1, shanghai)).map((b) => b.id));
    await ok(ts.a, '/ship-order/cancel', { id: cancelled.id });
    const cLine = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: cancelled.id, page: 1, limit: 1 })).list[0].id;
    const refused = await ts.a.call('/ship-order-detail/batch/delivery', { shipOrderId: cancelled.id, ids: [cLine] });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toContain(cancelled.orderNo);
    expect((await ts.b.call('/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids: ids.slice(3) })).body.code).toBe(10002);
  });

  it('batch/adddelivery puts chosen pending lines of the order on a delivery', async () => {
    const boxes = await carriers(3, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const ids = (await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list.map((l: any) => l.id);
    const delivery = await ok(ts.a, '/delivery/create', { shipOrderId: doc.id, warehouseId: shanghai, receiverWarehouseId: osaka });
    const added = await ok(ts.a, '/ship-order-detail/batch/adddelivery', { deliveryId: delivery.id, ids: ids.slice(0, 2) });
    expect(added.added).toBe(2);
    expect(added.delivery.totalAmount).toBe(2);
    // the same carrier twice on one delivery: refused whole
    const twice = await ts.a.call('/ship-order-detail/batch/adddelivery', { deliveryId: delivery.id, ids: ids.slice(1) });
    expect(twice.body.code).not.toBe(0);
    expect((await ok(ts.a, '/delivery', { id: delivery.id })).totalAmount).toBe(2);
  });
});

describe('refusals leave every carrier where it was', () => {
  it('wrong-status steps answer 10004 naming current and wanted status, in the caller language', async () => {
    const boxes = await carriers(2, shanghai);
    const doc = await newOrder(boxes.map((b) => b.id));
    const before = await snapshot(boxes.map((b) => b.id));
    const early = await ts.a.call('/ship-order/receive', { id: doc.id });
    expect(early.body.code).toBe(10004);
    expect(early.body.message).toContain('New');
    const zh = await ts.a.call('/ship-order/close', { id: doc.id }, { language: 'zh-CN' });
    expect(zh.body.code).toBe(10004);
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect(await snapshot(boxes.map((b) => b.id))).toEqual(before);
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const again = await ts.a.call('/ship-order/release', { id: doc.id });
    expect(again.body.code).toBe(10004);
    // lines are frozen once released
    const [extra] = await carriers(1, shanghai);
    const frozen = await ts.a.call('/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [extra.sn] });
    expect(frozen.body.data.added).toBe(0);
    expect(frozen.body.data.failed[0].code).toBe(10004);
  });

  it('two concurrent releases sharing a carrier: one wins, the other moves nothing', async () => {
    const [shared, a1, b1] = await carriers(3, shanghai);
    const first = await newOrder([shared.id, a1.id]);
    const second = await newOrder([b1.id]);
    // the add-time rule keeps a carrier on one open order; put it on both behind its back
    const model = ts.server.db.models['ship-order-detail'];
    await model.create({ orgId: ts.orgA, shipOrderId: second.id, carrierId: shared.id, carrierSn: shared.sn, status: Enums.shipOrderLineStatus.pending });
    const results = await Promise.all([ts.a.call('/ship-order/release', { id: first.id }), ts.a.call('/ship-order/release', { id: second.id })]);
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 10004]);
    const loser = results[0].body.code === 0 ? second : first;
    const loserOwn = loser === second ? b1 : a1;
    expect((await order(loser.id)).status).toBe(Status.new);
    expect(await carrier(loserOwn.id)).toMatchObject({ warehouseId: shanghai });
    expect((await ok(ts.a, '/carrier-inout/list', { shipOrderNo: loser.orderNo, page: 1, limit: 1 })).total).toBe(0);
  });

  it('concurrent batch/add of one carrier onto two open orders: exactly one gets it', async () => {
    const boxes = await carriers(6, shanghai);
    const left = await newOrder([]);
    const right = await newOrder([]);
    // each carrier raced for by two calls at once, the six races at once too
    const results = await Promise.all(
      boxes.flatMap((b) => [
        ts.a.call('/ship-order-detail/batch/add', { shipOrderId: left.id, sns: [b.sn] }),
        ts.a.call('/ship-order-detail/batch/add', { shipOrderId: right.id, carrierIds: [b.id] }),
      ]),
    );
    for (let i = 0; i < boxes.length; i++) {
      const pair = [results[2 * i], results[2 * i + 1]].map((r) => r.body);
      expect(pair.map((b) => b.code)).toEqual([0, 0]);
      expect(pair.map((b) => b.data.added).sort()).toEqual([0, 1]);
      const loser = pair.find((b) => b.data.added === 0)!;
      // the loser is told why: the carrier is on the other open order (SPEC §8 reason 10)
      expect(loser.data.failed).toEqual([expect.objectContaining({ reason: 10, sn: boxes[i].sn })]);
    }
    const lines = [
      ...(await ok(ts.a, '/ship-order-detail/list', { shipOrderId: left.id, page: 1, limit: 50 })).list,
      ...(await ok(ts.a, '/ship-order-detail/list', { shipOrderId: right.id, page: 1, limit: 50 })).list,
    ];
    expect(lines.map((l: any) => l.carrierId).sort()).toEqual(boxes.map((b) => b.id).sort());
    expect((await order(left.id)).totalAmount + (await order(right.id)).totalAmount).toBe(6);
  });

  it('concurrent saves of new orders sharing a carrier: one is written, the other refused in words, nothing half-written', async () => {
    const boxes = await carriers(8, shanghai);
    const before = (await ok(ts.a, '/ship-order/list', { page: 1, limit: 1 })).total as number;
    // four races, each two whole-document saves (a shared carrier and one of their own) at once
    const results = await Promise.all(
      [0, 1, 2, 3].flatMap((i) => [
        ts.a.call('/ship-order/save', {
          type: 2,
          shipperWarehouseId: shanghai,
          receiverWarehouseId: osaka,
          lines: [{ carrierId: boxes[2 * i].id }, { carrierId: boxes[2 * i + 1].id }],
        }),
        ts.a.call(
          '/ship-order/save',
          { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, lines: [{ carrierId: boxes[2 * i].id }] },
          { language: 'ja-JP' },
        ),
      ]),
    );
    for (let i = 0; i < 4; i++) {
      const pair = [results[2 * i].body, results[2 * i + 1].body];
      expect(pair.filter((b) => b.code === 0)).toHaveLength(1);
      const loser = pair.find((b) => b.code !== 0)!;
      // a translated refusal (a deadlock victim is run again, never answered as 10000)
      expect(loser.code).not.toBe(10000);
      expect(loser.message).toBeTruthy();
    }
    const written = results.filter((r) => r.body.code === 0).length;
    expect((await ok(ts.a, '/ship-order/list', { page: 1, limit: 1 })).total).toBe(before + written);
    // every shared carrier is on exactly one order's lines
    for (let i = 0; i < 4; i++) expect((await ok(ts.a, '/ship-order-detail/list', { carrierId: boxes[2 * i].id, page: 1, limit: 10 })).total).toBe(1);
  });

  it('a carrier not in the shipper warehouse is refused with reason 80, one on another open order too', async () => {
    const [there] = await carriers(1, osaka);
    const [mine] = await carriers(1, shanghai);
    const doc = await newOrder([mine.id]);
    const other = await newOrder([]);
    const got = await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: other.id, sns: [there.sn, mine.sn] });
    expect(got.added).toBe(0);
    expect(got.failed.map((f: any) => f.reason)).toEqual([80, 10]);
    expect(got.failed[1].message).toContain(doc.orderNo);
    const saved = await ts.a.call('/ship-order/save', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, lines: [{ carrierId: there.id }] });
    expect(saved.body.code).toBe(10004);
  });

  it('a serial of another organisation is not found, exactly like a serial nobody has', async () => {
    const bProject = (await ok(ts.b, '/project/create', { name: 'B pool' })).id;
    const bCode = (await ok(ts.b, '/carrier-code/create', { code: 'CC-B', name: 'B box', projectId: bProject, type: 10, available: true })).id;
    const bWh = (await ok(ts.b, '/warehouse/create', { code: 'BW', name: 'B warehouse' })).id;
    const [foreign] = await carriers(1, bWh, ts.b, bCode);
    const doc = await newOrder([]);
    const got = await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [foreign.sn, 'NEVER-MADE'] });
    expect(got.added).toBe(0);
    expect(got.failed.map((f: any) => [f.reason, f.code, f.message])).toEqual([
      [20, 10002, got.failed[1].message],
      [20, 10002, got.failed[1].message],
    ]);
    const byId = await ts.a.call('/ship-order/save', { id: doc.id, lines: [{ carrierId: foreign.id }] });
    expect(byId.body.code).not.toBe(0);
    expect((await order(doc.id)).totalAmount).toBe(0);
  });

  it('a receipt for a cancelled order and a delivery without ship order are refused', async () => {
    const [box] = await carriers(1, shanghai);
    const doc = await newOrder([box.id]);
    await ok(ts.a, '/ship-order/cancel', { id: doc.id, remark: 'customer called off' });
    const receipt = await ts.a.call('/receipt/create', { shipOrderId: doc.id, warehouseId: osaka });
    expect(receipt.body.code).toBe(10004);
    expect(receipt.body.message).toContain(doc.orderNo);
    expect((await ok(ts.a, '/receipt/list', { shipOrderId: doc.id, page: 1, limit: 1 })).total).toBe(0);
    const noOrder = await ts.a.call('/delivery/create', { warehouseId: shanghai, receiverWarehouseId: osaka });
    expect(noOrder.body.code).toBe(10001);
    const cancelledDelivery = await ts.a.call('/delivery/create', { shipOrderId: doc.id, warehouseId: shanghai });
    expect(cancelledDelivery.body.code).toBe(10004);
    expect((await carrier(box.id)).warehouseId).toBe(shanghai);
  });

  it('a remark over 200 characters is refused (order and shipping-list rows)', async () => {
    const [box] = await carriers(1, shanghai);
    const long = 'x'.repeat(201);
    const header = await ts.a.call('/ship-order/create', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, remark: long });
    expect(header.body.code).toBe(10001);
    const doc = await newOrder([]);
    const got = await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [box.sn], remark: long });
    expect(got.failed).toEqual([expect.objectContaining({ reason: 70 })]);
    expect((await order(doc.id)).totalAmount).toBe(0);
  });
});

describe('extra calls', () => {
  it('picker, containers and receivable orders', async () => {
    const boxes = await carriers(3, shanghai);
    const doc = await newOrder([]);
    const picker = await ok(ts.a, '/ship-order/all/carrier', { shipOrderId: doc.id, page: 1, limit: 100 });
    expect(picker.list.map((c: any) => c.id)).toEqual(expect.arrayContaining(boxes.map((b) => b.id)));
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, carrierIds: boxes.map((b) => b.id) });
    const after = await ok(ts.a, '/ship-order/all/carrier', { shipOrderId: doc.id, page: 1, limit: 100 });
    expect(after.list.map((c: any) => c.id)).not.toContain(boxes[0].id);
    // the declared candidates (children batch.candidates): another new order from Shanghai is not
    // offered what sits on this open one; carriers in Osaka are not offered; search and narrow
    const [loose] = await carriers(1, shanghai);
    const [away] = await carriers(1, osaka);
    const other = await newOrder([]);
    const offered = await ok(ts.a, '/ship-order-detail/batch/candidates', { shipOrderId: other.id, page: 1, limit: 100 });
    const ids = offered.list.map((c: any) => c.id);
    expect(ids).toContain(loose.id);
    for (const b of [...boxes, away]) expect(ids).not.toContain(b.id);
    expect(offered.total).toBe(ids.length);
    const found = await ok(ts.a, '/ship-order-detail/batch/candidates', { shipOrderId: other.id, sn: loose.sn, page: 1, limit: 10 });
    expect(found.list.map((c: any) => c.sn)).toEqual([loose.sn]);
    expect((await ok(ts.a, '/ship-order-detail/batch/candidates', { shipOrderId: other.id, carrierCodeId: 999999, page: 1, limit: 10 })).total).toBe(0);
    // the SPEC name answers the same rows
    expect((await ok(ts.a, '/ship-order/all/carrier', { shipOrderId: other.id, page: 1, limit: 100 })).list.map((c: any) => c.id)).toEqual(ids);
    // another organisation's order is not found; paging and ids out of range are refused, not a 500
    expect((await ts.b.call('/ship-order-detail/batch/candidates', { shipOrderId: other.id, page: 1, limit: 10 })).body.code).toBe(10002);
    for (const bad of [{ page: 1e300, limit: 10 }, { page: 2.5, limit: 10 }, { page: 1, limit: -1 }, { shipOrderId: 'x' }])
      expect((await ts.a.call('/ship-order-detail/batch/candidates', { shipOrderId: other.id, ...bad })).body.code).toBe(10001);
    // once the other order is deleted its carriers are free again for this one
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: other.id, carrierIds: [loose.id] });
    expect((await ok(ts.a, '/ship-order/all/carrier', { shipOrderId: doc.id, page: 1, limit: 100 })).list.map((c: any) => c.id)).not.toContain(loose.id);
    await ok(ts.a, '/ship-order/delete', { ids: [other.id] });
    expect((await ok(ts.a, '/ship-order/all/carrier', { shipOrderId: doc.id, page: 1, limit: 100 })).list.map((c: any) => c.id)).toContain(loose.id);
    const lines = await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 });
    await ok(ts.a, '/ship-order-detail/batch/update', { ids: lines.list.slice(0, 2).map((l: any) => l.id), containerNo: 'CONT-1' });
    const containers = await ok(ts.a, '/ship-order-detail/getcontainers', { shipOrderId: doc.id });
    expect(containers).toEqual([
      { containerNo: null, total: 1, received: 0 },
      { containerNo: 'CONT-1', total: 2, received: 0 },
    ]);
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const receivable = await ok(ts.a, '/ship-order/allshiporder4receipt', {});
    expect(receivable.map((o: any) => o.id)).toContain(doc.id);
    const receipt = await ok(ts.a, '/receipt/create', { shipOrderId: doc.id, warehouseId: osaka });
    const byContainer = await ok(ts.a, '/receipt-detail/batchcreatebycontainer', { receiptId: receipt.id, containerNos: ['CONT-1'] });
    expect(byContainer.added).toBe(2);
    const whs = await ok(ts.a, '/warehouse/listwithcarrier', {});
    expect(whs.find((w: any) => w.id === shanghai).carrierCount).toBe(await inWarehouse(shanghai));
  });

  it("setup: the new order form's warehouses, routes and defaults", async () => {
    const etd = '2026-03-02T08:00:00.000Z';
    const before = await ok(ts.a, '/ship-order/setup', { shipperWarehouseId: shanghai, etd });
    // one route leaves Shanghai: its receiver, its transport type and time, eta = etd + 600 min
    expect(before.defaults).toMatchObject({
      type: 2,
      shipperWarehouseId: shanghai,
      receiverWarehouseId: osaka,
      transportType: 20,
      transportTime: 600,
      etd,
      eta: '2026-03-02T18:00:00.000Z',
    });
    expect(before.routes.find((r: any) => r.id === before.defaults.routeId)).toMatchObject({
      routeName: 'SH-OS',
      fromWarehouseId: shanghai,
      toWarehouseId: osaka,
    });
    const sh = before.shipperWarehouses.find((w: any) => w.id === shanghai);
    expect(sh.inStock).toBe(await inWarehouse(shanghai));
    // carriers put on a new order are reserved there
    const boxes = await carriers(2, shanghai);
    await newOrder(boxes.map((b) => b.id));
    const after = await ok(ts.a, '/ship-order/setup', {});
    const sh2 = after.shipperWarehouses.find((w: any) => w.id === shanghai);
    expect([sh2.inStock - sh.inStock, sh2.reserved - sh.reserved]).toEqual([2, 2]);
    // several shippers and no choice made: nothing guessed; etd now, no eta without a route
    expect(after.defaults).toMatchObject({ shipperWarehouseId: null, receiverWarehouseId: null, routeId: null, eta: null });
    expect(Math.abs(new Date(after.defaults.etd).getTime() - Date.now())).toBeLessThan(60_000);
    expect(after.receiverWarehouses.map((w: any) => w.id)).toEqual(expect.arrayContaining([shanghai, osaka]));
    // a pair without a route: no route, no eta
    expect((await ok(ts.a, '/ship-order/setup', { shipperWarehouseId: osaka, receiverWarehouseId: shanghai })).defaults).toMatchObject({
      routeId: null,
      eta: null,
      receiverWarehouseId: shanghai,
    });

    // a user of Osaka only ships from Osaka but may send anywhere in the organisation
    const olga = await ts.callerFor(await ts.addUser(ts.orgA, 'olga-ship', { warehouseIds: [osaka] }), ts.orgA);
    const hers = await ok(olga, '/ship-order/setup', {});
    expect(hers.shipperWarehouses.map((w: any) => w.id)).toEqual([osaka]);
    expect(hers.defaults.shipperWarehouseId).toBe(osaka);
    expect(hers.receiverWarehouses.map((w: any) => w.id)).toEqual(expect.arrayContaining([shanghai, osaka]));
    expect((await olga.call('/ship-order/setup', { shipperWarehouseId: shanghai })).body.code).toBe(10002);
    // another organisation's warehouse is not found; bad input is refused
    expect((await ts.b.call('/ship-order/setup', { shipperWarehouseId: shanghai })).body.code).toBe(10002);
    expect((await ts.b.call('/ship-order/setup', {})).body.data.receiverWarehouses.map((w: any) => w.id)).not.toContain(shanghai);
    expect((await ts.a.call('/ship-order/setup', { shipperWarehouseId: 'x' })).body.code).toBe(10001);
    expect((await ts.a.call('/ship-order/setup', { etd: 'not a date' })).body.code).toBe(10001);
  });

  it('monitor: orders in transit with both ends, due time and lateness, legend counts', async () => {
    const [box] = await carriers(1, shanghai);
    const doc = await newOrder([box.id]);
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const rows = await ok(ts.a, '/ship-order/list4map', {});
    const mine = rows.find((r: any) => r.id === doc.id);
    expect(mine).toMatchObject({ orderNo: doc.orderNo, late: false, from: { id: shanghai, name: 'Shanghai Hub' }, to: { id: osaka, name: 'Osaka' } });
    expect(mine.dueAt).toBeTruthy();
    const legend = await ok(ts.a, '/ship-order/listlegend4map', {});
    expect(legend.map((l: any) => l.key)).toEqual(['2', '3', 'late']);
    expect(legend[0].count).toBe(rows.filter((r: any) => r.status === Status.released && !r.late).length);
    const one = await ok(ts.a, '/ship-order/get4map', { id: doc.id });
    expect(one.lines).toEqual({ [Enums.shipOrderLineStatus.shipped]: 1 });
    expect((await ts.b.call('/ship-order/get4map', { id: doc.id })).body.code).toBe(10002);
    expect((await ok(ts.b, '/ship-order/list4map', {})).map((r: any) => r.id)).not.toContain(doc.id);
  });
});
