/**
 * Pool analytics against a hand-written in/out history whose figures are computed by hand below:
 * cycle time, turns and dwell per warehouse, partner and code; partner balances today; the
 * monthly statement (xlsx, PDF, mail task); the pool-size check; another organisation sees none
 * of it; a period longer than 366 days and a malformed month are refused in the caller's language.
 */
import { DAY_MS } from '@rti/server/plugin-api';
import { pdfText } from '@rti/server/pdf-text';
import { Enums } from '@rti/metadata';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { monthRange } from '../server/partners';

let ts: TestServer;
let ws: number;
let wc: number;
let wh: number;
let box: number;
let supplier: number;
let customer: number;
const c: Record<string, number> = {};

/** day n of the fixture: 2026-01-01 + n days, UTC */
const D0 = Date.UTC(2026, 0, 1);
const at = (n: number) => new Date(D0 + n * DAY_MS);
/** the period of the figures: 60 days from 2026-01-01 */
const PERIOD = { time: [at(0).toISOString(), at(60).toISOString()] };

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}
const byName = (rows: Array<Record<string, any>>, name: string) => rows.find((r) => r.name === name);

/*
 * The history (days from 2026-01-01). WS: the supplier's plant (location owned by supplier S,
 * type supplier), WC: the customer's warehouse (customer C), WH: our own hub (no owner).
 *
 *   c1  out WS 1 · in WC 2 · out WC 7 · in WS 9 · out WS 11 · in WC 12 · out WC 22 · in WS 24 · out WS 31 · in WC 32 (still there)
 *   c2  out WS 5 · in WC 6 · out WC 26 · in WS 27 (still there)
 *   c3  standing at WH since 2025-12-01, no row
 *
 * Each event counts on its day (the organisation's days: [day 0, day 60] is 2026-01-01 to
 * 2026-03-02, January and February from their month rows, March from day rows). A departure ends
 * a visit when the carrier's previous row at that warehouse is an arrival (days held since it)
 * and a cycle when the carrier left that warehouse before (days since that departure):
 *   WS  c1 out 11: visit 9→11 = 2, cycle 1→11 = 10; c1 out 31: visit 24→31 = 7, cycle 11→31 = 20;
 *       c1 out 1, c2 out 5: neither. arrivals 3 (9, 24, 27), departures 4; visits 2 of 9 d → dwell 4.5;
 *       cycles 2 of 30 d → 15 d, turns 365/15 = 24.33.
 *   WC  c1 out 7: visit 2→7 = 5; c1 out 22: visit 12→22 = 10, cycle 7→22 = 15; c2 out 26: visit 6→26 = 20.
 *       arrivals 4, departures 3; visits 3 of 35 d → 11.67; 1 cycle of 15 d.
 *   WH  no row: not listed (c3 stands there; the partner balances show what is held).
 *   BOX: arrivals 7, departures 7, visits 5 of 44 d → 8.8, 3 cycles of 45 d → 15.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'pool-analytics'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  supplier = (await ok(ts.a, '/supplier-customer/create', { type: Enums.supplierCustomerType.supplier, entCode: 'S1', name: 'Supplier S' })).id;
  customer = (await ok(ts.a, '/supplier-customer/create', { type: Enums.supplierCustomerType.customer, entCode: 'C1', name: 'Customer C' })).id;
  const ls = (await ok(ts.a, '/location/create', { name: 'Plant site', type: 10, supplierCustomerId: supplier, longitude: 121, latitude: 31 })).id;
  const lc = (await ok(ts.a, '/location/create', { name: 'Customer site', type: 20, supplierCustomerId: customer, longitude: 120, latitude: 30 })).id;
  ws = (await ok(ts.a, '/warehouse/create', { code: 'WS', name: 'Plant', locationId: ls })).id;
  wc = (await ok(ts.a, '/warehouse/create', { code: 'WC', name: 'Customer DC', locationId: lc })).id;
  wh = (await ok(ts.a, '/warehouse/create', { code: 'WH', name: 'Hub' })).id;
  await ok(ts.a, '/pool-partner-terms/create', { supplierCustomerId: customer, freeDays: 30 });
  await ok(ts.a, '/pool-partner-terms/create', { supplierCustomerId: supplier, freeDays: 3 });
  for (const sn of ['C1', 'C2', 'C3']) c[sn] = (await ok(ts.a, '/carrier/create', { sn, carrierCodeId: box })).id;
  // eslint-disable-next-line rti/no-raw-models -- the test writes what gate passes and receipts would
  const carriers = ts.server.db.models.carrier;
  const inWh = Enums.transportStatus.inWarehouse;
  await carriers.update({ warehouseId: wc, transportStatus: inWh, inboundTime: at(32) }, { where: { id: c.C1 } });
  await carriers.update({ warehouseId: ws, transportStatus: inWh, inboundTime: at(27) }, { where: { id: c.C2 } });
  await carriers.update({ warehouseId: wh, transportStatus: inWh, inboundTime: new Date(Date.UTC(2025, 11, 1)) }, { where: { id: c.C3 } });
  const IN = Enums.inoutDirection.inbound;
  const OUT = Enums.inoutDirection.outbound;
  const moves: Array<[string, number, number, number]> = [
    ['C1', OUT, ws, 1],
    ['C1', IN, wc, 2],
    ['C1', OUT, wc, 7],
    ['C1', IN, ws, 9],
    ['C1', OUT, ws, 11],
    ['C1', IN, wc, 12],
    ['C1', OUT, wc, 22],
    ['C1', IN, ws, 24],
    ['C1', OUT, ws, 31],
    ['C1', IN, wc, 32],
    ['C2', OUT, ws, 5],
    ['C2', IN, wc, 6],
    ['C2', OUT, wc, 26],
    ['C2', IN, ws, 27],
  ];
  // eslint-disable-next-line rti/no-raw-models -- as above
  await ts.server.db.models['carrier-inout'].bulkCreate(
    moves.map(([sn, direction, warehouseId, d]) => ({ orgId: ts.orgA, carrierId: c[sn], sn, carrierCodeId: box, direction, warehouseId, confirmTime: at(d) })),
  );
  // organisation B: one warehouse with a carrier's loop of its own
  const wb = (await ok(ts.b, '/warehouse/create', { code: 'WB', name: 'B plant' })).id;
  // eslint-disable-next-line rti/no-raw-models -- as above
  await ts.server.db.models['carrier-inout'].bulkCreate([
    { orgId: ts.orgB, carrierId: 999_999, sn: 'B1', direction: OUT, warehouseId: wb, confirmTime: at(3) },
    { orgId: ts.orgB, carrierId: 999_999, sn: 'B1', direction: OUT, warehouseId: wb, confirmTime: at(13) },
  ]);
});
afterAll(() => ts?.close());

describe('cycle time, turns and dwell', () => {
  it("another organisation's rows between this one's ids are no gap: the mark moves past them", async () => {
    // eslint-disable-next-line rti/no-raw-models -- the test writes rows with chosen ids and reads the platform's mark
    const M = ts.server.db.models['carrier-inout'];
    const state = ts.server.db.sequelize.models.sys_rollup_state;
    const top = Number(await M.max('id'));
    const base = { carrierCodeId: box, direction: Enums.inoutDirection.inbound, confirmTime: at(41) };
    const b = await M.create({ ...base, id: top + 1, orgId: ts.orgB, carrierId: 999_999, sn: 'B1', warehouseId: null });
    const a = await M.create({ ...base, id: top + 2, orgId: ts.orgA, carrierId: c.C3, sn: 'C3', warehouseId: wh });
    await ok(ts.a, '/pool-analytics/turns/list', { time: [at(40).toISOString(), at(45).toISOString()], warehouseId: wh });
    const mark = await state.findOne({ where: { name: 'pool-analytics.flows', orgId: ts.orgA }, raw: true });
    expect(Number((mark as any).mark)).toBe(top + 2);
    await ok(ts.a, '/carrier-inout/delete', { id: a.get('id') });
    await b.destroy();
  });

  it('per warehouse', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', PERIOD);
    expect(list.map((r: any) => r.code)).toEqual(['WC', 'WS']);
    expect(byName(list, 'Plant')).toMatchObject({
      arrivals: 3,
      departures: 4,
      cycles: 2,
      cycleDays: 15,
      turnsPerYear: 24.33,
      visits: 2,
      carrierDays: 9,
      dwellDays: 4.5,
    });
    expect(byName(list, 'Customer DC')).toMatchObject({
      arrivals: 4,
      departures: 3,
      cycles: 1,
      cycleDays: 15,
      turnsPerYear: 24.33,
      visits: 3,
      carrierDays: 35,
      dwellDays: 11.67,
    });
  });

  it('per partner and per carrier code', async () => {
    const partners = (await ok(ts.a, '/pool-analytics/turns/list', { ...PERIOD, by: Enums.poolGrouping.partner })).list;
    expect(byName(partners, 'Supplier S')).toMatchObject({ code: 'S1', cycleDays: 15, dwellDays: 4.5 });
    expect(byName(partners, 'Customer C')).toMatchObject({ code: 'C1', cycleDays: 15, dwellDays: 11.67 });
    const codes = (await ok(ts.a, '/pool-analytics/turns/list', { ...PERIOD, by: Enums.poolGrouping.carrierCode })).list;
    expect(codes).toEqual([
      expect.objectContaining({
        code: 'BOX',
        arrivals: 7,
        departures: 7,
        cycles: 3,
        cycleDays: 15,
        turnsPerYear: 24.33,
        visits: 5,
        carrierDays: 44,
        dwellDays: 8.8,
      }),
    ]);
  });

  it('a period inside months counts the events of its days (day rows at both ends)', async () => {
    // [day 10, day 22] at WC (2026-01-11 to 2026-01-23): c1 in 12, c1 out 22 (visit 10 d, cycle 15 d)
    const wcOnly = await ok(ts.a, '/pool-analytics/turns/list', { time: [at(10).toISOString(), at(22).toISOString()], warehouseId: wc });
    expect(wcOnly.list).toEqual([
      expect.objectContaining({ name: 'Customer DC', arrivals: 1, departures: 1, visits: 1, carrierDays: 10, dwellDays: 10, cycles: 1, cycleDays: 15 }),
    ]);
    // [day 10, day 40] at WS (2026-01-11 to 2026-02-10: January's and February's day rows): c1 out 11 and 31, c1 in 24, c2 in 27
    const ws40 = await ok(ts.a, '/pool-analytics/turns/list', { time: [at(10).toISOString(), at(40).toISOString()], warehouseId: ws });
    expect(ws40.list).toEqual([expect.objectContaining({ name: 'Plant', arrivals: 2, departures: 2, visits: 2, carrierDays: 9, cycles: 2, cycleDays: 15 })]);
  });

  it('a row written late, before rows already counted, changes their figures', async () => {
    // c2 back at WS on day 3 (written now): its departure on day 5 ends a visit of 2 days there
    // eslint-disable-next-line rti/no-raw-models -- the test writes what a late gate pass would
    const late = await ts.server.db.models['carrier-inout'].create({
      orgId: ts.orgA,
      carrierId: c.C2,
      sn: 'C2',
      carrierCodeId: box,
      direction: Enums.inoutDirection.inbound,
      warehouseId: ws,
      confirmTime: at(3),
    });
    try {
      const { list } = await ok(ts.a, '/pool-analytics/turns/list', { ...PERIOD, warehouseId: ws });
      expect(list).toEqual([expect.objectContaining({ name: 'Plant', arrivals: 4, departures: 4, visits: 3, carrierDays: 11, cycles: 2 })]);
    } finally {
      // deleted through the call: the roll-up recomputes its days again
      await ok(ts.a, '/carrier-inout/delete', { id: late.get('id') });
    }
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', { ...PERIOD, warehouseId: ws });
    expect(list).toEqual([expect.objectContaining({ name: 'Plant', arrivals: 3, departures: 4, visits: 2, carrierDays: 9, cycles: 2 })]);
  });

  it("says what each column counts, in the caller's language", async () => {
    const got = await ts.a.call<any>('/report/definition', { name: 'pool-analytics.turns' }, { language: 'zh-CN' });
    expect(got.body.code).toBe(0);
    const visits = got.body.data.columns.find((c: any) => c.key === 'visits');
    expect(visits.help).toBe('pool-analytics.help.visitsEnded');
    expect(got.body.data.texts[visits.help]).toContain('出库结束的停留');
    for (const c of got.body.data.columns.filter((x: any) => x.key !== 'code' && x.key !== 'name')) expect(got.body.data.texts[c.help], c.key).toBeTruthy();
  });

  it('exports the rows', async () => {
    const res = await ts.a.fetch('/pool-analytics/turns/export', PERIOD);
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(book.worksheets[0].rowCount).toBe(3);
    expect(String(book.worksheets[0].getRow(1).getCell(6).value)).toBe('Cycle time (days)');
  });

  it('counts a row whose id was handed out before one already counted (an insert committed late, as on MariaDB)', async () => {
    // eslint-disable-next-line rti/no-raw-models -- the test writes rows with chosen ids, as two instances' inserts would commit
    const M = ts.server.db.models['carrier-inout'];
    // above every id handed out so far: the highest row, or the mark (rows counted and deleted since lie below it)
    const mark = await ts.server.db.sequelize.models.sys_rollup_state.findOne({ where: { name: 'pool-analytics.flows', orgId: ts.orgA }, raw: true });
    const top = Math.max(Number(await M.max('id')), Number((mark as any)?.mark ?? 0));
    const base = { orgId: ts.orgA, carrierId: c.C3, sn: 'C3', carrierCodeId: box, warehouseId: wh };
    const q = { time: [at(40).toISOString(), at(45).toISOString()], warehouseId: wh };
    // id top + 2 commits first: C3 arrives at the hub on day 40; a read counts it
    const arrival = await M.create({ ...base, id: top + 2, direction: Enums.inoutDirection.inbound, confirmTime: at(40) });
    expect((await ok(ts.a, '/pool-analytics/turns/list', q)).list).toEqual([expect.objectContaining({ name: 'Hub', arrivals: 1, departures: 0 })]);
    // then id top + 1 commits: C3 leaves on day 44, ending a visit of 4 days
    const departure = await M.create({ ...base, id: top + 1, direction: Enums.inoutDirection.outbound, confirmTime: at(44) });
    expect((await ok(ts.a, '/pool-analytics/turns/list', q)).list).toEqual([
      expect.objectContaining({ name: 'Hub', arrivals: 1, departures: 1, visits: 1, carrierDays: 4 }),
    ]);
    for (const row of [departure, arrival]) await ok(ts.a, '/carrier-inout/delete', { id: row.get('id') });
    expect((await ok(ts.a, '/pool-analytics/turns/list', q)).list).toEqual([]);
  });

  it("cuts days in the organisation's time zone, and recomputes them when it changes", async () => {
    // an arrival at the hub at 2026-02-27 20:00 UTC: 27 February in UTC, 28 February in Tokyo (+9)
    // eslint-disable-next-line rti/no-raw-models -- the test writes what a gate pass would
    await ts.server.db.models['carrier-inout'].create({
      orgId: ts.orgA,
      carrierId: c.C3,
      sn: 'C3',
      carrierCodeId: box,
      direction: Enums.inoutDirection.inbound,
      warehouseId: wh,
      confirmTime: new Date(Date.UTC(2026, 1, 27, 20)),
    });
    // 28 February of the organisation: from its first to its last instant
    const feb28 = (zone: number) => ({ time: [Date.UTC(2026, 1, 28) - zone * 3_600_000, Date.UTC(2026, 2, 1) - zone * 3_600_000 - 1], warehouseId: wh });
    expect((await ok(ts.a, '/pool-analytics/turns/list', feb28(0))).list).toEqual([]);
    await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'Asia/Tokyo' });
    try {
      expect((await ok(ts.a, '/pool-analytics/turns/list', feb28(9))).list).toEqual([expect.objectContaining({ name: 'Hub', arrivals: 1 })]);
    } finally {
      await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'UTC' });
    }
    expect((await ok(ts.a, '/pool-analytics/turns/list', feb28(0))).list).toEqual([]);
    expect((await ok(ts.a, '/pool-analytics/turns/list', { ...feb28(0), time: [Date.UTC(2026, 1, 27), Date.UTC(2026, 1, 27, 12)] })).list).toEqual([
      expect.objectContaining({ name: 'Hub', arrivals: 1 }),
    ]);
  });

  it('another organisation sees none of it', async () => {
    const { list } = await ok(ts.b, '/pool-analytics/turns/list', PERIOD);
    expect(list).toEqual([expect.objectContaining({ name: 'B plant', departures: 2, cycles: 1, cycleDays: 10 })]);
    expect((await ok(ts.b, '/pool-analytics/partner-balance/list', {})).list).toEqual([]);
    expect((await ok(ts.b, '/pool-analytics/partner-statement/list', { month: '2026-01' })).list).toEqual([]);
  });

  it("refuses a period over 366 days and a malformed month, in the caller's language", async () => {
    const long = await ts.a.call('/pool-analytics/turns/list', { time: [at(0).toISOString(), at(367).toISOString()] }, { language: 'zh-CN' });
    expect(long.body.code).toBe(10001);
    expect(long.body.message).toContain('366');
    expect(long.body.message).toMatch(/[\u4e00-\u9fff]/);
    const size = await ts.a.call('/pool-analytics/pool-size/list', { time: [at(0).toISOString(), at(400).toISOString()] });
    expect(size.body.code).toBe(10001);
    const month = await ts.a.call('/pool-analytics/partner-statement/list', { month: '2026-13' }, { language: 'ja-JP' });
    expect(month.body.code).toBe(10001);
    expect(month.body.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });
});

describe('scope', () => {
  it('a warehouse-restricted operator sees its warehouse only; a user of two organisations calling as the second sees the second', async () => {
    const codes = ((await ok(ts.a, '/permission/all', {})) as any[]).flatMap(function all(n: any): string[] {
      return [n.code, ...(n.children ?? []).flatMap(all)];
    });
    const role = (await ok(ts.a, '/role/create', { name: 'Pool', pcPermissions: codes, pdaPermissions: [] })).id;
    const op = await ts.callerFor(await ts.addUser(ts.orgA, 'pool-wc', { warehouseIds: [wc], roleIds: [role] }), ts.orgA);
    const turns = (await ok(op, '/pool-analytics/turns/list', PERIOD)).list;
    expect(turns.map((r: any) => r.name)).toEqual(['Customer DC']);
    expect((await ok(op, '/pool-analytics/partner-balance/list', {})).list.map((r: any) => r.name)).toEqual(['Customer C']);
    expect((await ok(op, '/pool-analytics/partner-statement/list', { month: '2026-01' })).list.map((r: any) => r.partner)).toEqual(['Customer C']);
    // eslint-disable-next-line rti/no-raw-models -- the fixture reads the organisations' full roles
    const roles = ts.server.db.models.role;
    const roleOf = async (orgId: number) => Number((await roles.findOne({ where: { orgId, name: 'all' } }))!.get('id'));
    const two = await ts.addUser(ts.orgA, 'pool-two', { organizationIds: [ts.orgA, ts.orgB], roleIds: [await roleOf(ts.orgA), await roleOf(ts.orgB)] });
    await ts.server.access.policies.changed([ts.orgB], undefined);
    const asB = await ts.callerFor(two, ts.orgB);
    expect((await ok(asB, '/pool-analytics/turns/list', PERIOD)).list.map((r: any) => r.name)).toEqual(['B plant']);
    expect((await ok(asB, '/pool-analytics/pool-size/list', PERIOD)).list).toEqual([]);
  });
});

describe('partner balances', () => {
  it('today: carriers held, beyond the free period', async () => {
    const now = Date.now();
    const { list } = await ok(ts.a, '/pool-analytics/partner-balance/list', {});
    // C holds c1 since day 32 (30 free days), S holds c2 since day 27 (3 free days)
    const cust = byName(list, 'Customer C')!;
    expect(cust).toMatchObject({ held: 1, overFree: 1, freeDays: 30, warehouses: 1 });
    expect(cust.excessDays).toBeCloseTo((now - at(32).getTime()) / DAY_MS - 30, 0);
    const sup = byName(list, 'Supplier S')!;
    expect(sup).toMatchObject({ held: 1, overFree: 1, freeDays: 3 });
    expect(sup.excessDays).toBeCloseTo((now - at(27).getTime()) / DAY_MS - 3, 0);
  });

  it('monthly statement: January by hand', async () => {
    // C (30 free days): c1 2→7, 12→22, c2 6→26 = 35 carrier-days, none beyond 30.
    // S (3 free days): c1 9→11, 24→(month end: day 31 is 1 February, when c1 leaves), c2 27→31 = 13 carrier-days;
    // beyond 3 days: 24+3→31 = 4, 27+3→31 = 1 → 5 days, 2 visits; 2 still there at the close. The departures of
    // day 1 and 5 follow no arrival: no visit.
    const { list } = await ok(ts.a, '/pool-analytics/partner-statement/list', { month: '2026-01' });
    expect(list).toEqual([
      expect.objectContaining({
        partner: 'Customer C',
        code: 'BOX',
        opening: 0,
        received: 3,
        returned: 3,
        closing: 0,
        carrierDays: 35,
        excessDays: 0,
        overFree: 0,
      }),
      expect.objectContaining({
        partner: 'Supplier S',
        code: 'BOX',
        opening: 0,
        received: 3,
        returned: 1,
        closing: 2,
        carrierDays: 13,
        excessDays: 5,
        overFree: 2,
      }),
    ]);
    // the page's list answers the figures; the visits beyond the free period come with the export and the PDF (below)
    expect(list.map((r: any) => r.lines)).toEqual([[], []]);
    // February at S: c1 (there since day 24) leaves at its first instant, c2 stays all month: 28 carrier-days, all beyond 3 days
    const feb = (await ok(ts.a, '/pool-analytics/partner-statement/list', { month: '2026-02', partnerId: supplier })).list;
    expect(feb).toEqual([
      expect.objectContaining({ partner: 'Supplier S', opening: 2, received: 0, returned: 1, closing: 1, carrierDays: 28, excessDays: 28, overFree: 1 }),
    ]);
  });

  it('statement as xlsx (with the visits beyond the free period) and PDF', async () => {
    const res = await ts.a.fetch('/pool-analytics/partner-statement/export', { month: '2026-01' });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Partner statement', 'Beyond free period']);
    expect(book.worksheets[1].rowCount).toBe(3);
    const pdf = await ts.a.fetch('/pool-analytics/partner-statement/pdf', { partnerId: supplier, month: '2026-01' });
    expect(pdf.headers.get('content-type')).toContain('pdf');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Supplier S');
    expect(text).toContain('C2');
    // another organisation's partner is not found
    expect((await ts.b.call('/pool-analytics/partner-statement/pdf', { partnerId: supplier, month: '2026-01' })).body.code).toBe(10001);
  });

  it('the mail task sends the last full month', async () => {
    const task = ts.server.reports.task('partnerStatementMail')!;
    const t = (k: string, p?: Record<string, unknown>) => ts.server.t('en-US', k, p as never);
    const run = await task.run({
      ctx: ts.server.systemContext(ts.orgA),
      task: {},
      now: new Date(Date.UTC(2026, 1, 10)),
      timezone: 'UTC',
      language: 'en-US',
      t,
    });
    expect(run.kind).toBe('report');
    if (run.kind === 'report') expect(run.report.text).toBe('Partner statement 2026-01: 2 lines, 1 with carriers held beyond the free period.');
    // a row naming its partner in the remark mails that partner's statement only
    const one = await task.run({
      ctx: ts.server.systemContext(ts.orgA),
      task: { remark: 'monthly\npartner: S1' },
      now: new Date(Date.UTC(2026, 1, 10)),
      timezone: 'UTC',
      language: 'en-US',
      t,
    });
    if (one.kind === 'report') expect(one.report.text).toBe('Partner statement 2026-01: 1 lines, 1 with carriers held beyond the free period.');
    expect(one.kind).toBe('report');
    const empty = await task.run({
      ctx: ts.server.systemContext(ts.orgB),
      task: {},
      now: new Date(Date.UTC(2026, 1, 10)),
      timezone: 'UTC',
      language: 'en-US',
      t,
    });
    expect(empty.kind).toBe('empty');
  });
});

describe('pool-size check', () => {
  it('demand × cycle time ÷ (1 − loss rate) against carriers owned', async () => {
    // sent out from issue points (WS supplier, WH own): 4 in 60 days → 1/15 a day; cycle 15 d;
    // no loss: 1 needed; with 20 %: 1 ÷ 0.8 = 1.25 → 2. Owned 3: surplus over 2 × 1.25.
    const plain = (await ok(ts.a, '/pool-analytics/pool-size/list', PERIOD)).list;
    expect(plain).toEqual([
      expect.objectContaining({ code: 'BOX', owned: 3, sent: 4, demandPerDay: 0.07, cycleDays: 15, lossRate: 0, required: 1, gap: 2, verdict: 'Surplus' }),
    ]);
    const lossy = (await ok(ts.a, '/pool-analytics/pool-size/list', { ...PERIOD, lossRate: 20 })).list;
    expect(lossy).toEqual([expect.objectContaining({ lossRate: 20, required: 2, gap: 1, verdict: 'Surplus' })]);
    const tight = (await ok(ts.a, '/pool-analytics/pool-size/list', { ...PERIOD, lossRate: 70 })).list;
    // 1 ÷ 0.3 = 3.33 → 4 needed, 3 owned
    expect(tight).toEqual([expect.objectContaining({ required: 4, gap: -1, verdict: 'Short' })]);
  });
});

describe("the organisation's months", () => {
  it('cut a statement month, and the last full month, at midnight in the organisation time zone', () => {
    // February in Shanghai (UTC+8) starts on 31 January at 16:00 UTC and ends on 28 February at 16:00 UTC
    expect(monthRange('2026-02', 0, 'Asia/Shanghai')).toEqual({ month: '2026-02', from: Date.UTC(2026, 0, 31, 16), to: Date.UTC(2026, 1, 28, 16) });
    expect(monthRange('2026-02', 0)).toEqual({ month: '2026-02', from: Date.UTC(2026, 1, 1), to: Date.UTC(2026, 2, 1) });
    // 31 March 20:00 UTC is already 1 April in Shanghai: its last full month is March, UTC's is February
    const now = Date.UTC(2026, 2, 31, 20);
    expect(monthRange(undefined, now, 'Asia/Shanghai').month).toBe('2026-03');
    expect(monthRange(undefined, now, 'UTC').month).toBe('2026-02');
  });
});
