/**
 * The scoped repository for warehouse-restricted callers, and exports: same filters, sorts
 * and scope as list, translated headers and values, streamed in chunks.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSample } from './support/fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
let carol: Caller;
const refs: Record<string, number> = {};
const wh: number[] = [];
const carriers: number[] = [];

const make = (c: Caller, resource: string, n: number, extra: Record<string, unknown> = {}) => createSample(ts, c, resource, n, refs, extra);

async function sheetRows(res: Response): Promise<unknown[][]> {
  expect(res.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}

beforeAll(async () => {
  ts = await startTestServer();
  refs.organization = ts.orgA;
  for (const r of ['device-model', 'supplier-customer', 'location', 'project', 'carrier-code']) refs[r] = (await make(ts.a, r, 1)).id;
  for (const n of [1, 2]) wh.push((await make(ts.a, 'warehouse', n)).id);
  for (const [i, w] of wh.entries()) carriers.push((await make(ts.a, 'carrier', 10 + i, { warehouseId: w })).id);
  carol = await ts.callerFor(await ts.addUser(ts.orgA, 'carol', { warehouseIds: [wh[0]] }), ts.orgA);
});
afterAll(() => ts?.close());

describe('warehouse-restricted callers', () => {
  it('list, all, base and export show only rows of their warehouses', async () => {
    expect((await ts.a.call('/carrier/list', {})).body.data.total).toBe(2);
    const list = (await carol.call('/carrier/list', {})).body.data;
    expect(list.list.map((r: { id: number }) => r.id)).toEqual([carriers[0]]);
    expect(list.list[0].warehouseIdLabel).toEqual(expect.any(String));
    expect((await carol.call('/carrier/all', {})).body.data.map((r: { id: number }) => r.id)).toEqual([carriers[0]]);
    expect((await carol.call('/carrier', { id: carriers[1] })).body.code).toBe(10002);
    expect(await sheetRows(await carol.fetch('/carrier/export', {}))).toHaveLength(2);
    // The warehouse resource scopes on its own id.
    expect((await carol.call('/warehouse/list', {})).body.data.list.map((r: { id: number }) => r.id)).toEqual([wh[0]]);
  });

  it('cannot change, delete or create rows outside their warehouses', async () => {
    expect((await carol.call('/carrier/update', { id: carriers[1], remark: 'x' })).body.code).toBe(10002);
    expect((await carol.call('/carrier/delete', { ids: carriers })).body.code).toBe(10002);
    expect((await carol.call('/carrier/status/update', { id: carriers[1], status: 20 })).body.code).toBe(10002);
    const body = sampleBody(ts.server.metadata.resources.carrier, ts.server.metadata, 30, refs);
    const outside = await carol.call('/carrier/create', { ...body, warehouseId: wh[1] }, { language: 'zh-CN' });
    expect(outside.body.code).toBe(10001);
    expect(outside.body.message).toContain(ts.server.t('zh-CN', 'fields.warehouse'));
    const moved = await carol.call('/carrier/update', { id: carriers[0], warehouseId: wh[1] });
    expect(moved.body.code).toBe(10001);
    expect((await carol.call('/carrier/create', { ...body, warehouseId: wh[0] })).body.code).toBe(0);
  });
});

describe('export', () => {
  it('translates enum values, shows ref labels and formats dates', async () => {
    const model = await make(ts.a, 'device-model', 50, { name: 'Model-X' });
    const beacon = await make(ts.a, 'device-beacon', 51, {
      deviceModelId: model.id,
      useStatus: 30,
      startTime: '2026-03-04T05:06:07.000Z',
      endTime: '2026-04-04T00:00:00.000Z',
    });
    const rows = await sheetRows(await ts.a.fetch('/device-beacon/export', { sn: beacon.sn }, { language: 'ja-JP' }));
    expect(rows).toHaveLength(2);
    const header = rows[0] as string[];
    const cell = (key: string) => rows[1][header.indexOf(ts.server.t('ja-JP', key))];
    expect(cell('fields.sn')).toBe(beacon.sn);
    expect(cell('fields.deviceModel')).toBe('Model-X');
    const disabled = ts.server.metadata.enums.deviceUseStatus.find((e) => e.value === 30)!;
    expect(cell('fields.useStatus')).toBe(ts.server.t('ja-JP', disabled.label));
    expect(cell('fields.startTime')).toBe('2026-03-04 05:06:07');
  });

  it('applies the list filters and sorts, and streams every row in chunks', async () => {
    const Model = ts.server.db.models['device-model'];
    const now = new Date();
    await Model.bulkCreate(
      Array.from({ length: 1234 }, (_, i) => ({ orgId: ts.orgA, name: `bulk-${String(i).padStart(4, '0')}`, createdAt: now, updatedAt: now })),
    );
    await Model.bulkCreate([{ orgId: ts.orgB, name: 'bulk-other-org', createdAt: now, updatedAt: now }]);
    const rows = await sheetRows(await ts.a.fetch('/device-model/export', { name: 'bulk-', sortByName: false }));
    expect(rows).toHaveLength(1235);
    expect(rows[1][0]).toBe('bulk-1233');
    expect(rows[1234][0]).toBe('bulk-0000');
    expect(rows.flat()).not.toContain('bulk-other-org');
    // Sorted by id: chunks continue after the last id (keyset) and still cover every row once.
    const byId = await sheetRows(await ts.a.fetch('/device-model/export', { name: 'bulk-', sortById: false }));
    expect(byId).toHaveLength(1235);
    expect(byId.slice(1).map((r) => r[0])).toEqual(Array.from({ length: 1234 }, (_, i) => `bulk-${String(1233 - i).padStart(4, '0')}`));
  });

  it('answers a bad filter with an envelope before streaming', async () => {
    const res = await ts.a.fetch('/device-beacon/export', { deviceModelId: 'x' });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe(10001);
  });
});
