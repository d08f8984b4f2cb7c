/**
 * Live events raised by another plugin (telemetry's alerts and in/out passes, raised by the
 * state sink outside any request) reach webhooks as `live.<type>`, through a buffer the
 * delivery worker writes: the publisher never waits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
let receiver: Server;
let dir: string;
const received: any[] = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  process.env.WEBHOOK_POLL_MS = '50';
  receiver = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  dir = mkdtempSync(join(tmpdir(), 'rti-webhooks-live-'));
  ts = await startTestServer({ plugins: ['telemetry', 'open-api'], config: { dataDir: dir } });
});
afterAll(async () => {
  await ts?.close();
  receiver?.close();
  rmSync(dir, { recursive: true, force: true });
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

it('delivers live events of the organisation without holding up their publisher', async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  expect((await ts.a.call<any>('/webhook/create', { url, events: ['live.alert', 'live.inout'] })).body.code).toBe(0);
  const telemetry = ts.server.service('telemetry')!;
  const started = performance.now();
  telemetry.publish({ type: 'alert', orgId: ts.orgA, warehouseId: null, data: { category: 'carrier', id: 7 } });
  telemetry.publish({ type: 'inout', orgId: ts.orgA, warehouseId: null, data: { carrierId: 3, direction: 10 } });
  telemetry.publish({ type: 'alert', orgId: ts.orgB, warehouseId: null, data: { category: 'carrier', id: 8 } });
  telemetry.publish({ type: 'device', orgId: ts.orgA, warehouseId: null, data: {} });
  expect(performance.now() - started).toBeLessThan(50);
  const until = Date.now() + 10_000;
  while (received.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 300));
  expect(received.map((r) => r.event).sort()).toEqual(['live.alert', 'live.inout']);
  expect(received.find((r) => r.event === 'live.alert').data).toEqual({ category: 'carrier', id: 7 });
});
