import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from './support/samples';
import { startTestServer, type TestServer } from './support/test-server';

const pluginsDir = fileURLToPath(new URL('./support/plugins', import.meta.url));
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ plugins: true, config: { pluginsDir } });
});
afterAll(() => ts?.close());

describe('plugin host', () => {
  it('loads plugins/<id>/server/index.ts and lists them', () => {
    expect(ts.server.plugins.map((p) => p.id)).toEqual(['sample']);
  });

  it('puts plugin calls in the one registry with derived permission codes', async () => {
    expect(ts.server.listPermissionCodes()).toContain('ApiSampleBeacons');
    expect(ts.server.calls.get('/sample/beacons')?.plugin).toBe('sample');
    const r = await ts.a.call('/sample/beacons', {}, { language: 'zh-CN' });
    expect(r.body).toMatchObject({ code: 0, data: { total: 0, greeting: '成功' } });
    // Same guard: no session, no call.
    expect((await ts.call('/sample/beacons', {})).body.code).toBe(10006);
    expect((await ts.call('/sample/public', {})).body).toMatchObject({ code: 0, data: { open: true } });
  });

  it('gives plugins the scoped repository (tenancy applies)', async () => {
    const meta = ts.server.metadata;
    const model = (await ts.a.call('/device-model/create', { name: 'm1' })).body.data;
    const body = sampleBody(meta.resources['device-beacon'], meta, 3, { 'device-model': model.id });
    expect((await ts.a.call('/device-beacon/create', body)).body.code).toBe(0);
    expect((await ts.a.call('/sample/beacons', {})).body.data).toMatchObject({ total: 1, sns: [body.sn] });
    expect((await ts.b.call('/sample/beacons', {})).body.data).toMatchObject({ total: 0, sns: [] });
  });

  it('runs before hooks that change or refuse a write, in its transaction', async () => {
    const refused = await ts.a.call('/device-model/create', { name: 'forbidden-name' }, { language: 'ja-JP' });
    expect(refused.body.code).toBe(10001);
    expect(refused.body.message).toBe(ts.server.t('ja-JP', 'rules.deviceEnabledNoDelete'));
    expect((await ts.a.call('/device-model/list', { name: 'forbidden' })).body.data.total).toBe(0);
    const changed = await ts.a.call('/device-model/create', { name: 'shout' });
    expect(changed.body.data.name).toBe('SHOUT');
  });

  it('runs after hooks, jobs, migrations and onReady', async () => {
    await new Promise((r) => setTimeout(r, 120));
    const stats = (await ts.a.call('/sample/stats', {})).body.data;
    expect(stats.afterCreates).toBeGreaterThanOrEqual(3);
    expect(stats.ticks).toBeGreaterThan(0);
    expect(stats.things).toEqual(['ready']);
    const [rows] = await ts.server.db.sequelize.query("SELECT name FROM migrations WHERE name LIKE 'sample-%'");
    expect(rows).toEqual([{ name: 'sample-things-table' }]);
    expect(ts.server.jobs.names().filter((n) => n.startsWith('sample:'))).toEqual(['sample:tick']);
  });

  it('refuses a second registration of the same call path', () => {
    expect(() => ts.server.calls.add({ path: '/sample/beacons', handler: () => null })).toThrow(/already registered by plugin "sample"/);
  });

  it('refuses to start when a plugin fails, naming it', async () => {
    const broken = fileURLToPath(new URL('./support/plugins-broken', import.meta.url));
    await expect(startTestServer({ plugins: true, config: { pluginsDir: broken } })).rejects.toThrow(
      /plugin "broken" failed to start: call \/metadata is already registered by the core/,
    );
  });
});
