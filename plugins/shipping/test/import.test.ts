/**
 * Shipping-list import through the core import engine: template headers in, every SPEC §8
 * shared reason the sheet can meet reported with its row, the accepted rows on the order with
 * serial and carrier code, the order's total rolled up, nothing else moved.
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

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

async function box(warehouseId: number, extra: Record<string, unknown> = {}, caller: Caller = ts.a, cc = codeId): Promise<string> {
  const sn = `IMP-${++seq}`;
  await ok(caller, '/carrier/create', { sn, carrierCodeId: cc, warehouseId, status: 10, ...extra });
  return sn;
}

const newOrder = async () => ok(ts.a, '/ship-order/save', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, lines: [] });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'], config: { dataDir: tempDataDir() } });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-I', name: 'Box', projectId, type: 10, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SHI', name: 'Shanghai Hub' })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OSI', name: 'Osaka' })).id;
  // the template's header row, as a user downloads it
  const res = await ts.request('/ship-order-detail/import/template', {}, { token: ts.a.token, orgId: ts.a.orgId });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
});
afterAll(() => ts?.close());

describe('/ship-order-detail/import', () => {
  it('template: order, carrier, delivery note, MSN, container, remark', () => {
    expect(headers).toHaveLength(6);
    expect(headers[1]).toContain('Carrier');
  });

  it('adds the good rows and reports every other row with its SPEC §8 reason', async () => {
    const doc = await newOrder();
    const other = await newOrder();
    const good = [await box(shanghai), await box(shanghai), await box(shanghai)];
    const elsewhere = await box(osaka);
    const scrapped = await box(shanghai, { status: Enums.carrierStatus.scrapped });
    const onOther = await box(shanghai);
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: other.id, sns: [onOther] });
    const already = await box(shanghai);
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [already] });
    // another organisation's serial: not found, like one nobody has
    const bProject = (await ok(ts.b, '/project/create', { name: 'B' })).id;
    const bCode = (await ok(ts.b, '/carrier-code/create', { code: 'CC-BI', name: 'B', projectId: bProject, type: 10, available: true })).id;
    const foreign = await box((await ok(ts.b, '/warehouse/create', { code: 'BWI', name: 'B wh' })).id, {}, ts.b, bCode);

    const no = doc.orderNo;
    const file = await xlsx(headers, [
      [no, good[0], 'DN-1', 'MSN-1', 'C-1', 'first'], // row 2 ok
      [no, good[1], null, null, 'C-1', null], // row 3 ok
      [no, null, null, null, null, null], // row 4: serial empty → 50
      [no, 'NO-SUCH', null, null, null, null], // row 5: not found → 20
      [no, foreign, null, null, null, null], // row 6: other organisation → 20
      [no, good[0], null, null, null, null], // row 7: repeated in the file → 60
      [no, already, null, null, null, null], // row 8: already on the order → 94
      [no, good[2], null, null, null, 'x'.repeat(201)], // row 9: remark over 200 → 70
      [no, elsewhere, null, null, null, null], // row 10: not in the shipper warehouse → 80
      [no, scrapped, null, null, null, null], // row 11: unusable → 10
      [no, onOther, null, null, null, null], // row 12: on another open order → 10
    ]);
    const result = await importFile(ts, ts.a, 'ship-order-detail', file);
    expect(result.message).toBeNull();
    expect(result).toMatchObject({ processedVolume: 11, successVolume: 2, failedVolume: 9 });
    expect(codesByRow(result)).toEqual({
      4: R.carrierSnEmpty,
      5: R.carrierSnNotFound,
      6: R.carrierSnNotFound,
      7: R.duplicated,
      8: R.alreadyExists,
      9: R.remarkTooLong,
      10: R.carrierNotInWarehouse,
      11: R.carrierUnavailable,
      12: R.carrierUnavailable,
    });
    // each reason is the catalogue's translated text
    expect(result.importErrors.find((e) => e.row === 10)?.reason).toMatch(/warehouse/i);
    const lines = await ok(ts.a, '/ship-order-detail/list', { shipOrderId: doc.id, page: 1, limit: 10 });
    expect(lines.list.map((l: any) => l.carrierSn).sort()).toEqual([already, good[0], good[1]].sort());
    const first = lines.list.find((l: any) => l.carrierSn === good[0]);
    expect(first).toMatchObject({ deliveryNo: 'DN-1', msn: 'MSN-1', containerNo: 'C-1', carrierCodeId: codeId, status: Enums.shipOrderLineStatus.pending });
    expect((await ok(ts.a, '/ship-order', { id: doc.id })).totalAmount).toBe(3);
    // nothing moved: the carriers are still in Shanghai
    expect((await ok(ts.a, '/carrier/list', { sn: good[0], page: 1, limit: 1 })).list[0].warehouseId).toBe(shanghai);
  });

  it('rows for a released order are refused with the frozen-lines message; the open order still gets its rows', async () => {
    const frozen = await newOrder();
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: frozen.id, sns: [await box(shanghai)] });
    await ok(ts.a, '/ship-order/release', { id: frozen.id });
    const open = await newOrder();
    const a = await box(shanghai);
    const b = await box(shanghai);
    const result = await importFile(
      ts,
      ts.a,
      'ship-order-detail',
      await xlsx(headers, [
        [open.orderNo, a],
        [frozen.orderNo, b],
        ['SO-NONE', a],
      ]),
      'zh-CN',
    );
    expect(result).toMatchObject({ successVolume: 1, failedVolume: 2 });
    const [released, unknown] = [...result.importErrors].sort((x, y) => x.row - y.row);
    expect(released.row).toBe(3);
    expect(released.reason).toContain(frozen.orderNo);
    expect(released.reason).toMatch(/[\u4e00-\u9fff]/);
    // an order number nobody has: the generic not-found message naming the column
    expect(unknown.row).toBe(4);
    expect((await ok(ts.a, '/ship-order', { id: open.id })).totalAmount).toBe(1);
    expect((await ok(ts.a, '/ship-order', { id: frozen.id })).totalAmount).toBe(1);
  });

  it('export: the shipping list of an order as xlsx', async () => {
    const doc = await newOrder();
    await ok(ts.a, '/ship-order-detail/batch/add', { shipOrderId: doc.id, sns: [await box(shanghai)] });
    const res = await ts.request('/ship-order-detail/export', { shipOrderId: doc.id }, { token: ts.a.token, orgId: ts.a.orgId });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets[0].rowCount).toBe(2);
  });
});
