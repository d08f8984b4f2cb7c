import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveEventsHandler, LiveEvents } from '../src/live/live-events';

const events = new LiveEvents();
let server: http.Server;
let url: string;

beforeAll(async () => {
  const handler = createLiveEventsHandler({ events, authenticate: async (req) => (req.headers.token === 'org1' ? 1 : req.headers.token === 'org2' ? 2 : null), heartbeatMs: 50 });
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
  let text = '';
  const dec = new TextDecoder();
  while (!pattern.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
  }
  return text;
}

describe('live events (server-sent events)', () => {
  it('streams only the caller organisation’s events, with heartbeats', async () => {
    const ctrl = new AbortController();
    const res = await fetch(url, { headers: { Token: 'org1' }, signal: ctrl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await readUntil(reader, /connected/);
    expect(events.listeners(1)).toBe(1);
    events.publish({ type: 'alert', orgId: 2, data: { message: 'not yours' } });
    events.publish({ type: 'alert', orgId: 1, data: { message: 'battery 9% below 20%' } });
    events.publish({ type: 'position', orgId: 1, data: { sn: 'GT-1', longitude: 1, latitude: 2 } });
    const text = await readUntil(reader, /event: position/);
    expect(text).toContain('event: alert\ndata: {"message":"battery 9% below 20%"}');
    expect(text).not.toContain('not yours');
    expect(await readUntil(reader, /: ping/)).toContain(': ping');
    ctrl.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(events.listeners(1)).toBe(0);
  });

  it('refuses callers without a session', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 10006 });
  });
});
