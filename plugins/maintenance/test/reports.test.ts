/**
 * The top-10 and repair data reports: figures from the records (rejected repairs not counted in
 * the top 10), the other organisation's records never in them, the export's sheets.
 */
import ExcelJS from 'exceljs';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { carrier, dictionary, narrowUser, ok, pool, type Pool } from './support';

const R = '/carrier-asset-maintenance-record';
let ts: TestServer;
let p: Pool;
let sns: string[];
let auditor: Caller;

/** a record of a carrier, taken to `to` (audited, rejected) with these hours and cost */
async function repair(carrierId: number, to: 'audited' | 'rejected' | 'new', hours = 1, cost = 100, rootCauseId?: number) {
  const r = await ok(ts.a, `${R}/create`, { carrierId, breakdownDescription: 'Bent', type: Enums.maintenanceType.repair });
  if (to === 'new') return r;
  if (to === 'rejected') return ok(auditor, `${R}/reject`, { id: r.id });
  await ok(ts.a, `${R}/start`, { id: r.id });
  await ok(ts.a, `${R}/complete`, { id: r.id, rootCauseId, strategy: 'Fix', hours, cost, maintainPictures: ['p.jpg'] });
  // the administrator applied: another user audits
  return ok(auditor, `${R}/audit`, { id: r.id });
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['maintenance'] });
  p = await pool(ts.a, 'RP');
  auditor = await narrowUser(ts, 'aud-rp', [`${R}/audit`, `${R}/reject`]);
  const cause = await dictionary(ts.a, Enums.dictionaryCategory.rootCause, 'Overload');
  const wear = await dictionary(ts.a, Enums.dictionaryCategory.rootCause, 'Wear');
  const cs = await Promise.all([1, 2, 3].map(() => carrier(ts.a, p)));
  sns = cs.map((c) => c.sn);
  // carrier 0: 3 repairs, carrier 1: 2 (+1 rejected), carrier 2: 1
  for (let i = 0; i < 3; i++) await repair(cs[0].id, 'audited', 2, 150, cause);
  for (let i = 0; i < 2; i++) await repair(cs[1].id, 'audited', 1.5, 50, wear);
  await repair(cs[1].id, 'rejected');
  await repair(cs[2].id, 'new');
  // the other organisation repairs too
  const q = await pool(ts.b, 'RPB');
  const b = await carrier(ts.b, q);
  await ok(ts.b, `${R}/create`, { carrierId: b.id, breakdownDescription: 'B', type: Enums.maintenanceType.repair });
}, 180_000);
afterAll(() => ts?.close());

describe('monthly top 10', () => {
  it('ranks carriers and carrier codes by repairs, without rejected ones or other organisations', async () => {
    const got = await ok(ts.a, `${R}/top`, { page: 1, limit: 10 });
    expect(got.list.map((r: any) => [r.carrier, r.carrierRepairs])).toEqual([
      [sns[0], 3],
      [sns[1], 2],
      [sns[2], 1],
    ]);
    expect(got.list[0]).toMatchObject({ rank: 1, carrierCode: 'RK-RP', carrierCodeRepairs: 6 });
    // three carriers of the code over the default 31 days, six repairs: one every 15.5 carrier-days
    expect(got.list[0].carrierCodeMtbf).toBeCloseTo(15.5, 0);
    const b = await ok(ts.b, `${R}/top`, { page: 1, limit: 10 });
    expect(b.list).toHaveLength(1);
    expect(b.list[0].carrierRepairs).toBe(1);
  });

  it('refuses a range over a year in the caller language', async () => {
    const got = await ts.a.call(`${R}/top`, { startTime: '2024-01-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }, { language: 'zh-CN' });
    expect(got.body.code).toBe(10001);
  });
});

describe('repair data', () => {
  it('counts records, audited, rejected, hours and cost per month, and exports the sheets', async () => {
    const got = await ok(ts.a, `${R}/report`, { page: 1, limit: 10 });
    const month = new Date().toISOString().slice(0, 7);
    expect(got.list).toEqual([{ key: month, records: 7, audited: 5, rejected: 1, hours: 9, cost: 550 }]);
    const res = await ts.a.fetch(`${R}/report/export`, {});
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['By month', 'By area', 'By department', 'By category', 'By root cause']);
    const causes = wb.getWorksheet('By root cause')!;
    const values = causes.getRow(2).values as unknown[];
    expect(values).toContain('Overload');
  });
});

describe('scheduled mails (task names 51 and 52)', () => {
  const t = (k: string, params?: Record<string, unknown>) => ts.server.t('en-US', k, params as never);
  const run = (id: string, now: number, orgId = ts.orgA) =>
    ts.server.reports.task(id)!.run({ ctx: ts.server.systemContext(orgId), task: {}, now: new Date(now), timezone: 'UTC', language: 'en-US', t });
  // a run early next month reports this month, the one that closed
  const nextMonth = () => {
    const d = new Date();
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, 6);
  };
  const month = new Date().toISOString().slice(0, 7);

  it('are task types, named in the task name enumeration', async () => {
    expect(ts.server.reports.task('maintenanceTopReportMail')?.report).toBe('maintenance.top');
    expect(ts.server.reports.task('maintenanceRepairReportMail')?.report).toBe('maintenance.report');
    const names = ts.server.metadata.enums.taskName.map((v) => [v.value, v.label]);
    expect(names).toContainEqual([51, 'enums.taskName.maintenanceTopReportMail']);
    expect(names).toContainEqual([52, 'enums.taskName.maintenanceRepairReportMail']);
  });

  it("mails the closed month's top 10 and the last twelve months' repair data, each workbook of its report", async () => {
    const top = await run('maintenanceTopReportMail', nextMonth());
    expect(top.kind).toBe('report');
    if (top.kind !== 'report') return;
    expect(top.report.rows).toBe(3);
    expect(top.report.text).toBe(`The top-10 repaired racks from ${month}-01 to ${top.report.text.match(/to (\d{4}-\d{2}-\d{2})/)![1]} are attached (3 rows).`);
    expect(top.report.attachment.filename).toBe(`maintenance-top-${month}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(top.report.attachment.content as never);
    const cells: string[] = [];
    book.worksheets[0].eachRow((r) => cells.push(String(r.getCell(2).value)));
    expect(cells).toContain(sns[0]);

    const data = await run('maintenanceRepairReportMail', nextMonth());
    expect(data.kind).toBe('report');
    if (data.kind === 'report') {
      expect(data.report.text).toMatch(/^The repair data from \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} is attached \(1 month\(s\)\)\.$/);
      const sheets = new ExcelJS.Workbook();
      await sheets.xlsx.load(data.report.attachment.content as never);
      expect(sheets.worksheets.length).toBeGreaterThanOrEqual(5);
    }
  });

  it('mails nothing for a month without repairs', async () => {
    const empty = await run('maintenanceTopReportMail', Date.now());
    expect(empty.kind).toBe('empty');
    if (empty.kind === 'empty') expect(empty.reason).toMatch(/^No repair from \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2}: no top-10 to mail\.$/);
  });
});
