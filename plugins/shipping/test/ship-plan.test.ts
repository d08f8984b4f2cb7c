/**
 * Ship plans: a document on the platform (number, detail lines, cubing plan as a second kind of
 * line filled by the import, roll-ups, frozen lines, release/cancel through
 * `/ship-plan/updatestatus`), plus SPEC §5's cubing rules each refused with its own message —
 * a carrier code added repeatedly, a cubing total exceeding the detail total, a release while
 * they differ — in the caller's language.
 */
import ExcelJS from 'exceljs';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let shanghai: number;
let osaka: number;
let box: number;
let pallet: number;
let headers: string[];
const Status = Enums.shipPlanStatus;
const R = Enums.sharedImportError;
const CJK = /[\u4e00-\u9fff]/;
const KANA = /[\u3040-\u30ff]/;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/** a new plan Shanghai → Osaka with the given detail lines */
const newPlan = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
  ok(ts.a, '/ship-plan/save', { type: Enums.shipPlanType.newBoxDelivery, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, ...extra, lines });
const plan = (id: number) => ok(ts.a, '/ship-plan', { id });
const cubingOf = async (id: number) => (await ok(ts.a, '/ship-cubing-plan/list', { shipPlanId: id, page: 1, limit: 100 })).list as any[];

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'], config: { dataDir: tempDataDir() } });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX-1', name: 'Box', projectId, type: 10, available: true })).id;
  pallet = (await ok(ts.a, '/carrier-code/create', { code: 'PAL-1', name: 'Pallet', projectId, type: 30, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SHP', name: 'Shanghai Hub' })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OSP', name: 'Osaka' })).id;
  const res = await ts.request('/ship-cubing-plan/import/template', {}, { token: ts.a.token, orgId: ts.a.orgId });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
});
afterAll(() => ts?.close());

describe('the ship plan document', () => {
  it('create with lines: numbered, new, total = sum of the quantities; lines listed by plan', async () => {
    const doc = await newPlan(
      [
        { carrierCodeId: box, qty: 400, containerNo: 'MSKU-1' },
        { carrierCodeId: pallet, qty: 20 },
      ],
      { etd: '2026-03-01T08:00:00Z', eta: '2026-03-04T08:00:00Z', remark: '400 boxes to Osaka' },
    );
    expect(doc.shipPlanNo).toMatch(/^SP\d{8}\d{4}$/);
    expect(doc).toMatchObject({ status: Status.new, totalAmount: 420, cubingAmount: 0, shipperWarehouseIdLabel: 'Shanghai Hub' });
    expect(doc.lines['ship-plan-detail'].total).toBe(2);
    const lines = await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 10 });
    expect(lines.list.map((l: any) => [l.carrierCodeIdLabel, l.qty, l.containerNo ?? null])).toEqual([
      ['BOX-1', 400, 'MSKU-1'],
      ['PAL-1', 20, null],
    ]);
    // a client cannot set the totals: they are the lines'
    const sent = await ts.a.call('/ship-plan/create', { type: 10, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, totalAmount: 5 });
    expect(sent.body.code).toBe(10001);
  });

  it('/ship-plan-detail/batchcreate adds lines to a plan made by /ship-plan/create; /delete removes one', async () => {
    const doc = await ok(ts.a, '/ship-plan/create', { type: Enums.shipPlanType.emptyBoxReturn, shipperWarehouseId: osaka, receiverWarehouseId: shanghai });
    expect(doc.shipPlanNo).toMatch(/^SP/);
    const got = await ok(ts.a, '/ship-plan-detail/batchcreate', {
      shipPlanId: doc.id,
      lines: [
        { carrierCodeId: box, qty: 30 },
        { carrierCodeId: pallet, qty: 2 },
      ],
    });
    expect(got.added).toBe(2);
    expect(got.plan.totalAmount).toBe(32);
    await ok(ts.a, '/ship-plan-detail/delete', { ids: [got.ids[1]] });
    expect((await plan(doc.id)).totalAmount).toBe(30);
    // bad input: no lines, a line that is not an object, a quantity under 1 (nothing added)
    expect((await ts.a.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: [] })).body.code).toBe(10001);
    expect((await ts.a.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: ['x'] })).body.code).toBe(10001);
    const zero = await ts.a.call('/ship-plan-detail/batchcreate', {
      shipPlanId: doc.id,
      lines: [
        { carrierCodeId: pallet, qty: 3 },
        { carrierCodeId: pallet, qty: 0 },
      ],
    });
    expect(zero.body.code).toBe(10001);
    expect((await plan(doc.id)).totalAmount).toBe(30);
  });

  it('a carrier code added twice is refused as "added repeatedly" (save, batchcreate), in Chinese too', async () => {
    const twice = await ts.a.call(
      '/ship-plan/save',
      {
        type: 10,
        shipperWarehouseId: shanghai,
        receiverWarehouseId: osaka,
        lines: [
          { carrierCodeId: box, qty: 1 },
          { carrierCodeId: box, qty: 2 },
        ],
      },
      { language: 'zh-CN' },
    );
    expect(twice.body.code).toBe(10003);
    expect(twice.body.message).toContain('BOX-1');
    expect(twice.body.message).toContain('重复添加');
    const doc = await newPlan([{ carrierCodeId: box, qty: 10 }]);
    const again = await ts.a.call('/ship-plan-detail/batchcreate', {
      shipPlanId: doc.id,
      lines: [
        { carrierCodeId: pallet, qty: 1 },
        { carrierCodeId: box, qty: 5 },
      ],
    });
    expect(again.body.code).toBe(10003);
    expect(again.body.message).toBe(`Carrier code BOX-1 is added repeatedly to ship plan ${doc.shipPlanNo}`);
    // all or none: the pallet line before it was not kept
    expect((await plan(doc.id)).totalAmount).toBe(10);
    const ja = await ts.a.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: [{ carrierCodeId: box, qty: 5 }] }, { language: 'ja-JP' });
    expect(ja.body.message).toMatch(KANA);
    expect(ja.body.message).toContain('BOX-1');
    // replacing the line in one save is not a repeat
    const lines = await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 10 });
    const saved = await ok(ts.a, '/ship-plan/save', { id: doc.id, lines: [{ carrierCodeId: box, qty: 12 }] });
    expect(saved.totalAmount).toBe(12);
    expect(saved.lines['ship-plan-detail'].ids).not.toContain(lines.list[0].id);
  });
  it('two concurrent batchcreates of the same carrier code: exactly one is kept', async () => {
    const doc = await newPlan([]);
    const both = await Promise.all(
      [1, 2].map((n) => ts.a.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: [{ carrierCodeId: box, qty: n }] })),
    );
    expect(both.map((r) => r.body.code).sort()).toEqual([0, 10003]);
    expect((await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 10 })).total).toBe(1);
  });
});

describe('the cubing plan import and its rules', () => {
  it('template: plan, container, carrier code, quantity, remark', () => {
    expect(headers).toHaveLength(5);
  });

  it('adds the good rows, reports every other row with its SPEC §8 reason or the cubing message', async () => {
    const doc = await newPlan([
      { carrierCodeId: box, qty: 100 },
      { carrierCodeId: pallet, qty: 10 },
    ]);
    const no = doc.shipPlanNo;
    const file = await xlsx(headers, [
      [no, 'C-1', 'BOX-1', 60, 'first container'], // row 2 ok
      [no, 'C-2', 'BOX-1', 40, null], // row 3 ok: 100 of 100
      [no, 'C-2', 'PAL-1', 10, null], // row 4 ok
      [no, null, 'PAL-1', 1, null], // row 5: container no empty → 90
      [no, 'C-3', null, 1, null], // row 6: carrier code empty → 96
      [no, 'C-3', 'NO-SUCH', 1, null], // row 7: carrier code not found → 97
      [no, 'C-1', 'BOX-1', 1, null], // row 8: container + code repeated in the file → 60
      [no, 'C-3', 'PAL-1', 1, 'x'.repeat(201)], // row 9: remark over 200 → 70
      [no, 'C-3', 'BOX-1', 1, null], // row 10: 101 boxes cubed, 100 planned → exceeds
    ]);
    const result = await importFile(ts, ts.a, 'ship-cubing-plan', file, 'ja-JP');
    expect(result.message).toBeNull();
    expect(result).toMatchObject({ successVolume: 3, failedVolume: 6 });
    const codes = codesByRow(result);
    expect(codes).toMatchObject({ 5: R.containerNumberEmpty, 6: R.carrierCodeEmpty, 7: R.carrierCodeNotFound, 8: R.duplicated, 9: R.remarkTooLong });
    const exceeds = result.importErrors.find((e) => e.row === 10)!;
    expect(exceeds.reason).toContain('BOX-1');
    expect(exceeds.reason).toContain('101');
    expect(exceeds.reason).toMatch(KANA);
    const cubed = await cubingOf(doc.id);
    expect(cubed.map((c) => [c.containerNo, c.carrierCodeIdLabel, c.qty]).sort()).toEqual([
      ['C-1', 'BOX-1', 60],
      ['C-2', 'BOX-1', 40],
      ['C-2', 'PAL-1', 10],
    ]);
    expect((await plan(doc.id)).cubingAmount).toBe(110);

    // the same container and code again in a later file: already there → 94
    const again = await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, [[no, 'C-1', 'BOX-1', 1, null]]));
    expect(codesByRow(again)).toEqual({ 2: R.alreadyExists });
  });

  it('a code cubed but not planned, a lowered or removed detail under the cubing: refused with the exceeds message', async () => {
    const doc = await newPlan([
      { carrierCodeId: box, qty: 50 },
      { carrierCodeId: pallet, qty: 5 },
    ]);
    const notPlanned = await newPlan([{ carrierCodeId: box, qty: 5 }]);
    const result = await importFile(
      ts,
      ts.a,
      'ship-cubing-plan',
      await xlsx(headers, [
        [doc.shipPlanNo, 'C-1', 'BOX-1', 50, null],
        [doc.shipPlanNo, 'C-1', 'PAL-1', 5, null],
        [notPlanned.shipPlanNo, 'C-9', 'PAL-1', 1, null],
      ]),
      'zh-CN',
    );
    expect(result).toMatchObject({ successVolume: 2, failedVolume: 1 });
    expect(result.importErrors[0].reason).toContain('超过');

    const lines = (await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 10 })).list as any[];
    const boxLine = lines.find((l) => l.carrierCodeId === box);
    const palletLine = lines.find((l) => l.carrierCodeId === pallet);
    const lowered = await ts.a.call(
      '/ship-plan/save',
      {
        id: doc.id,
        lines: [
          { id: boxLine.id, carrierCodeId: box, qty: 49 },
          { id: palletLine.id, carrierCodeId: pallet, qty: 5 },
        ],
      },
      { language: 'zh-CN' },
    );
    expect(lowered.body.code).toBe(10001);
    expect(lowered.body.message).toContain('BOX-1');
    expect(lowered.body.message).toMatch(CJK);
    const removed = await ts.a.call('/ship-plan-detail/delete', { ids: [palletLine.id] });
    expect(removed.body.code).toBe(10001);
    expect(removed.body.message).toBe(`Ship plan ${doc.shipPlanNo}, carrier code PAL-1: the cubing total 5 exceeds the ship plan detail total 0`);
    // raising it is fine, and nothing of the refused writes stayed
    expect(
      (
        await ok(ts.a, '/ship-plan/save', {
          id: doc.id,
          lines: [
            { id: boxLine.id, carrierCodeId: box, qty: 60 },
            { id: palletLine.id, carrierCodeId: pallet, qty: 5 },
          ],
        })
      ).totalAmount,
    ).toBe(65);
    // removing a cubing row lowers the cubing total
    const cubed = await cubingOf(doc.id);
    await ok(ts.a, '/ship-cubing-plan/delete', { ids: [cubed.find((c) => c.carrierCodeId === pallet).id] });
    expect((await plan(doc.id)).cubingAmount).toBe(50);
  });
  it('a 2,001-row file over chunk boundaries: the first 2,000 boxes cubed, the one too many refused', async () => {
    const doc = await newPlan([{ carrierCodeId: box, qty: 2000 }]);
    const rows = Array.from({ length: 2001 }, (_, i) => [doc.shipPlanNo, `C-${i + 1}`, 'BOX-1', 1, null]);
    const result = await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, rows));
    expect(result).toMatchObject({ successVolume: 2000, failedVolume: 1 });
    expect(result.importErrors[0].row).toBe(2002);
    expect(result.importErrors[0].reason).toContain('exceeds');
    expect((await plan(doc.id)).cubingAmount).toBe(2000);
  });
});

describe('/ship-plan/updatestatus: release and cancel', () => {
  it('release is refused while the cubing total differs from the detail total, then goes once they agree', async () => {
    const doc = await newPlan([
      { carrierCodeId: box, qty: 20 },
      { carrierCodeId: pallet, qty: 2 },
    ]);
    await importFile(
      ts,
      ts.a,
      'ship-cubing-plan',
      await xlsx(headers, [
        [doc.shipPlanNo, 'C-1', 'BOX-1', 20, null],
        [doc.shipPlanNo, 'C-1', 'PAL-1', 1, null],
      ]),
    );
    const early = await ts.a.call('/ship-plan/updatestatus', { id: doc.id, status: Status.released }, { language: 'zh-CN' });
    expect(early.body.code).toBe(10004);
    expect(early.body.message).toContain('PAL-1');
    expect(early.body.message).toContain('不一致');
    const en = await ts.a.call('/ship-plan/updatestatus', { id: doc.id, status: Status.released });
    expect(en.body.message).toBe(`Ship plan ${doc.shipPlanNo}, carrier code PAL-1: the cubing total 1 differs from the ship plan detail total 2`);
    expect((await plan(doc.id)).status).toBe(Status.new);

    await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, [[doc.shipPlanNo, 'C-2', 'PAL-1', 1, null]]));
    const released = await ok(ts.a, '/ship-plan/updatestatus', { id: doc.id, status: Status.released });
    expect(released).toMatchObject({ status: Status.released, cubingAmount: 22, totalAmount: 22 });
    expect(released.releasedBy).toBeTruthy();
    expect(released.releasedAt).toBeTruthy();
  });

  it('an empty plan is not released', async () => {
    const doc = await newPlan([]);
    const got = await ts.a.call('/ship-plan/updatestatus', { id: doc.id, status: Status.released });
    expect(got.body.code).toBe(10004);
    expect(got.body.message).toContain(doc.shipPlanNo);
  });

  it('a released plan: not editable, not deletable, its details and cubing frozen; cancel is no longer possible', async () => {
    const doc = await newPlan([{ carrierCodeId: box, qty: 3 }]);
    await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, [[doc.shipPlanNo, 'C-1', 'BOX-1', 3, null]]));
    await ok(ts.a, '/ship-plan/release', { id: doc.id });
    const edit = await ts.a.call('/ship-plan/update', { id: doc.id, remark: 'late change' }, { language: 'zh-CN' });
    expect(edit.body.code).toBe(10004);
    expect(edit.body.message).toBe('已发布或已取消的发运计划不能编辑');
    const del = await ts.a.call('/ship-plan/delete', { ids: [doc.id] });
    expect(del.body.code).toBe(10004);
    expect(del.body.message).toBe('A released ship plan cannot be deleted');
    const [line] = (await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 1 })).list;
    const frozen = await ts.a.call('/ship-plan-detail/delete', { ids: [line.id] });
    expect(frozen.body.code).toBe(10004);
    expect((await ts.a.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: [{ carrierCodeId: pallet, qty: 1 }] })).body.code).toBe(10004);
    const late = await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, [[doc.shipPlanNo, 'C-5', 'BOX-1', 1, null]]));
    expect(late.failedVolume).toBe(1);
    expect(late.importErrors[0].reason).toContain(doc.shipPlanNo);
    const cancel = await ts.a.call('/ship-plan/updatestatus', { id: doc.id, status: Status.cancelled }, { language: 'ja-JP' });
    expect(cancel.body.code).toBe(10004);
    expect(cancel.body.message).toMatch(KANA);
    // a status no step reaches
    expect((await ts.a.call('/ship-plan/updatestatus', { id: doc.id, status: Status.new })).body.code).toBe(10001);
    expect((await plan(doc.id)).status).toBe(Status.released);
  });

  it('cancel a new plan with a remark; a cancelled plan is not editable but can be deleted with its lines', async () => {
    const doc = await newPlan([{ carrierCodeId: box, qty: 8 }]);
    await importFile(ts, ts.a, 'ship-cubing-plan', await xlsx(headers, [[doc.shipPlanNo, 'C-1', 'BOX-1', 8, null]]));
    const cancelled = await ok(ts.a, '/ship-plan/updatestatus', { id: doc.id, status: Status.cancelled, remark: 'customer postponed' });
    expect(cancelled).toMatchObject({ status: Status.cancelled, remark: 'customer postponed' });
    expect((await ts.a.call('/ship-plan/update', { id: doc.id, remark: 'x' })).body.code).toBe(10004);
    await ok(ts.a, '/ship-plan/delete', { ids: [doc.id] });
    expect((await ok(ts.a, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 1 })).total).toBe(0);
    expect((await cubingOf(doc.id)).length).toBe(0);
  });
});

describe('tenancy', () => {
  it('another organisation sees nothing of a plan, cannot add to it, release it or import into it', async () => {
    const doc = await newPlan([{ carrierCodeId: box, qty: 1 }]);
    expect((await ts.b.call('/ship-plan', { id: doc.id })).body.code).toBe(10002);
    expect((await ok(ts.b, '/ship-plan/list', { page: 1, limit: 10 })).total).toBe(0);
    expect((await ok(ts.b, '/ship-plan-detail/list', { shipPlanId: doc.id, page: 1, limit: 10 })).total).toBe(0);
    expect((await ts.b.call('/ship-plan-detail/batchcreate', { shipPlanId: doc.id, lines: [{ carrierCodeId: box, qty: 1 }] })).body.code).toBe(10002);
    expect((await ts.b.call('/ship-plan/updatestatus', { id: doc.id, status: Status.cancelled })).body.code).toBe(10002);
    const foreign = await importFile(ts, ts.b, 'ship-cubing-plan', await xlsx(headers, [[doc.shipPlanNo, 'C-1', 'BOX-1', 1, null]]));
    expect(foreign.successVolume).toBe(0);
    expect((await plan(doc.id)).status).toBe(Status.new);
    expect(await cubingOf(doc.id)).toEqual([]);
  });
});
