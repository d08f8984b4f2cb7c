/**
 * Inventory reports (report definitions): levels against min/max, the daily list with its
 * figures per warehouse, the weekly movements of the range, the export, and tenancy.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { levelOf } from '../server/inventory-reports';

describe('levels', () => {
  it('grades inventory against min and max', () => {
    expect(levelOf(1, 2, 5)).toBe('below');
    expect(levelOf(6, 2, 5)).toBe('above');
    expect(levelOf(3, null, null)).toBe('normal');
  });
});

describe('the reports over a server', () => {
  let ts: TestServer;
  const ok = async (c: TestServer['a'], p: string, body: unknown = {}) => {
    const r = await c.call(p, body);
    if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
    return r.body.data;
  };

  beforeAll(async () => {
    ts = await startTestServer({ plugins: ['master-data'] });
    const project = (await ok(ts.a, '/project/create', { name: 'P' })).id;
    const code = (await ok(ts.a, '/carrier-code/create', { projectId: project, code: 'BOX', name: 'Box', type: 10, available: true })).id;
    const w1 = (await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Low', minInventory: 2, maxInventory: 5, theoryInventory: 3 })).id;
    const w2 = (await ok(ts.a, '/warehouse/create', { code: 'W2', name: 'Full', minInventory: 0, maxInventory: 1 })).id;
    await ok(ts.a, '/carrier/create', { sn: 'C-1', carrierCodeId: code, warehouseId: w1 });
    for (const sn of ['C-2', 'C-3']) await ok(ts.a, '/carrier/create', { sn, carrierCodeId: code, warehouseId: w2 });
    const moves = ts.server.db.models['carrier-inout'];
    const carrier = Number((await ts.server.db.models.carrier.findOne({ where: { sn: 'C-1' } }))!.get('id'));
    await moves.create({ orgId: ts.orgA, carrierId: carrier, sn: 'C-1', warehouseId: w1, direction: 10, confirmTime: new Date(Date.now() - 86_400_000) });
    await moves.create({ orgId: ts.orgA, carrierId: carrier, sn: 'C-1', warehouseId: w1, direction: 20, confirmTime: new Date(Date.now() - 30 * 86_400_000) });
    await ok(ts.b, '/warehouse/create', { code: 'WB', name: 'Other org' });
  }, 60_000);
  afterAll(() => ts?.close());

  it('lists carriers per warehouse against min, max and theory', async () => {
    const d = await ok(ts.a, '/inventory-report/list', {});
    expect(d.total).toBe(2);
    expect(d.list.map((r: any) => [r.code, r.count, r.gap, r.levelKey])).toEqual([
      ['W1', 1, -2, 'below'],
      ['W2', 2, null, 'above'],
    ]);
    expect((await ok(ts.a, '/inventory-report/list', { code: 'Full' })).list.map((r: any) => r.code)).toEqual(['W2']);
    expect((await ok(ts.b, '/inventory-report/list', {})).list.map((r: any) => r.code)).toEqual(['WB']);
  });

  it('counts the movements of the weekly range, and exports', async () => {
    const week = await ok(ts.a, '/inventory-report/week', {});
    expect(week.list.map((r: any) => [r.code, r.inbound, r.outbound])).toEqual([
      ['W1', 1, 0],
      ['W2', 0, 0],
    ]);
    const month = await ok(ts.a, '/inventory-report/week', { time: [Date.now() - 40 * 86_400_000, Date.now()] });
    expect(month.list[0]).toMatchObject({ inbound: 1, outbound: 1 });
    const res = await ts.a.fetch('/inventory-report/week/export', {});
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Warehouse code', 'Warehouse', 'Carriers', 'Min. inventory', 'Max. inventory', 'Theoretical inventory', 'Difference to theory', 'Level', 'Inbound', 'Outbound']);
    expect(rows[1]).toEqual(['W1', 'Low', 1, 2, 5, 3, -2, 'Below minimum', 1, 0]);
  });
});
