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
