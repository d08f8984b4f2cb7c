/**
 * The scoped repository's set-based methods — what plugins have instead of the raw model: every
 * read, count, sum, group count, update-where, increment, delete-where and insert carries the
 * caller's organisation and warehouses, whatever conditions the plugin passes. A resource with
 * several warehouse fields (ship order: shipper and receiver) is in scope through any of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Op, col, fn, literal, where } from 'sequelize';
import { loadMetadata, resourceApiPath } from '@rti/metadata';
import type { RequestContext } from '../src/http/types';
import { ApiError } from '../src/http/api-error';
import { rowsInBothOrgs, type OrgRows } from './access-fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type TestServer } from './support/test-server';

const metadata = loadMetadata();
let ts: TestServer;
let rows: OrgRows;
let ctxA: RequestContext;
let ctxB: RequestContext;
let a: number;
let b: number;

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  rows = await rowsInBothOrgs(ts);
  ctxA = ts.server.systemContext(ts.orgA);
  ctxB = ts.server.systemContext(ts.orgB);
  a = rows.a.carrier.id;
  b = rows.b.carrier.id;
}, 120_000);
afterAll(() => ts?.close());

const carrierOfB = async () => (await ts.server.repo('carrier', ctxB).findOne({ id: b }))!.get({ plain: true }) as Record<string, unknown>;

describe('scoped methods in organisation A never reach a row of B', () => {
  it('reads: findAll, findOne, rows, driverRows, count, sum, countBy', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const both = { id: { [Op.in]: [a, b] } };
    expect((await repo.findAll({ where: both })).map((r) => r.get('id'))).toEqual([a]);
    expect(await repo.findOne({ id: b })).toBeNull();
    expect((await repo.rows(both, { attributes: ['id', 'orgId'] })).map((r) => r.orgId)).toEqual([ts.orgA]);
    expect((await repo.driverRows(['id'], both)).map((r) => Number(r.id))).toEqual([a]);
    expect(await repo.count(both)).toBe(1);
    expect(await repo.sum('id', both)).toBe(a);
    // a condition naming B's organisation is ANDed with A's, not instead of it
    expect(await repo.count({ orgId: ts.orgB })).toBe(0);
    expect([...(await repo.countBy('orgId')).keys()]).toEqual([ts.orgA]);
  });

  it("rows with a HAVING on the groups: the condition is on A's groups only, never a way to B's rows", async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const n = fn('COUNT', col(repo.column('id')));
    const grouped = (having: unknown) => repo.rows({ id: { [Op.in]: [a, b] } }, { attributes: ['orgId', [n, 'n']], group: ['orgId'], having: having as never });
    expect((await grouped(where(n, Op.gte, 1))).map((r) => [r.orgId, Number(r.n)])).toEqual([[ts.orgA, 1]]);
    // a HAVING true for every group, and one that names B's organisation: still A's group alone, or none
    expect((await grouped(literal('1 = 1'))).map((r) => r.orgId)).toEqual([ts.orgA]);
    expect(await grouped(where(col(repo.column('orgId')), Op.eq, ts.orgB))).toEqual([]);
  });

  it('countByDay: per UTC day of a datetime, scope ANDed in, unknown field refused', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const both = { id: { [Op.in]: [a, b] } };
    const [row] = await repo.rows({ id: a }, { attributes: ['createdAt'] });
    const day = new Date(row.createdAt as string).toISOString().slice(0, 10);
    // B's carrier, created the same day, is not counted
    expect([...(await repo.countByDay('createdAt', both))]).toEqual([[day, 1]]);
    expect((await repo.countByDay('createdAt', { id: b })).size).toBe(0);
    await expect(repo.countByDay('nope')).rejects.toThrow(/no field "nope"/);
  });

  it('countRanges: one scan per scope, ranges in order, nulls apart, bad bounds refused', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const both = { id: { [Op.in]: [a, b] } };
    // B's carrier counts in no range: the scope is ANDed with the ranges
    const { counts, nulls } = await repo.countRanges('id', [{ gte: a }, { lt: a }, { gte: a, lt: a + 1 }, {}], both);
    expect(counts).toEqual([1, 0, 1, 1]);
    expect(nulls).toBe(0);
    expect((await repo.countRanges('id', [{ gte: a }], { id: b })).counts).toEqual([0]);
    await expect(repo.countRanges('id', [{ gte: Number.NaN }])).rejects.toThrow(/range gte NaN/);
    await expect(repo.countRanges('nope', [{}])).rejects.toThrow(/no field "nope"/);
  });

  it('organisationsWith answers only the ids of organisations with matching rows', async () => {
    const { organisationsWith } = await import('../src/resources/repository');
    expect(await organisationsWith(ts.server.db, ts.server.metadata, 'carrier', { id: { [Op.in]: [a, b] } })).toEqual([ts.orgA, ts.orgB].sort((x, y) => x - y));
    expect(await organisationsWith(ts.server.db, ts.server.metadata, 'carrier', { id: b })).toEqual([ts.orgB]);
    expect(await organisationsWith(ts.server.db, ts.server.metadata, 'carrier', { id: -1 })).toEqual([]);
    await expect(organisationsWith(ts.server.db, ts.server.metadata, 'nope')).rejects.toThrow(/no resource/);
  });

  it('writes: updateWhere, increment and deleteWhere leave B untouched', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const before = await carrierOfB();
    const cycles = Number((await repo.findOne({ id: a }))!.get('cycleCount') ?? 0);
    expect(await repo.updateWhere({ name: 'renamed by A' }, { id: { [Op.in]: [a, b] } })).toBe(1);
    expect(await repo.increment({ cycleCount: 2 }, { id: { [Op.in]: [a, b] } })).toBe(1);
    expect(await repo.deleteWhere({ id: b })).toBe(0);
    expect(Number((await repo.findOne({ id: a }))!.get('cycleCount'))).toBe(cycles + 2);
    expect((await repo.findOne({ id: a }))!.get('name')).toBe('renamed by A');
    expect(await carrierOfB()).toEqual(before);
  });

  it('insertMany stamps the organisation and author from the context; a row cannot claim another organisation', async () => {
    const logs = ts.server.repo('carrier-log', ctxA);
    const time = new Date();
    expect(
      await logs.insertMany([
        { carrierId: a, event: 10, time },
        { carrierId: a, event: 10, time },
      ]),
    ).toBe(2);
    const mine = await logs.rows({ carrierId: a, time }, { attributes: ['orgId', 'createdAt'] });
    expect(mine).toHaveLength(2);
    for (const r of mine) expect(r.orgId).toBe(ts.orgA);
    await expect(logs.insertMany([{ carrierId: a, event: 10, orgId: ts.orgB }])).rejects.toThrow(/cannot set orgId/);
    await expect(ts.server.repo('carrier', ctxA).updateWhere({ orgId: ts.orgB }, { id: a })).rejects.toThrow(/cannot set orgId/);
  });

  it('insertFrom: one INSERT … SELECT of the source rows in scope, columns, constants and days, stamped from the context', async () => {
    const carriers = ts.server.repo('carrier', ctxA);
    const logs = ts.server.repo('carrier-log', ctxA);
    const [{ sn }] = await carriers.rows({ id: a }, { attributes: ['sn'] });
    const time = new Date('2026-02-01T10:00:00.000Z');
    const made = async (startTime: Date | null) => {
      await carriers.updateWhere({ startTime, remark: null }, { id: a });
      await ts.server.repo('carrier', ctxB).updateWhere({ startTime }, { id: b });
      // B's carrier matches the condition too: only A's is copied
      return logs.insertFrom(
        'carrier',
        {
          carrierId: { field: 'id' },
          event: { value: 10 },
          oldValue: { field: 'remark', ifNull: 'no remark' },
          newValue: { day: 'startTime', plusDays: 3, ifNull: '2026-01-30' },
          operator: { field: 'sn' },
          time: { value: time },
          remarkKey: { value: { key: 'copied' } },
        },
        { id: { [Op.in]: [a, b] } },
      );
    };
    expect(await made(new Date('2026-03-05T23:30:00.000Z'))).toBe(1);
    expect(await made(null)).toBe(1);
    const got = await logs.rows(
      { carrierId: { [Op.in]: [a, b] }, time },
      { attributes: ['orgId', 'carrierId', 'oldValue', 'newValue', 'operator', 'time', 'remarkKey', 'createdAt'], order: [['id', 'ASC']] },
    );
    expect(got.map((r) => [r.orgId, r.carrierId, r.oldValue, r.newValue, r.operator])).toEqual([
      [ts.orgA, a, 'no remark', '2026-03-08', sn],
      [ts.orgA, a, 'no remark', '2026-02-02', sn],
    ]);
    for (const r of got) {
      expect(new Date(r.time as string).getTime()).toBe(time.getTime());
      expect(typeof r.remarkKey === 'string' ? JSON.parse(r.remarkKey) : r.remarkKey).toEqual({ key: 'copied' });
      expect(r.createdAt).toBeTruthy();
    }
    await expect(logs.insertFrom('carrier', { carrierId: { field: 'id' }, orgId: { value: ts.orgB } }, { id: a })).rejects.toThrow(/cannot set orgId/);
    await expect(logs.insertFrom('carrier', { carrierId: { field: 'nope' } }, { id: a })).rejects.toThrow(/no field "nope"/);
    await expect(logs.insertFrom('carrier', { carrierId: { field: 'id' }, createdBy: { value: 1 } }, { id: a })).rejects.toThrow(/cannot write "createdBy"/);
    await expect(logs.insertFrom('carrier', { newValue: { day: 'startTime', ifNull: 'tomorrow' } }, { id: a })).rejects.toThrow(/ifNull day/);
    await expect(logs.insertFrom('nope', {}, {})).rejects.toThrow(/unknown resource/);
  });

  it('refuses read options that would join another table past its scope', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    await expect(repo.findAll({ include: [{ all: true }] } as never)).rejects.toThrow(/read option "include" is not scoped/);
  });

  it('has no raw model on the plugin-facing type', () => {
    const repo = ts.server.repo('carrier', ctxA);
    // @ts-expect-error the raw model is not part of ScopedRepository (engine code uses modelOf)
    expect(repo.model).toBeUndefined();
    expect('model' in repo).toBe(false);
  });
});

describe('several warehouse fields', () => {
  let w1: number;
  let w2: number;
  let w3: number;
  let restricted: RequestContext;
  const order = async (shipper: number, receiver: number, n: number) => {
    const refs: Record<string, number> = { organization: ts.orgA };
    for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
    const made = await ts.a.call('/ship-order/create', {
      ...sampleBody(metadata.resources['ship-order'], metadata, n, refs, rows.second.a),
      shipperWarehouseId: shipper,
      receiverWarehouseId: receiver,
    });
    expect(made.body.code, made.body.message).toBe(0);
    return made.body.data.id as number;
  };

  beforeAll(async () => {
    w1 = rows.a.warehouse.id;
    w2 = rows.second.a.warehouse;
    const third = await ts.a.call('/warehouse/create', sampleBody(metadata.resources.warehouse, metadata, 888, { organization: ts.orgA }));
    expect(third.body.code, third.body.message).toBe(0);
    w3 = third.body.data.id;
    restricted = { ...ctxA, warehouseIds: [w1] };
  });

  it("a row is in scope when any of its warehouse fields is the caller's", async () => {
    expect(metadata.resources['ship-order'].warehouseField).toEqual(['shipperWarehouseId', 'receiverWarehouseId']);
    const out = await order(w1, w2, 7001);
    const into = await order(w2, w1, 7002);
    const elsewhere = await order(w2, w3, 7003);
    const repo = ts.server.repo('ship-order', restricted);
    const ids = [out, into, elsewhere];
    expect((await repo.rows({ id: { [Op.in]: ids } }, { attributes: ['id'], order: [['id', 'ASC']] })).map((r) => r.id)).toEqual([out, into]);
    expect(await repo.count({ id: { [Op.in]: ids } })).toBe(2);
    expect(await repo.updateWhere({ remark: 'seen' }, { id: { [Op.in]: ids } })).toBe(2);
    expect((await ts.server.repo('ship-order', ctxA).findOne({ id: elsewhere }))!.get('remark')).not.toBe('seen');
    // the generated calls share the one where-clause builder
    const wendy = await ts.callerFor(await ts.addUser(ts.orgA, 'wendy-ship', { warehouseIds: [w1] }), ts.orgA);
    const listed = await wendy.call('/ship-order/list', { limit: 1000 });
    const visible = (listed.body.data.list as Array<{ id: number }>).map((r) => r.id);
    expect(visible).toEqual(expect.arrayContaining([out, into]));
    expect(visible).not.toContain(elsewhere);
    expect((await wendy.call(resourceApiPath(metadata.resources['ship-order'], 'base'), { id: elsewhere })).body.code).toBe(10002);
    expect((await wendy.call(resourceApiPath(metadata.resources['ship-order'], 'base'), { id: into })).body.code).toBe(0);
  });

  it("set-based writes keep a restricted caller's rows in its warehouses", async () => {
    const repo = ts.server.repo('ship-order', restricted);
    const warehouseRefusal = (err: unknown) => err instanceof ApiError && err.code === 10001 && err.messageKey === 'server.validation.warehouse';
    await expect(repo.updateWhere({ shipperWarehouseId: w3 }, { shipperWarehouseId: w1 })).rejects.toSatisfy(warehouseRefusal);
    const refs: Record<string, number> = { organization: ts.orgA };
    for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
    const body = sampleBody(metadata.resources['ship-order'], metadata, 7100, refs, rows.second.a);
    await expect(repo.insertMany([{ ...body, orderNo: 'SO-X1', shipperWarehouseId: w2, receiverWarehouseId: w3 }])).rejects.toSatisfy(warehouseRefusal);
  });
});
