/**
 * /info/mainten: the code fixed to a rack opens its maintenance state and history without
 * signing in — by the asset's token only, never by an id; another token or a made-up one finds
 * nothing.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { carrier, ok, pool } from './support';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['maintenance'] });
}, 120_000);
afterAll(() => ts?.close());

it('shows the rack, its open repair and its history to anyone holding its code', async () => {
  const p = await pool(ts.a, 'IN');
  const c = await carrier(ts.a, p);
  await ok(ts.a, '/carrier-asset/refresh', {});
  const asset = (await ok(ts.a, '/carrier-asset/list', { carrierId: c.id, page: 1, limit: 1 })).list[0];
  const r = await ok(ts.a, '/carrier-asset-maintenance-record/create', { carrierId: c.id, breakdownDescription: 'Cracked weld' });
  await ok(ts.a, '/carrier-asset-maintenance-record/start', { id: r.id });
  const link = await ok(ts.a, '/carrier-asset/info/link', { id: asset.id });
  expect(link.path).toMatch(/^\/info\/mainten\?token=/);
  const token = new URL(link.path, 'http://x').searchParams.get('token');

  const got = await ts.call('/info/mainten', { token }, { language: 'ja-JP' });
  expect(got.body.code, got.body.message).toBe(0);
  expect(got.body.data.asset).toMatchObject({ sn: c.sn, carrierStatus: Enums.carrierStatus.maintenance, carrierCode: 'RK-IN' });
  expect(got.body.data.openRecord).toEqual({ recordNo: r.recordNo, status: Enums.maintenanceStatus.inProgress });
  expect(got.body.data.history.map((h: any) => h.recordNo)).toEqual([r.recordNo]);
  // the page says nothing of ids or other rows
  expect(JSON.stringify(got.body.data)).not.toContain('orgId');

  expect((await ts.call('/info/mainten', { token: 'A'.repeat(32) })).body.code).toBe(10002);
  expect((await ts.call('/info/mainten', { token: String(asset.id) })).body.code).toBe(10002);
  // the other organisation cannot make a link to it
  expect((await ts.b.call('/carrier-asset/info/link', { id: asset.id })).body.code).toBe(10002);
});
