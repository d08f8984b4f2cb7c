import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
const dist = mkdtempSync(join(tmpdir(), 'rti-dist-'));

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  ts = await startTestServer({ config: { consoleDist: dist } });
});
afterAll(async () => {
  await ts?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('console serving', () => {
  it('serves the built console with SPA fallback for non-/api GETs', async () => {
    for (const path of ['/', '/demo/login', '/device/device-beacon/edit/3']) {
      const res = await fetch(ts.url + path);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await fetch(ts.url + '/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('never answers /api paths with the console page', async () => {
    const res = await fetch(ts.url + '/api/device/device-beacon');
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe(10013);
  });
});

describe('config', () => {
  it('reads the environment with embedded defaults', () => {
    const d = loadConfig({});
    expect(d.port).toBe(8080);
    expect(d.databaseUrl).toMatch(/^sqlite:.*data\/rti\.sqlite$/);
    expect(d.bodyLimit).toBe('1mb');
    const c = loadConfig({ PORT: '9090', DATABASE_URL: 'mysql://u:p@h:3306/db', BODY_LIMIT: '2mb', DATA_DIR: '/tmp/x' });
    expect(c).toMatchObject({ port: 9090, databaseUrl: 'mysql://u:p@h:3306/db', bodyLimit: '2mb', dataDir: '/tmp/x' });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
