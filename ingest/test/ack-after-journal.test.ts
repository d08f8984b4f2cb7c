/**
 * Acknowledged means journaled, on every path (issue 22): with the journal's group write held
 * open, no PUBACK (embedded broker), no acknowledgement to the external broker (mosquitto) and
 * no HTTP 200 (push) is sent; each arrives once the write completes. An implementation that
 * acknowledged at once — which the in-memory counts of the other tests do not notice — fails here.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpIntake } from '../src/http/http-intake';
import { startIngest, type IngestService } from '../src/ingest-service';
import type { Journal } from '../src/journal/journal';
import { directory, GW, scanPayload, sqliteIn } from './helpers/fixtures';
import { haveBinary, MOSQUITTO, startMosquitto, tempDir, type RunningMosquitto } from './helpers/services';

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** Holds the journal's writes until release(): appended frames stay unwritten meanwhile. */
function holdJournal(svc: IngestService): { release(): void; appended(): number } {
  const journal = (svc.pipeline as unknown as { journal: Journal }).journal;
  const flush = journal.flush.bind(journal);
  const start = journal.lastSeq;
  let held = true;
  journal.flush = () => {
    if (!held) flush();
  };
  return {
    release() {
      held = false;
      journal.flush = flush;
      flush();
    },
    appended: () => journal.lastSeq - start,
  };
}

const settled = <T>(p: Promise<T>) => {
  const state = { done: false, at: 0 };
  p.then(
    () => Object.assign(state, { done: true, at: Date.now() }),
    () => Object.assign(state, { done: true, at: Date.now() }),
  );
  return state;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; Date.now() < end && !check();) await sleep(10);
  return check();
};

async function service(extra: Partial<Parameters<typeof startIngest>[0]> = {}): Promise<IngestService> {
  const dir = tempDir('ack');
  const svc = await startIngest({
    store: sqliteIn(dir),
    directory: directory(),
    dataDir: dir,
    mqttPort: null,
    pipeline: { lingerMs: 5 },
    intake: { maxFramesPerSecond: 0 },
    ...extra,
  });
  cleanup.push(
    () => fs.rmSync(dir, { recursive: true, force: true }),
    () => svc.stop(),
  );
  return svc;
}

describe('acknowledged only once journaled', () => {
  it('embedded broker: no PUBACK while the journal write is held', async () => {
    const svc = await service({ mqttPort: 0, mqttHost: '127.0.0.1' });
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${svc.broker!.port}`, {
      username: 'gw1',
      password: 'Secret123',
      clientId: `gw1-${Math.random()}`,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    cleanup.push(() => c.endAsync());
    const hold = holdJournal(svc);
    const ack = settled(c.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(0, 10), { qos: 1 }));
    expect(await until(() => hold.appended() > 0)).toBe(true);
    await sleep(400);
    expect(ack.done).toBe(false);
    const released = Date.now();
    hold.release();
    expect(await until(() => ack.done)).toBe(true);
    expect(ack.at).toBeGreaterThanOrEqual(released);
  });

  it('HTTP push: no 200 while the journal write is held', async () => {
    const svc = await service();
    const handler = createHttpIntake({
      intake: svc.intake,
      directory: directory(),
      resolveToken: async (t) => (t === 'rti_acme' ? 1 : null),
      maxBytes: 32 * 1024,
    });
    const server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => new Promise((r) => server.close(r)));
    const hold = holdJournal(svc);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gw/${GW}/scan`;
    let status = 0;
    const answer = settled(
      fetch(url, { method: 'POST', body: new Uint8Array(scanPayload(0, 10)), headers: { Token: 'rti_acme', 'Content-Type': 'application/json' } }).then(
        (r) => (status = r.status),
      ),
    );
    expect(await until(() => hold.appended() > 0)).toBe(true);
    await sleep(400);
    expect(answer.done).toBe(false);
    const released = Date.now();
    hold.release();
    expect(await until(() => answer.done)).toBe(true);
    expect(status).toBe(200);
    expect(answer.at).toBeGreaterThanOrEqual(released);
  });

  it.runIf(haveBinary(MOSQUITTO))('external broker: the worker acknowledges to mosquitto only after the write', async () => {
    const broker: RunningMosquitto = await startMosquitto();
    cleanup.push(() => broker.cleanup());
    const svc = await service({ external: { url: broker.url, clientId: `w-${Math.random()}`, group: 'ingest' } });
    await svc.external!.ready;
    const client = svc.external!.client;
    const acks: number[] = [];
    const handle = client.handleMessage.bind(client);
    client.handleMessage = (packet, callback) =>
      handle(packet, (err?: Error) => {
        acks.push(Date.now());
        callback(err);
      });
    const hold = holdJournal(svc);
    const gw = await mqtt.connectAsync(broker.url, { clientId: `gw-${Math.random()}`, reconnectPeriod: 0, protocolVersion: 4 });
    cleanup.push(() => gw.endAsync());
    await gw.publishAsync(`rti/ACME/gw/${GW}/scan`, scanPayload(0, 10), { qos: 1 });
    expect(await until(() => hold.appended() > 0)).toBe(true);
    await sleep(400);
    expect(acks).toEqual([]);
    const released = Date.now();
    hold.release();
    expect(await until(() => acks.length === 1)).toBe(true);
    expect(acks[0]).toBeGreaterThanOrEqual(released);
  });
});
