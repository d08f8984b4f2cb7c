/**
 * Named transitions (metadata `transitions`): one call per step with its own permission code,
 * status checked and moved by one conditional UPDATE, inputs validated like fields, stamps,
 * hooks in the step's transaction, and every bad input refused with a translated message and
 * nothing half-written. Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabelKey, resourceLabelKey } from '@rti/metadata';
import { msg } from '../src/access/messages';
import { ApiError, ErrorCode } from '../src/http/api-error';
import type { Language } from '../src/http/types';
import { tKey } from '../src/i18n/translator';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
const refsA: Record<string, number> = {};
const LANGS: Language[] = ['en-US', 'zh-CN', 'ja-JP'];
let n = 100;

const make = (c: Caller, resource: string, refs: Record<string, number>, extra: Record<string, unknown> = {}) =>
  createSample(ts, c, resource, n++, refs, extra);
const ok = callOk;
const t = (lang: Language, key: string, params?: Record<string, unknown>) => ts.server.t(lang, key, params);

beforeAll(async () => {
  ts = await startTestServer();
  refsA.organization = ts.orgA;
  n = await createMasterForCarriers(ts, ts.a, refsA, n);
});
afterAll(() => ts?.close());

const carrier = () => make(ts.a, 'carrier', refsA, { beaconId: null, gpsId: null });
async function bindOrder(lines = 0): Promise<{ id: number; bindNo: string; lineIds: number[] }> {
  const main = await carrier();
  const order = await ok(ts.a, '/carrier-bind/create', { carrierId: main.id });
  const lineIds: number[] = [];
  for (let i = 0; i < lines; i++)
    lineIds.push((await ok(ts.a, '/carrier-bind-detail/create', { carrierBindId: order.id, carrierId: (await carrier()).id, qty: 1 })).id);
  return { id: order.id, bindNo: order.bindNo, lineIds };
}
async function alerts(count: number): Promise<number[]> {
  const model = ts.server.db.models['carrier-alert'];
  const ids: number[] = [];
  for (let i = 0; i < count; i++)
    ids.push(Number((await model.create({ orgId: ts.orgA, carrierSn: `AL-${n++}`, reason: 10, createdTime: new Date(), status: 0 })).get('id')));
  return ids;
}
const alertRow = async (id: number) => (await ts.server.db.models['carrier-alert'].findByPk(id))!.get({ plain: true }) as Record<string, any>;
const bindRow = async (id: number) => (await ts.server.db.models['carrier-bind'].findByPk(id))!.get({ plain: true }) as Record<string, any>;

/** The 10004 a wrong-status step answers, as the translator renders it. */
function wrongStatus(lang: Language, resource: string, step: string, title: string, current: string, wanted: string) {
  const res = ts.server.metadata.resources[resource];
  const f = res.fields.find((x) => x.name === 'status')!;
  const enumKey = (value: number) => ts.server.metadata.enums[f.enum!].find((e) => e.value === value)!.label;
  return t(lang, 'server.transitions.wrongStatus', {
    step: tKey(`transitions.${step}`),
    resource: tKey(resourceLabelKey(res)),
    title,
    field: tKey(fieldLabelKey(f)),
    current: tKey(enumKey(Number(current))),
    wanted: tKey(enumKey(Number(wanted))),
  });
}

describe('a step is a call', () => {
  it('with its own derived permission code, in the catalogue beside the resource', async () => {
    const codes = ts.server.listPermissionCodes();
    for (const code of [
      'ApiCarrierBindRelease',
      'ApiCarrierBindClose',
      'ApiCarrierAlertProcess',
      'ApiDeviceAlertBeaconProcess',
      'ApiDeviceAlertGpsProcess',
      'ApiDeviceAlertSlaveGatewayProcess',
      'ApiDeviceAlertMasterGatewayProcess',
    ]) {
      expect(codes).toContain(code);
    }
    const tree = JSON.stringify((await ts.a.call('/permission/all')).body.data);
    expect(tree).toContain('"code":"ApiCarrierBindRelease"');
  });

  it('moves the status, writes its inputs and stamps who and when (one id or a batch)', async () => {
    const [one, two, three] = await alerts(3);
    const before = Date.now();
    const done = await ok(ts.a, '/carrier-alert/process', { id: one, remark: 'called the driver' });
    expect(done).toMatchObject({ id: one, status: 10, processedBy: 'alice', remark: 'called the driver' });
    expect(Date.parse(done.processedAt)).toBeGreaterThanOrEqual(before - 1000);
    const batch = await ok(ts.a, '/carrier-alert/process', { ids: [two, three] });
    expect(batch.map((r: any) => [r.id, r.status])).toEqual([
      [two, 10],
      [three, 10],
    ]);
    // the operation log records the step as an update of each row (carrier-alert has logObject 12)
    await ts.server.audit.flush();
    const logged = await ts.server.db.models['operation-log'].findAll({ where: { object: 12, objectId: [one, two, three] }, raw: true });
    expect(logged.map((r: any) => [r.objectId, r.action]).sort()).toEqual(
      [
        [one, 20],
        [three, 20],
        [two, 20],
      ].sort(),
    );
  });
});

describe('bad input: a clear translated refusal and nothing half-written', () => {
  it('wrong status: 10004 naming the current and the wanted status in the caller language', async () => {
    const [id] = await alerts(1);
    await ok(ts.a, '/carrier-alert/process', { id, remark: 'first' });
    const stored = await alertRow(id);
    for (const lang of LANGS) {
      const again = await ts.a.call('/carrier-alert/process', { id, remark: 'second' }, { language: lang });
      expect(again.body.code).toBe(10004);
      expect(again.body.message).toBe(wrongStatus(lang, 'carrier-alert', 'process', stored.carrierSn, '10', '0'));
    }
    expect(await alertRow(id)).toMatchObject({ remark: 'first', processedAt: stored.processedAt });
    // a document's step: closing a new bind order names both statuses too
    const order = await bindOrder();
    const close = await ts.a.call('/carrier-bind/close', { id: order.id }, { language: 'zh-CN' });
    expect(close.body.code).toBe(10004);
    expect(close.body.message).toBe(wrongStatus('zh-CN', 'carrier-bind', 'close', order.bindNo, '10', '20'));
    expect(close.body.message).toContain('新建');
  });

  it('a batch with one row in the wrong status moves none of them', async () => {
    const [a, b, c] = await alerts(3);
    await ok(ts.a, '/carrier-alert/process', { id: b });
    const r = await ts.a.call('/carrier-alert/process', { ids: [a, b, c] });
    expect(r.body.code).toBe(10004);
    expect((await alertRow(a)).status).toBe(0);
    expect((await alertRow(c)).status).toBe(0);
  });

  it('inputs are validated like fields before anything is read', async () => {
    const [id] = await alerts(1);
    const long = await ts.a.call('/carrier-alert/process', { id, remark: 'x'.repeat(201) }, { language: 'ja-JP' });
    expect(long.body.code).toBe(10001);
    expect(long.body.message).toBe(t('ja-JP', 'server.validation.lengthMax', { field: tKey('fields.remark'), max: 200 }));
    const noId = await ts.a.call('/carrier-alert/process', { remark: 'x' });
    expect(noId.body.code).toBe(10001);
    const badId = await ts.a.call('/carrier-alert/process', { ids: [id, 'x'] });
    expect(badId.body.code).toBe(10001);
    expect(await alertRow(id)).toMatchObject({ status: 0, remark: null, processedBy: null });
  });

  it('concurrent steps on one document: exactly one wins, the others get 10004', async () => {
    const order = await bindOrder(2);
    const results = await Promise.all(Array.from({ length: 5 }, () => ts.a.call('/carrier-bind/release', { id: order.id })));
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 10004, 10004, 10004, 10004]);
    for (const r of results.filter((x) => x.body.code === 10004))
      expect(r.body.message).toBe(wrongStatus('en-US', 'carrier-bind', 'release', order.bindNo, '20', '10'));
    expect((await bindRow(order.id)).status).toBe(20);
  });

  it("the status is checked again by the UPDATE itself: a row moved between the step's read and its write answers 10004, nothing written", async () => {
    // SQLite serialises writers, so a real race never lands between read and write there: force
    // it by moving the row inside the step's own transaction just before its UPDATE runs.
    const [id] = await alerts(1);
    const model = ts.server.db.models['carrier-alert'];
    const original = model.update.bind(model);
    const raced = async (values: any, opts: any) => {
      (model as any).update = original;
      await original({ status: 10, remark: 'someone else' }, { where: { id }, transaction: opts.transaction });
      return original(values, opts);
    };
    (model as any).update = raced;
    try {
      const got = await ts.a.call('/carrier-alert/process', { id, remark: 'mine' });
      expect(got.body.code).toBe(10004);
    } finally {
      (model as any).update = original;
    }
    // the whole step rolled back, the racing write with it (it was in the same transaction)
    expect(await alertRow(id)).toMatchObject({ status: 0, remark: null });
  });

  it('an unknown step answers 10013 in the caller language', async () => {
    const order = await bindOrder();
    for (const lang of LANGS) {
      const r = await ts.a.call('/carrier-bind/ship', { id: order.id }, { language: lang });
      expect(r.body.code).toBe(10013);
      expect(r.body.message).toBe(t(lang, 'server.errors.10013', { path: '/api/carrier-bind/ship' }));
    }
    expect((await bindRow(order.id)).status).toBe(10);
    expect(() => ts.server.transitions.on('carrier-bind', 'ship', () => undefined)).toThrow(/no step "ship" \(release, close\)/);
  });

  it('a step without its permission code answers 10005, the row unchanged', async () => {
    const codes = ts.server.listPermissionCodes().filter((c) => c !== 'ApiCarrierBindRelease');
    const models = ts.server.db.models;
    const role = await models.role.create({ orgId: ts.orgA, name: 'no release', pcPermissions: codes });
    const user = await models.user.create({ orgId: ts.orgA, name: 'norelease', realName: 'No Release', roleIds: [role.get('id')], organizationIds: [ts.orgA] });
    await ts.server.access.policies.changed([ts.orgA], undefined);
    const caller = await ts.callerFor(Number(user.get('id')), ts.orgA);
    const order = await bindOrder();
    for (const lang of LANGS) {
      const r = await caller.call('/carrier-bind/release', { id: order.id }, { language: lang });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(10005);
      expect(r.body.message).toBe(msg(lang, 'access.noPermission', { code: 'ApiCarrierBindRelease' }));
    }
    expect((await bindRow(order.id)).status).toBe(10);
    // the same user may close (another step, another code) once someone else released it
    await ok(ts.a, '/carrier-bind/release', { id: order.id });
    expect((await caller.call('/carrier-bind/close', { id: order.id })).body.code).toBe(0);
  });
});

describe('hooks run inside the step transaction', () => {
  it('see the rows before and after, write through a bound repository, and a throw rolls everything back', async () => {
    const order = await bindOrder(3);
    let fail = true;
    const seen: Array<Record<string, unknown>> = [];
    const off = ts.server.transitions.on('carrier-bind', 'release', async (e) => {
      seen.push({ ids: e.ids, before: e.previous[0].status, after: e.rows[0].status, to: e.to });
      // a set-based side effect over the lines, in the same transaction
      const moved = await e.repo('carrier-bind-detail').updateWhere({ remark: 'released' }, { carrierBindId: e.ids });
      expect(moved).toBe(3);
      if (fail) throw new ApiError(ErrorCode.statusForbidden, 'rules.bindNotEditable');
    });
    try {
      const refused = await ts.a.call('/carrier-bind/release', { id: order.id });
      expect(refused.body.code).toBe(10004);
      expect(refused.body.message).toBe(t('en-US', 'rules.bindNotEditable'));
      expect((await bindRow(order.id)).status).toBe(10);
      const lines = await ts.server.db.models['carrier-bind-detail'].findAll({ where: { carrierBindId: order.id }, raw: true });
      expect(lines.map((l: any) => l.remark)).toEqual([null, null, null]);

      fail = false;
      const done = await ok(ts.a, '/carrier-bind/release', { id: order.id });
      expect(done.status).toBe(20);
      const after = await ts.server.db.models['carrier-bind-detail'].findAll({ where: { carrierBindId: order.id }, raw: true });
      expect(after.map((l: any) => l.remark)).toEqual(['released', 'released', 'released']);
      expect(seen).toEqual([
        { ids: [order.id], before: 10, after: 20, to: 20 },
        { ids: [order.id], before: 10, after: 20, to: 20 },
      ]);
    } finally {
      off();
    }
  });

  it('what a hook writes to the moved rows themselves is in the answer: a bulk UPDATE of known columns, and a row saved whole', async () => {
    const a = await bindOrder(1);
    const b = await bindOrder(1);
    let whole = false;
    const off = ts.server.transitions.on('carrier-bind', 'release', async (e) => {
      if (!whole) await e.repo('carrier-bind').updateWhere({ remark: 'stamped by a hook' }, { id: e.ids });
      else
        await ts.server.db.models['carrier-bind'].update(
          { remark: 'saved whole' },
          { where: { id: e.ids }, transaction: e.transaction, individualHooks: true },
        );
    });
    try {
      const first = await ok(ts.a, '/carrier-bind/release', { id: a.id });
      expect(first).toMatchObject({ status: 20, remark: 'stamped by a hook' });
      whole = true;
      const second = await ok(ts.a, '/carrier-bind/release', { id: b.id });
      expect(second).toMatchObject({ status: 20, remark: 'saved whole' });
    } finally {
      off();
    }
  });

  it('afterCommit runs once the step committed, never after a rollback', async () => {
    const ran: string[] = [];
    let fail = false;
    const off = ts.server.transitions.on('carrier-bind', 'release', (e) => {
      e.afterCommit(() => void ran.push(`committed ${e.ids[0]}`));
      if (fail) throw new Error('boom');
    });
    try {
      const a = await bindOrder();
      await ok(ts.a, '/carrier-bind/release', { id: a.id });
      fail = true;
      const b = await bindOrder();
      expect((await ts.a.call('/carrier-bind/release', { id: b.id })).body.code).toBe(10000);
      await new Promise((r) => setTimeout(r, 20));
      expect(ran).toEqual([`committed ${a.id}`]);
    } finally {
      off();
    }
  });

  it('status/update is the step statusUpdate: same engine, hooks and refusals', async () => {
    const c = await carrier();
    const seen: unknown[] = [];
    const off = ts.server.transitions.on('carrier', 'statusUpdate', (e) => void seen.push([e.previous[0].status, e.to]));
    try {
      await ok(ts.a, '/carrier/status/update', { id: c.id, status: 30 });
      const back = await ts.a.call('/carrier/status/update', { id: c.id, status: 10 }, { language: 'zh-CN' });
      expect(back.body.code).toBe(10004);
      expect(back.body.message).toContain(t('zh-CN', 'fields.status'));
      expect(seen).toEqual([[c.status, 30]]);
    } finally {
      off();
    }
  });
});
