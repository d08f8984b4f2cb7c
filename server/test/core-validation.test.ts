/**
 * Validation from FieldDefs: messages name the field by its translated label in all three
 * languages; types, required, lengths, ranges, patterns, enums, refs, compare rules,
 * read-only fields, uniqueness per organisation, secrets never returned, status rules.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../src/http/types';
import { verifyPassword } from '../src/resources/password';
import { createSample } from './support/fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
const refsA: Record<string, number> = {};
const refsB: Record<string, number> = {};
const LANGS: Language[] = ['en-US', 'zh-CN', 'ja-JP'];

const make = (c: Caller, resource: string, n: number, refs: Record<string, number>, extra: Record<string, unknown> = {}) =>
  createSample(ts, c, resource, n, refs, extra);

beforeAll(async () => {
  ts = await startTestServer();
  refsA.organization = ts.orgA;
  refsB.organization = ts.orgB;
  for (const [c, refs] of [
    [ts.a, refsA],
    [ts.b, refsB],
  ] as const) {
    for (const r of ['device-model', 'supplier-customer', 'location', 'warehouse', 'project', 'carrier-code']) refs[r] = (await make(c, r, 1, refs)).id;
  }
});
afterAll(() => ts?.close());

const t = (lang: Language, key: string, params?: Record<string, unknown>) => ts.server.t(lang, key, params);
const label = (lang: Language, key: string) => t(lang, key);
const beacon = (n: number, extra: Record<string, unknown> = {}) => ({
  ...sampleBody(ts.server.metadata.resources['device-beacon'], ts.server.metadata, n, refsA),
  ...extra,
});

describe('messages name the field in the caller language', () => {
  it('required', async () => {
    const { sn: _sn, ...body } = beacon(1);
    const messages = new Set<string>();
    for (const lang of LANGS) {
      const r = await ts.a.call('/device-beacon/create', body, { language: lang });
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(10001);
      expect(r.body.message).toBe(t(lang, 'server.validation.required', { field: label(lang, 'fields.sn') }));
      expect(r.body.message).toContain(label(lang, 'fields.sn'));
      messages.add(r.body.message);
    }
    expect(messages.size).toBe(3);
  });

  it('required selects say "select"', async () => {
    const r = await ts.a.call('/device-beacon/create', beacon(1, { deviceModelId: null }), { language: 'zh-CN' });
    expect(r.body.message).toBe(t('zh-CN', 'server.validation.select', { field: label('zh-CN', 'fields.deviceModel') }));
  });

  it('wrong JSON types: 400 naming the field', async () => {
    for (const [field, value, key] of [
      ['sn', 12345, 'fields.sn'],
      ['deviceModelId', 'abc', 'fields.deviceModel'],
      ['startTime', 'yesterday', 'fields.startTime'],
    ] as const) {
      for (const lang of LANGS) {
        const r = await ts.a.call('/device-beacon/create', beacon(2, { [field]: value }), { language: lang });
        expect(r.status, field).toBe(400);
        expect(r.body.code).toBe(10001);
        expect(r.body.message).toContain(label(lang, key));
      }
    }
    const num = await ts.a.call('/device-model/create', { name: 'm', batteryThreshold: '20' }, { language: 'ja-JP' });
    expect(num.status).toBe(400);
    expect(num.body.message).toContain(label('ja-JP', 'fields.batteryThreshold'));
  });

  it('lengths, ranges, patterns and enums', async () => {
    const cases: Array<[string, Record<string, unknown>, string, string, Record<string, unknown>]> = [
      ['/device-beacon/create', beacon(3, { sn: 'S'.repeat(65) }), 'lengthMax', 'fields.sn', { max: 64 }],
      ['/device-beacon/create', beacon(3, { mac: 'zz:zz' }), 'mac', 'fields.mac', {}],
      // a code's refusal says the format and the length (issue 10: "SN: letters, digits, - _ and . …, up to 64 characters")
      ['/device-beacon/create', beacon(3, { sn: 'S N' }), 'codeMax', 'fields.sn', { max: 64 }],
      ['/device-beacon/create', beacon(3, { useStatus: 999 }), 'enum', 'fields.useStatus', { value: 999 }],
      ['/device-model/create', { name: 'm', batteryThreshold: 101 }, 'valueBetween', 'fields.batteryThreshold', { min: 0, max: 100 }],
      ['/device-model/create', { name: 'm', ipLevel: 'waterproof' }, 'format', 'fields.ipLevel', {}],
      ['/organization/update', { id: 1, primaryColor: 'orange' }, 'color', 'fields.primaryColor', {}],
    ];
    for (const [path, body, key, fieldKey, params] of cases) {
      for (const lang of LANGS) {
        const r = await ts.a.call(path, body, { language: lang });
        expect(r.body.code, `${path} ${key}`).toBe(10001);
        expect(r.body.message).toBe(t(lang, `server.validation.${key}`, { ...params, field: label(lang, fieldKey) }));
      }
    }
  });

  it('password rules of SPEC §5 (user password, gateway MQTT password)', async () => {
    const user = (password: unknown) => ({ ...sampleBody(ts.server.metadata.resources.user, ts.server.metadata, 5, refsA), password });
    for (const bad of ['NoDigitsHere!', 'nospecial123', 'Sh0rt!', 'x'.repeat(48) + '1!a']) {
      const r = await ts.a.call('/user/create', user(bad), { language: 'en-US' });
      expect(r.body.code, bad).toBe(10001);
      expect(r.body.message).toContain(label('en-US', 'fields.password'));
    }
    expect((await ts.a.call('/user/create', user('Good1pass!'))).body.code).toBe(0);
    const gw = sampleBody(ts.server.metadata.resources['device-slave-gateway'], ts.server.metadata, 6, refsA);
    for (const bad of ['alllowercase1', 'ALLUPPER123', 'NoDigitsAtAll']) {
      const r = await ts.a.call('/device-slave-gateway/create', { ...gw, mqttPassword: bad }, { language: 'zh-CN' });
      expect(r.body.code, bad).toBe(10001);
      expect(r.body.message).toBe(t('zh-CN', 'server.validation.mqttPassword', { field: label('zh-CN', 'fields.mqttPassword') }));
    }
  });

  it('compare rules name both fields', async () => {
    const r = await ts.a.call('/device-beacon/create', beacon(7, { startTime: '2026-05-02T00:00:00Z', endTime: '2026-05-01T00:00:00Z' }), {
      language: 'ja-JP',
    });
    expect(r.body.code).toBe(10001);
    expect(r.body.message).toBe(t('ja-JP', 'server.validation.earlier', { left: label('ja-JP', 'fields.startTime'), right: label('ja-JP', 'fields.endTime') }));
  });

  it('refs must exist in the caller organisation', async () => {
    const missing = await ts.a.call('/device-beacon/create', beacon(8, { deviceModelId: 999999 }));
    expect(missing.body.code).toBe(10001);
    expect(missing.body.message).toBe(t('en-US', 'server.validation.refMissing', { field: label('en-US', 'fields.deviceModel') }));
    const foreign = await ts.a.call('/device-beacon/create', beacon(8, { deviceModelId: refsB['device-model'] }));
    expect(foreign.body.code).toBe(10001);
  });

  it('list filters and sorts are typed too', async () => {
    const r = await ts.a.call('/device-beacon/list', { deviceModelId: 'x' }, { language: 'zh-CN' });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(label('zh-CN', 'fields.deviceModel'));
    const s = await ts.a.call('/device-beacon/list', { sortBySn: 'up' });
    expect(s.status).toBe(400);
    expect(s.body.message).toContain(label('en-US', 'fields.sn'));
    // Undeclared filters and sorts are ignored, not errors.
    expect((await ts.a.call('/device-beacon/list', { orgId: ts.orgB, sortByRemark: true, nope: 1 })).body.code).toBe(0);
  });
});

describe('writes', () => {
  it('ignores read-only fields and the client organisation', async () => {
    const row = await make(ts.a, 'device-beacon', 9, refsA, { status: 10, battery: 55, orgId: ts.orgB });
    expect(row.status).toBe(0);
    expect(row.battery).toBeNull();
    expect(row.orgId).toBe(ts.orgA);
    const upd = await ts.a.call('/device-beacon/update', { id: row.id, status: 20, orgId: ts.orgB, name: 'renamed' });
    expect(upd.body.data).toMatchObject({ status: 0, orgId: ts.orgA, name: 'renamed' });
  });

  it('serializes refs with their labels', async () => {
    const row = await make(ts.a, 'device-beacon', 10, refsA);
    const model = (await ts.a.call('/device-model', { id: refsA['device-model'] })).body.data as { name: string };
    expect(row.deviceModelIdLabel).toBe(model.name);
    const list = (await ts.a.call('/device-beacon/list', { deviceModelId: refsA['device-model'] })).body.data as { list: Array<Record<string, unknown>> };
    expect(list.list.every((r) => r.deviceModelIdLabel === model.name)).toBe(true);
  });
});

describe('concurrent writes', () => {
  it('queue on the database instead of failing', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => ts.a.call('/device-beacon/create', beacon(100 + i))));
    expect(results.map((r) => r.body.code)).toEqual(Array(12).fill(0));
  });

  it('let exactly one of several identical unique values in', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => ts.a.call('/device-beacon/create', beacon(200 + i, { sn: 'SAME-SN' }))));
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 10003, 10003, 10003, 10003, 10003]);
  });
});

describe('uniqueness', () => {
  it('per organisation: twice in one refused, same value in another allowed', async () => {
    await make(ts.a, 'device-beacon', 20, refsA, { sn: 'DUP-1', mac: 'AA:00:00:00:00:01' });
    for (const lang of LANGS) {
      const r = await ts.a.call('/device-beacon/create', beacon(21, { sn: 'DUP-1' }), { language: lang });
      expect(r.body.code).toBe(10003);
      expect(r.body.message).toBe(t(lang, 'server.errors.10003', { field: label(lang, 'fields.sn'), value: 'DUP-1' }));
    }
    const inB = await make(ts.b, 'device-beacon', 21, refsB, { sn: 'DUP-1', mac: 'AA:00:00:00:00:01' });
    expect(inB.sn).toBe('DUP-1');
    const other = await make(ts.a, 'device-beacon', 22, refsA);
    expect((await ts.a.call('/device-beacon/update', { id: other.id, sn: 'DUP-1' })).body.code).toBe(10003);
    // Saving a row with its own value is not a duplicate.
    expect((await ts.a.call('/device-beacon/update', { id: other.id, sn: other.sn })).body.code).toBe(0);
  });

  it('global uniqueness spans organisations', async () => {
    const u = await make(ts.a, 'user', 30, refsA, { name: 'unique-name' });
    expect(u.name).toBe('unique-name');
    const r = await ts.b.call('/user/create', { ...sampleBody(ts.server.metadata.resources.user, ts.server.metadata, 31, refsB), name: 'unique-name' });
    expect(r.body.code).toBe(10003);
  });

  it('the database index is the real guarantee; its violation still reads 10003', async () => {
    await make(ts.a, 'device-beacon', 40, refsA, { sn: 'RACE-1' });
    // A hook that changes sn after the pre-check simulates a concurrent insert.
    const off = ts.server.hooks.before('create', 'device-beacon', (e) => {
      if (e.data?.sn === 'RACE-2') e.data.sn = 'RACE-1';
    });
    try {
      const r = await ts.a.call('/device-beacon/create', beacon(41, { sn: 'RACE-2' }), { language: 'zh-CN' });
      expect(r.body.code).toBe(10003);
      expect(r.body.message).toContain(label('zh-CN', 'fields.sn'));
    } finally {
      off();
    }
  });
});

describe('secrets', () => {
  it('passwords are hashed with scrypt and never returned (create, update, base, list, all, export)', async () => {
    const user = await make(ts.a, 'user', 50, refsA, { password: 'Secret1pass!' });
    expect(user).not.toHaveProperty('password');
    const stored = (await ts.server.db.models.user.findByPk(user.id))!.get('password') as string;
    expect(stored).toMatch(/^scrypt\$/);
    expect(await verifyPassword('Secret1pass!', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
    // An update without a password keeps it.
    const upd = await ts.a.call('/user/update', { id: user.id, realName: 'Changed', password: '' });
    expect(upd.body.code).toBe(0);
    expect(upd.body.data).not.toHaveProperty('password');
    expect((await ts.server.db.models.user.findByPk(user.id))!.get('password')).toBe(stored);

    const gw = await make(ts.a, 'device-slave-gateway', 51, refsA, { mqttPassword: 'MqttSecret9' });
    for (const [resource, id, secret] of [
      ['user', user.id, 'password'],
      ['device-slave-gateway', gw.id, 'mqttPassword'],
    ] as const) {
      const base = await ts.a.call(`/${resource}`, { id });
      const list = await ts.a.call(`/${resource}/list`, {});
      const all = await ts.a.call(`/${resource}/all`, {});
      for (const text of [base.text, list.text, all.text]) {
        expect(text).not.toContain(`"${secret}"`);
        expect(text).not.toContain('scrypt$');
        expect(text).not.toContain('MqttSecret9');
      }
      const xlsx = await ts.a.fetch(`/${resource}/export`, {});
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
      const cells: string[] = [];
      wb.worksheets[0].eachRow((r) => r.eachCell((c) => void cells.push(String(c.value))));
      expect(cells.length).toBeGreaterThan(0);
      expect(
        cells.some((c) => c.includes('scrypt$') || c.includes('MqttSecret9') || c === t('en-US', 'fields.password') || c === t('en-US', 'fields.mqttPassword')),
      ).toBe(false);
    }
  });
});

describe('status rules', () => {
  it('deleteForbidden and editForbidden answer 10004 with the rule message', async () => {
    const b = await make(ts.a, 'device-beacon', 60, refsA, { useStatus: 10 });
    const enable = await ts.a.call('/device-beacon/status/update', { id: b.id, useStatus: 20 });
    expect(enable.body.code).toBe(0);
    expect(enable.body.data.useStatus).toBe(20);
    for (const lang of LANGS) {
      const r = await ts.a.call('/device-beacon/delete', { id: b.id }, { language: lang });
      expect(r.body.code).toBe(10004);
      expect(r.body.message).toBe(t(lang, 'rules.deviceEnabledNoDelete'));
    }
    const carrier = await make(ts.a, 'carrier', 61, refsA);
    expect((await ts.a.call('/carrier/status/update', { id: carrier.id, status: 30 })).body.code).toBe(0);
    const edit = await ts.a.call('/carrier/update', { id: carrier.id, remark: 'x' }, { language: 'zh-CN' });
    expect(edit.body.code).toBe(10004);
    expect(edit.body.message).toBe(t('zh-CN', 'rules.carrierScrappedNoEdit'));
  });

  it('status/update follows the declared transitions', async () => {
    const b = await make(ts.a, 'device-beacon', 62, refsA, { useStatus: 10 });
    expect((await ts.a.call('/device-beacon/status/update', { id: b.id, useStatus: 30 })).body.code).toBe(0);
    const back = await ts.a.call('/device-beacon/status/update', { id: b.id, useStatus: 10 });
    expect(back.body.code).toBe(10004);
    expect(back.body.message).toContain(label('en-US', 'fields.useStatus'));
    expect((await ts.a.call('/device-beacon/status/update', { id: b.id, useStatus: 77 })).body.code).toBe(10001);
    expect((await ts.b.call('/device-beacon/status/update', { id: b.id, useStatus: 20 })).body.code).toBe(10002);
  });
});
