/**
 * The report group against hand-computed closing snapshots and a hand-counted pool: daily (per
 * warehouse, per code, a batch of days), weekly (opening, closing, lowest, highest, average, in/out)
 * and its days, three-batch (at primary, on the way, at secondary) and idle carriers — as the
 * administrator, as a warehouse-restricted operator (its warehouses only, in list and export) and
 * as a user of two organisations calling as the second; out-of-range parameters refused in the
 * caller's language; the mail task types registered.
 */
import { DAY_MS, dayOf } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let sh: number;
let os: number;
let wb: number;
let box: number;
let pal: number;
let osOp: Caller;
let twoOrgs: Caller;
let seq = 0;
const day = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const D1 = day(1);
const D2 = day(2);
const D3 = day(3);

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}
async function sheets(res: Response): Promise<string[][][]> {
  expect(res.status).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  return book.worksheets.map((ws) => {
    const rows: string[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    return rows;
  });
}

/*
 * Closing snapshots (hand-made, as the inventory closing job writes them):
 *            SH BOX                SH PAL      OS BOX
 *   D-3      5 (in 1)              2           1
 *   D-2      3 (out 2)             2           3 (in 2)
 *   D-1      4 (in 1), 1 idle      2           2 (out 1), 1 in transit to it
 * Warehouse SH: min 2, max 6, theory 8. Organisation B: warehouse WB with 9 BOX on D-1.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'reports'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  pal = (await ok(ts.a, '/carrier-code/create', { code: 'PAL', name: 'Pallet', projectId, type: 30, available: true })).id;
  sh = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub', minInventory: 2, maxInventory: 6, theoryInventory: 8, idleCheckTime: 60 })).id;
  os = (await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
  // eslint-disable-next-line rti/no-raw-models -- the test writes what the closing job would
  const snap = ts.server.db.models['inventory-snapshot'];
  const z = { maintenance: 0, idle: 0, empty: 0, full: 0, inTransitIn: 0, inTransitOut: 0, inbound: 0, outbound: 0 };
  const row = (orgId: number, d: string, warehouseId: number, carrierCodeId: number, f: Record<string, number>) => ({
    orgId,
    day: d,
    warehouseId,
    carrierCodeId,
    ...z,
    ...f,
  });
  await snap.bulkCreate([
    row(ts.orgA, D3, sh, box, { inStock: 5, inbound: 1 }),
    row(ts.orgA, D3, sh, pal, { inStock: 2 }),
    row(ts.orgA, D3, os, box, { inStock: 1 }),
    row(ts.orgA, D2, sh, box, { inStock: 3, outbound: 2 }),
    row(ts.orgA, D2, sh, pal, { inStock: 2 }),
    row(ts.orgA, D2, os, box, { inStock: 3, inbound: 2 }),
    row(ts.orgA, D1, sh, box, { inStock: 4, inbound: 1, idle: 1 }),
    row(ts.orgA, D1, sh, pal, { inStock: 2 }),
    row(ts.orgA, D1, os, box, { inStock: 2, outbound: 1, inTransitIn: 1 }),
  ]);
  // the pool now: SH 3 BOX (2 in for three days: idle by SH's 60 minutes), 1 PAL; OS 1 BOX marked idle
  const mk = async (codeId: number, warehouseId: number) =>
    (await ok(ts.a, '/carrier/create', { sn: `RP-${++seq}`, carrierCodeId: codeId, warehouseId, status: 10 })).id as number;
  const old = [await mk(box, sh), await mk(box, sh)];
  await mk(box, sh);
  await mk(pal, sh);
  const marked = await mk(box, os);
  // eslint-disable-next-line rti/no-raw-models -- the test plays the ingest (transport status, inbound time)
  const carriers = ts.server.db.models.carrier;
  await carriers.update({ inboundTime: new Date(Date.now() - 3 * DAY_MS) }, { where: { id: old } });
  await carriers.update({ transportStatus: Enums.transportStatus.idle, inboundTime: new Date(Date.now() - 5 * DAY_MS) }, { where: { id: marked } });
  await ok(ts.a, '/report-three-batch/create', { name: 'Shuttle SH-OS', primaryWarehouseId: sh, secondaryWarehouseId: os, carrierCodeId: box, date: D1 });

  // organisation B
  wb = (await ok(ts.b, '/warehouse/create', { code: 'WB', name: 'Other org' })).id;
  const bProject = (await ok(ts.b, '/project/create', { name: 'B pool' })).id;
  const bBox = (await ok(ts.b, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId: bProject, type: 10, available: true })).id;
  await snap.create(row(ts.orgB, D1, wb, bBox, { inStock: 9 }));

  // an operator of Osaka only, with every report code
  const codes = ((await ok(ts.a, '/permission/all', {})) as any[]).flatMap(function all(n: any): string[] {
    return [n.code, ...(n.children ?? []).flatMap(all)];
  });
  const role = (await ok(ts.a, '/role/create', { name: 'Reports', pcPermissions: codes, pdaPermissions: [] })).id;
  osOp = await ts.callerFor(await ts.addUser(ts.orgA, 'rep-os', { warehouseIds: [os], roleIds: [role] }), ts.orgA);
  // a user of A and B (A first), calling as B
  // eslint-disable-next-line rti/no-raw-models -- the fixture reads the organisations' full roles
  const roles = ts.server.db.models.role;
  const roleOf = async (orgId: number) => Number((await roles.findOne({ where: { orgId, name: 'all' } }))!.get('id'));
  const two = await ts.addUser(ts.orgA, 'two-orgs', { organizationIds: [ts.orgA, ts.orgB], roleIds: [await roleOf(ts.orgA), await roleOf(ts.orgB)] });
  await ts.server.access.policies.changed([ts.orgB], undefined);
  twoOrgs = await ts.callerFor(two, ts.orgB);
}, 120_000);
afterAll(() => ts?.close());

describe('daily inventory report', () => {
  it("per warehouse at yesterday's close (the default), hand-computed", async () => {
    const d = await ok(ts.a, '/inventory-report/list', { page: 1, limit: 50 });
    expect(d.total).toBe(2);
    expect(d.list.map((r: any) => [r.warehouseCode, r.day, r.inStock, r.inbound, r.outbound, r.idle, r.inTransitIn, r.gap, r.levelKey])).toEqual([
      ['OS', D1, 2, 0, 1, 0, 1, null, 'normal'],
      ['SH', D1, 6, 1, 0, 1, 0, -2, 'normal'],
    ]);
    // a day nobody closed: no figures rather than zeros
    const unclosed = await ok(ts.a, '/inventory-report/list', { day: day(10) });
    expect(unclosed.list.map((r: any) => [r.warehouseCode, r.inStock, r.closed, r.levelKey])).toEqual([
      ['OS', undefined, false, 'none'],
      ['SH', undefined, false, 'none'],
    ]);
    const d3 = await ok(ts.a, '/inventory-report/list', { day: D3, warehouseId: sh });
    expect(d3.list.map((r: any) => [r.warehouseCode, r.inStock, r.levelKey])).toEqual([['SH', 7, 'above']]);
  });

  it("takes the organisation's yesterday, in its time zone, as the default day", async () => {
    // a zone whose calendar day differs from UTC's now (UTC+14 or UTC−11: one of them always does)
    const zone = dayOf(Date.now(), 'Pacific/Kiritimati') !== day(0) ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const itsYesterday = new Date(Date.parse(`${dayOf(Date.now(), zone)}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    expect(itsYesterday).not.toBe(D1);
    await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: zone });
    try {
      const d = await ok(ts.a, '/inventory-report/list', { page: 1, limit: 50 });
      expect(d.list.map((r: any) => r.day)).toEqual([itsYesterday, itsYesterday]);
    } finally {
      await ok(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
    }
  });

  it('per warehouse and code, and a batch of days', async () => {
    const d = await ok(ts.a, '/inventory-report/detail', { day: D2, page: 1, limit: 50 });
    expect(d.list.map((r: any) => [r.warehouseCode, r.carrierCode, r.inStock, r.inbound, r.outbound])).toEqual([
      ['OS', 'BOX', 3, 2, 0],
      ['SH', 'BOX', 3, 0, 2],
      ['SH', 'PAL', 2, 0, 0],
    ]);
    const b = await ok(ts.a, '/inventory-report/batch', { time: [`${D3}T00:00:00Z`, `${D1}T23:59:59Z`], carrierCodeId: box, page: 1, limit: 50 });
    expect(b.total).toBe(6);
    expect(b.list.map((r: any) => [r.day, r.warehouseIdLabel, r.inStock])).toEqual(
      [
        [D3, 'Shanghai Hub', 5],
        [D3, 'Osaka', 1],
        [D2, 'Shanghai Hub', 3],
        [D2, 'Osaka', 3],
        [D1, 'Shanghai Hub', 4],
        [D1, 'Osaka', 2],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])) || (x[1] === 'Shanghai Hub' ? (sh < os ? -1 : 1) : sh < os ? 1 : -1)),
    );
  });

  it("today, not closed yet: inventory's live figures", async () => {
    const d = await ok(ts.a, '/inventory-report/list', { day: day(0) });
    expect(d.list.map((r: any) => [r.warehouseCode, r.inStock, r.idle, r.closed])).toEqual([
      ['OS', 1, 1, false],
      ['SH', 4, 2, false],
    ]);
  });

  it('exports both sheets, streamed', async () => {
    const [warehouses, codes] = await sheets(await ts.a.fetch('/inventory-report/export', {}));
    expect(warehouses[0].slice(0, 3)).toEqual(['Warehouse code', 'Warehouse', 'In stock']);
    expect(warehouses.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['OS', 'Osaka', '2'],
      ['SH', 'Shanghai Hub', '6'],
    ]);
    expect(codes.length).toBe(4);
  });

  it("refuses a year-long batch and a day to come, in the caller's language", async () => {
    const far = await ts.a.call('/inventory-report/batch', { time: [Date.now() - 365 * DAY_MS, Date.now()] }, { language: 'zh-CN' });
    expect(far.body.code).toBe(10001);
    expect(far.body.message).toMatch(/31/);
    expect(far.body.message).toMatch(/[\u4e00-\u9fff]/);
    const future = await ts.a.call('/inventory-report/list', { day: day(-2) }, { language: 'ja-JP' });
    expect(future.body.code).toBe(10001);
    expect(future.body.message).toContain(day(-2));
    expect(future.body.message).toMatch(/[\u3040-\u30ff]/);
    const exp = await ts.a.fetch('/inventory-report/batch/export', { time: [Date.now() - 365 * DAY_MS, Date.now()] });
    expect(((await exp.json()) as any).code).toBe(10001);
  });
});

describe('weekly inventory report', () => {
  it('opening, closing, lowest, highest, average, in and out per warehouse; its days', async () => {
    const time = [`${D2}T00:00:00Z`, `${D1}T23:59:59Z`];
    const w = await ok(ts.a, '/inventory-report/week', { time });
    const shRow = w.list.find((r: any) => r.warehouseId === sh);
    expect(shRow).toMatchObject({ opening: 7, closing: 6, change: -1, lowest: 5, highest: 6, average: 5.5, inbound: 1, outbound: 2, levelKey: 'normal' });
    expect(w.list.find((r: any) => r.warehouseId === os)).toMatchObject({ opening: 1, closing: 2, lowest: 2, highest: 3, inbound: 2, outbound: 1 });
    const detail = await ok(ts.a, '/inventory-report/week/detail', { time, warehouseId: sh });
    expect(detail.list.map((r: any) => [r.day, r.inStock, r.inbound, r.outbound])).toEqual([
      [D2, 5, 0, 2],
      [D1, 6, 1, 0],
    ]);
    const far = await ts.a.call('/inventory-report/week', { time: [Date.now() - 200 * DAY_MS, Date.now()] });
    expect(far.body.code).toBe(10001);
  });
});

describe('three-batch report', () => {
  it("at primary, on the way, at secondary at the record's date", async () => {
    const d = await ok(ts.a, '/report-three-batch/detail', {});
    expect(
      d.list.map((r: any) => [r.name, r.day, r.carrierCode, r.primaryWarehouse, r.secondaryWarehouse, r.atPrimary, r.onTheWay, r.atSecondary, r.total]),
    ).toEqual([['Shuttle SH-OS', D1, 'BOX', 'Shanghai Hub', 'Osaka', 4, 1, 2, 7]]);
    const atD3 = await ok(ts.a, '/report-three-batch/detail', { day: D3 });
    expect(atD3.list[0]).toMatchObject({ atPrimary: 5, onTheWay: 0, atSecondary: 1, total: 6 });
    const same = await ts.a.call('/report-three-batch/create', { name: 'Loop', primaryWarehouseId: sh, secondaryWarehouseId: sh, carrierCodeId: box });
    expect(same.body.code).toBe(10001);
  });
});

describe('idle carriers', () => {
  it('per warehouse and code by the idle check time, and the carriers longest idle first', async () => {
    const codes = await ok(ts.a, '/idle/carrier-code/list', {});
    expect(codes.list.map((r: any) => [r.warehouseCode, r.carrierCode, r.idle, r.inStock, r.checkHours])).toEqual([
      ['OS', 'BOX', 1, 1, null],
      ['SH', 'BOX', 2, 3, 1],
    ]);
    expect(codes.list[0].longestDays).toBeCloseTo(5, 0);
    const carriers = await ok(ts.a, '/idle/carrier/list', { page: 1, limit: 50 });
    expect(carriers.list.map((r: any) => [r.warehouseCode, Math.round(r.daysIdle), r.marked])).toEqual([
      ['OS', 5, true],
      ['SH', 3, false],
      ['SH', 3, false],
    ]);
    expect((await ok(ts.a, '/idle/carrier/list', { minDays: 4 })).total).toBe(1);
    const bad = await ts.a.call('/idle/carrier/list', { minDays: 99999 }, { language: 'ja-JP' });
    expect(bad.body.code).toBe(10001);
  });
});

describe('scope', () => {
  it('a warehouse-restricted operator sees its warehouses only, in every list and export', async () => {
    const d = await ok(osOp, '/inventory-report/list', {});
    expect(d.list.map((r: any) => r.warehouseCode)).toEqual(['OS']);
    expect((await ok(osOp, '/inventory-report/list', { warehouseId: sh })).list).toEqual([]);
    expect((await ok(osOp, '/inventory-report/detail', { day: D2 })).list.map((r: any) => r.warehouseCode)).toEqual(['OS']);
    expect((await ok(osOp, '/inventory-report/batch', {})).list.every((r: any) => r.warehouseId === os)).toBe(true);
    expect((await ok(osOp, '/inventory-report/week', {})).list.map((r: any) => r.warehouseCode)).toEqual(['OS']);
    expect((await ok(osOp, '/inventory-report/week/detail', {})).list.every((r: any) => r.warehouseId === os)).toBe(true);
    expect((await ok(osOp, '/idle/carrier-code/list', {})).list.map((r: any) => r.warehouseCode)).toEqual(['OS']);
    expect((await ok(osOp, '/idle/carrier/list', {})).list.map((r: any) => r.warehouseCode)).toEqual(['OS']);
    // the record is seen from its secondary warehouse; the primary's figures are not Osaka's to see
    const tb = await ok(osOp, '/report-three-batch/detail', {});
    expect(tb.list.map((r: any) => [r.atPrimary, r.atSecondary])).toEqual([[0, 2]]);
    for (const path of [
      '/inventory-report/export',
      '/inventory-report/detail/export',
      '/inventory-report/batch/export',
      '/inventory-report/week/export',
      '/inventory-report/week/detail/export',
      '/idle/carrier-code/export',
      '/idle/carrier/export',
    ]) {
      const all = (await sheets(await osOp.fetch(path, {}))).flat(2).join('|');
      expect(all, path).not.toContain('Shanghai Hub');
    }
  });

  it("a user of two organisations calling as the second sees the second's figures only", async () => {
    const d = await ok(twoOrgs, '/inventory-report/list', {});
    expect(d.list.map((r: any) => [r.warehouseId, r.inStock])).toEqual([[wb, 9]]);
    expect((await ok(twoOrgs, '/inventory-report/list', { warehouseId: sh })).list).toEqual([]);
    expect((await ok(twoOrgs, '/inventory-report/batch', {})).list.map((r: any) => r.warehouseId)).toEqual([wb]);
    expect((await ok(twoOrgs, '/inventory-report/week', {})).list.map((r: any) => r.warehouseId)).toEqual([wb]);
    expect((await ok(twoOrgs, '/report-three-batch/detail', {})).list).toEqual([]);
    expect((await ok(twoOrgs, '/idle/carrier/list', {})).list).toEqual([]);
    expect((await ok(twoOrgs, '/idle/carrier-code/list', {})).list).toEqual([]);
    const exported = (await sheets(await twoOrgs.fetch('/inventory-report/detail/export', { day: D1 }))).flat(2).join('|');
    expect(exported).toContain('Other org');
    expect(exported).not.toContain('Shanghai Hub');
  });
});

describe('descriptions', () => {
  it('describes every report in the three languages, no text left as its key', async () => {
    const names = [
      'inventory-daily',
      'inventory-daily-detail',
      'inventory-batch',
      'inventory-weekly',
      'inventory-weekly-detail',
      'three-batch',
      'idle-carrier',
      'idle-carrier-code',
    ].map((n) => `reports.${n}`);
    for (const language of ['en-US', 'zh-CN', 'ja-JP']) {
      for (const name of names) {
        const d = await ts.a.call<any>('/report/definition', { name }, { language });
        expect(d.body.code, name).toBe(0);
        const untranslated = Object.entries(d.body.data.texts as Record<string, string>).filter(([k, v]) => k === v);
        expect(untranslated, `${name} ${language}`).toEqual([]);
      }
    }
  });
});

describe('scheduled mails', () => {
  it('contributes the task types of SPEC §9 names 2, 3, 5, 40 and 41', async () => {
    const reports = ts.server.reports;
    for (const id of ['dailyInventoryReport', 'dailyInventoryReportMail', 'weeklyInventoryReport', 'threeBatchReport', 'threeBatchReportMail'])
      expect(reports.task(id), id).toBeTruthy();
    const t = (k: string, p?: Record<string, unknown>) => ts.server.t('en-US', k, p as never);
    const run = await reports
      .task('dailyInventoryReport')!
      .run({ ctx: ts.server.systemContext(ts.orgA), task: {}, now: new Date(), timezone: 'UTC', language: 'en-US', t });
    expect(run.kind).toBe('report');
    if (run.kind === 'report')
      expect(run.report.text).toBe(`Inventory of 2 warehouses at the close of ${D1}: 0 below minimum, 0 above maximum. The details are attached.`);
    const week = await reports
      .task('weeklyInventoryReport')!
      .run({ ctx: ts.server.systemContext(ts.orgA), task: {}, now: new Date(), timezone: 'UTC', language: 'en-US', t });
    expect(week.kind).toBe('report');
    const three = await reports
      .task('threeBatchReportMail')!
      .run({ ctx: ts.server.systemContext(ts.orgB), task: {}, now: new Date(), timezone: 'UTC', language: 'en-US', t });
    expect(three.kind).toBe('empty');
  });
});
