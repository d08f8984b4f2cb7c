/**
 * One listener logs every call (admin log) and one set of after-write hooks every write of a
 * resource with a logObject (operation log); secrets never reach either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';
import { tempDataDir } from './import-fixtures';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ config: { dataDir: tempDataDir() } });
});
afterAll(() => ts?.close());

const rows = async (resource: string, where: Record<string, unknown>) => {
  await ts.server.audit.flush();
  return (await ts.server.db.models[resource].findAll({ where, order: [['id', 'ASC']] })).map((m) => m.get({ plain: true }) as Record<string, any>);
};

describe('admin log', () => {
  it('keeps operator, ip, user agent, path, method, parameters and response for each call', async () => {
    await ts.a.call('/device-model/create', { name: 'AUD-1' }, { headers: { 'User-Agent': 'audit-test/1.0' } });
    const [row] = await rows('admin-log', { path: '/device-model/create' });
    expect(row).toMatchObject({
      orgId: ts.orgA,
      operator: 'alice',
      path: '/device-model/create',
      method: 'POST',
      responseCode: 0,
      userAgent: 'audit-test/1.0',
    });
    expect(row.ip).toMatch(/127\.0\.0\.1/);
    expect(JSON.parse(row.params)).toEqual({ name: 'AUD-1' });
    expect(row.message).toBeTruthy();
  });

  it('logs refusals with their code and masks passwords and tokens', async () => {
    await ts.a.call('/account/password/change', { oldPassword: 'Wrong-pass1!', newPassword: 'Secret-pass2!', confirmPassword: 'Secret-pass2!' });
    await ts.a.call('/user/create', { name: 'carol', realName: 'Carol', password: 'Passw0rd!x', token: 'abc' });
    const [change] = await rows('admin-log', { path: '/account/password/change' });
    expect(change.responseCode).not.toBe(0);
    expect(change.params).not.toContain('Wrong-pass1');
    expect(change.params).not.toContain('Secret-pass2');
    expect(JSON.parse(change.params)).toEqual({ oldPassword: '***', newPassword: '***', confirmPassword: '***' });
    const [user] = await rows('admin-log', { path: '/user/create' });
    expect(JSON.parse(user.params)).toMatchObject({ name: 'carol', password: '***', token: '***' });
  });

  it('logs calls of one organisation in that organisation only', async () => {
    await ts.b.call('/device-model/list', {});
    await ts.a.call('/device-model/list', {});
    await ts.server.audit.flush();
    const list = await ts.b.call('/log/admin/list', { path: '/device-model/list' });
    expect(list.body.data.list.length).toBeGreaterThan(0);
    expect(list.body.data.list.every((r: { operator: string }) => r.operator === 'bob')).toBe(true);
  });
});

describe('operation log', () => {
  it('records create 10, update 20 and delete 30 with the object code and row id', async () => {
    const created = await ts.a.call('/device-beacon/create', {
      sn: 'OP-1',
      mac: 'AA:00:00:00:40:01',
      deviceModelId: (await ts.a.call('/device-model/create', { name: 'AUD-2' })).body.data.id,
    });
    const id = created.body.data.id;
    await ts.a.call('/device-beacon/update', { id, name: 'renamed' });
    await ts.a.call('/device-beacon/delete', { id });
    const object = ts.server.metadata.resources['device-beacon'].logObject;
    const ops = await rows('operation-log', { object, objectId: id });
    expect(ops.map((r) => [r.action, r.objectName, r.operator, r.orgId])).toEqual([
      [10, 'OP-1', 'alice', ts.orgA],
      [20, 'OP-1', 'alice', ts.orgA],
      [30, 'OP-1', 'alice', ts.orgA],
    ]);
    expect(JSON.parse(ops[1].content)).toEqual({ name: [null, 'renamed'] });
  });

  it('keeps nothing for a refused write and never the secrets of a row', async () => {
    const before = (await rows('operation-log', {})).length;
    await ts.a.call('/device-beacon/create', { sn: 'OP-BAD', mac: 'not a mac', deviceModelId: 1 });
    expect((await rows('operation-log', {})).length).toBe(before);
    const gw = ts.server.metadata.resources['device-slave-gateway'];
    if (gw?.logObject) {
      const r = await ts.a.call('/device-slave-gateway/create', {
        name: 'gw',
        sn: 'GW-1',
        mac: 'AA:00:00:00:50:01',
        mqttClientId: 'cid-1',
        mqttUsername: 'u-1',
        mqttPassword: 'MqttPass1x',
      });
      const [op] = await rows('operation-log', { object: gw.logObject, objectId: r.body.data?.id ?? -1 });
      expect(op?.content ?? '').not.toContain('MqttPass1x');
    }
  });
});
