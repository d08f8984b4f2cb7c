/**
 * The maintained stock counts (server/stock.ts: triggers on the carrier table) against the direct
 * count: carriers are moved through every write path known — generic create/update/delete, the
 * status step (maintenance uses it), the cover call, ship order release and receive, adjustment
 * orders, a count task writing one off, the telemetry engine's raw model update, bulk inserts and
 * hand-written SQL — and after each the realtime figures equal what grouping the carriers gives.
 * Idle by time is checked with the rows' agedBefore set behind, ahead of and without a rebuild's
 * clock (the reader's windows both ways and the whole-cell count).
 */
import { Enums } from '@rti/metadata';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let sh: number;
let os: number;
let box: number;
let pal: number;
let seq = 0;
const S = Enums.carrierStatus;
const T = Enums.transportStatus;
/** idle check times (minutes): BOX in Shanghai 30 (the code's), else Shanghai's 60; Osaka none at first */
const SH_IDLE = 60;
const PAST = new Date('2000-01-01T00:00:00Z');
const FUTURE = new Date('2100-01-01T00:00:00Z');
const BOX_SH_IDLE = 30;

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

const models = () => ts.server.db.models;
const sql = (q: string, replacements: unknown[] = []) => ts.server.db.sequelize.query(q, { replacements, type: QueryTypes.SELECT }) as Promise<any[]>;
const exec = (q: string, replacements: unknown[] = []) => ts.server.db.sequelize.query(q, { replacements });
const table = (resource: string) => ts.server.db.sequelize.getQueryInterface().quoteIdentifier(String(models()[resource].getTableName()));
const column = (resource: string, attr: string) => ts.server.db.sequelize.getQueryInterface().quoteIdentifier(models()[resource].getAttributes()[attr].field!);

async function carriers(n: number, codeId: number, warehouseId: number | null, extra: Record<string, unknown> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await ok(ts.a, '/carrier/create', { sn: `SC-${++seq}`, carrierCodeId: codeId, warehouseId, status: S.inUse, ...extra })).id);
  return ids;
}

/** the figures by grouping the carriers of organisation A, by the definitions of README "Views" */
async function direct(warehouses?: number[]): Promise<Record<string, Record<string, number>>> {
  const cw = await ok(ts.a, '/carrier-code/warehouse/list', { page: 1, limit: 100 });
  const whs = await ok(ts.a, '/warehouse/list', { page: 1, limit: 100 });
  const minutesOf = (w: number, c: number) =>
    cw.list.find((x: any) => x.warehouseId === w && x.carrierCodeId === c)?.idleCheckTime ?? whs.list.find((x: any) => x.id === w)?.idleCheckTime ?? null;
  const now = Date.now();
  const rows = await sql(
    `SELECT ${['warehouseId', 'carrierCodeId', 'transportStatus', 'status', 'loadingStatus', 'inboundTime'].map((a) => `${column('carrier', a)} AS ${a}`).join(', ')} FROM ${table('carrier')} WHERE ${column('carrier', 'orgId')} = ?`,
    [ts.orgA],
  );
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) {
    const standing = r.warehouseId !== null && [T.unknown, T.inWarehouse, T.idle].includes(r.transportStatus) && ![S.scrapped, S.lost].includes(r.status);
    if (!standing || (warehouses && !warehouses.includes(r.warehouseId))) continue;
    const k = `${r.warehouseId}:${r.carrierCodeId}`;
    const x = (out[k] ??= { inStock: 0, maintenance: 0, empty: 0, full: 0, idle: 0 });
    x.inStock++;
    if ([S.maintenance, S.damaged].includes(r.status)) x.maintenance++;
    if (r.loadingStatus === Enums.loadingStatus.empty) x.empty++;
    if (r.loadingStatus === Enums.loadingStatus.full) x.full++;
    const m = minutesOf(r.warehouseId, r.carrierCodeId);
    // SQLite answers text ('YYYY-MM-DD HH:MM:SS.SSS +00:00'), MariaDB a Date
    const inbound = !r.inboundTime
      ? null
      : r.inboundTime instanceof Date
        ? r.inboundTime.getTime()
        : Date.parse(
            String(r.inboundTime)
              .replace(' ', 'T')
              .replace(/ ([+-])/, '$1'),
          );
    if (r.transportStatus === T.idle || (m && inbound !== null && inbound < now - m * 60_000)) x.idle++;
  }
  return out;
}

async function realtime(caller: Caller = ts.a): Promise<Record<string, Record<string, number>>> {
  const rt = await ok(caller, '/inventory/realtime', { page: 1, limit: 100 });
  const out: Record<string, Record<string, number>> = {};
  for (const r of rt.list)
    if (r.inStock) out[`${r.warehouseId}:${r.carrierCodeId}`] = { inStock: r.inStock, maintenance: r.maintenance, empty: r.empty, full: r.full, idle: r.idle };
  return out;
}

/**
 * A list page is read from the maintained rows alone (the cells per warehouse, in transit); one warehouse's
 * answer groups the ship orders' lines and reads the configurations: the two must give the same rows and total.
 */
async function sameCells(step: string): Promise<void> {
  const view = (r: any) =>
    [r.warehouseId, r.carrierCodeId, r.inStock, r.maintenance, r.empty, r.full, r.idle, r.inTransitIn, r.inTransitOut, r.min, r.max].join(' ');
  const paged = await ok(ts.a, '/inventory/realtime', { page: 1, limit: 100 });
  const one: any[] = [];
  for (const w of (await ok(ts.a, '/warehouse/list', { page: 1, limit: 100 })).list)
    one.push(...(await ok(ts.a, '/inventory/realtime', { warehouseId: w.id, page: 1, limit: 100 })).list);
  expect({ step, rows: paged.list.map(view).sort(), total: paged.total }).toEqual({ step, rows: one.map(view).sort(), total: one.length });
}

async function same(step: string): Promise<void> {
  expect({ step, figures: await realtime() }).toEqual({ step, figures: await direct() });
  await sameCells(step);
}

const setCarriers = (values: Record<string, unknown>, ids: number[]) =>
  // eslint-disable-next-line rti/no-raw-models -- what the telemetry engine's state sink does (a raw model update, no repository)
  models().carrier.update(values, { where: { id: ids } });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['master-data', 'shipping', 'inventory'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  pal = (await ok(ts.a, '/carrier-code/create', { code: 'PAL', name: 'Pallet', projectId, type: 10, available: true })).id;
  sh = (await ok(ts.a, '/warehouse/create', { code: 'SH', name: 'Shanghai', idleCheckTime: SH_IDLE })).id;
  os = (await ok(ts.a, '/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
  await ok(ts.a, '/carrier-code/warehouse/create', {
    carrierCodeId: box,
    warehouseId: sh,
    minInventory: 1,
    maxInventory: 50,
    outboundCheckTime: 60,
    idleCheckTime: BOX_SH_IDLE,
  });
}, 120_000);
afterAll(() => ts?.close());

describe('maintained counts equal the direct count after every write path', () => {
  it('the triggers are in place', async () => {
    const sqlite = ts.server.db.sequelize.getDialect() === 'sqlite';
    const names = await sql(
      sqlite
        ? `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'inventory_stock_%'`
        : `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'inventory_stock_%'`,
    );
    // carrier 4 (MariaDB 3), code configuration 4 (3), ship order line 4 (3), ship order 3 (2)
    expect(names.length).toBe(sqlite ? 15 : 11);
  });

  it('moves through each path', async () => {
    // generic create
    const shBoxes = await carriers(8, box, sh);
    const shPals = await carriers(3, pal, sh);
    const osBoxes = await carriers(2, box, os);
    await carriers(1, box, null);
    await same('create');
    // the telemetry engine's raw update: transport, loading status and inbound time (some past the idle check times)
    const hour = 3_600_000;
    await setCarriers({ transportStatus: T.inWarehouse, inboundTime: new Date(Date.now() - 2 * hour) }, shBoxes.slice(0, 4));
    await setCarriers({ inboundTime: new Date(Date.now() - 45 * 60_000) }, [...shBoxes.slice(4, 6), ...shPals.slice(0, 2)]);
    await setCarriers({ loadingStatus: Enums.loadingStatus.empty }, shBoxes.slice(0, 3));
    await setCarriers({ loadingStatus: Enums.loadingStatus.full }, [shBoxes[3], osBoxes[0]]);
    await setCarriers({ transportStatus: T.idle }, [shBoxes[6]]);
    await same('telemetry raw update');
    // the status step (the maintenance plugin's records use the same step)
    await ok(ts.a, '/carrier/status/update', { id: shBoxes[1], status: S.maintenance });
    await ok(ts.a, '/carrier/status/update', { id: shBoxes[2], status: S.damaged });
    await ok(ts.a, '/carrier/status/update', { id: shPals[2], status: S.scrapped });
    await same('status step');
    // generic update: another warehouse, another code
    await ok(ts.a, '/carrier/update', { id: shBoxes[7], warehouseId: os });
    await ok(ts.a, '/carrier/update', { id: osBoxes[1], carrierCodeId: pal });
    await same('generic update');
    // the cover call (by serial)
    const [covered] = await sql(`SELECT ${column('carrier', 'sn')} AS sn FROM ${table('carrier')} WHERE id = ?`, [shBoxes[5]]);
    await ok(ts.a, '/carrier/cover', { carriers: [{ sn: covered.sn, warehouseId: os }] });
    await same('cover');
    // ship order: released (out of Shanghai, in transit), then received in Osaka
    const order = await ok(ts.a, '/ship-order/save', {
      type: 2,
      shipperWarehouseId: sh,
      receiverWarehouseId: os,
      lines: [{ carrierId: shBoxes[0] }, { carrierId: shBoxes[4] }],
    });
    await ok(ts.a, '/ship-order/release', { id: order.id });
    await same('ship order released');
    await ok(ts.a, '/ship-order/receive', { id: order.id });
    await same('ship order received');
    // adjustment orders: out and in, out, in
    const outIn = await ok(ts.a, '/inventory/adjustment/save', {
      type: Enums.inventoryAdjustType.outAndIn,
      sourceWarehouseId: sh,
      targetWarehouseId: os,
      lines: [{ carrierId: shPals[0] }],
    });
    await ok(ts.a, '/inventory/adjustment/out-in', { id: outIn.id });
    const out = await ok(ts.a, '/inventory/adjustment/save', { type: Enums.inventoryAdjustType.out, sourceWarehouseId: sh, lines: [{ carrierId: shPals[1] }] });
    await ok(ts.a, '/inventory/adjustment/out-in', { id: out.id });
    await same('adjustment out');
    const back = await ok(ts.a, '/inventory/adjustment/save', { type: Enums.inventoryAdjustType.in, targetWarehouseId: sh, lines: [{ carrierId: shPals[1] }] });
    await ok(ts.a, '/inventory/adjustment/out-in', { id: back.id });
    await same('adjustment in');
    // a count task made from the silent carriers (beacons nobody heard: no telemetry here) closed with one written off as lost
    const modelId = (await ok(ts.a, '/device-model/create', { name: 'Tag', batteryThreshold: 20, offlineCheckTime: 600 })).id;
    const tagged: number[] = [];
    for (const k of [1, 2]) {
      const beaconId = (await ok(ts.a, '/device-beacon/create', { sn: `TAG-${k}`, mac: `E2C56DB600${k}0`, deviceModelId: modelId, useStatus: 20 })).id;
      tagged.push((await ok(ts.a, '/carrier/create', { sn: `TAGGED-${k}`, carrierCodeId: box, warehouseId: os, status: S.inUse, beaconId })).id);
    }
    const task = await ok(ts.a, '/inventory/count/from-silent', { warehouseId: os });
    for (const line of (await ok(ts.a, '/inventory-count-detail/list', { inventoryCountId: task.id, page: 1, limit: 10 })).list)
      await ok(ts.a, '/inventory-count-detail/update', {
        id: line.id,
        result: line.carrierId === tagged[1] ? Enums.inventoryCountResult.lost : Enums.inventoryCountResult.confirmed,
      });
    await ok(ts.a, '/inventory/count/close', { id: task.id });
    expect(await ok(ts.a, '/carrier', { id: tagged[1] })).toMatchObject({ status: S.lost });
    await same('count task closed');
    // generic delete (a carrier not yet in use may be deleted)
    const spare = await carriers(2, pal, os, { status: S.new });
    await same('created new');
    await ok(ts.a, '/carrier/delete', { id: spare[0] });
    await same('delete');
    // a bulk insert without the repository and hand-written SQL
    // eslint-disable-next-line rti/no-raw-models -- a writer outside the repository (ingest, scripts)
    await models().carrier.bulkCreate(
      [0, 1, 2].map((i) => ({
        orgId: ts.orgA,
        sn: `BULK-${i}`,
        carrierCodeId: pal,
        warehouseId: os,
        status: S.inUse,
        transportStatus: T.inWarehouse,
        loadingStatus: Enums.loadingStatus.full,
      })),
    );
    await same('bulk insert');
    await exec(`UPDATE ${table('carrier')} SET ${column('carrier', 'warehouseId')} = ? WHERE ${column('carrier', 'sn')} IN ('BULK-0', 'BULK-1')`, [sh]);
    await exec(`DELETE FROM ${table('carrier')} WHERE ${column('carrier', 'sn')} = 'BULK-2'`);
    await same('raw SQL');
    // a code's configuration in a warehouse (the cell shows with nothing there): created, moved, deleted
    const cfg = await ok(ts.a, '/carrier-code/warehouse/create', {
      carrierCodeId: pal,
      warehouseId: os,
      minInventory: 2,
      maxInventory: 20,
      outboundCheckTime: 60,
      idleCheckTime: 45,
    });
    await same('configuration created');
    await ok(ts.a, '/carrier-code/warehouse/update', {
      id: cfg.id,
      warehouseId: sh,
      carrierCodeId: pal,
      minInventory: 2,
      maxInventory: 20,
      outboundCheckTime: 60,
      idleCheckTime: 45,
    });
    await same('configuration moved');
    await ok(ts.a, '/carrier-code/warehouse/delete', { id: cfg.id });
    await same('configuration deleted');
    // an order in transit changed by hand-written SQL: its ends swapped, a shipped line deleted, then received
    const [first, second] = await carriers(2, pal, sh);
    const trip = await ok(ts.a, '/ship-order/save', {
      type: 2,
      shipperWarehouseId: sh,
      receiverWarehouseId: os,
      lines: [{ carrierId: first }, { carrierId: second }],
    });
    await ok(ts.a, '/ship-order/release', { id: trip.id });
    await same('released for raw SQL');
    const [ship, line] = [table('ship-order'), table('ship-order-detail')];
    const so = (a: string) => column('ship-order', a);
    await exec(`UPDATE ${ship} SET ${so('shipperWarehouseId')} = ?, ${so('receiverWarehouseId')} = ? WHERE id = ?`, [os, sh, trip.id]);
    await same('order in transit: ends swapped by SQL');
    await exec(`DELETE FROM ${line} WHERE ${column('ship-order-detail', 'shipOrderId')} = ? AND ${column('ship-order-detail', 'carrierId')} = ?`, [
      trip.id,
      first,
    ]);
    await same('shipped line deleted by SQL');
    await exec(`UPDATE ${ship} SET ${so('status')} = ? WHERE id = ?`, [Enums.shipOrderStatus.received, trip.id]);
    await same('order received by SQL');
  });

  it('idle by time with the rebuild clock behind, ahead and absent', async () => {
    const stock = table('inventory-stock');
    const [aged, agedBefore] = [column('inventory-stock', 'aged'), column('inventory-stock', 'agedBefore')];
    // behind: nothing came in before 2000, so aged is 0 there; the reader counts everything since
    await exec(`UPDATE ${stock} SET ${aged} = 0, ${agedBefore} = ?`, [PAST]);
    await same('agedBefore behind the clock');
    const fresh = await carriers(2, box, sh);
    await setCarriers({ inboundTime: new Date(Date.now() - 3 * 3_600_000) }, fresh);
    await same('agedBefore behind, then moves');
    // ahead: every standing carrier not marked idle with an inbound time came in before 2100
    const c = (a: string) => `${table('carrier')}.${column('carrier', a)}`;
    await exec(
      `UPDATE ${stock} SET ${agedBefore} = ?, ${aged} = (SELECT COUNT(*) FROM ${table('carrier')} WHERE ${c('orgId')} = ${stock}.${column('inventory-stock', 'orgId')} AND ${c('warehouseId')} = ${stock}.${column('inventory-stock', 'warehouseId')} AND COALESCE(${c('carrierCodeId')}, 0) = ${stock}.${column('inventory-stock', 'codeKey')} AND ${c('transportStatus')} IN (${T.unknown}, ${T.inWarehouse}) AND (${c('status')} IS NULL OR ${c('status')} NOT IN (${S.scrapped}, ${S.lost})) AND ${c('inboundTime')} IS NOT NULL)`,
      [FUTURE],
    );
    await same('agedBefore ahead of the clock');
    await setCarriers({ inboundTime: new Date(Date.now() - 10 * 60_000) }, [fresh[0]]);
    await setCarriers({ transportStatus: T.idle }, [fresh[1]]);
    await same('agedBefore ahead, then moves');
    // absent (a cell new since the last rebuild): the reader counts the cell whole
    await exec(`UPDATE ${stock} SET ${aged} = 0, ${agedBefore} = NULL`);
    await same('no agedBefore');
    // a threshold that changed since the rebuild: Osaka gets one
    await exec(`UPDATE ${stock} SET ${aged} = 0, ${agedBefore} = ?`, [PAST]);
    await ok(ts.a, '/warehouse/update', { id: os, idleCheckTime: 20 });
    await setCarriers(
      { inboundTime: new Date(Date.now() - 30 * 60_000) },
      (await sql(`SELECT id FROM ${table('carrier')} WHERE ${column('carrier', 'warehouseId')} = ?`, [os])).map((r) => r.id),
    );
    await same('threshold changed');
  });

  it('a list page read at the source equals the same rows of the whole answer', async () => {
    // a third warehouse, a code in transit to it only (a cell with nothing standing or configured)
    const kb = (await ok(ts.a, '/warehouse/create', { code: 'KB', name: 'Kobe' })).id;
    const [moving] = await carriers(1, pal, sh);
    const order = await ok(ts.a, '/ship-order/save', { type: 2, shipperWarehouseId: sh, receiverWarehouseId: kb, lines: [{ carrierId: moving }] });
    await ok(ts.a, '/ship-order/release', { id: order.id });
    await ok(ts.a, '/carrier-code/warehouse/create', {
      carrierCodeId: pal,
      warehouseId: os,
      minInventory: 1,
      maxInventory: 9,
      outboundCheckTime: 60,
      idleCheckTime: 15,
    });
    const view = (r: any) => [r.warehouseId, r.carrierCodeId, r.inStock, r.idle, r.inTransitIn, r.inTransitOut, r.min, r.max, r.level];
    const whole = await ok(ts.a, '/inventory/realtime', { page: 1, limit: 100 });
    expect(whole.list.some((r: any) => r.warehouseId === kb && r.inTransitIn === 1 && r.inStock === 0)).toBe(true);
    for (const limit of [1, 2, 3]) {
      const rows: any[] = [];
      for (let page = 1; (page - 1) * limit < whole.total; page++) {
        const got = await ok(ts.a, '/inventory/realtime', { page, limit });
        expect(got.total).toBe(whole.total);
        rows.push(...got.list);
      }
      expect(rows.map(view)).toEqual(whole.list.map(view));
    }
    // one warehouse (read whole, not paged at the source) equals its rows of the whole answer
    const one = await ok(ts.a, '/inventory/realtime', { warehouseId: sh, page: 1, limit: 100 });
    expect(one.list.map(view)).toEqual(whole.list.filter((r: any) => r.warehouseId === sh).map(view));
  });

  it('a warehouse-restricted operator gets its own warehouses, the same figures', async () => {
    const role = (
      await ok(ts.a, '/role/create', {
        name: 'Planner',
        pcPermissions: (await ok(ts.a, '/permission/all', {})).flatMap(function codes(n: any): string[] {
          return [...(n.type === 30 && /^\/inventory/.test(n.path ?? '') ? [n.code] : []), ...(n.children ?? []).flatMap(codes)];
        }),
        pdaPermissions: [],
      })
    ).id;
    const osOp = await ts.callerFor(await ts.addUser(ts.orgA, 'plan-os', { warehouseIds: [os], roleIds: [role] }), ts.orgA);
    const mine = await realtime(osOp);
    expect(Object.keys(mine).length).toBeGreaterThan(0);
    expect(mine).toEqual(await direct([os]));
    // organisation B sees none of A's
    expect(await realtime(ts.b)).toEqual({});
  });
});
