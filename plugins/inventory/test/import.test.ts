/**
 * /inventory-adjust-detail/import through the core import engine: every SPEC §8 shared reason an
 * adjustment's carrier sheet can meet, reported with its row (the line rules' own reasons: not in
 * the source warehouse 80, on an open ship order or another open adjustment 10), the good rows
 * on the order with serial and code, its total rolled up, nothing moved; an adjusted order's rows
 * refused naming it.
 */
import ExcelJS from 'exceljs';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let shanghai: number;
let osaka: number;
let codeId: number;
let headers: string[];
let seq = 0;
const R = Enums.sharedImportError;
const T = Enums.inventoryAdjustType;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

async function box(warehouseId: number): Promise<string> {
  const sn = `IAI-${++seq}`;
  await ok(ts.a, '/carrier/create', { sn, carrierCodeId: codeId, warehouseId, status: 10 });
  return sn;
}
const newAdjustment = () => ok(ts.a, '/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: osaka });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory'], config: { dataDir: tempDataDir() } });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-A', name: 'Box', projectId, type: 10, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SHA', name: 'Shanghai Hub' })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OSA', name: 'Osaka' })).id;
  const res = await ts.request('/inventory-adjust-detail/import/template', {}, { token: ts.a.token, orgId: ts.a.orgId });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
});
afterAll(() => ts?.close());

describe('/inventory-adjust-detail/import', () => {
  it('adds the good rows and reports every other row with its SPEC §8 reason', async () => {
    expect(headers).toHaveLength(3);
    const doc = await newAdjustment();
    const other = await newAdjustment();
    const good = [await box(shanghai), await box(shanghai)];
    const elsewhere = await box(osaka);
    const onOther = await box(shanghai);
    await ok(ts.a, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: other.id, sns: [onOther] });
    const already = await box(shanghai);
    await ok(ts.a, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: doc.id, sns: [already] });
    const shipped = await box(shanghai);
    const order = await ok(ts.a, '/ship-order/create', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka });
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: order.id, sns: [shipped] });

    const no = doc.adjustOrderNo;
    const file = await xlsx(headers, [
      [no, good[0], 'first'], // row 2 ok
      [no, good[1], null], // row 3 ok
      [no, null, null], // row 4: serial empty → 50
      [no, 'NO-SUCH', null], // row 5: not found → 20
      [no, good[0], null], // row 6: repeated → 60
      [no, already, null], // row 7: already on the order → 94
      [no, await box(shanghai), 'x'.repeat(201)], // row 8: remark over 200 → 70
      [no, elsewhere, null], // row 9: not in the source warehouse → 80
      [no, shipped, null], // row 10: on an open ship order → 10
      [no, onOther, null], // row 11: on another open adjustment → 10
    ]);
    const result = await importFile(ts, ts.a, 'inventory-adjust-detail', file);
    expect(result.message).toBeNull();
    expect(result).toMatchObject({ processedVolume: 10, successVolume: 2, failedVolume: 8 });
    expect(codesByRow(result)).toEqual({
      4: R.carrierSnEmpty,
      5: R.carrierSnNotFound,
      6: R.duplicated,
      7: R.alreadyExists,
      8: R.remarkTooLong,
      9: R.carrierNotInWarehouse,
      10: R.carrierUnavailable,
      11: R.carrierUnavailable,
    });
    const lines = await ok(ts.a, '/inventory-adjust-detail/list', { inventoryAdjustId: doc.id, page: 1, limit: 10 });
    expect(lines.list.map((l: any) => l.carrierSn).sort()).toEqual([already, good[0], good[1]].sort());
    expect(lines.list.find((l: any) => l.carrierSn === good[0])).toMatchObject({ carrierCodeId: codeId, fromWarehouseId: shanghai, remark: 'first' });
    expect((await ok(ts.a, '/inventory/adjustment', { id: doc.id })).totalAmount).toBe(3);
    expect((await ok(ts.a, '/carrier/list', { sn: good[0], page: 1, limit: 1 })).list[0].warehouseId).toBe(shanghai);
  });

  it("rows for an adjusted order are refused naming it, in the caller's language", async () => {
    const done = await newAdjustment();
    await ok(ts.a, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: done.id, sns: [await box(shanghai)] });
    await ok(ts.a, '/inventory/adjustment/out-in', { id: done.id });
    const result = await importFile(ts, ts.a, 'inventory-adjust-detail', await xlsx(headers, [[done.adjustOrderNo, await box(shanghai)]]), 'ja-JP');
    expect(result).toMatchObject({ successVolume: 0, failedVolume: 1 });
    expect(result.importErrors[0].reason).toContain(done.adjustOrderNo);
    expect(result.importErrors[0].reason).toMatch(/[\u3040-\u30ff]/);
  });
});
