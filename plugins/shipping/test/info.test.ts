/**
 * The public ship-order page (/info/ship-order): by token only, without a session, read-only,
 * one order; wrong, malformed, renewed and foreign tokens reveal nothing; rate-limited.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { PUBLIC_RATE as INFO_RATE } from '@rti/server/plugin-api';
import { ok, shipOrder, world, type World } from './support-orders';

let ts: TestServer;
let w: World;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
});
afterAll(() => ts?.close());

describe('/info/ship-order', () => {
  it('shows the order, its status, containers and lines to anyone holding the token, without signing in', async () => {
    const o = await shipOrder(ts.a, w, 3, { transportType: Enums.transportType.land, conveyanceNo: 'TRK-7', remark: 'internal note' }, ['K1', 'K2']);
    await ok(ts.a, '/ship-order/release', { id: o.id });
    const link = await ok(ts.a, '/ship-order/info/link', { id: o.id });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link.path).toBe(`/info/ship-order?token=${link.token}`);
    // the same token every time until renewed: printed notes stay valid
    expect((await ok(ts.a, '/ship-order/info/link', { id: o.id })).token).toBe(link.token);

    const got = await ts.call('/info/ship-order', { token: link.token }, { language: 'zh-CN' });
    expect(got.body.code).toBe(0);
    const page = got.body.data as any;
    expect(page.order).toMatchObject({
      orderNo: o.orderNo,
      status: Enums.shipOrderStatus.released,
      shipperWarehouse: 'Shanghai Hub A',
      receiverWarehouse: 'Osaka A',
      conveyanceNo: 'TRK-7',
      totalAmount: 3,
    });
    expect(page.containers.map((c: any) => [c.containerNo, c.quantity])).toEqual([
      ['K1', 2],
      ['K2', 1],
    ]);
    expect(page.lines).toHaveLength(3);
    expect(page.lines.every((l: any) => l.status === Enums.shipOrderLineStatus.shipped && /^TB-/.test(l.carrierSn))).toBe(true);
    // only what a driver needs: no ids, organisation, users or remarks
    expect(got.text).not.toMatch(/"orgId"|"id"|internal note|releasedBy/);
  });

  it('a wrong, malformed or renewed token and an unknown call body answer the same "not found"', async () => {
    const o = await shipOrder(ts.a, w, 1);
    const { token } = await ok(ts.a, '/ship-order/info/link', { id: o.id });
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const t of [wrong, 'short', `${token}x`, '../../etc']) {
      const got = await ts.call('/info/ship-order', { token: t });
      expect(got.body.code, t).toBe(10002);
      expect(got.text).not.toContain(o.orderNo);
    }
    expect((await ts.call('/info/ship-order', { token: 'x'.repeat(5000) })).body.code).not.toBe(0);
    expect((await ts.call('/info/ship-order', {})).body.code).not.toBe(0);
    const renewed = await ok(ts.a, '/ship-order/info/link', { id: o.id, renew: true });
    expect(renewed.token).not.toBe(token);
    expect((await ts.call('/info/ship-order', { token })).body.code).toBe(10002);
    expect((await ts.call('/info/ship-order', { token: renewed.token })).body.code).toBe(0);
  });

  it('another organisation cannot get a token for an order it does not own, and a token shows only its own order', async () => {
    const o = await shipOrder(ts.a, w, 1);
    const foreign = await ts.b.call('/ship-order/info/link', { id: o.id });
    expect(foreign.body.code).toBe(10002);
    const wb = await world(ts, ts.b, 'B');
    const ob = await shipOrder(ts.b, wb, 1);
    const { token } = await ok(ts.b, '/ship-order/info/link', { id: ob.id });
    const page = await ts.call('/info/ship-order', { token });
    expect(page.body.data).toMatchObject({ order: { orderNo: ob.orderNo, shipperWarehouse: 'Shanghai Hub B' } });
    expect(page.text).not.toContain('Hub A');
  });

  it('concurrent first prints of an order agree on one token', async () => {
    const o = await shipOrder(ts.a, w, 1);
    const tokens = await Promise.all(Array.from({ length: 5 }, () => ok(ts.a, '/ship-order/info/link', { id: o.id })));
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
  });

  it('is rate-limited per client address with a translated message', async () => {
    let last: any;
    for (let i = 0; i <= INFO_RATE; i++) last = await ts.call('/info/ship-order', { token: 'y'.repeat(32) }, { language: 'ja-JP' });
    expect(last.body.code).toBe(10010);
    expect(last.status).toBe(429);
    expect(last.body.message).toMatch(/秒後に再試行/);
  });
});
