/**
 * Report definitions over a real server with a test plugin declaring one report: the list
 * call pages, the export streams a workbook read back here (sheets, translated headers with
 * units, enum and yes/no labels, times in the report's zone), bad parameters are refused in
 * the caller's language before any byte, every call has its own permission code, rows stay in
 * the caller's organisation, and the schedule becomes a task type producing the same workbook.
 */
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPermission } from '../src/http/registry';
import { dayOf, dayStart, formatTime, lastFullDays, parseOpenTimeRange, parseTimeRange, zoneOffset } from '../src/reports/time';
import { startTestServer, type TestServer } from './support/test-server';

const pluginsDir = fileURLToPath(new URL('./support/report-plugins', import.meta.url));
let ts: TestServer;
const DAY = 86_400_000;

async function sheetsOf(res: Response): Promise<Array<{ name: string; rows: unknown[][] }>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['reporting'], config: { pluginsDir } });
  for (const [code, min] of [
    ['W-C', 5],
    ['W-A', 0],
    ['W-B', 2],
    ['W-D', 0],
    ['W-E', 1],
  ] as const) {
    const got = await ts.a.call('/warehouse/create', { code, name: `Warehouse ${code}`, minInventory: min, inoutProcessor: 20 });
    expect(got.body.code, got.body.message).toBe(0);
  }
  expect((await ts.b.call('/warehouse/create', { code: 'W-B-ONLY', name: 'B', minInventory: 9 })).body.code).toBe(0);
});
afterAll(() => ts?.close());

describe('the list call', () => {
  it('pages the rows of the caller organisation with the total', async () => {
    const p1 = await ts.a.call('/reporting/warehouses/list', { page: 1, limit: 2 });
    expect(p1.body.code, p1.body.message).toBe(0);
    expect(p1.body.data.total).toBe(5);
    expect(p1.body.data.list.map((r: any) => r.code)).toEqual(['W-A', 'W-B']);
    const p3 = await ts.a.call('/reporting/warehouses/list', { page: 3, limit: 2 });
    expect(p3.body.data.list.map((r: any) => r.code)).toEqual(['W-E']);
    const filtered = await ts.a.call('/reporting/warehouses/list', { minInventory: '2' });
    expect(filtered.body.data.list.map((r: any) => r.code)).toEqual(['W-B', 'W-C']);
    // another organisation sees only its own rows, whatever it filters on
    const b = await ts.b.call('/reporting/warehouses/list', { code: 'W-' });
    expect(b.body.data.list.map((r: any) => r.code)).toEqual(['W-B-ONLY']);
  });

  it('refuses bad parameters in the caller language, naming them', async () => {
    const reversed = await ts.a.call('/reporting/warehouses/list', { time: [Date.now(), Date.now() - DAY] }, { language: 'zh-CN' });
    expect(reversed.body.code).toBe(10001);
    expect(reversed.body.message).toBe('开始时间必须早于结束时间');
    const long = await ts.a.call('/reporting/warehouses/list', { time: [Date.now() - 400 * DAY, Date.now()] });
    expect(long.body).toMatchObject({ code: 10001, message: 'Time: a range of at most 366 days' });
    const notTime = await ts.a.call('/reporting/warehouses/list', { time: ['yesterday', null] }, { language: 'ja-JP' });
    expect(notTime.body.code).toBe(10001);
    expect(notTime.status).toBe(400);
    const range = await ts.a.call('/reporting/warehouses/list', { minInventory: 5000 });
    expect(range.body).toMatchObject({ code: 10001, message: 'Min inventory: value between 0 and 1000' });
    const text = await ts.a.call('/reporting/warehouses/list', { minInventory: 'many' });
    expect(text.body.code).toBe(10001);
    expect((await ts.a.call('/reporting/warehouses/list', { limit: 1000 })).body.code).toBe(10001);
  });
});

describe('the export', () => {
  it('streams the workbook: sheets, headers with units, labels, times in the report zone', async () => {
    const res = await ts.a.fetch('/reporting/warehouses/export', {}, { language: 'zh-CN' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain('filename="warehouses.xlsx"');
    const [all, below] = await sheetsOf(res);
    expect(all.name).toBe('仓库');
    expect(all.rows[0]).toEqual(['编码', '名称', '最小库存（个）', '创建时间']);
    expect(all.rows.slice(1).map((r) => r[0])).toEqual(['W-A', 'W-B', 'W-C', 'W-D', 'W-E']);
    expect(all.rows[3][2]).toBe(5);
    // UTC+8, as the report's zone says
    const created = (await ts.a.call('/reporting/warehouses/list', { code: 'W-C' })).body.data.list[0].createdAt;
    expect(all.rows[3][3]).toBe(formatTime(created, 480));
    // the second sheet expands each row to its own rows: only warehouses with a minimum
    expect(below.rows.slice(1).map((r) => r[0])).toEqual(['W-B', 'W-C', 'W-E']);
  });

  it('answers an envelope, not a file, when a parameter is wrong', async () => {
    const res = await ts.a.fetch('/reporting/warehouses/export', { minInventory: -1 });
    expect(res.headers.get('content-type')).toContain('json');
    expect(((await res.json()) as { code: number }).code).toBe(10001);
  });

  it('keeps another organisation out of the workbook', async () => {
    const [all] = await sheetsOf(await ts.b.fetch('/reporting/warehouses/export', {}));
    expect(all.rows.slice(1).map((r) => r[0])).toEqual(['W-B-ONLY']);
  });
});

describe('large workbooks', () => {
  it('keeps every row of every sheet, interleaved or one sheet after another, whatever the pace of the source', async () => {
    for (const path of ['/reporting/big/export', '/reporting/big-sheets/export']) {
      const sheets = await sheetsOf(await ts.a.fetch(path, {}));
      expect(
        sheets.map((s) => s.name),
        path,
      ).toEqual(['one', 'two']);
      for (const s of sheets) {
        expect(s.rows, `${path} ${s.name}`).toHaveLength(30_001);
        expect(s.rows[30_000][0]).toBe(29_999);
      }
      expect(String(sheets[1].rows[1][1])).toMatch(path.includes('sheets') ? /^two-0-/ : /^row-0-/);
    }
  }, 120_000);
});

describe('calls, codes and the console description', () => {
  it('gives each call its own permission code and refuses callers without it', async () => {
    const codes = ['/reporting/warehouses/list', '/reporting/warehouses/export'].map((path) => callPermission(ts.server.calls.get(path)!));
    expect(codes).toEqual(['ApiReportingWarehousesList', 'ApiReportingWarehousesExport']);
    expect(ts.server.listPermissionCodes()).toEqual(expect.arrayContaining(codes));
    const role = (await ts.a.call('/role/create', { name: 'list only', pcPermissions: [codes[0]], pdaPermissions: [] })).body.data.id;
    const listOnly = await ts.callerFor(await ts.addUser(ts.orgA, 'lister', { roleIds: [role] }), ts.orgA);
    expect((await listOnly.call('/reporting/warehouses/list', {})).body.code).toBe(0);
    const refused = await listOnly.call('/reporting/warehouses/export', {});
    expect([refused.status, refused.body.code]).toEqual([403, 10005]);
  });

  it('describes the report to the console in the caller language', async () => {
    const d = (await ts.a.call('/report/definition', { name: 'reporting.warehouses' }, { language: 'ja-JP' })).body.data;
    expect(d.calls).toEqual({ list: '/reporting/warehouses/list', export: '/reporting/warehouses/export' });
    expect(d.parameters.map((p: any) => [p.name, p.type, p.search])).toEqual([
      ['time', 'datetime', 'range'],
      ['code', 'string', 'like'],
      ['minInventory', 'int', 'eq'],
    ]);
    expect(d.columns.map((c: any) => c.key)).toEqual(['code', 'name', 'minInventory', 'available', 'inoutProcessor', 'createdAt']);
    expect(d.texts['fields.minInventory']).toBe('最小在庫');
    expect(d.texts['units.pieces']).toBe('個');
    expect((await ts.a.call('/report/definition', { name: 'nope' })).body.code).toBe(10002);
  });

  it('turns the schedule into a task type that builds the same workbook', async () => {
    const task = ts.server.reports.task('reportingWarehouses')!;
    expect(task.report).toBe('reporting.warehouses');
    const run = {
      ctx: ts.server.systemContext(ts.orgA),
      task: { battery: 2 },
      now: new Date(),
      timezone: 'UTC',
      language: 'en-US' as const,
      t: (k: string) => k,
    };
    const out = await task.run(run);
    expect(out.kind).toBe('report');
    if (out.kind !== 'report') return;
    expect(out.report).toMatchObject({ rows: 2, text: '2 warehouses', title: 'Warehouse' });
    expect(out.report.attachment.filename).toBe('warehouses.xlsx');
    const [all] = await sheetsOf(new Response(new Uint8Array(out.report.attachment.content)));
    expect(all.rows.slice(1).map((r) => r[0])).toEqual(['W-B', 'W-C']);
    const none = await task.run({ ...run, task: { battery: 999 } });
    expect(none.kind).toBe('empty');
  });
});

describe('the shared time range', () => {
  it('reads [from, to] or startTime/endTime, ISO or epoch ms, with defaults and limits', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(parseTimeRange({}, { defaultDays: 7 }, now)).toEqual({ from: now - 7 * DAY, to: now });
    expect(parseTimeRange({ time: ['2026-01-01T00:00:00Z', now] }, {}, now)).toEqual({ from: Date.UTC(2026, 0, 1), to: now });
    expect(parseTimeRange({ startTime: now - DAY }, {}, now)).toEqual({ from: now - DAY, to: now });
    expect(() => parseTimeRange({ time: [now, now - 1] })).toThrow();
    expect(() => parseTimeRange({ time: [now - 40 * DAY, now] }, { maxDays: 31 })).toThrow();
    expect(() => parseTimeRange({ time: 'soon' })).toThrow();
    expect(parseOpenTimeRange({ time: [null, now] })).toEqual({ to: now });
    expect(parseOpenTimeRange({})).toEqual({});
  });

  it('cuts days at a zone’s midnights, daylight saving included', () => {
    const berlin = zoneOffset('Europe/Berlin');
    expect([berlin(Date.UTC(2026, 0, 15)), berlin(Date.UTC(2026, 6, 15))]).toEqual([60, 120]);
    expect(dayOf(Date.UTC(2026, 2, 28, 23, 30), 'Europe/Berlin')).toBe('2026-03-29');
    // 29 March 2026: clocks go forward at 02:00 in Berlin; the day starts at 23:00 UTC the day before
    expect(dayStart('2026-03-29', 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 28, 23));
    expect(dayStart('2026-07-01', 'Europe/Berlin')).toBe(Date.UTC(2026, 5, 30, 22));
    // the last two full days before 30 March 10:00 Berlin time: 28 and 29 March
    expect(lastFullDays(Date.UTC(2026, 2, 30, 8), 2, 'Europe/Berlin')).toEqual({ from: Date.UTC(2026, 2, 27, 23), to: Date.UTC(2026, 2, 29, 22) - 1 });
    expect(formatTime(Date.UTC(2026, 0, 1, 16, 5, 9), 'Asia/Shanghai')).toBe('2026-01-02 00:05:09');
  });
});
