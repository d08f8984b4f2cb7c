/**
 * Dashboard calls on a real server (temp SQLite): aggregations match the rows created, and
 * each organisation sees only its own carriers, warehouses, beacons and alerts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { lifeBandOf } from '../server/bands';
import { lastDays } from '../server/group-count';
import { levelOf } from '../server/summary';

let ts: TestServer;
const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

interface Fleet {
  warehouses: number[];
  carriers: number[];
}

async function fleet(c: Caller, tag: string, n: number): Promise<Fleet> {
  const models = ts.server.db.models;
  const projectId = (await ok(c, '/project/create', { name: `P ${tag}` })).id;
  const carrierCodeId = (await ok(c, '/carrier-code/create', { code: `CC-${tag}`, name: 'Box', projectId, type: 10, available: true })).id;
  const warehouses: number[] = [];
  for (const [i, lng] of [121.4, 121.6].entries()) {
    const locationId = (await ok(c, '/location/create', { name: `Site ${tag}${i}`, longitude: lng, latitude: 31.2, fenceRadius: 500, type: 0 })).id;
    warehouses.push(
      (
        await ok(c, '/warehouse/create', {
          code: `W${tag}${i}`,
          name: `Warehouse ${tag}${i}`,
          locationId,
          idleCheckTime: 120,
          minInventory: 2,
          maxInventory: 3,
          theoryInventory: 3,
        })
      ).id,
    );
  }
  const carriers: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = (await ok(c, '/carrier/create', { sn: `C-${tag}-${i}`, name: `Box ${i}`, carrierCodeId, projectId, warehouseId: warehouses[0], status: 10 })).id;
    carriers.push(id);
  }
  // statuses and ages as the ingest service would have set them
  const age = [0.5, 2, 4, null];
  for (const [i, id] of carriers.entries()) {
    const a = age[i % age.length];
    await models.carrier.update(
      { transportStatus: i === 0 ? 20 : 10, status: i === n - 1 ? 50 : 10, startTime: a === null ? null : new Date(Date.now() - a * YEAR) },
      { where: { id } },
    );
  }
  return { warehouses, carriers };
}

let A: Fleet;
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['dashboard'], logError: (m, e) => console.error('SERVER', m, e) });
  A = await fleet(ts.a, 'A', 5);
  await fleet(ts.b, 'B', 2);
  const orgA = ts.orgA;
  const alerts = ts.server.db.models['carrier-alert'];
  const now = Date.now();
  await alerts.bulkCreate([
    {
      orgId: orgA,
      carrierId: A.carriers[0],
      carrierSn: 'C-A-0',
      reason: 20,
      status: 0,
      createdTime: new Date(now - 2 * 3_600_000),
      warehouseId: A.warehouses[0],
      message: 'late',
    },
    { orgId: orgA, carrierId: A.carriers[1], carrierSn: 'C-A-1', reason: 30, status: 0, createdTime: new Date(now - DAY), warehouseId: A.warehouses[0] },
    { orgId: orgA, carrierId: A.carriers[2], carrierSn: 'C-A-2', reason: 20, status: 10, createdTime: new Date(now - 2 * DAY), warehouseId: A.warehouses[0] },
    { orgId: ts.orgB, carrierSn: 'C-B-0', reason: 20, status: 0, createdTime: new Date(now) },
  ]);
  const beacons = ts.server.db.models['device-beacon'];
  await beacons.bulkCreate([
    { orgId: orgA, sn: 'BA1', mac: 'AC233F000001', battery: 90, useStatus: 20 },
    { orgId: orgA, sn: 'BA2', mac: 'AC233F000002', battery: 30, useStatus: 20 },
    { orgId: ts.orgB, sn: 'BB1', mac: 'AC233F000003', battery: 5, useStatus: 20 },
  ]);
});
afterAll(async () => ts?.close());

describe('pure rules', () => {
  it('life-cycle bands: under 1 year, 1–3, over 3', () => {
    const now = Date.now();
    expect([0.2, 1.01, 2.9, 3.2].map((y) => lifeBandOf(new Date(now - y * YEAR), now))).toEqual(['under1', 'from1to3', 'from1to3', 'over3']);
    expect(lifeBandOf(null)).toBe('unknown');
  });
  it('inventory level against min/max', () => {
    expect([levelOf(1, 2, 3), levelOf(2, 2, 3), levelOf(4, 2, 3), levelOf(9, 0, null)]).toEqual(['low', 'ok', 'high', 'ok']);
  });
  it('day axis ends today', () => {
    const d = lastDays(3, Date.UTC(2026, 0, 2, 5));
    expect(d).toEqual(['2025-12-31', '2026-01-01', '2026-01-02']);
  });
});

describe('/dashboard', () => {
  it('counts carriers, inventory, alert trend and life cycle of the organisation only', async () => {
    const a = await ok(ts.a, '/dashboard');
    expect(a.carriers.total).toBe(5);
    expect(a.carriers.byTransportStatus).toEqual([
      { value: 10, count: 4 },
      { value: 20, count: 1 },
    ]);
    expect(a.carriers.byStatus).toEqual([
      { value: 10, count: 4 },
      { value: 50, count: 1 },
    ]);
    expect(a.inventory[0]).toMatchObject({ id: A.warehouses[0], count: 4, min: 2, max: 3, theory: 3, level: 'high' });
    expect(a.inventory[1]).toMatchObject({ id: A.warehouses[1], count: 0, level: 'low' });
    const carrierSeries = a.alertTrend.series.find((s: any) => s.category === 'carrier');
    expect(a.alertTrend.days).toHaveLength(14);
    expect(carrierSeries.values.reduce((x: number, y: number) => x + y, 0)).toBe(3);
    // C-A-0's alert (two hours ago) on its own UTC day: yesterday's bar between 00:00 and 02:00
    const lateDay = a.alertTrend.days.indexOf(new Date(Date.now() - 2 * 3_600_000).toISOString().slice(0, 10));
    expect(carrierSeries.values[lateDay]).toBeGreaterThanOrEqual(1);
    expect(Object.fromEntries(a.lifeCycle.map((b: any) => [b.band, b.count]))).toEqual({ under1: 2, from1to3: 1, over3: 1, unknown: 1 });

    const b = await ok(ts.b, '/dashboard');
    expect(b.carriers.total).toBe(2);
    expect(b.inventory.map((w: any) => w.name).sort()).toEqual(['Warehouse B0', 'Warehouse B1']);
  });

  it('beacon battery bands, transport timeouts and messages per organisation', async () => {
    const bat = await ok(ts.a, '/dashboard/beacon-battery');
    expect(bat.bands.map((x: any) => [x.band, x.count, x.days])).toEqual([
      ['high', 1, 550],
      ['middle', 1, 180],
      ['low', 0, null],
    ]);
    const tt = await ok(ts.a, '/dashboard/transport-timeout');
    expect(tt.total).toBe(1);
    expect(tt.list[0]).toMatchObject({ carrierSn: 'C-A-0', warehouse: 'Warehouse A0', hours: 2 });
    const msg = await ok(ts.a, '/dashboard/message');
    expect(msg.list.map((m: any) => m.sn)).toEqual(['C-A-0', 'C-A-1']);
    expect(msg.unsolved.carrier).toBe(2);
    const all = await ok(ts.a, '/dashboard/message', { unsolved: false, limit: 5 });
    expect(all.list).toHaveLength(3);
    const bad = await ts.a.call('/dashboard/message', { limit: 1000 });
    expect(bad.body.code).toBe(10001);
    const tb = await ok(ts.b, '/dashboard/transport-timeout');
    expect(tb.list.map((r: any) => r.carrierSn)).toEqual(['C-B-0']);
  });

  it('map panel: warehouses at their location with their stock', async () => {
    const m = await ok(ts.a, '/dashboard/map');
    expect(m.inTransit).toBe(1);
    expect(m.warehouses.map((w: any) => [w.name, w.lnglat, w.count])).toEqual([
      ['Warehouse A0', [121.4, 31.2], 4],
      ['Warehouse A1', [121.6, 31.2], 0],
    ]);
  });

  it('a warehouse-restricted user sees only their warehouse', async () => {
    const uid = await ts.addUser(ts.orgA, 'wendy', { warehouseIds: [A.warehouses[1]] });
    const w = await ts.callerFor(uid, ts.orgA);
    const d = await ok(w, '/dashboard');
    expect(d.carriers.total).toBe(0);
    expect(d.inventory.map((x: any) => x.id)).toEqual([A.warehouses[1]]);
    expect((await ok(w, '/dashboard/transport-timeout')).total).toBe(0);
  });
});

describe('alert texts in the reader language', () => {
  it('the messages panel renders a stored alert text in zh-CN and ja-JP, not the writer English', async () => {
    const alerts = ts.server.db.models['carrier-alert'];
    const row = await alerts.create({
      orgId: ts.orgA,
      carrierId: A.carriers[3],
      carrierSn: 'C-A-3',
      reason: 30,
      status: 0,
      createdTime: new Date(),
      warehouseId: A.warehouses[0],
      message: 'idle in Warehouse A0 for more than 120 min',
      messageKey: { key: 'telemetry.alerts.idle', params: { warehouse: 'Warehouse A0', minutes: 120 } },
    });
    try {
      const text = async (language: string) =>
        (await ts.a.call<any>('/dashboard/message', {}, { language })).body.data.list.find((m: any) => m.sn === 'C-A-3').message;
      expect(await text('en-US')).toBe('Idle in Warehouse A0 for more than 120 min');
      expect(await text('zh-CN')).toBe('在 Warehouse A0 闲置超过 120 分钟');
      expect(await text('ja-JP')).toBe('Warehouse A0 で 120 分以上滞留');
    } finally {
      await row.destroy();
    }
  });
});
