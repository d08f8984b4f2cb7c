/**
 * The platform's public one-record link (metadata `publicLink`) over fixture declarations on two
 * core resources: a token per record, read in the token's organisation only; every token that
 * is not one (malformed, renewed, of another resource, of a deleted record) answers the same
 * "not found"; the link call reads the record in the caller's scope first; the throttle is one
 * bound for two instances on one database; translated refusals.
 */
import { loadMetadata } from '@rti/metadata';
import { createServer, type RtiServer } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ErrorCode } from '../src/http/api-error';
import { startTestServer, type TestServer } from './support/test-server';

const metadata = loadMetadata();
metadata.resources.warehouse.publicLink = { page: '/info/test-warehouse', rate: 6 };
metadata.resources.location.publicLink = { page: '/info/test-location' };

let ts: TestServer;
let two: RtiServer;
let twoUrl: string;

async function ok<T = any>(c: { call: TestServer['call'] }, p: string, body: unknown = {}): Promise<T> {
  const r = await c.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

/** a public call from a client address of the test's choice (trusted proxy below) */
const publicCall = async (url: string, path: string, body: unknown, ip: string, language = 'en-US') => {
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip, Language: language },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
};

beforeAll(async () => {
  ts = await startTestServer({ metadata, config: { trustProxy: ['loopback'] } });
  for (const s of [ts.server]) {
    s.publicLinks.reader('warehouse', async (call, id) => {
      const w = (await s.db.models.warehouse.findOne({ where: { id, orgId: call.orgId } }))?.get({ plain: true }) as Record<string, unknown> | undefined;
      if (!w) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      return { code: w.code, name: w.name, organisation: call.orgId };
    });
  }
  two = await createServer({
    databaseUrl: ts.db.url,
    metadata,
    plugins: false,
    logError: () => undefined,
    config: { trustProxy: ['loopback'], instanceId: 'api-2' },
  });
  two.publicLinks.reader('warehouse', async (_call, id) => ({ id: 'never read', asked: id }));
  twoUrl = (await two.listen(0)).url;
});
afterAll(async () => {
  await two?.close();
  await ts?.close();
});

describe('public one-record link', () => {
  it('opens one record by its token without a session, read in its organisation; the link call is scoped', async () => {
    const w = await ok(ts.a, '/warehouse/create', { code: 'PL-1', name: 'Public Hub' });
    const link = await ok(ts.a, '/warehouse/info/link', { id: w.id });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link.path).toBe(`/info/test-warehouse?token=${link.token}`);
    // the same token on every later ask, so printed codes stay valid
    expect((await ok(ts.a, '/warehouse/info/link', { id: w.id })).token).toBe(link.token);
    const page = await publicCall(ts.url, '/info/test-warehouse', { token: link.token }, '10.0.0.1');
    expect(page.body).toMatchObject({ code: 0, data: { code: 'PL-1', name: 'Public Hub', organisation: ts.orgA } });
    // another organisation cannot get a token for it: the record is not in its scope
    const foreign = await ts.b.call('/warehouse/info/link', { id: w.id });
    expect(foreign.body.code).toBe(10002);
    expect(JSON.stringify(foreign.body)).not.toContain('Public Hub');
  });

  it('malformed, unknown, renewed and other-resource tokens all answer the same not found, translated', async () => {
    const w = await ok(ts.a, '/warehouse/create', { code: 'PL-2', name: 'Renewed Hub' });
    const old = (await ok(ts.a, '/warehouse/info/link', { id: w.id })).token;
    const renewed = (await ok(ts.a, '/warehouse/info/link', { id: w.id, renew: true })).token;
    expect(renewed).not.toBe(old);
    const loc = await ok(ts.a, '/location/create', { name: 'Public site', longitude: 121.4, latitude: 31.2, fenceRadius: 100, type: 0 });
    const locToken = (await ok(ts.a, '/location/info/link', { id: loc.id })).token;
    const answers = [];
    for (const token of [old, 'x'.repeat(32), 'short', locToken])
      answers.push((await publicCall(ts.url, '/info/test-warehouse', { token }, '10.0.0.2', 'zh-CN')).body);
    for (const a of answers.slice(0, 2).concat(answers[3])) expect(a).toMatchObject({ code: 10002, data: null });
    expect(answers[0].message).toBe(answers[1].message);
    expect(answers[0].message).toMatch(/[\u4e00-\u9fff]/);
    // the location declares a page but no module gave it a reader: its token opens nothing either
    expect((await publicCall(ts.url, '/info/test-location', { token: locToken }, '10.0.0.2')).body.code).toBe(10002);
    expect((await publicCall(ts.url, '/info/test-warehouse', { token: renewed }, '10.0.0.2')).body.code).toBe(0);
    // a body without a token is refused as bad input, naming the field
    expect((await publicCall(ts.url, '/info/test-warehouse', { token: 5 }, '10.0.0.2')).body.code).toBe(10001);
    expect((await ts.a.call('/warehouse/info/link', { id: 'one' })).body.code).toBe(10001);
  });

  it('a deleted record: its token answers not found', async () => {
    const w = await ok(ts.a, '/warehouse/create', { code: 'PL-3', name: 'Gone Hub' });
    const token = (await ok(ts.a, '/warehouse/info/link', { id: w.id })).token;
    await ok(ts.a, '/warehouse/delete', { id: w.id });
    expect((await publicCall(ts.url, '/info/test-warehouse', { token }, '10.0.0.3')).body.code).toBe(10002);
  });

  it('throttles per client address with one bound across two instances, in the caller language', async () => {
    const ip = '10.9.9.9';
    const codes: number[] = [];
    // rate 6 a minute: three lookups on each instance use it up together
    for (let i = 0; i < 6; i++) codes.push((await publicCall(i % 2 ? twoUrl : ts.url, '/info/test-warehouse', { token: 'z'.repeat(32) }, ip)).body.code);
    expect(codes).toEqual([10002, 10002, 10002, 10002, 10002, 10002]);
    const refused = await publicCall(twoUrl, '/info/test-warehouse', { token: 'z'.repeat(32) }, ip, 'ja-JP');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(10010);
    expect(refused.body.message).toMatch(/秒後に再試行/);
    // another address is not held up
    expect((await publicCall(ts.url, '/info/test-warehouse', { token: 'z'.repeat(32) }, '10.9.9.10')).body.code).toBe(10002);
  });

  it('the printed address: PUBLIC_URL when configured, else the caller origin', () => {
    expect(ts.server.publicLinks.url(undefined, '/info/x?token=t')).toBe('/info/x?token=t');
    const req = { get: (h: string) => (h === 'origin' ? 'https://console.example.com' : undefined), protocol: 'https' };
    expect(ts.server.publicLinks.url(req as never, '/info/x?token=t')).toBe('https://console.example.com/info/x?token=t');
  });
});
