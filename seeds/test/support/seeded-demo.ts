/**
 * A freshly seeded demo server for the seed tests: its own database, the given plugins, the
 * small demo scale, and calls as the demo's administrator (`raw` answers the envelope, `ok` the
 * data or throws with the code and message).
 */
import { createServer, type RtiServer } from '@rti/server';
import { createTestDatabase, type TestDatabase } from '../../../server/test/support/test-database';
import { SCALES, seedServer } from '../../src/index';

export interface SeededDemo {
  server: RtiServer;
  url: string;
  raw(path: string, body?: unknown): Promise<{ code: number; message: string; data: any }>;
  ok(path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function seededDemo(plugins: string[]): Promise<SeededDemo> {
  const db: TestDatabase = await createTestDatabase();
  const server = await createServer({ databaseUrl: db.url, plugins, logError: () => undefined });
  const { url } = await server.listen(0);
  await seedServer(server, { scale: SCALES.small });
  const res = await fetch(url + '/api/account/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'Admin@12345', entryCode: 'demo' }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const raw = async (path: string, body: unknown = {}) => {
    const r = await fetch(url + '/api' + path, { method: 'POST', headers: { 'Content-Type': 'application/json', Token: token }, body: JSON.stringify(body) });
    return (await r.json()) as { code: number; message: string; data: any };
  };
  return {
    server,
    url,
    raw,
    async ok(path, body = {}) {
      const got = await raw(path, body);
      if (got.code !== 0) throw new Error(`${path}: ${got.code} ${got.message}`);
      return got.data;
    },
    async close() {
      await server.close();
      await db.drop();
    },
  };
}
