/**
 * Webhooks against a real HTTP receiver started here: signed deliveries of the organisation's
 * events, retried with back-off, listed and resent from the Open API calls; URLs into loopback
 * or private ranges refused unless WEBHOOK_ALLOW_PRIVATE allows them (checked again when a
 * delivery connects).
 */
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RtiServer } from '@rti/server';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { checkTargetUrl, isPrivateAddress } from '../server/ssrf';
import { WebhookQueue } from '../server/webhooks';

let ts: TestServer;
let receiver: Server;
let target: string;
const RES = 'supplier-customer';
type Received = { headers: IncomingMessage['headers']; body: string; json: any };
const received: Received[] = [];
/** answers of the next requests (status codes), 200 once used up */
const script: number[] = [];
let delayMs = 0;

const waitFor = async <T>(fn: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

beforeAll(async () => {
  process.env.WEBHOOK_RETRY_BASE_MS = '50';
  process.env.WEBHOOK_POLL_MS = '50';
  receiver = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const status = script.shift() ?? 200;
      setTimeout(() => {
        if (status === 200) received.push({ headers: req.headers, body, json: JSON.parse(body) });
        res.statusCode = status;
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  ts = await startTestServer({ plugins: ['open-api'] });
});
afterAll(async () => {
  await ts?.close();
  receiver?.close();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

describe('server-side request forgery', () => {
  it('refuses loopback, private, link-local and odd URLs unless an administrator allows them', async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    for (const url of [
      target,
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:80/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      const r = await ts.a.call<any>('/webhook/create', { url, events: ['*'] }, { language: 'en-US' });
      expect(r.body.code, url).toBe(10001);
      expect(r.body.message, url).toMatch(/private|loopback|resolved/);
    }
    for (const url of ['ftp://example.com/x', 'http://user:pw@example.com/', 'not a url'])
      expect((await ts.a.call<any>('/webhook/create', { url, events: ['*'] })).body.code, url).toBe(10001);
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
    expect(isPrivateAddress('100.64.0.1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(await checkTargetUrl('https://hooks.example/x', async () => ['93.184.216.34'])).toBeNull();
    expect(await checkTargetUrl('https://rebind.example/x', async () => ['93.184.216.34', '127.0.0.1'])).toBe('private');
    expect((await ts.a.call<any>('/webhook/list')).body.data).toEqual([]);
  });
});

describe('deliveries', () => {
  let hook: { id: number; secret: string };
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    const made = await ts.a.call<any>('/webhook/create', {
      url: target,
      events: [`${RES}.created`, `${RES}.updated`, `${RES}.deleted`, 'ping'],
      description: 'ERP',
    });
    expect(made.body.code, made.body.message).toBe(0);
    hook = made.body.data;
    expect(hook.secret).toMatch(/^whsec_/);
    const listed = await ts.a.call<any>('/webhook/list');
    expect(listed.text).not.toContain(hook.secret);
  });

  it('delivers the organisation events, signed with the subscription secret, without holding up the write', async () => {
    received.length = 0;
    delayMs = 1500;
    const started = Date.now();
    const made = await ts.a.call<any>(`/${RES}/create`, { type: 10, name: 'Hooked partner' });
    expect(made.body.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(1200);
    const got = await waitFor(() => received.find((r) => r.json.event === `${RES}.created`));
    delayMs = 0;
    expect(got.json.data).toMatchObject({ id: made.body.data.id, name: 'Hooked partner' });
    expect(got.headers['x-rti-event']).toBe(`${RES}.created`);
    const sig = String(got.headers['x-rti-signature']);
    const t = /t=(\d+)/.exec(sig)![1];
    expect(sig).toBe(`t=${t},v1=${createHmac('sha256', hook.secret).update(`${t}.${got.body}`).digest('hex')}`);
    expect(got.headers['x-rti-timestamp']).toBe(t);
    // another organisation's events never reach it
    await ts.b.call(`/${RES}/create`, { type: 10, name: 'B partner' });
    await new Promise((r) => setTimeout(r, 300));
    expect(received.some((r) => r.json.data?.name === 'B partner')).toBe(false);
  });

  it('retries failed deliveries with back-off, lists them and resends', async () => {
    received.length = 0;
    script.push(500, 503);
    const made = await ts.a.call<any>(`/${RES}/create`, { type: 10, name: 'Retried partner' });
    await waitFor(() => received.find((r) => r.json.data?.name === 'Retried partner'));
    const list = await ts.a.call<any>('/webhook/delivery/list', { webhookId: hook.id });
    const row = list.body.data.list.find((d: any) => d.event === `${RES}.created` && d.status === 20 && d.attempts === 3);
    expect(row, JSON.stringify(list.body.data.list)).toBeTruthy();
    expect(row.lastStatus).toBe(200);
    // what was sent, for the screen's expanded row (another organisation: not found)
    const one = (await ts.a.call<any>('/webhook/delivery/get', { id: row.id })).body.data;
    expect(one.body).toMatchObject({ id: row.id, event: `${RES}.created`, data: { name: 'Retried partner' } });
    expect((await ts.b.call<any>('/webhook/delivery/get', { id: row.id })).body.code).toBe(10002);
    // resend: delivered once more
    received.length = 0;
    expect((await ts.a.call<any>('/webhook/delivery/resend', { id: row.id })).body.code).toBe(0);
    const again = await waitFor(() => received.find((r) => r.json.id === row.id));
    expect(again.json.data.id).toBe(made.body.data.id);
    // another organisation sees none of it and cannot resend
    expect((await ts.b.call<any>('/webhook/delivery/list', {})).body.data.total).toBe(0);
    expect((await ts.b.call<any>('/webhook/delivery/resend', { id: row.id })).body.code).toBe(10002);
    expect((await ts.b.call<any>('/webhook/delete', { id: hook.id })).body.code).toBe(10002);
  });

  it('pings, and refuses a target that turned private by the time it is delivered', async () => {
    received.length = 0;
    expect((await ts.a.call<any>('/webhook/ping', { id: hook.id })).body.code).toBe(0);
    await waitFor(() => received.find((r) => r.json.event === 'ping'));
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    const ping = (await ts.a.call<any>('/webhook/ping', { id: hook.id })).body.data.id;
    const failed = await waitFor(async () => {
      const l = (await ts.a.call<any>('/webhook/delivery/list', { webhookId: hook.id })).body.data.list;
      return l.find((d: any) => d.id === ping && d.attempts > 0);
    });
    expect(failed.status).toBe(10);
    expect(failed.lastError).toMatch(/private|loopback/);
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  });

  it('delivers workflow steps as <resource>.<step> (an alert processed), with the row after the step', async () => {
    const sub = await ts.a.call<any>('/webhook/create', { url: `${target}?steps`, events: ['carrier-alert.process'] });
    expect(sub.body.code, sub.body.message).toBe(0);
    const sys = ts.server.systemContext(ts.orgA);
    await ts.server.repo('carrier-alert', sys).insertMany([{ carrierSn: 'C-1', reason: 10, createdTime: new Date(), status: 0 }]);
    const alert = (await ts.a.call<any>('/carrier-alert/list', {})).body.data.list[0];
    received.length = 0;
    const done = await ts.a.call<any>('/carrier-alert/process', { id: alert.id, remark: 'checked' });
    expect(done.body.code, done.body.message).toBe(0);
    const got = await waitFor(() => received.find((r) => r.json.event === 'carrier-alert.process'));
    expect(got.json.data).toMatchObject({ id: alert.id, status: 10, remark: 'checked' });
  });

  it('offers the event catalogue generated from the metadata', async () => {
    const events = (await ts.a.call<any>('/webhook/events')).body.data as Array<{ event: string }>;
    const names = events.map((e) => e.event);
    for (const name of Object.keys(ts.server.metadata.resources)) expect(names).toContain(`${name}.created`);
    expect(names).toEqual(expect.arrayContaining(['live.alert', 'live.inout', 'ping']));
    expect((await ts.a.call<any>('/webhook/create', { url: target, events: ['no.such-event'] })).body.code).toBe(10001);
  });
});

describe('several instances', () => {
  let second: RtiServer;
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    second = await createServer({ databaseUrl: ts.db.url, plugins: ['open-api'], logError: () => undefined });
  });
  afterAll(() => second?.close());

  it('deliver a burst between them, each delivery once', async () => {
    const made = await ts.a.call<any>('/webhook/create', { url: `${target}?burst`, events: ['*'] });
    expect(made.body.code, made.body.message).toBe(0);
    received.length = 0;
    const queue = new WebhookQueue(ts.server.db.sequelize, () => undefined);
    await queue.reload();
    const n = 600;
    expect(await queue.enqueue(Array.from({ length: n }, (_, i) => ({ orgId: ts.orgA, event: 'burst.test', data: { i } })))).toBe(n);
    await waitFor(() => received.filter((r) => r.json.event === 'burst.test').length >= n, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const ids = received.filter((r) => r.json.event === 'burst.test').map((r) => r.json.id);
    expect(ids.length).toBe(n);
    expect(new Set(ids).size).toBe(n);
  });
});
