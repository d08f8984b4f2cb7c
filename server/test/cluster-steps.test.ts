/**
 * Two API instances behind a load balancer (issue 22): this one and a second in its own
 * process (its own data folder, instance id and connections) on one database. A user's
 * requests alternate between them with one session; a document step sent to both at once is
 * taken exactly once (one conditional UPDATE decides, whichever instance runs it), the others
 * answer 10004 in words, and each instance reads the result at once. Runs on SQLite, and on
 * MariaDB when TEST_MYSQL_URL is set (npm test's MariaDB stage), where the race is InnoDB's.
 */
import { resourceApiPath } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startChildServer, type ChildServer } from './support/child-server';
import { startTestServer, type Caller, type TestServer } from './support/test-server';
import { metadataWithCodes, tempDataDir } from './import-fixtures';

let ts: TestServer;
let other: ChildServer<{ url: string; pid: number }>;
const refs: Record<string, number> = {};
let n = 300;

beforeAll(async () => {
  ts = await startTestServer({ metadata: metadataWithCodes(), config: { dataDir: tempDataDir(), instanceId: 'api-a' } });
  other = await startChildServer<{ url: string; pid: number }>({
    script: 'test/support/import-instance.ts',
    name: 'API instance api-b',
    env: {
      TEST_DATABASE_URL: ts.db.url,
      TEST_DATA_DIR: tempDataDir(),
      TEST_INSTANCE_ID: 'api-b',
      TEST_STORAGE: JSON.stringify({ kind: 'local' }),
      TEST_HEARTBEAT_MS: '5000',
      TEST_STALE_MS: '60000',
    },
  });
  refs.organization = ts.orgA;
  n = await createMasterForCarriers(ts, ts.a, refs, n);
}, 120_000);
afterAll(async () => {
  await other?.stop();
  await ts?.close();
});

/** The caller's call through one of the instances (0: this one, 1: the other). */
async function via(instance: 0 | 1, caller: Caller, path: string, body: unknown) {
  const url = instance === 0 ? ts.url : other.ready.url;
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: caller.token, OrgId: String(caller.orgId) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: any };
}

/** a resource's read-one call */
const base = (resource: string) => resourceApiPath(ts.server.metadata.resources[resource], 'base');
const carrier = () => createSample(ts, ts.a, 'carrier', n++, refs, { beaconId: null, gpsId: null });

describe('two API instances on one database', () => {
  it("a user's requests alternate between the instances with one session", async () => {
    const made = await via(1, ts.a, '/carrier/create', { ...(await carrierBody()) });
    expect(made.code, made.message).toBe(0);
    const read = await via(0, ts.a, base('carrier'), { id: made.data.id });
    expect(read.data.sn).toBe(made.data.sn);
    const changed = await via(0, ts.a, '/carrier/update', { id: made.data.id, remark: 'through api-a' });
    expect(changed.code, changed.message).toBe(0);
    expect((await via(1, ts.a, base('carrier'), { id: made.data.id })).data.remark).toBe('through api-a');
  });

  it('a document step sent to both instances at once is taken exactly once; each instance reads it at once', async () => {
    for (let round = 0; round < 3; round++) {
      const main = await carrier();
      const order = await callOk(ts.a, '/carrier-bind/create', { carrierId: main.id });
      for (let i = 0; i < 2; i++) await callOk(ts.a, '/carrier-bind-detail/create', { carrierBindId: order.id, carrierId: (await carrier()).id, qty: 1 });
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => via((i % 2) as 0 | 1, ts.a, '/carrier-bind/release', { id: order.id })));
      const codes = answers.map((a) => a.code);
      expect([...codes].sort(), JSON.stringify(answers.map((a) => [a.code, a.message]))).toEqual([0, 10004, 10004, 10004, 10004, 10004]);
      for (const a of answers.filter((x) => x.code === 10004)) expect(a.message).toMatch(/status/i);
      for (const i of [0, 1] as const) expect((await via(i, ts.a, base('carrier-bind'), { id: order.id })).data.status).toBe(20);
    }
  }, 60_000);
});

async function carrierBody(): Promise<Record<string, unknown>> {
  const { sampleBody } = await import('./support/samples');
  return { ...sampleBody(ts.server.metadata.resources.carrier, ts.server.metadata, n++, refs), beaconId: null, gpsId: null };
}
