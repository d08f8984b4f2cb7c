/** Console assets gzipped at build time are sent as they are; everything else is unchanged. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
let dist: string;
const js = `export const answer = ${'42 + '.repeat(500)}0;\n`;

/** raw GET (fetch would decode the body itself) */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    })
      .on('error', reject)
      .end();
  });
}

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
  fs.writeFileSync(path.join(dist, 'assets/app-abc.js'), js);
  fs.writeFileSync(path.join(dist, 'assets/app-abc.js.gz'), gzipSync(js));
  fs.writeFileSync(path.join(dist, 'assets/plain-def.js'), js);
  ts = await startTestServer({ config: { consoleDist: dist } });
});
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('precompressed console assets', () => {
  it('sends the build-time .gz to clients accepting gzip, with the asset type and a year of caching', async () => {
    const r = await get(`${ts.url}/assets/app-abc.js`, { 'Accept-Encoding': 'gzip, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(String(r.headers['content-type'])).toMatch(/^text\/javascript/);
    expect(String(r.headers['cache-control'])).toContain('immutable');
    expect(gunzipSync(r.body).toString()).toBe(js);
  });

  it('falls back to the plain file without gzip, or when no .gz was written', async () => {
    const plain = await get(`${ts.url}/assets/app-abc.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
    const compressedOnTheFly = await get(`${ts.url}/assets/plain-def.js`, { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(compressedOnTheFly.body).toString()).toBe(js);
  });

  it('never serves a .gz from outside the assets folder', async () => {
    fs.writeFileSync(path.join(dist, 'secret.js.gz'), gzipSync('nope'));
    const r = await get(`${ts.url}/assets/..%2Fsecret.js`, { 'Accept-Encoding': 'gzip' });
    const body = r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;
    expect(body.toString()).not.toContain('nope');
  });
});
