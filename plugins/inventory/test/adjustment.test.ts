/**
 * Inventory adjustment orders over the API, as warehouse-restricted operators (never the
 * administrator): an out-and-in from create to adjusted (carriers moved, in/out rows and
 * carrier logs written, the order frozen), out and in types, line refusals naming serials in
 * three languages with their SPEC §8 reasons, nothing written by a refused step, and races:
 * two adjusts of one order and an adjust racing a ship order's release — exactly one wins.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

const S = Enums.inventoryAdjustStatus;
const T = Enums.inventoryAdjustType;
const L = Enums.inventoryAdjustLineStatus;
let ts: TestServer;
let shanghai: number;
let osaka: number;
let kobe: number;
let codeId: number;
/** restricted to Shanghai / to Osaka / to Kobe */
let clerk: Caller;
let osakaOp: Caller;
let kobeOp: Caller;
let seq = 0;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

interface PermissionNode {
  code?: string;
  path?: string;
  type?: number;
  children?: PermissionNode[];
}
/** the calls an inventory operator makes daily: adjustments and their lines, reading carriers and in/out rows, no deletes of master data */
const DAILY =
  /^\/(inventory\/adjustment|inventory-adjust-detail|inventory)(\/|$)|^\/carrier(\/list)?$|^\/carrier-inout\/list$|^\/carrier-log\/list$|^\/ship-order(-detail)?(\/|$)/;
function operatorCodes(tree: PermissionNode[]): string[] {
  const out: string[] = [];
  const walk = (n: PermissionNode) => {
    if (n.type === 30 && n.code && n.path && DAILY.test(n.path)) out.push(n.code);
    for (const c of n.children ?? []) walk(c);
  };
  tree.forEach(walk);
  return [...new Set(out)];
}

async function boxes(n: number, warehouseId: number | null): Promise<Array<{ id: number; sn: string }>> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const sn = `IB-${++seq}`;
    const c = await ok(ts.a, '/carrier/create', { sn, carrierCodeId: codeId, ...(warehouseId ? { warehouseId } : {}), status: 10 });
    out.push({ id: c.id, sn });
  }
  return out;
}

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  codeId = (await ok(ts.a, '/carrier-code/create', { code: 'CC-I', name: 'Box', projectId, type: 10, available: true })).id;
  shanghai = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
  osaka = (await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
  kobe = (await ok(ts.a, '/warehouse/create', { code: 'KB', name: 'Kobe' })).id;
  const role = (
    await ok(ts.a, '/role/create', { name: 'Inventory operator', pcPermissions: operatorCodes(await ok(ts.a, '/permission/all', {})), pdaPermissions: [] })
  ).id;
  const operator = async (name: string, warehouseId: number) =>
    ts.callerFor(await ts.addUser(ts.orgA, name, { warehouseIds: [warehouseId], roleIds: [role], realName: `${name} real` }), ts.orgA);
  clerk = await operator('inv-sh', shanghai);
  osakaOp = await operator('inv-os', osaka);
  kobeOp = await operator('inv-kb', kobe);
}, 120_000);
afterAll(() => ts?.close());

const lines = async (caller: Caller, id: number) =>
  (await ok(caller, '/inventory-adjust-detail/list', { inventoryAdjustId: id, page: 1, limit: 100 })).list as any[];

describe('an out-and-in adjustment by the source warehouse operator', () => {
  it('goes from create to adjusted: carriers move, in/out rows and logs are written, the order is frozen', async () => {
    const [a, b, c] = await boxes(3, shanghai);
    const doc = await ok(clerk, '/inventory/adjustment/save', {
      type: T.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: a.id }, { carrierId: b.id }],
    });
    expect(doc.adjustOrderNo).toMatch(/^IA\d{8}\d{4}$/);
    expect(doc).toMatchObject({ status: S.new, totalAmount: 2 });
    // batch add by serial, one unknown serial answered with its reason
    const added = await ok(clerk, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: doc.id, sns: [c.sn, 'NO-SUCH'] });
    expect(added.added).toBe(1);
    expect(added.failed).toEqual([expect.objectContaining({ sn: 'NO-SUCH', reason: Enums.sharedImportError.carrierSnNotFound })]);
    expect((await lines(clerk, doc.id)).map((l) => [l.carrierSn, l.status, l.fromWarehouseId])).toEqual([
      [a.sn, L.pending, shanghai],
      [b.sn, L.pending, shanghai],
      [c.sn, L.pending, shanghai],
    ]);
    // the target's operator sees the carriers coming while the order is open
    expect((await ok(osakaOp, '/carrier/list', { sn: a.sn, page: 1, limit: 5 })).total).toBe(1);
    expect((await ok(kobeOp, '/carrier/list', { sn: a.sn, page: 1, limit: 5 })).total).toBe(0);
    // a scan checks lines
    const scanned = await ok(clerk, '/inventory-adjust-detail/scan', { inventoryAdjustId: doc.id, keys: [a.sn] });
    expect(scanned.accepted.map((x: any) => x.key)).toEqual([a.sn]);

    const done = await ok(clerk, '/inventory/adjustment/out-in', { id: doc.id });
    expect(done).toMatchObject({ status: S.adjusted, adjustedBy: 'inv-sh real' });
    expect((await lines(clerk, doc.id)).every((l) => l.status === L.adjusted)).toBe(true);
    for (const x of [a, b, c]) {
      const carrier = await ok(osakaOp, '/carrier', { id: x.id });
      expect(carrier).toMatchObject({
        warehouseId: osaka,
        transportStatus: Enums.transportStatus.inWarehouse,
        outboundWarehouseId: shanghai,
        inboundWarehouseId: osaka,
      });
    }
    const inout = (await ok(ts.a, '/carrier-inout/list', { carrierId: a.id, page: 1, limit: 10 })).list;
    expect(inout.map((r: any) => [r.direction, r.warehouseId, r.shipOrderNo]).sort()).toEqual(
      [
        [Enums.inoutDirection.inbound, osaka, doc.adjustOrderNo],
        [Enums.inoutDirection.outbound, shanghai, doc.adjustOrderNo],
      ].sort(),
    );
    const logs = (await ok(ts.a, '/carrier-log/list', { carrierId: a.id, page: 1, limit: 10 })).list;
    expect(logs.some((l: any) => String(l.remark).includes(doc.adjustOrderNo) && String(l.remark).includes('Osaka'))).toBe(true);
    const zhLogs = (await osakaOp.call('/carrier-log/list', { carrierId: a.id, page: 1, limit: 10 }, { language: 'zh-CN' })).body.data;
    expect(zhLogs.list.some((l: any) => String(l.remark).includes('调整'))).toBe(true);

    // adjusted: no edit, no delete, no more lines, no second adjust — each naming the order
    const edit = await clerk.call('/inventory/adjustment/update', { id: doc.id, remark: 'late' });
    expect(edit.body.code).toBe(10004);
    expect(edit.body.message).toContain(doc.adjustOrderNo);
    const del = await clerk.call('/inventory/adjustment/delete', { ids: [doc.id] }, { language: 'ja-JP' });
    expect(del.body.code).toBe(10004);
    expect(del.body.message).toContain(doc.adjustOrderNo);
    const [d] = await boxes(1, shanghai);
    const more = await clerk.call('/inventory-adjust-detail/batch/add', { inventoryAdjustId: doc.id, sns: [d.sn] });
    expect(more.body.data.added).toBe(0);
    expect((await clerk.call('/inventory/adjustment/out-in', { id: doc.id })).body.code).toBe(10004);
  });

  it('offers the carriers the order may still take: in the source warehouse, on no other open document', async () => {
    const [free, held, away] = await boxes(3, shanghai);
    await ok(ts.a, '/carrier/update', { id: away.id, warehouseId: osaka });
    await ok(clerk, '/inventory/adjustment/save', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: kobe, lines: [{ carrierId: held.id }] });
    const doc = await ok(clerk, '/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: osaka });
    const offered = await ok(clerk, '/inventory/adjustment/carriers', { id: doc.id, sn: 'IB-', page: 1, limit: 100 });
    const sns = offered.list.map((c: any) => c.sn);
    expect(sns).toContain(free.sn);
    expect(sns).not.toContain(held.sn);
    expect(sns).not.toContain(away.sn);
    // another warehouse's operator cannot ask for this order's carriers
    expect((await kobeOp.call('/inventory/adjustment/carriers', { id: doc.id, page: 1, limit: 10 })).body.code).toBe(10002);
  });

  it('out takes carriers off the books; in books carriers into the target', async () => {
    const [a] = await boxes(1, shanghai);
    const out = await ok(clerk, '/inventory/adjustment/save', { type: T.out, sourceWarehouseId: shanghai, lines: [{ carrierId: a.id }] });
    expect(out.targetWarehouseId).toBeNull();
    await ok(clerk, '/inventory/adjustment/out-in', { id: out.id });
    const gone = await ok(ts.a, '/carrier', { id: a.id });
    expect(gone).toMatchObject({ warehouseId: null, outboundWarehouseId: shanghai });
    // the carrier is found again: booked into Osaka (by an unrestricted planner: it stands in no warehouse)
    const back = await ok(ts.a, '/inventory/adjustment/save', { type: T.in, targetWarehouseId: osaka, lines: [{ carrierId: a.id }] });
    await ok(osakaOp, '/inventory/adjustment/out-in', { id: back.id });
    expect(await ok(osakaOp, '/carrier', { id: a.id })).toMatchObject({ warehouseId: osaka, transportStatus: Enums.transportStatus.inWarehouse });
  });

  it("a type needs its warehouses: refused in the caller's language, nothing written", async () => {
    const before = (await ok(ts.a, '/inventory/adjustment/list', { page: 1, limit: 1 })).total;
    const r = await clerk.call('/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai }, { language: 'zh-CN' });
    expect(r.body.code).toBe(10001);
    expect(r.body.message).toContain('目标仓库');
    // a restricted operator cannot adjust between two warehouses that are not its own
    const foreign = await clerk.call('/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: osaka, targetWarehouseId: kobe });
    expect(foreign.body.code).toBe(10001);
    expect((await ok(ts.a, '/inventory/adjustment/list', { page: 1, limit: 1 })).total).toBe(before);
  });
});

describe('lines refused per carrier, naming serials', () => {
  it('a carrier not in the source warehouse, on an open ship order, or on another open adjustment', async () => {
    const [here, there, shipped] = await boxes(3, shanghai);
    await ok(ts.a, '/carrier/update', { id: there.id, warehouseId: osaka });
    await ok(ts.a, '/ship-order/save', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, lines: [{ carrierId: shipped.id }] });
    const first = await ok(clerk, '/inventory/adjustment/save', {
      type: T.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: here.id }],
    });
    const doc = await ok(clerk, '/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: kobe });
    for (const language of ['en-US', 'zh-CN', 'ja-JP']) {
      const r = await ts.a.call('/inventory-adjust-detail/batch/add', { inventoryAdjustId: doc.id, sns: [there.sn, shipped.sn, here.sn] }, { language });
      expect(r.body.data.added).toBe(0);
      const failed = r.body.data.failed as Array<{ sn: string; reason: number; message: string }>;
      expect(failed.map((f) => [f.sn, f.reason])).toEqual([
        [there.sn, Enums.sharedImportError.carrierNotInWarehouse],
        [shipped.sn, Enums.sharedImportError.carrierUnavailable],
        [here.sn, Enums.sharedImportError.carrierUnavailable],
      ]);
      for (const f of failed) {
        expect(f.message).toContain(f.sn);
        expect(f.message).not.toMatch(/#\d+|\bid\b/);
      }
      expect(failed[2].message).toContain(first.adjustOrderNo);
      if (language === 'ja-JP') expect(failed[1].message).toMatch(/[\u3040-\u30ff]/);
      if (language === 'zh-CN') expect(failed[0].message).toMatch(/[\u4e00-\u9fff]/);
    }
    // the one-page save refuses the whole document, naming the serial
    const save = await clerk.call(
      '/inventory/adjustment/save',
      { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: kobe, lines: [{ carrierId: shipped.id }] },
      { language: 'ja-JP' },
    );
    expect(save.body.code).not.toBe(0);
    expect(save.body.message).toContain(shipped.sn);
    expect(await lines(ts.a, doc.id)).toEqual([]);
  });

  it('a step finding a carrier moved meanwhile refuses the whole order, moving nothing', async () => {
    const [a, b] = await boxes(2, shanghai);
    const doc = await ok(clerk, '/inventory/adjustment/save', {
      type: T.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: a.id }, { carrierId: b.id }],
    });
    // b leaves Shanghai behind the order's back (a planner corrects the carrier)
    await ok(ts.a, '/carrier/update', { id: b.id, warehouseId: kobe });
    const r = await clerk.call('/inventory/adjustment/out-in', { id: doc.id }, { language: 'zh-CN' });
    expect(r.body.code).toBe(10004);
    expect(r.body.message).toContain(b.sn);
    expect((await ok(clerk, '/inventory/adjustment', { id: doc.id })).status).toBe(S.new);
    expect((await ok(clerk, '/carrier', { id: a.id })).warehouseId).toBe(shanghai);
    expect((await ok(ts.a, '/carrier-inout/list', { carrierId: a.id, page: 1, limit: 5 })).total).toBe(0);
  });
});

describe('races', () => {
  it('two adjusts of one order: exactly one wins', async () => {
    const [a] = await boxes(1, shanghai);
    const doc = await ok(clerk, '/inventory/adjustment/save', {
      type: T.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: a.id }],
    });
    const answers = await Promise.all([
      clerk.call('/inventory/adjustment/out-in', { id: doc.id }),
      osakaOp.call('/inventory/adjustment/out-in', { id: doc.id }),
    ]);
    expect(answers.map((r) => r.body.code).sort()).toEqual([0, 10004]);
    expect((await ok(ts.a, '/carrier-inout/list', { carrierId: a.id, page: 1, limit: 10 })).total).toBe(2);
  });

  it('an adjust racing the release of a ship order holding the same carrier: exactly one moves it', async () => {
    const [a] = await boxes(1, shanghai);
    const doc = await ok(clerk, '/inventory/adjustment/save', {
      type: T.outAndIn,
      sourceWarehouseId: shanghai,
      targetWarehouseId: osaka,
      lines: [{ carrierId: a.id }],
    });
    // the shipping clerk puts the carrier on a ship order after the adjustment took it
    const order = await ok(ts.a, '/ship-order/save', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: kobe, lines: [{ carrierId: a.id }] });
    const [adjusted, released] = await Promise.all([
      clerk.call('/inventory/adjustment/out-in', { id: doc.id }),
      ts.a.call('/ship-order/release', { id: order.id }),
    ]);
    const wins = [adjusted.body.code, released.body.code].filter((c) => c === 0).length;
    expect(wins).toBe(1);
    const carrier = await ok(ts.a, '/carrier', { id: a.id });
    if (adjusted.body.code === 0) expect(carrier.warehouseId).toBe(osaka);
    else expect(carrier.transportStatus).toBe(Enums.transportStatus.inTransit);
    expect((await ok(ts.a, '/carrier-inout/list', { carrierId: a.id, direction: Enums.inoutDirection.outbound, page: 1, limit: 10 })).total).toBe(1);
  });

  it('one carrier added to two orders at once: one order gets it', async () => {
    const [a] = await boxes(1, shanghai);
    const one = await ok(clerk, '/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: osaka });
    const two = await ok(clerk, '/inventory/adjustment/create', { type: T.outAndIn, sourceWarehouseId: shanghai, targetWarehouseId: kobe });
    const answers = await Promise.all([
      ok(clerk, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: one.id, sns: [a.sn] }),
      ok(clerk, '/inventory-adjust-detail/batch/add', { inventoryAdjustId: two.id, sns: [a.sn] }),
    ]);
    expect(answers.map((x) => x.added).sort()).toEqual([0, 1]);
  });
});
