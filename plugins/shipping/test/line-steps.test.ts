/**
 * The shipping list's declared line steps (ship-order-detail: ship, receive, receiveExtra, miss)
 * and what the engine gives them: `call: false` (no call of their own), `while` (a line moves only
 * while its order is in the declared statuses: 10004 naming the order in three languages, nothing
 * written), the document named in a line call (another order's line is not found), and a
 * warehouse-restricted receiver's line step still seeing the carriers its lines granted.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world, type World } from './support-orders';

const Line = Enums.shipOrderLineStatus;
let ts: TestServer;
let w: World;
let receiver: Caller;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
  receiver = await ts.callerFor(await ts.addUser(ts.orgA, 'recv-lines', { warehouseIds: [w.osaka] }), ts.orgA);
}, 120_000);
afterAll(() => ts?.close());

const lines = async (shipOrderId: number) => (await ok(ts.a, '/ship-order-detail/list', { shipOrderId, page: 1, limit: 50, sort: 'id' })).list as any[];

describe('line steps of the shipping list', () => {
  it('have no call of their own: only the documents run them', async () => {
    for (const step of ['ship', 'receive', 'receive-extra', 'miss'])
      expect((await ts.a.call(`/ship-order-detail/${step}`, { ids: [1] })).body.code).toBe(10013);
  });

  it('move only while the order is in the declared statuses: the refusal names the order, in three languages, and writes nothing', async () => {
    const doc = await shipOrder(ts.a, w, 2);
    await ok(ts.a, '/ship-order/cancel', { id: doc.id });
    const ids = (await lines(doc.id)).map((l) => l.id);
    const texts: Record<string, RegExp> = { 'en-US': /Cancelled/, 'zh-CN': /[\u4e00-\u9fff]/, 'ja-JP': /[\u3040-\u30ff]/ };
    for (const language of Object.keys(texts)) {
      const got = await ts.a.call('/ship-order-detail/batch/delivery', { shipOrderId: doc.id, ids }, { language });
      expect(got.body.code, language).toBe(10004);
      expect(got.body.message, language).toContain(doc.orderNo);
      expect(got.body.message, language).toMatch(texts[language]);
    }
    expect((await lines(doc.id)).map((l) => l.status)).toEqual([Line.pending, Line.pending]);
    expect((await ok(ts.a, '/carrier', { id: (await lines(doc.id))[0].carrierId })).warehouseId).toBe(w.shanghai);
  });

  it('a line call names its order: a line of another order is not found, and nothing moves', async () => {
    const [a, b] = [await shipOrder(ts.a, w, 1), await shipOrder(ts.a, w, 1)];
    const [lineB] = await lines(b.id);
    expect((await ts.a.call('/ship-order-detail/batch/delivery', { shipOrderId: a.id, ids: [lineB.id] })).body.code).toBe(10002);
    expect((await lines(b.id))[0].status).toBe(Line.pending);
    expect((await ok(ts.a, '/ship-order', { id: b.id })).status).toBe(Enums.shipOrderStatus.new);
  });

  it('a receiver restricted to the receiving warehouse receives chosen lines: the carriers it saw in transit arrive', async () => {
    const doc = await shipOrder(ts.a, w, 3);
    await ok(ts.a, '/ship-order/release', { id: doc.id });
    const [first, second] = await lines(doc.id);
    const got = await ok(receiver, '/ship-order-detail/batch/receipt', { shipOrderId: doc.id, ids: [first.id, second.id] });
    expect(got).toMatchObject({ received: 2, order: { receivedAmount: 2, status: Enums.shipOrderStatus.released } });
    expect(await ok(receiver, '/carrier', { id: first.carrierId })).toMatchObject({ warehouseId: w.osaka, transportStatus: Enums.transportStatus.inWarehouse });
    // the order's own receive by the same receiver takes the rest
    expect(await ok(receiver, '/ship-order/receive', { id: doc.id })).toMatchObject({ status: Enums.shipOrderStatus.received, receivedAmount: 3 });
    expect((await lines(doc.id)).map((l) => l.status)).toEqual([Line.received, Line.received, Line.received]);
  });
});
