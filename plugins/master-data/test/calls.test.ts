/**
 * Every extra call of the plugin answers correctly and only from the caller's organisation:
 * organisation B's rows never appear in A's answers, whatever B has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, seedBasics, startWithPlugin, type Basics, type TestServer } from './fixtures';

let ts: TestServer;
let a: Basics;
let b: Basics;

beforeAll(async () => {
  ts = await startWithPlugin();
  a = await seedBasics(ts, ts.a, 'A');
  b = await seedBasics(ts, ts.b, 'B');
  for (const [caller, tag] of [
    [ts.a, 'A'],
    [ts.b, 'B'],
  ] as const) {
    await ok(caller, '/dictionary/create', { category: 10, name: `Steel ${tag}`, value: 'steel', displayOrder: 2 });
    await ok(caller, '/dictionary/create', { category: 10, name: `Plastic ${tag}`, value: 'plastic', displayOrder: 1 });
    await ok(caller, '/dictionary/create', { category: 20, name: `Piece ${tag}`, value: 'pcs' });
    await ok(caller, '/role/create', { name: `Picker ${tag}` });
  }
});
afterAll(() => ts?.close());

const names = (rows: Array<{ name?: unknown }>) => rows.map((r) => r.name);

describe('dictionary', () => {
  it('search filters by category and keyword; categorized groups by category in display order', async () => {
    expect(names(await ok(ts.a, '/dictionary/search', { category: 10 }))).toEqual(['Plastic A', 'Steel A']);
    expect(names(await ok(ts.a, '/dictionary/search', { keyword: 'pcs' }))).toEqual(['Piece A']);
    const grouped = await ok(ts.a, '/dictionary/categorized', { categories: [10, 20, 30] });
    expect(names(grouped['10'])).toEqual(['Plastic A', 'Steel A']);
    expect(names(grouped['20'])).toEqual(['Piece A']);
    expect(grouped['30']).toEqual([]);
    const everything = await ok(ts.a, '/dictionary/categorized');
    expect(Object.keys(everything)).toContain('93');
    expect(JSON.stringify(everything)).not.toContain(' B"');
  });

  it('keeps (category, value) unique per organisation', async () => {
    const dup = await ts.a.call('/dictionary/create', { category: 10, name: 'Steel again', value: 'steel' });
    expect(dup.body.code).toBe(10003);
    expect(dup.body.message).toBe('Value "steel" already exists in this category');
    await ok(ts.a, '/dictionary/create', { category: 40, name: 'Steel colour', value: 'steel' });
    const piece = (await ok(ts.a, '/dictionary/search', { keyword: 'Piece' }))[0];
    expect((await ts.a.call('/dictionary/update', { id: piece.id, category: 10, value: 'plastic' })).body.code).toBe(10003);
  });
});

describe('users, roles, organisations', () => {
  it('user search, sys-org list and all4project stay in the organisation and hide secrets', async () => {
    const found = await ok(ts.a, '/user/search', { keyword: 'ali' });
    expect(found.map((u: any) => u.name)).toEqual(['alice']);
    expect(found[0]).not.toHaveProperty('password');
    expect(await ok(ts.a, '/user/search', { keyword: 'bob' })).toEqual([]);
    expect((await ok(ts.a, '/user/all4project')).map((u: any) => u.name)).toEqual(['alice']);
    expect(await ok(ts.a, '/user/sys-org/list')).toEqual({ list: [], total: 0 });
    await ts.server.db.models.user.update({ sysOrgUser: true }, { where: { name: 'alice' } });
    const sys = await ok(ts.a, '/user/sys-org/list', { page: 1, limit: 10 });
    expect(sys.total).toBe(1);
    expect(sys.list[0].name).toBe('alice');
    expect((await ok(ts.b, '/user/sys-org/list')).total).toBe(0);
  });

  it('role search, choose and organization/all answer the current organisation only', async () => {
    expect(names(await ok(ts.a, '/role/search', { keyword: 'pick' }))).toEqual(['Picker A']);
    expect(names(await ok(ts.a, '/role/choose')).sort()).toEqual(['Picker A', 'all']);
    const all = await ok(ts.a, '/role/organization/all');
    expect(names(all).sort()).toEqual(['Picker A', 'all']);
    expect(all.every((r: any) => r.orgId === ts.orgA)).toBe(true);
  });

  it('organisation search finds only the caller organisations', async () => {
    expect((await ok(ts.a, '/organization/search', { keyword: 'ORG' })).map((o: any) => o.code)).toEqual(['ORGA']);
    expect(await ok(ts.a, '/organization/search', { keyword: 'ORGB' })).toEqual([]);
    expect((await ts.a.call('/organization/search', { keyword: { x: 1 } })).body.code).toBe(10001);
  });

  it('enums/device-type answers translated options', async () => {
    expect(await ok(ts.a, '/enums/device-type')).toEqual([
      { value: 10, label: 'Beacon' },
      { value: 20, label: 'GPS device' },
      { value: 30, label: 'Slave gateway' },
      { value: 40, label: 'Master gateway' },
    ]);
    const zh = await ts.a.call('/enums/device-type', {}, { language: 'zh-CN' });
    expect(zh.body.data[0].label).not.toBe('Beacon');
  });
});

describe('warehouses', () => {
  it('map, map/name and list/user answer the organisation warehouses with location coordinates', async () => {
    const loc = await ok(ts.a, '/location/create', { name: 'Dock A', longitude: 121.5, latitude: 31.2, type: 0 });
    await ok(ts.a, '/warehouse/update', { id: a.warehouseId, locationId: loc.id });
    await ok(ts.a, '/warehouse/create', { code: 'WH-HIDDEN', name: 'Hidden', visibleInMap: false });
    const map = await ok(ts.a, '/warehouse/map');
    expect(map).toHaveLength(1);
    expect(map[0]).toMatchObject({ id: a.warehouseId, name: 'Warehouse A', longitude: 121.5, latitude: 31.2 });
    expect(await ok(ts.a, '/warehouse/map/name')).toEqual([{ id: a.warehouseId, name: 'Warehouse A' }]);
    expect((await ok(ts.a, '/warehouse/list/user')).map((w: any) => w.code).sort()).toEqual(['WH-A', 'WH-HIDDEN']);
    expect(JSON.stringify(await ok(ts.b, '/warehouse/map'))).not.toContain('Warehouse A');
  });

  it('list/user narrows a warehouse-restricted user to its warehouses', async () => {
    const id = await ts.addUser(ts.orgA, 'carol', { warehouseIds: [a.warehouseId] });
    const carol = await ts.callerFor(id, ts.orgA);
    expect((await ok(carol, '/warehouse/list/user')).map((w: any) => w.id)).toEqual([a.warehouseId]);
  });
});

describe('carrier codes, parts, cover', () => {
  it('all/no/carrier lists codes without carriers, of the organisation only', async () => {
    const spare = await ok(ts.a, '/carrier-code/create', { code: 'CC-SPARE', name: 'Spare', projectId: a.projectId, type: 30, available: true });
    await ok(ts.a, '/carrier/create', { sn: 'COVER-1', carrierCodeId: a.carrierCodeId });
    const codes = (await ok(ts.a, '/carrier-code/all/no/carrier')).map((c: any) => c.id);
    expect(codes).toEqual([spare.id]);
  });

  it('route/list and warehouse/list are the carrier code child resources', async () => {
    const from = await ok(ts.a, '/warehouse/create', { code: 'WH-FROM', name: 'From' });
    const route = await ok(ts.a, '/route/create', { routeName: 'R1', fromWarehouseId: from.id, toWarehouseId: a.warehouseId });
    await ok(ts.a, '/carrier-code/route/create', { carrierCodeId: a.carrierCodeId, routeId: route.id });
    await ok(ts.a, '/carrier-code/warehouse/create', {
      carrierCodeId: a.carrierCodeId,
      warehouseId: a.warehouseId,
      minInventory: 1,
      maxInventory: 9,
      outboundCheckTime: 30,
      idleCheckTime: 60,
    });
    const routes = await ok(ts.a, '/carrier-code/route/list', { carrierCodeId: a.carrierCodeId });
    expect(routes.list.map((r: any) => r.routeIdLabel)).toEqual(['R1']);
    const wh = await ok(ts.a, '/carrier-code/warehouse/list', { carrierCodeId: a.carrierCodeId });
    expect(wh.list[0]).toMatchObject({ warehouseId: a.warehouseId, minInventory: 1, maxInventory: 9 });
    const bad = await ts.a.call('/carrier-code/warehouse/create', {
      carrierCodeId: a.carrierCodeId,
      warehouseId: from.id,
      minInventory: 9,
      maxInventory: 1,
      outboundCheckTime: 1,
      idleCheckTime: 1,
    });
    expect(bad.body.code).toBe(10001);
    expect((await ok(ts.b, '/carrier-code/route/list', { carrierCodeId: a.carrierCodeId })).total).toBe(0);
  });

  it('part tree by parent code, with code, parent and cycle rules', async () => {
    const mk = (code: string, parentCode?: string) =>
      ts.a.call('/part/create', { carrierCodeId: a.carrierCodeId, code, name: `Part ${code}`, qty: 1, ...(parentCode ? { parentCode } : {}) });
    expect((await mk('P1')).body.code).toBe(0);
    expect((await mk('P1-1', 'P1')).body.code).toBe(0);
    const leaf = await mk('P1-1-1', 'P1-1');
    expect(leaf.body.code).toBe(0);
    expect((await mk('P2')).body.code).toBe(0);
    expect((await mk('P1')).body.code).toBe(10003);
    expect((await mk('P3', 'NOPE')).body.message).toBe('Parent code NOPE is not a part of this carrier code');
    const p1 = (await ok(ts.a, '/part/list', { code: 'P1', carrierCodeId: a.carrierCodeId })).list.find((p: any) => p.code === 'P1');
    expect((await ts.a.call('/part/update', { id: p1.id, parentCode: 'P1-1-1' })).body.code).toBe(10001);
    const tree = await ok(ts.a, '/part/get-part-by-carrier-code-id', { carrierCodeId: a.carrierCodeId });
    expect(tree.map((p: any) => p.code)).toEqual(['P1', 'P2']);
    expect(tree[0].children[0].code).toBe('P1-1');
    expect(tree[0].children[0].children[0].code).toBe('P1-1-1');
    expect((await ts.a.call('/part/delete', { id: p1.id })).body.code).toBe(10004);
    expect((await ts.b.call('/part/get-part-by-carrier-code-id', { carrierCodeId: a.carrierCodeId })).body.code).toBe(10002);
    expect((await ts.a.call('/part/get-part-by-carrier-code-id', {})).body.code).toBe(10001);
  });

  it('cover overwrites carriers found by sn and reports the others', async () => {
    const got = await ok(ts.a, '/carrier/cover', {
      carriers: [
        { sn: 'COVER-1', name: 'Covered', remark: 'x' },
        { sn: 'MISSING', name: 'n' },
      ],
    });
    expect(got.covered).toBe(1);
    expect(got.failed).toEqual([{ row: 2, sn: 'MISSING', code: 10002, message: expect.any(String) }]);
    expect((await ok(ts.a, '/carrier/list', { sn: 'COVER-1' })).list[0].name).toBe('Covered');
    // B cannot cover A's carrier
    const fromB = await ok(ts.b, '/carrier/cover', { carriers: [{ sn: 'COVER-1', name: 'Hijacked' }] });
    expect(fromB.covered).toBe(0);
    expect((await ok(ts.a, '/carrier/list', { sn: 'COVER-1' })).list[0].name).toBe('Covered');
    expect((await ts.a.call('/carrier/cover', { carriers: [] })).body.code).toBe(10001);
  });
});

describe('carrier bind orders', () => {
  it('batch/add upserts by carrier, keeps the total, and refuses 300/301', async () => {
    const mk = (sn: string) => ok(ts.a, '/carrier/create', { sn, carrierCodeId: a.carrierCodeId });
    const [main, s1, s2, main2] = [await mk('M-1'), await mk('S-1'), await mk('S-2'), await mk('M-2')];
    const order = await ok(ts.a, '/carrier-bind/create', { bindNo: 'BIND-1', carrierId: main.id });
    const second = await ts.a.call('/carrier-bind/create', { bindNo: 'BIND-2', carrierId: main.id });
    expect(second.body.code).toBe(10003);
    expect(second.body.message).toBe('Carrier M-1 already has an unreleased bind order (BIND-1)');
    const added = await ok(ts.a, '/carrier-bind-detail/batch/add', { carrierBindId: order.id, details: [{ carrierId: s1.id, qty: 2 }, { carrierId: s2.id }] });
    expect(added).toEqual({ added: 2, updated: 0, failed: [] });
    const again = await ok(ts.a, '/carrier-bind-detail/batch/add', { carrierBindId: order.id, details: [{ carrierId: s1.id, qty: 5 }] });
    expect(again).toMatchObject({ added: 0, updated: 1 });
    expect((await ok(ts.a, '/carrier-bind-detail/list', { carrierBindId: order.id })).total).toBe(2);
    expect((await ok(ts.a, '/carrier-bind', { id: order.id })).totalAmount).toBe(6);
    const self = await ok(ts.a, '/carrier-bind-detail/batch/add', { carrierBindId: order.id, details: [{ carrierId: main.id }] });
    expect(self.failed[0].message).toBe('A carrier cannot be bound to itself');
    const other = await ok(ts.a, '/carrier-bind/create', { bindNo: 'BIND-3', carrierId: main2.id });
    const taken = await ok(ts.a, '/carrier-bind-detail/batch/add', { carrierBindId: other.id, details: [{ carrierId: s1.id }] });
    expect(taken.failed[0]).toMatchObject({ code: 10003, message: 'Carrier S-1 is already bound to another carrier (M-1)' });
    expect(
      (await ts.a.call('/carrier-bind-detail/batch/add', { carrierBindId: order.id, details: [{ carrierId: s1.id }, { carrierId: s1.id }] })).body.code,
    ).toBe(10001);
    expect((await ts.b.call('/carrier-bind-detail/batch/add', { carrierBindId: order.id, details: [{ carrierId: s1.id }] })).body.code).toBe(10002);
    // released orders keep their details; deleting a new order removes its details
    await ok(ts.a, '/carrier-bind/delete', { id: other.id });
    expect((await ok(ts.a, '/carrier-bind-detail/list', { carrierBindId: other.id })).total).toBe(0);
  });
});

describe('config', () => {
  it('answers defaults, then one row per organisation', async () => {
    const first = await ok(ts.a, '/config');
    expect(first).toMatchObject({ id: null, dataMissingAlertMinutes: 60, altitudeAlertMeters: 200, mapProvider: 10 });
    const saved = await ok(ts.a, '/config/update', { dataMissingAlertMinutes: 90, orgId: ts.orgB });
    expect(saved).toMatchObject({ dataMissingAlertMinutes: 90, orgId: ts.orgA });
    const again = await ok(ts.a, '/config/update', { altitudeAlertMeters: 300 });
    expect(again).toMatchObject({ id: saved.id, dataMissingAlertMinutes: 90, altitudeAlertMeters: 300 });
    expect((await ok(ts.b, '/config')).dataMissingAlertMinutes).toBe(60);
    expect((await ts.a.call('/config/update', { dataMissingAlertMinutes: 0 })).body.code).toBe(10001);
  });
});

describe('permissions', () => {
  it('every call of the plugin needs its own Api code, and a foreign OrgId is refused', async () => {
    const models = ts.server.db.models;
    const role = await models.role.create({ orgId: ts.orgA, name: 'nothing', pcPermissions: [] });
    const user = await models.user.create({ orgId: ts.orgA, name: 'nobody', realName: 'Nobody', roleIds: [role.get('id')], organizationIds: [ts.orgA] });
    await ts.server.access.policies.changed([ts.orgA], undefined);
    const nobody = await ts.callerFor(Number(user.get('id')), ts.orgA);
    const calls = ts.server.calls.list().filter((c) => c.plugin === 'master-data');
    // 19 hand-written calls (the inventory reports are the reports plugin's)
    expect(calls.length).toBe(19);
    expect(calls.map((c) => c.path)).not.toEqual(expect.arrayContaining(['/inventory-report/list']));
    for (const c of calls) {
      const got = await nobody.call(c.path, {});
      expect(got.body.code, c.path).toBe(10005);
      expect(ts.server.listPermissionCodes()).toContain(
        `Api${c.path
          .split(/[/-]/)
          .filter(Boolean)
          .map((s) => s[0].toUpperCase() + s.slice(1))
          .join('')}`,
      );
      expect((await ts.a.call(c.path, {}, { orgId: ts.orgB })).body.code, c.path).toBe(10007);
    }
  });
});
