/**
 * A document's timeline (`<prefix>/timeline`: who ran which step when, from the operation log,
 * steps run from code with their cause) and step guards (M17: `guard.notUser`, the auditor is
 * not the applicant; `guard.permission`, an extra code), over the carrier-bind fixture with a
 * test copy of its metadata: release stamps `releasedBy` and needs ApiCarrierBindDelete, close
 * may not be run by the user who released. Every refusal in three languages, nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, resourceLabelKey, type ResourceDef } from '@rti/metadata';
import type { Language } from '../src/http/types';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const LANGS: Language[] = ['en-US', 'zh-CN', 'ja-JP'];
const metadata = loadMetadata();
{
  const bind = metadata.resources['carrier-bind'] as ResourceDef;
  bind.fields.push({ name: 'releasedBy', type: 'string', maxLength: 50, readOnly: true });
  const release = bind.transitions!.find((s) => s.name === 'release')!;
  release.stamp = { user: 'releasedBy' };
  release.guard = { permission: 'ApiCarrierBindDelete' };
  bind.transitions!.find((s) => s.name === 'close')!.guard = { notUser: 'releasedBy' };
}

let ts: TestServer;
let carol: Caller; // full access: may close what alice released
let dave: Caller; // all codes but ApiCarrierBindDelete
const refsA: Record<string, number> = {};
let n = 100;
const ok = callOk;
async function okIn(c: Caller, path: string, body: unknown, language: Language): Promise<any> {
  const r = await c.call(path, body, { language });
  if (r.body.code !== 0) throw new Error(`${path}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}
const t = (lang: Language, key: string, params?: Record<string, unknown>) => ts.server.t(lang, key, params);

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  refsA.organization = ts.orgA;
  n = await createMasterForCarriers(ts, ts.a, refsA, n);
  carol = await ts.callerFor(await ts.addUser(ts.orgA, 'carol', { realName: 'Carol Checker' }), ts.orgA);
  const models = ts.server.db.models;
  const role = await models.role.create({
    orgId: ts.orgA,
    name: 'no delete',
    pcPermissions: ts.server.listPermissionCodes().filter((c) => c !== 'ApiCarrierBindDelete'),
  });
  const user = await models.user.create({ orgId: ts.orgA, name: 'dave', realName: 'Dave', roleIds: [role.get('id')], organizationIds: [ts.orgA] });
  await ts.server.access.policies.changed([ts.orgA], undefined);
  dave = await ts.callerFor(Number(user.get('id')), ts.orgA);
});
afterAll(() => ts?.close());

async function bindOrder(): Promise<{ id: number; bindNo: string }> {
  const main = await createSample(ts, ts.a, 'carrier', n++, refsA, { beaconId: null, gpsId: null });
  const order = await ok(ts.a, '/carrier-bind/create', { carrierId: main.id });
  return { id: order.id, bindNo: order.bindNo };
}
const bindRow = async (id: number) => (await ts.server.db.models['carrier-bind'].findByPk(id))!.get({ plain: true }) as Record<string, any>;
const resLabel = (lang: Language) => t(lang, resourceLabelKey(metadata.resources['carrier-bind']));

describe('timeline: who ran which step when', () => {
  it('lists the steps of a document oldest first, labelled in the caller language, with user and statuses', async () => {
    const order = await bindOrder();
    await ok(ts.a, '/carrier-bind/release', { id: order.id });
    await ok(carol, '/carrier-bind/close', { id: order.id });
    await ts.server.audit.flush();
    // the step's operation-log row says which step it was (carrier-bind has no logObject)
    const logged = (await ts.server.db.models['operation-log'].findAll({ where: { resource: 'carrier-bind', objectId: order.id }, raw: true })) as any[];
    expect(logged.map((r) => r.step).sort()).toEqual(['close', 'release']);
    for (const lang of LANGS) {
      const timeline = await okIn(ts.a, '/carrier-bind/timeline', { id: order.id }, lang);
      expect(timeline.map((e: any) => [e.step, e.label, e.user, e.from, e.to])).toEqual([
        ['release', t(lang, 'transitions.release'), 'alice', t(lang, 'enums.carrierBindStatus.new'), t(lang, 'enums.carrierBindStatus.released')],
        ['close', t(lang, 'transitions.close'), 'Carol Checker', t(lang, 'enums.carrierBindStatus.released'), t(lang, 'enums.carrierBindStatus.closed')],
      ]);
      expect(Date.parse(timeline[0].at)).toBeLessThanOrEqual(Date.parse(timeline[1].at));
    }
  });

  it('a step run from code shows on the other document with its cause', async () => {
    const first = await bindOrder();
    const second = await bindOrder();
    await ok(ts.a, '/carrier-bind/release', { ids: [first.id, second.id] });
    // closing the first closes the second from code (event.run), in the same transaction
    const off = ts.server.transitions.on('carrier-bind', 'close', async (e) => {
      if (e.ids.includes(first.id)) await e.run('carrier-bind', 'close', [second.id]);
    });
    try {
      await ok(carol, '/carrier-bind/close', { id: first.id });
    } finally {
      off();
    }
    await ts.server.audit.flush();
    for (const lang of LANGS) {
      const timeline = await okIn(ts.a, '/carrier-bind/timeline', { id: second.id }, lang);
      const close = timeline.find((e: any) => e.step === 'close');
      expect(close).toMatchObject({ user: 'Carol Checker', cause: { resource: 'carrier-bind', step: 'close', ids: [first.id] } });
      expect(close.cause.label).toBe(
        t(lang, 'server.transitions.timelineCause', { step: t(lang, 'transitions.close'), resource: resLabel(lang), title: first.bindNo })
          .replace(/\s+/g, ' ')
          .trim(),
      );
      expect(timeline.find((e: any) => e.step === 'close' && e.cause === undefined)).toBeUndefined();
    }
    // the first one's own close has no cause
    const own = await ok(ts.a, '/carrier-bind/timeline', { id: first.id });
    expect(own.find((e: any) => e.step === 'close').cause).toBeUndefined();
  });

  it('a status change of a resource with a logObject is on its timeline too (carrier statusUpdate)', async () => {
    const c = await createSample(ts, ts.a, 'carrier', n++, refsA, { beaconId: null, gpsId: null });
    await ok(ts.a, '/carrier/status/update', { id: c.id, status: 30 });
    await ts.server.audit.flush();
    const timeline = await ok(ts.a, '/carrier/timeline', { id: c.id });
    expect(timeline.map((e: any) => e.step)).toEqual(['create', 'statusUpdate']);
    expect(timeline[1].label).toBe(t('en-US', 'transitions.statusUpdate'));
  });

  it('a row out of the caller scope answers 10002, a bad id 10001', async () => {
    const order = await bindOrder();
    expect((await ts.b.call('/carrier-bind/timeline', { id: order.id })).body.code).toBe(10002);
    expect((await ts.a.call('/carrier-bind/timeline', { id: 'x' })).body.code).toBe(10001);
  });

  it('hangs under the detail screen in the permission catalogue', async () => {
    expect(ts.server.listPermissionCodes()).toContain('ApiCarrierBindTimeline');
    const node = (function find(nodes: any[]): any {
      for (const x of nodes) {
        if (x.children?.some((c: any) => c.code === 'ApiCarrierBindTimeline')) return x;
        const deeper = x.children && find(x.children);
        if (deeper) return deeper;
      }
      return null;
    })((await ts.a.call('/permission/all')).body.data);
    expect(node.path).toMatch(/\/detail$/);
  });
});

describe('step guards (M17)', () => {
  it('notUser: the user who released may not close (10004 naming step and record), another user may', async () => {
    const order = await bindOrder();
    const released = await ok(ts.a, '/carrier-bind/release', { id: order.id });
    expect(released.releasedBy).toBe('alice');
    for (const lang of LANGS) {
      const r = await ts.a.call('/carrier-bind/close', { id: order.id }, { language: lang });
      expect(r.body.code).toBe(10004);
      expect(r.body.message).toBe(
        t(lang, 'server.transitions.guardNotUser', {
          step: t(lang, 'transitions.close'),
          resource: resLabel(lang),
          title: order.bindNo,
          field: t(lang, 'fields.releasedBy'),
          user: 'alice',
        }),
      );
      expect(r.body.message).toContain(order.bindNo);
    }
    expect((await bindRow(order.id)).status).toBe(20);
    await ts.server.audit.flush();
    const timeline = await ok(ts.a, '/carrier-bind/timeline', { id: order.id });
    expect(timeline.map((e: any) => e.step)).toEqual(['release']);
    expect((await ok(carol, '/carrier-bind/close', { id: order.id })).status).toBe(30);
  });

  it('permission: a user without the extra code may not release (10005 naming step, record and code), nothing written', async () => {
    const order = await bindOrder();
    for (const lang of LANGS) {
      const r = await dave.call('/carrier-bind/release', { id: order.id }, { language: lang });
      expect(r.body.code).toBe(10005);
      expect(r.body.message).toBe(
        t(lang, 'server.transitions.guardPermission', {
          step: t(lang, 'transitions.release'),
          resource: resLabel(lang),
          title: order.bindNo,
          code: 'ApiCarrierBindDelete',
        }),
      );
    }
    expect(await bindRow(order.id)).toMatchObject({ status: 10, releasedBy: null });
    expect((await ok(ts.a, '/carrier-bind/release', { id: order.id })).status).toBe(20);
  });

  it('a batch where one row fails the guard moves none', async () => {
    const mine = await bindOrder();
    const theirs = await bindOrder();
    await ok(ts.a, '/carrier-bind/release', { id: mine.id });
    await ok(carol, '/carrier-bind/release', { id: theirs.id });
    const r = await carol.call('/carrier-bind/close', { ids: [mine.id, theirs.id] });
    expect(r.body.code).toBe(10004);
    expect(r.body.message).toContain(theirs.bindNo);
    expect((await bindRow(mine.id)).status).toBe(20);
  });
});
