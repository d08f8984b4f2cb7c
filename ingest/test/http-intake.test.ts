import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpIntake } from '../src/http/http-intake';
import { startIngest, type IngestService } from '../src/ingest-service';
import { directory, GW, scanPayload, sqliteIn } from './helpers/fixtures';
import { tempDir } from './helpers/services';

let svc: IngestService;
let server: http.Server;
let base: string;
let dir: string;
const TOKENS: Record<string, number> = { rti_acme: 1, rti_other: 2 };

beforeAll(async () => {
  dir = tempDir('http');
  const dirx = directory();
  svc = await startIngest({ store: sqliteIn(dir), directory: dirx, dataDir: dir, mqttPort: null, pipeline: { lingerMs: 5 } });
  const handler = createHttpIntake({ intake: svc.intake, directory: dirx, resolveToken: async (t) => TOKENS[t] ?? null, maxBytes: 32 * 1024 });
  server = http.createServer((req, res) => {
    // mounted under /ingest like app.use('/ingest', handler) does
    if (!req.url?.startsWith('/ingest/')) return res.writeHead(404).end();
    req.url = req.url.slice('/ingest'.length);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ingest`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await svc.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = async (path: string, body: string | Buffer, token = 'rti_acme') => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { Token: token, 'Content-Type': 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
};

describe('HTTP push intake', () => {
  it('accepts a vendor GPS push for several trackers with the organisation token', async () => {
    const r = await post(
      '/gps',
      JSON.stringify([
        { sn: 'GT-1', ts: Date.now(), longitude: 121.5, latitude: 31.2, speed: 40 },
        { sn: 'GT-1', dataType: 20, eventCode: '018' },
        { sn: 'GT-404', longitude: 1, latitude: 1 },
      ]),
    );
    expect(r).toEqual({ status: 200, body: { code: 0, message: 'ok', data: { accepted: 2, dropped: { 'unknown-device': 1 } } } });
    await svc.pipeline.drained();
    expect((await svc.store.query({ series: 'gps', org: 1, key: 'GT-1' })).total).toBe(2);
  });

  it('accepts gateway scans and heartbeats over HTTP', async () => {
    expect((await post(`/gw/${GW}/scan`, scanPayload(0, 25))).body.data).toEqual({ accepted: 25, dropped: {} });
    expect((await post(`/gw/ac:23:3f:c0:a1:b2/heartbeat`, '{"uptime":5}')).body.code).toBe(0);
  });

  it('refuses missing or foreign tokens and keeps organisations apart', async () => {
    expect((await post('/gps', '[]', '')).status).toBe(401);
    expect((await post('/gps', '[]', 'rti_nope')).body.code).toBe(10006);
    // org 2 has no gateway with this mac and no tracker GT-1
    expect((await post(`/gw/${GW}/scan`, scanPayload(0, 1), 'rti_other')).body.code).toBe(10002);
    // a push whose every reading is refused answers the refusal, not "0 accepted"
    expect((await post('/gps/GT-1', '{"longitude":1,"latitude":1}', 'rti_other')).body).toMatchObject({
      code: 10002,
      data: { reason: 'unknown-device', dropped: { 'unknown-device': 1 } },
    });
  });

  it('answers bad requests in the API envelope', async () => {
    expect(await post('/gps', '{"sn":')).toMatchObject({ status: 400, body: { code: 10012 } });
    expect(await post('/gps', '"text"')).toMatchObject({ status: 400, body: { code: 10001 } });
    expect(await post('/gps', Buffer.alloc(40 * 1024, 32))).toMatchObject({ status: 413, body: { code: 10011 } });
    expect(await post('/nowhere', '{}')).toMatchObject({ status: 404, body: { code: 10013 } });
    expect(await post('/gps/GT-1', '{"sn":"GT-2","longitude":1,"latitude":1}')).toMatchObject({
      status: 200,
      body: { code: 10001, data: { reason: 'topic-mismatch' } },
    });
    const get = await fetch(`${base}/gps`, { headers: { Token: 'rti_acme' } });
    expect(get.status).toBe(405);
  });
});
