/**
 * Imports as users follow them (issue 10): the status counts towards the file's total while a
 * big file runs (moving at least once a second), reasons name the column and the offending
 * value and are rendered in the reader's language when read (not the upload's), and the
 * refused rows come back as a workbook with a reason column that imports again once fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { IMPORT_TABLE } from '../src/import/import-jobs';
import { startTestServer, type TestServer } from './support/test-server';
import { importFile, metadataWithCodes, tempDataDir, upload, xlsx } from './import-fixtures';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir() } });
  await ts.a.call('/device-model/create', { name: 'DM-1' });
});
afterAll(() => ts?.close());

const mac = (i: number) => `AA:10:00:00:${String(Math.floor(i / 256).toString(16)).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}`.toUpperCase();

async function sheetOf(res: Response): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}

describe('progress', () => {
  it('answers the file total at upload and counts towards it at least once a second while a big file runs', async () => {
    const rows = Array.from({ length: 2400 }, (_, i) => [`PR-${i}`, mac(i), 'DM-1']);
    // a before-create hook makes rows go one by one, in parts of 50: a file of some seconds
    const off = ts.server.hooks.before('create', 'device-beacon', async () => new Promise((r) => setTimeout(r, 1)));
    try {
      const up = await upload(ts, ts.a, '/device-beacon/import', await xlsx(['sn', 'mac', 'deviceModelId'], rows), 'big.xlsx');
      expect(up.body.data).toMatchObject({ status: 10, totalVolume: 2400 });
      const seen: Array<{ at: number; processed: number; errors: number }> = [];
      const started = Date.now();
      // on a loaded machine a status call itself may take long: a gap that long is the machine's, not the import's
      let slowestCall = 0;
      for (;;) {
        const asked = Date.now();
        const s = (await ts.a.call('/device-beacon/import/status', { importId: up.body.data.importId })).body.data;
        slowestCall = Math.max(slowestCall, Date.now() - asked);
        seen.push({ at: Date.now() - started, processed: s.processedVolume, errors: s.importErrors.length });
        expect(s.totalVolume).toBe(2400);
        if (s.status === 20) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const last = seen[seen.length - 1];
      expect(last.processed).toBe(2400);
      const running = seen.slice(0, -1);
      expect(last.at).toBeGreaterThan(1500);
      // counts moved while running, and never stood still for more than a second and a half
      expect(new Set(running.map((s) => s.processed)).size).toBeGreaterThan(2);
      let since = 0;
      for (let i = 1; i < seen.length; i++) {
        if (seen[i].processed !== seen[i - 1].processed) since = seen[i].at;
        else expect(seen[i].at - since, `stalled at ${seen[i].processed} (slowest status call ${slowestCall} ms)`).toBeLessThan(1500 + 2 * slowestCall);
      }
    } finally {
      off();
    }
  }, 60_000);
});

describe('reasons and the result workbook', () => {
  let importId: number;
  const file = () =>
    xlsx(
      ['sn', 'mac', 'deviceModelId', 'remark'],
      [
        ['RS-1', 'AA:20:00:00:00:01', 'DM-1'],
        ['RS-2', 'AA:20:00:00:00:02', 'DM-NONE'], // 3: model not found
        ['RS-1', 'AA:20:00:00:00:03', 'DM-1'], // 4: sn repeated
        ['RS-4', 'AA:20:00:00:00:04', 'DM-1', 'x'.repeat(300)], // 5: remark too long
      ],
    );

  beforeAll(async () => {
    const up = await upload(ts, ts.a, '/device-beacon/import', await file(), 'mixed.xlsx', 'en-US');
    importId = up.body.data.importId;
    await ts.server.imports.idle();
  });

  it('name the column and the offending value, in the reader language whatever the upload language', async () => {
    const en = (await ts.a.call('/device-beacon/import/status', { importId }, { language: 'en-US' })).body.data;
    expect(en.importErrors.map((e: any) => [e.row, e.code, e.column, e.value])).toEqual([
      [3, 10, 'Device model', 'DM-NONE'],
      [4, 20, 'SN', 'RS-1'],
      [5, 70, 'Remark', `${'x'.repeat(99)}…`],
    ]);
    expect(en.importErrors[0].reason).toMatch(/DM-NONE/);
    const zh = (await ts.a.call('/device-beacon/import/status', { importId }, { language: 'zh-CN' })).body.data;
    const ja = (await ts.a.call('/device-beacon/import/status', { importId }, { language: 'ja-JP' })).body.data;
    expect(zh.importErrors[0]).toMatchObject({ column: '设备型号', value: 'DM-NONE' });
    expect(ja.importErrors[0].column).not.toBe(en.importErrors[0].column);
    for (const i of [0, 1, 2]) {
      expect(zh.importErrors[i].reason).not.toBe(en.importErrors[i].reason);
      expect(ja.importErrors[i].reason).not.toBe(en.importErrors[i].reason);
      expect(zh.importErrors[i].reason).toMatch(/[\u4e00-\u9fff]/);
      expect(ja.importErrors[i].reason).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    expect(zh.importErrors[0].reason).toContain('“DM-NONE”');
    expect(ja.importErrors[0].reason).toContain('「DM-NONE」');
  });

  it('a whole-file failure reads in the reader language too', async () => {
    const up = await upload(ts, ts.a, '/device-beacon/import', await xlsx(['nothing', 'known'], [['a', 'b']]), 'x.xlsx', 'en-US');
    await ts.server.imports.idle();
    const zh = (await ts.a.call('/device-beacon/import/status', { importId: up.body.data.importId }, { language: 'zh-CN' })).body.data;
    const en = (await ts.a.call('/device-beacon/import/status', { importId: up.body.data.importId }, { language: 'en-US' })).body.data;
    expect(en.message).toBe('The file has no header row with the template columns');
    expect(zh.message).toBe('文件缺少与模板列对应的表头行');
  });

  it('jobs stored before reasons had keys keep their texts', async () => {
    const now = new Date();
    await ts.server.db.sequelize.getQueryInterface().bulkInsert(IMPORT_TABLE, [
      {
        org_id: ts.orgA,
        resource: 'device-beacon',
        file_name: 'old.xlsx',
        language: 'en-US',
        status: 20,
        processed_volume: 1,
        success_volume: 0,
        failed_volume: 1,
        import_errors: JSON.stringify([{ row: 2, code: 10, reason: 'old reason' }]),
        message: null,
        created_at: now,
        updated_at: now,
      },
    ]);
    const [found] = (await ts.server.db.sequelize.query(`SELECT id FROM ${IMPORT_TABLE} WHERE file_name = 'old.xlsx'`)) as [Array<{ id: number }>, unknown];
    const oldId = Number(found[0].id);
    const got = (await ts.a.call('/device-beacon/import/status', { importId: oldId }, { language: 'ja-JP' })).body.data;
    expect(got.importErrors).toEqual([{ row: 2, code: 10, reason: 'old reason' }]);
    expect(got.totalVolume).toBeNull();
  });

  it('downloads the refused rows as a workbook with the columns, the value and the reason, in the reader language', async () => {
    const res = await ts.a.fetch('/device-beacon/import/result', { importId }, { language: 'ja-JP' });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(decodeURIComponent(res.headers.get('content-disposition') ?? '')).toContain('インポート結果');
    const rows = await sheetOf(res);
    const status = (await ts.a.call('/device-beacon/import/status', { importId }, { language: 'ja-JP' })).body.data;
    expect(rows[0][0]).toBe('行');
    expect(rows[0].slice(-3)).toEqual(['列', '値', '理由']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([3, 4, 5]);
    expect(rows.slice(1).map((r) => r[r.length - 1])).toEqual(status.importErrors.map((e: any) => e.reason));
    expect(rows[1]).toContain('DM-NONE');
    expect(rows[1]).toContain('RS-2');
  });

  it('the result workbook, once fixed, imports again', async () => {
    const res = await ts.a.fetch('/device-beacon/import/result', { importId });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const col = (name: string) => header.findIndex((h) => String(h ?? '').replace(/ \*$/, '') === name);
    ws.getRow(2).getCell(col('Device model')).value = 'DM-1';
    ws.getRow(3).getCell(col('SN')).value = 'RS-3';
    ws.getRow(4).getCell(col('Remark')).value = 'short';
    const again = await importFile(ts, ts.a, 'device-beacon', Buffer.from(await wb.xlsx.writeBuffer()));
    expect([again.successVolume, again.failedVolume]).toEqual([3, 0]);
  });

  it('another organisation gets neither the status nor the result', async () => {
    expect((await ts.b.call('/device-beacon/import/result', { importId })).body.code).toBe(10002);
    expect((await ts.b.call('/device-beacon/import/status', { importId })).body.code).toBe(10002);
  });
});
