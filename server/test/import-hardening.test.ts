/**
 * Workbooks that would exhaust the server are refused when uploaded, before an import job
 * exists (issue 13): huge declared dimensions, huge or countless shared strings, too many
 * rows, zip bombs (parts inflating past their declared size, declared sizes beyond the
 * limits, too many parts), broken archives. What a sheet hides beyond the columns limit ends
 * the job with a message. A workbook in Excel's own part order is read without temporary
 * files outside the data folder.
 */
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWorkbook, dimensionOf, WORKBOOK_LIMITS } from '../src/import/workbook';
import { importFile, metadataWithCodes, tempDataDir, upload, xlsx } from './import-fixtures';
import { workbookParts, xlsxBombs } from './support/hostile-files';
import { startTestServer, type TestServer } from './support/test-server';
import { buildZip, unzip } from './support/zips';

let ts: TestServer;
let dataDir: string;
let bombs: Record<string, Buffer>;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir } });
  expect((await ts.a.call('/device-model/create', { name: 'DM-1' })).body.code).toBe(0);
  bombs = await xlsxBombs();
});
afterAll(() => ts?.close());

const jobs = () => ts.server.db.sequelize.models.importJob.count();
/** files left under the imports folder: upload temporaries, and job files kept in the (local) store while their job runs */
const temps = () =>
  existsSync(join(dataDir, 'imports'))
    ? readdirSync(join(dataDir, 'imports'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe('workbook bombs are refused at upload', () => {
  const expected: Record<string, [number, string]> = {
    hugeDimension: [413, 'An import reads at most 200000 rows and 256 columns; the sheet declares A1:XFD1048576; please split it'],
    hugeSharedStrings: [413, 'The workbook holds more text than an import reads (at most 32 MB of shared text, 500000 distinct texts); please split it'],
    manySharedStrings: [413, 'The workbook holds more text than an import reads (at most 32 MB of shared text, 500000 distinct texts); please split it'],
    tooManyRows: [413, 'The sheet has more than 200000 rows or 256 columns; please split it'],
    lyingSheet: [413, 'The .xlsx file expands to more than 256 MB or holds more than 1000 parts, and is not accepted'],
    hugeDeclared: [413, 'The .xlsx file expands to more than 256 MB or holds more than 1000 parts, and is not accepted'],
    tooManyParts: [413, 'The .xlsx file expands to more than 256 MB or holds more than 1000 parts, and is not accepted'],
    smuggled: [200, 'The file could not be read as an Excel workbook'],
    garbageDeflate: [200, 'The file could not be read as an Excel workbook'],
  };

  it('with a message naming the limit, no job and no file left', async () => {
    const before = await jobs();
    expect(Object.keys(bombs).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, bytes] of Object.entries(bombs)) {
      const started = Date.now();
      const r = await upload(ts, ts.a, '/device-beacon/import', bytes, `${name}.xlsx`);
      expect([r.status, r.body.code, r.body.message], name).toEqual([expected[name][0], 10001, expected[name][1]]);
      expect(Date.now() - started, name).toBeLessThan(10_000);
    }
    expect(await jobs()).toBe(before);
    expect(temps()).toEqual([]);
  });

  it('in the caller language', async () => {
    const zh = await upload(ts, ts.a, '/device-beacon/import', bombs.hugeDimension, 'x.xlsx', 'zh-CN');
    expect(zh.body.message).toBe('导入最多读取200000行、256列；该工作表声明的范围为A1:XFD1048576，请拆分后导入');
    const ja = await upload(ts, ts.a, '/device-beacon/import', bombs.lyingSheet, 'x.xlsx', 'ja-JP');
    expect(ja.body.message).toBe('この.xlsxファイルは展開すると256MBを超えるか、1000個を超える部品を含むため受け付けられません');
  });

  it('judges dimensions and keeps to the documented limits', async () => {
    expect(WORKBOOK_LIMITS).toMatchObject({
      maxRows: 200_000,
      maxColumns: 256,
      maxSharedStringsBytes: 32 * 2 ** 20,
      maxSharedStrings: 500_000,
      maxEntries: 1000,
      maxTotalBytes: 256 * 2 ** 20,
    });
    expect(dimensionOf('A1:C20')).toEqual({ rows: 20, columns: 3 });
    expect(dimensionOf('XFD1048576')).toEqual({ rows: 1_048_576, columns: 16_384 });
    expect(dimensionOf('A1:AA200001')).toEqual({ rows: 200_001, columns: 27 });
    expect(dimensionOf('nonsense')).toBeNull();
  });
});

describe('what the checks let through is still bounded', () => {
  it('ends the job with a message when a row reaches past the columns limit', async () => {
    const base = await workbookParts();
    const far =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>sn</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>B-FAR</t></is></c><c r="JZ2" t="inlineStr"><is><t>x</t></is></c></row>';
    const parts = base.map((p) =>
      /sheet1\.xml$/.test(p.name)
        ? {
            ...p,
            data: Buffer.from(
              `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${far}</sheetData></worksheet>`,
            ),
          }
        : p,
    );
    const r = await importFile(ts, ts.a, 'device-beacon', buildZip(parts));
    expect(r).toMatchObject({ successVolume: 0, message: 'The sheet has more than 200000 rows or 256 columns; please split it' });
  });

  it('reads a workbook whose sheets come before its shared strings and styles (Excel order) without temporary files', async () => {
    const good = unzip(await xlsx(['sn', 'mac', 'deviceModelId'], [['B-ORDER', 'AA:00:00:00:09:01', 'DM-1']]));
    const isSheet = (p: { name: string }) => /^xl\/worksheets\/sheet/.test(p.name);
    const sheetsFirst = [...good.filter(isSheet), ...good.filter((p) => !isSheet(p))];
    expect(sheetsFirst[0].name).toMatch(/^xl\/worksheets\/sheet1\.xml$/);
    const ours = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    const before = ours().length;
    const file = buildZip(sheetsFirst);
    expect(await checkWorkbook(await writeTemp(file))).toBeNull();
    const r = await importFile(ts, ts.a, 'device-beacon', file);
    expect(r).toMatchObject({ successVolume: 1, failedVolume: 0, message: null });
    expect(ours().length).toBe(before);
    expect(temps()).toEqual([]);
  });
});

async function writeTemp(bytes: Buffer): Promise<string> {
  const { writeFile } = await import('node:fs/promises');
  const path = join(dataDir, `check-${Date.now()}.xlsx`);
  await writeFile(path, bytes);
  return path;
}
