/**
 * The import pipeline around the reasons: upload checks (extension, size, signature, xls),
 * the half-written-row rule, the restart rule, templates in the caller's language, tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ApiError } from '../src/http/api-error';
import { createServer } from '../src/index';
import { startTestServer, type TestServer } from './support/test-server';
import { importFile, metadataWithCodes, tempDataDir, upload, xlsx } from './import-fixtures';
import { buildZip, padZip, unzip } from './support/zips';

let ts: TestServer;
let dataDir: string;
let modelId: number;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir } });
  modelId = (await ts.a.call('/device-model/create', { name: 'DM-1' })).body.data.id;
});
afterAll(() => ts?.close());

const beaconFile = (rows: unknown[][]) => xlsx(['sn', 'mac', 'deviceModelId'], rows);

describe('import upload checks', () => {
  it('refuses other extensions, fake xlsx content, xls and oversized files with translated messages', async () => {
    const good = await beaconFile([['B1', 'AA:00:00:00:00:01', 'DM-1']]);
    // a wrong format and a file too large each have their own message (SPEC §5, issue 23 item 7)
    const pdfName = await upload(ts, ts.a, '/device-beacon/import', Buffer.from('%PDF-1.4'), 'beacons.pdf');
    expect(pdfName.body.code).toBe(10001);
    expect(pdfName.body.message).toBe('Import files must be xlsx, csv');
    const fake = await upload(ts, ts.a, '/device-beacon/import', Buffer.from('%PDF-1.4 not a workbook'), 'beacons.xlsx');
    expect(fake.body).toMatchObject({ code: 10001, message: 'The file content does not match a .xlsx file' });
    const zh = await upload(ts, ts.a, '/device-beacon/import', Buffer.from('%PDF-1.4'), 'beacons.xlsx', 'zh-CN');
    expect(zh.body.message).toBe('文件内容与.xlsx格式不符');
    const xls = await upload(
      ts,
      ts.a,
      '/device-beacon/import',
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
      'old.xls',
    );
    expect(xls.body.message).toMatch(/\.xls.*\.xlsx/);
    const big = Buffer.concat([good, Buffer.alloc(5_242_880 - good.length + 1)]);
    const over = await upload(ts, ts.a, '/device-beacon/import', big, 'big.xlsx');
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('Import files may be at most 5120 KB');
    expect(over.body.code).toBe(10001);
    // Exactly at the limit is accepted by size (then read normally); the padding is a part of
    // the workbook (bytes after the zip's end are refused as not a readable archive).
    const at = await upload(ts, ts.a, '/device-beacon/import', padZip(good, 5_242_880), 'limit.xlsx');
    expect(at.body.code).toBe(0);
    await ts.server.imports.idle();
    expect(await ts.server.db.models['device-beacon'].count()).toBe(1);
  });

  it('refuses a file that is no zip at once; answers a job id and reports a workbook it cannot read as finished with a message', async () => {
    const notZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]);
    expect((await upload(ts, ts.a, '/device-beacon/import', notZip, 'broken.xlsx')).body).toMatchObject({
      code: 10001,
      message: 'The file could not be read as an Excel workbook',
    });
    // A sound archive whose sheet is not XML: found out by the job.
    const parts = unzip(await beaconFile([['B1', 'AA:00:00:00:00:01', 'DM-1']])).map((p) =>
      /^xl\/worksheets\/sheet1\.xml$/.test(p.name)
        ? { ...p, data: Buffer.from('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>sn</t></is></c></row><row <<<') }
        : p,
    );
    const up = await upload(ts, ts.a, '/device-beacon/import', buildZip(parts), 'broken.xlsx');
    expect(up.body.data).toMatchObject({ importId: expect.any(Number), status: 10 });
    await ts.server.imports.idle();
    const st = await ts.a.call('/device-beacon/import/status', { importId: up.body.data.importId });
    expect(st.body.data).toMatchObject({ status: 20, successVolume: 0, message: 'The file could not be read as an Excel workbook' });
  });

  it('keeps import jobs per organisation', async () => {
    const up = await upload(ts, ts.a, '/device-beacon/import', await beaconFile([]), 'empty.xlsx');
    await ts.server.imports.idle();
    const other = await ts.b.call('/device-beacon/import/status', { importId: up.body.data.importId });
    expect(other.body.code).toBe(10002);
  });
});

describe('each row saved whole or reported', () => {
  it('rolls back a row whose write fails after its insert, keeps the rest of the chunk', async () => {
    // A hook writes a second row, then refuses: neither the beacon nor the hook's row may stay.
    const models = ts.server.db.models;
    const off = ts.server.hooks.after('create', 'device-beacon', async ({ row, transaction, ctx }) => {
      await models.project.create({ orgId: ctx.orgId, name: `side-${row!.sn}` }, { transaction });
      if (row!.sn === 'HW-BOOM') throw new ApiError(10001, 'server.errors.duplicate', { importCode: 70 });
    });
    try {
      const r = await importFile(
        ts,
        ts.a,
        'device-beacon',
        await beaconFile([
          ['HW-1', 'AA:00:00:00:10:01', 'DM-1'],
          ['HW-BOOM', 'AA:00:00:00:10:02', 'DM-1'],
          ['HW-3', 'AA:00:00:00:10:03', 'DM-1'],
        ]),
      );
      // the code's column is named; an empty cell has no value to name
      expect(r.importErrors).toEqual([{ row: 3, code: 70, reason: 'Remark is invalid', column: 'Remark' }]);
      expect(r.successVolume).toBe(2);
    } finally {
      off();
    }
    const sns = (await models['device-beacon'].findAll({ where: { orgId: ts.orgA } })).map((m) => m.get('sn'));
    expect(sns).toEqual(expect.arrayContaining(['HW-1', 'HW-3']));
    expect(sns).not.toContain('HW-BOOM');
    const sides = (await models.project.findAll()).map((m) => m.get('name'));
    expect(sides).toEqual(expect.arrayContaining(['side-HW-1', 'side-HW-3']));
    expect(sides).not.toContain('side-HW-BOOM');
  });

  it('lets a before-create hook see the rows written before it in the same chunk', async () => {
    // A domain rule over existing rows (like "device already bound"): the second use must fail.
    const beacons = ts.server.db.models['device-beacon'];
    const off = ts.server.hooks.before('create', 'device-beacon', async ({ data, transaction }) => {
      if (data?.rfid && (await beacons.count({ where: { rfid: data.rfid }, transaction })))
        throw new ApiError(10003, 'server.errors.duplicate', { importCode: 20 });
    });
    try {
      const r = await importFile(
        ts,
        ts.a,
        'device-beacon',
        await xlsx(
          ['sn', 'mac', 'deviceModelId', 'rfid'],
          [
            ['RF-1', 'AA:00:00:00:11:01', 'DM-1', 'TAG-1'],
            ['RF-2', 'AA:00:00:00:11:02', 'DM-1', 'TAG-1'],
            ['RF-3', 'AA:00:00:00:11:03', 'DM-1', 'TAG-3'],
          ],
        ),
      );
      expect(r.importErrors.map((e) => [e.row, e.code])).toEqual([[3, 20]]);
      expect(r.successVolume).toBe(2);
    } finally {
      off();
    }
    expect(await beacons.count({ where: { rfid: 'TAG-1' } })).toBe(1);
  });

  it('writes only in the caller organisation and resolves labels in it', async () => {
    await ts.b.call('/device-model/create', { name: 'DM-B' });
    const r = await importFile(ts, ts.a, 'device-beacon', await beaconFile([['ORG-1', 'AA:00:00:00:20:01', 'DM-B']]));
    expect(r.importErrors).toEqual([{ row: 2, code: 10, reason: expect.stringContaining('DM-B'), column: 'Device model', value: 'DM-B' }]);
    const ok = await importFile(ts, ts.b, 'device-beacon', await beaconFile([['ORG-1', 'AA:00:00:00:20:01', 'DM-B']]));
    expect(ok.successVolume).toBe(1);
    expect((await ts.b.call('/device-beacon/list', { sn: 'ORG-1' })).body.data.total).toBe(1);
    expect((await ts.a.call('/device-beacon/list', { sn: 'ORG-1' })).body.data.total).toBe(0);
  });
});

describe('templates', () => {
  it('has the import columns as headers in the caller language, and imports back', async () => {
    const res = await ts.a.fetch('/device-beacon/import/template', {}, { language: 'ja-JP' });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1) as string[];
    expect(headers[0]).toBe(`${ts.server.t('ja-JP', 'fields.sn')} *`);
    expect(headers[0]).not.toBe(`${ts.server.t('en-US', 'fields.sn')} *`);
    expect(headers).toHaveLength(ts.server.metadata.resources['device-beacon'].import!.columns.length);
    const sheet = wb.worksheets[0];
    sheet.addRow(['TPL-1', null, 'AA:00:00:00:30:01', 'DM-1']);
    const r = await importFile(ts, ts.a, 'device-beacon', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(r).toMatchObject({ successVolume: 1, failedVolume: 0 });
  });
});

describe('restart rule', () => {
  it('closes a job left in processing when the server starts again', async () => {
    const own = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir() } });
    const jobs = own.server.db.sequelize.models.importJob;
    const job = await jobs.create({
      orgId: own.orgA,
      userId: own.a.userId,
      resource: 'device-beacon',
      fileName: 'x.xlsx',
      language: 'en-US',
      status: 10,
      processedVolume: 250,
      successVolume: 250,
    });
    await own.server.close();
    const again = await createServer({
      databaseUrl: own.db.url,
      plugins: false,
      logError: () => undefined,
      metadata: metadataWithCodes(),
      config: { dataDir: tempDataDir() },
    });
    try {
      const { url } = await again.listen(0);
      const { token } = await again.access.sessions.create({ userId: own.a.userId, loginOrgId: own.orgA, loginEntryCode: null });
      const res = await fetch(`${url}/api/device-beacon/import/status`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(own.orgA) },
        body: JSON.stringify({ importId: job.get('id') }),
      });
      const body = await res.json();
      expect(body.data).toMatchObject({ status: 20, successVolume: 250, message: expect.stringContaining('interrupted') });
    } finally {
      await again.close();
      await own.db.drop();
    }
    // a fresh database migrated twice: 36 s on MariaDB at a load of 16 on 2 cores
  }, 120_000);
});
