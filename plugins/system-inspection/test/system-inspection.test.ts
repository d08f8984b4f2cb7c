/**
 * System inspection on a real server (temp SQLite): collectors give real figures, fleet
 * figures stay inside the caller's organisation, exports produce real PDF and xlsx files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { bandOf } from '@rti/common';
import { cpuPercent } from '../server/host-sampler';
import { suggestions } from '../server/suggestions';
import { logRange } from '../server/log-export';

let ts: TestServer;
let dir: string;

async function ok<T = any>(c: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

async function beacons(c: Caller, tag: string, levels: Array<number | null>): Promise<void> {
  const modelId = (await ok(c, '/device-model/create', { name: `M ${tag}`, batteryThreshold: 20, offlineCheckTime: 30 })).id;
  const model = ts.server.db.models['device-beacon'];
  for (const [i, level] of levels.entries()) {
    const mac = `AC23${tag === 'A' ? 'AA' : 'BB'}0000${String(i).padStart(2, '0')}`;
    const id = (await ok(c, '/device-beacon/create', { sn: `B-${tag}-${i}`, mac, deviceModelId: modelId, useStatus: 20 })).id;
    await model.update({ battery: level }, { where: { id } });
  }
}

async function gateways(c: Caller, tag: string, statuses: number[]): Promise<void> {
  const model = ts.server.db.models['device-slave-gateway'];
  const deviceModelId = (await ok(c, '/device-model/create', { name: `G ${tag}`, offlineCheckTime: 30 })).id;
  const locationId = (await ok(c, '/location/create', { name: `Site ${tag}`, longitude: 121, latitude: 31, fenceRadius: 500, type: 0 })).id;
  const warehouseId = (await ok(c, '/warehouse/create', { code: `W${tag}`, name: `Warehouse ${tag}`, locationId, idleCheckTime: 120 })).id;
  for (const [i, status] of statuses.entries()) {
    const id = (
      await ok(c, '/device-slave-gateway/create', {
        sn: `SG-${tag}-${i}`,
        name: `Gate ${tag}${i}`,
        mac: `AC23${tag === 'A' ? 'CC' : 'DD'}0000${String(i).padStart(2, '0')}`,
        deviceModelId,
        warehouseId,
        useStatus: 20,
        purpose: 10,
        mqttPassword: 'Passw0rdX',
      })
    ).id;
    await model.update({ status }, { where: { id } });
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-inspection-'));
  fs.mkdirSync(path.join(dir, 'telemetry/segments'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'telemetry/segments/0.dat'), Buffer.alloc(4096, 1));
  ts = await startTestServer({ plugins: ['system-inspection'], config: { dataDir: dir } });
  await beacons(ts.a, 'A', [100, 75, 74.9, 25, 24, 3, null]);
  await beacons(ts.b, 'B', [10, 10]);
  await gateways(ts.a, 'A', [10, 10, 20]);
  await gateways(ts.b, 'B', [20]);
});
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('collectors', () => {
  it('battery band boundaries follow SPEC (75–100, 25–75, 0–25)', () => {
    expect([100, 75, 74.9, 25, 24.9, 0].map(bandOf)).toEqual(['high', 'high', 'middle', 'middle', 'low', 'low']);
  });
  it('cpu busy share between two readings', () => {
    expect(cpuPercent({ idle: 100, total: 200 }, { idle: 150, total: 400 })).toBe(75);
    expect(cpuPercent({ idle: 1, total: 1 }, { idle: 1, total: 1 })).toBe(0);
  });
  it('suggests recharging low beacons (type 10) and clearing a full disk (type 20)', () => {
    const battery = { bands: [{ band: 'low' as const, from: 0, to: 25, days: null, count: 2 }], unknown: 0, total: 2 };
    const got = suggestions(
      battery,
      [
        { path: '/', total: 100, used: 90, free: 10, usage: 90 },
        { path: '/x', total: 100, used: 10, free: 90, usage: 10 },
      ],
      ['B1', 'B2'],
    );
    expect(got.map((s) => [s.type, s.key])).toEqual([
      [10, 'systemInspection.suggest.recharge'],
      [20, 'systemInspection.suggest.clearDisk'],
    ]);
    expect(got[0].params).toMatchObject({ count: 2, sns: 'B1, B2' });
  });
  it('log range defaults to the last 7 days and refuses reversed ranges', () => {
    const [from, to] = logRange({}, 8 * 86_400_000);
    expect([from.getTime(), to.getTime()]).toEqual([86_400_000, 8 * 86_400_000]);
    expect(() => logRange({ time: ['2026-01-02', '2026-01-01'] })).toThrow();
  });
});

describe('calls', () => {
  it('beacon battery bands count only the organisation’s beacons', async () => {
    const a = await ok(ts.a, '/system-inspection/beacon-battery/list');
    expect(a.bands.map((b: any) => [b.band, b.count])).toEqual([
      ['high', 2],
      ['middle', 2],
      ['low', 2],
    ]);
    expect([a.unknown, a.total]).toEqual([1, 7]);
    const b = await ok(ts.b, '/system-inspection/beacon-battery/list');
    expect(b.bands.map((x: any) => x.count)).toEqual([0, 0, 2]);
  });

  it('database size is real and row counts are per organisation', async () => {
    const a = await ok(ts.a, '/system-inspection/database/list');
    expect(a.dialect).toMatch(/sqlite|mysql|mariadb/);
    expect(a.size).toBeGreaterThan(10_000);
    expect(a.tables).toBeGreaterThan(10);
    expect(a.telemetrySize).toBe(4096);
    const rows = (d: any, r: string) => d.resources.find((x: any) => x.resource === r).rows;
    expect(rows(a, 'device-beacon')).toBe(7);
    const b = await ok(ts.b, '/system-inspection/database/list');
    expect(rows(b, 'device-beacon')).toBe(2);
    const chart = await ok(ts.a, '/system-inspection/database-echarts/list');
    expect(chart.categories.length).toBe(chart.values.length);
    expect(chart.values[0]).toBeGreaterThanOrEqual(7);
  });

  it('disk, cpu and memory come from the host', async () => {
    const disks = await ok(ts.a, '/system-inspection/system-disk/list');
    expect(disks.length).toBeGreaterThanOrEqual(1);
    expect(disks[0].total).toBeGreaterThan(disks[0].free);
    const occ = await ok(ts.a, '/system-inspection/occupancy-echarts/list');
    expect(occ.parts.find((p: any) => p.name === 'telemetry').value).toBe(4096);
    const cpu = await ok(ts.a, '/system-inspection/system-disk/occupancy-echarts/cpu/list');
    expect(cpu.cores).toBe(os.cpus().length);
    expect(cpu.samples[0].cpu).toBeGreaterThanOrEqual(0);
    const mem = await ok(ts.a, '/system-inspection/mem/list');
    expect(mem.total).toBe(os.totalmem());
    expect(mem.processRss).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('gateway connectivity per organisation, offline gateways listed', async () => {
    const a = await ok(ts.a, '/system-inspection/gateway-inspection');
    expect(a.slave).toMatchObject({ total: 3, online: 2, offline: 1, onlineRate: 66.7 });
    expect(a.slave.offlineList.map((g: any) => g.sn)).toEqual(['SG-A-2']);
    expect(a.master.total).toBe(0);
    const b = await ok(ts.b, '/system-inspection/gateway-inspection');
    expect(b.slave.offlineList.map((g: any) => g.sn)).toEqual(['SG-B-0']);
  });

  it('suggestions name the organisation’s own low beacons', async () => {
    const a = await ok(ts.a, '/system-inspection/suggest/list');
    const recharge = a.find((s: any) => s.type === 10);
    expect(recharge.params.count).toBe(2);
    expect(recharge.params.sns.split(', ').sort()).toEqual(['B-A-4', 'B-A-5']);
  });

  it('PDF report and system log export are real files', async () => {
    const pdf = await ts.a.fetch('/system-inspection/report/export', {});
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1500);

    const log = await ts.a.fetch('/system-inspection/system-log/export', {});
    expect(log.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await log.arrayBuffer()) as never);
    expect(wb.worksheets.map((w) => w.name)).toContain('admin-log');
    const bad = await ts.a.call('/system-inspection/system-log/export', { time: ['nope', null] });
    expect(bad.body.code).toBe(10001);
  });

  it('a warehouse-restricted user sees only gateways of their warehouses', async () => {
    const locationId = (await ok(ts.a, '/location/create', { name: 'Elsewhere', longitude: 120, latitude: 30, fenceRadius: 500, type: 0 })).id;
    const other = (await ok(ts.a, '/warehouse/create', { code: 'WX', name: 'Other', locationId, idleCheckTime: 120 })).id;
    const w = await ts.callerFor(await ts.addUser(ts.orgA, 'wendy', { warehouseIds: [other] }), ts.orgA);
    const g = await ok(w, '/system-inspection/gateway-inspection');
    expect([g.slave.total, g.slave.offlineList.length]).toEqual([0, 0]);
  });

  it('needs a session and a permission', async () => {
    const r = await ts.call('/system-inspection/mem/list', {});
    expect(r.body.code).toBe(10006);
  });
});
