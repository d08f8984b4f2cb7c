/**
 * Issue 10 defect 3: Excel cells are read by their type in every import — real dates and
 * times (also as a formula's cached result) in the organisation's time zone, numbers as
 * numbers, rich text and hyperlinks as their text — from a workbook exceljs writes the way
 * Excel does (serial numbers with date formats), not only from typed text.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excelDate, fieldReader, isDateFormat, readCell, wallToInstant } from '../src/import/cells';
import { loadMetadata } from '@rti/metadata';
import { importFile, metadataWithCodes, tempDataDir } from './import-fixtures';
import { startTestServer, type TestServer } from './support/test-server';

const ZONE = 'Asia/Shanghai';
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir(), timeZone: ZONE } });
  expect((await ts.a.call('/device-model/create', { name: 'DM-1' })).body.code).toBe(0);
});
afterAll(() => ts?.close());

/** A wall-clock time as exceljs takes it: a Date whose UTC fields are what the cell shows. */
const wall = (y: number, m: number, d: number, h = 0, mi = 0, s = 0) => new Date(Date.UTC(y, m - 1, d, h, mi, s));
const serial = (d: Date) => d.getTime() / 86_400_000 + 25569;

async function workbook(headers: string[], rows: Array<Array<ExcelJS.CellValue | { value: ExcelJS.CellValue; numFmt: string }>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(headers);
  rows.forEach((cells, r) =>
    cells.forEach((c, i) => {
      const cell = ws.getCell(r + 2, i + 1);
      if (c && typeof c === 'object' && 'numFmt' in c) {
        cell.value = c.value;
        cell.numFmt = c.numFmt;
      } else cell.value = c as ExcelJS.CellValue;
    }),
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const rowsOf = async (resource: string, sns: string[]) => {
  const rows = (await ts.server.db.models[resource].findAll({ raw: true })) as unknown as Array<Record<string, unknown>>;
  return Object.fromEntries(rows.filter((r) => sns.includes(String(r.sn))).map((r) => [String(r.sn), r]));
};
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : new Date(String(v)).toISOString());

describe('an import reads cells by their type, in the organisation time zone', () => {
  it('dates, times, formulas, rich text, hyperlinks and numbers in a beacon workbook', async () => {
    const dt = 'yyyy-mm-dd hh:mm:ss';
    const file = await workbook(
      ['sn', 'name', 'mac', 'deviceModelId', 'startTime', 'endTime', 'remark'],
      [
        // a real date-time cell; a formula whose cached result is a date; rich text; a hyperlink
        [
          'B-D1',
          { text: 'Beacon one', hyperlink: 'https://example.com/b1' },
          { richText: [{ text: 'AA:00:' }, { font: { bold: true }, text: '00:00:00:11' }] },
          'DM-1',
          { value: wall(2026, 3, 1, 8, 30), numFmt: dt },
          { value: { formula: 'E2+1', result: wall(2026, 3, 2, 8, 30) } as ExcelJS.CellFormulaValue, numFmt: dt },
          { richText: [{ text: 'rich ' }, { font: { italic: true }, text: 'remark' }] },
        ],
        // a number where text is expected; typed text; a serial in a General cell
        [12345, 'typed', 'AA:00:00:00:00:12', 'DM-1', '2026-03-01 08:30', serial(wall(2026, 3, 1, 12)), null],
        // a date-only cell (midnight in the organisation's zone); a string formula result; an error cell
        [
          { formula: '"B-"&"D3"', result: 'B-D3' } as ExcelJS.CellFormulaValue,
          null,
          'AA:00:00:00:00:13',
          'DM-1',
          { value: wall(2026, 7, 1), numFmt: 'yyyy-mm-dd' },
          null,
          { error: '#N/A' } as ExcelJS.CellErrorValue,
        ],
        // a time of day alone is not a date-time: refused with the column's reason (60)
        ['B-D4', null, 'AA:00:00:00:00:14', 'DM-1', { value: wall(1899, 12, 30, 8, 30), numFmt: 'hh:mm' }, null, null],
      ],
    );
    const r = await importFile(ts, ts.a, 'device-beacon', file);
    // the reason names the column and the value the cell held (issue 10)
    expect(r.importErrors).toEqual([{ row: 5, code: 60, reason: expect.stringContaining('08:30:00'), column: 'Start time', value: '08:30:00' }]);
    expect(r.successVolume).toBe(3);
    const saved = await rowsOf('device-beacon', ['B-D1', '12345', 'B-D3']);
    // 08:30 in Shanghai (UTC+8) is 00:30 UTC
    expect(iso(saved['B-D1'].startTime)).toBe('2026-03-01T00:30:00.000Z');
    expect(iso(saved['B-D1'].endTime)).toBe('2026-03-02T00:30:00.000Z');
    expect(saved['B-D1']).toMatchObject({ name: 'Beacon one', mac: 'AA:00:00:00:00:11', remark: 'rich remark' });
    // typed text reads in the same zone as a date cell; the General serial is 12:00 there
    expect(iso(saved['12345'].startTime)).toBe('2026-03-01T00:30:00.000Z');
    expect(iso(saved['12345'].endTime)).toBe('2026-03-01T04:00:00.000Z');
    expect(iso(saved['B-D3'].startTime)).toBe('2026-06-30T16:00:00.000Z');
    expect(saved['B-D3'].remark ?? null).toBeNull();
  });

  it('numbers, number formulas and numeric text in a GPS workbook', async () => {
    const headers = [
      'sn',
      'name',
      'deviceModelId',
      'useStatus',
      'imei',
      'sim',
      'reportCycle',
      'sensorSampleCycle',
      'sensorRecordCycle',
      'sensorReportCycle',
      'locateModel',
      'highTempThreshold',
      'lowTempThreshold',
      'shakeThreshold',
      'highHumidityThreshold',
      'lowHumidityThreshold',
    ];
    const file = await workbook(headers, [
      [
        'G-N1',
        'gps',
        'DM-1',
        'Registered',
        860000000000001,
        13800000000,
        4,
        { formula: '2+3', result: 5 } as ExcelJS.CellFormulaValue,
        '10',
        { value: 30, numFmt: '0' },
        'LBS',
        { value: 60.5, numFmt: '0.0' },
        { formula: '-10*2', result: -20 } as ExcelJS.CellFormulaValue,
        { value: 2.25, numFmt: '0.00' },
        90,
        10,
      ],
      // a date where a number belongs is refused, not read as its serial
      ['G-N2', 'gps', 'DM-1', 'Registered', null, null, { value: wall(2026, 3, 1), numFmt: 'yyyy-mm-dd' }, 5, 10, 30, 'LBS', 60, -20, 2, 90, 10],
    ]);
    const r = await importFile(ts, ts.a, 'device-gps', file);
    expect(r.successVolume).toBe(1);
    expect(r.importErrors.map((e) => e.row)).toEqual([3]);
    const g = (await rowsOf('device-gps', ['G-N1']))['G-N1'];
    expect(g).toMatchObject({
      imei: '860000000000001',
      sim: '13800000000',
      reportCycle: 4,
      sensorSampleCycle: 5,
      sensorRecordCycle: 10,
      sensorReportCycle: 30,
    });
    expect([Number(g.highTempThreshold), Number(g.lowTempThreshold), Number(g.shakeThreshold)]).toEqual([60.5, -20, 2.25]);
  });
});

describe('cells and zones', () => {
  it('turns wall-clock times into instants across daylight saving changes', () => {
    const at = (zone: string, ...p: [number, number, number, number, number]) => new Date(wallToInstant(wall(...p).getTime(), zone)).toISOString();
    expect(at('UTC', 2026, 7, 1, 12, 0)).toBe('2026-07-01T12:00:00.000Z');
    expect(at('Asia/Shanghai', 2026, 1, 1, 0, 0)).toBe('2025-12-31T16:00:00.000Z');
    expect(at('Europe/Berlin', 2026, 1, 15, 12, 0)).toBe('2026-01-15T11:00:00.000Z');
    expect(at('Europe/Berlin', 2026, 7, 1, 12, 0)).toBe('2026-07-01T10:00:00.000Z');
    // 02:30 does not exist on 29 March (clocks jump 02:00 → 03:00): read with the offset before
    expect(at('Europe/Berlin', 2026, 3, 29, 2, 30)).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October: the first one
    expect(at('Europe/Berlin', 2026, 10, 25, 2, 30)).toBe('2026-10-25T00:30:00.000Z');
    expect(at('America/New_York', 2026, 7, 1, 9, 0)).toBe('2026-07-01T13:00:00.000Z');
  });

  it('knows date formats and serials (1900 and 1904 systems)', () => {
    for (const f of ['yyyy-mm-dd', 'm/d/yy', 'hh:mm', '[$-409]d-mmm-yy;@', 'yyyy"年"m"月"d"日"', '[h]:mm:ss']) expect(isDateFormat(f), f).toBe(true);
    for (const f of ['General', '0', '0.00', '#,##0', '0%', '"Day" 0', '[Red]0.00', undefined]) expect(isDateFormat(f), String(f)).toBe(false);
    expect(excelDate(46082.5).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(excelDate(46082.5 - 1462, true).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(readCell({ value: { formula: 'A1', result: 46082.25 }, numFmt: 'yyyy-mm-dd hh:mm' })).toEqual(new Date('2026-03-01T06:00:00.000Z'));
    expect(readCell({ value: { formula: 'A1', result: 46082.25 }, numFmt: '0.00' })).toBe(46082.25);
    expect(readCell({ value: { sharedFormula: 'A1', result: 'x' } })).toBe('x');
    expect(readCell({ value: { formula: 'A1' } })).toBeNull();
    expect(readCell({ value: { error: '#DIV/0!' } })).toBeNull();
    expect(readCell({ value: { text: 'link', hyperlink: 'https://x' } })).toBe('link');
  });

  it('reads each field type from each cell type', () => {
    const meta = loadMetadata();
    const t = (_: string, k: string) => k;
    const field = (type: string) => ({ name: 'x', type }) as never;
    const dt = fieldReader(field('datetime'), meta.enums, t, { zone: 'Asia/Tokyo' });
    expect(dt.read(wall(2026, 3, 1, 9, 0))).toBe('2026-03-01T00:00:00.000Z');
    expect(dt.read(serial(wall(2026, 3, 1, 9, 0)))).toBe('2026-03-01T00:00:00.000Z');
    expect(dt.read('2026/3/1 9:00')).toBe('2026-03-01T00:00:00.000Z');
    expect(dt.read('2026-03-01T09:00:00+09:00')).toBe('2026-03-01T09:00:00+09:00');
    expect(dt.read('2026-02-30')).toBeUndefined();
    expect(dt.read(0.5)).toBeUndefined();
    const date = fieldReader(field('date'), meta.enums, t, { zone: 'Asia/Tokyo' });
    expect(date.read(wall(2026, 3, 1, 23, 0))).toBe('2026-03-01');
    const text = fieldReader(field('string'), meta.enums, t);
    expect(text.read(wall(2026, 3, 1))).toBe('2026-03-01');
    expect(text.read(wall(2026, 3, 1, 9, 5, 7))).toBe('2026-03-01 09:05:07');
    expect(text.read(wall(1899, 12, 30, 9, 5))).toBe('09:05:00');
    expect(text.read(12345)).toBe('12345');
    const num = fieldReader(field('decimal'), meta.enums, t);
    expect(num.read(wall(2026, 3, 1))).toBeUndefined();
    expect(num.read('2.5')).toBe(2.5);
  });
});
