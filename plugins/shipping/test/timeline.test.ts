/**
 * A ship order's timeline (issue 17 item 4): who ran which step when, read from the operation
 * log — the clerk's release, and the receive that the receiver's closing of the receipt ran from
 * code, noted with its cause ("by Close of Receipt …"), as the restricted users see it.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world, type World } from './support-orders';

let ts: TestServer;
let w: World;
let clerk: Caller;
let receiver: Caller;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
  clerk = await ts.callerFor(await ts.addUser(ts.orgA, 'clerk-tl', { warehouseIds: [w.shanghai], realName: 'Clerk Zhang' }), ts.orgA);
  receiver = await ts.callerFor(await ts.addUser(ts.orgA, 'recv-tl', { warehouseIds: [w.osaka], realName: 'Receiver Sato' }), ts.orgA);
}, 120_000);
afterAll(() => ts?.close());

it("the order's timeline shows the release and the receive its receipt's close ran, with the cause", async () => {
  const doc = await shipOrder(ts.a, w, 2);
  await ok(clerk, '/ship-order/release', { id: doc.id });
  const receipt = await ok(receiver, '/receipt/create', { shipOrderId: doc.id });
  const lines = (await ok(clerk, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 })).list as Array<{ carrierSn: string }>;
  // one carrier scanned: its line step moves the receipt to Receiving (a cause of its own)
  await ok(receiver, '/receipt-detail/scan', { receiptId: receipt.id, keys: [lines[0].carrierSn] });
  await ok(receiver, '/receipt/close', { id: receipt.id });
  expect((await ok(receiver, '/ship-order', { id: doc.id })).status).toBe(Enums.shipOrderStatus.received);
  await ts.server.audit.flush();

  for (const [caller, lang] of [
    [clerk, 'en-US'],
    [receiver, 'ja-JP'],
  ] as const) {
    const r = await caller.call('/ship-order/timeline', { id: doc.id }, { language: lang });
    expect(r.body.code, r.body.message).toBe(0);
    const steps = r.body.data as any[];
    expect(steps.map((e) => e.step)).toEqual(['release', 'receive']);
    expect(steps[0]).toMatchObject({ user: 'Clerk Zhang', label: ts.server.t(lang, 'transitions.release') });
    expect(steps[1]).toMatchObject({ user: 'Receiver Sato', cause: { resource: 'receipt', step: 'close', ids: [receipt.id] } });
    expect(steps[1].cause.label).toContain(receipt.receiptNo ?? String(receipt.id));
    expect(steps[1].to).toBe(ts.server.t(lang, 'enums.shipOrderStatus.received'));
  }
  // the receipt's own timeline: received through its line's step, then closed by the receiver's call (no cause)
  const own = (await ok(receiver, '/receipt/timeline', { id: receipt.id })) as any[];
  expect(own.map((e) => e.step)).toEqual(['receive', 'close']);
  expect(own[0].cause).toMatchObject({ resource: 'receipt-detail', step: 'receive' });
  expect(own[1]).toMatchObject({ step: 'close', user: 'Receiver Sato' });
  expect(own[1].cause).toBeUndefined();
});
