import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { telemetryRuntime } from '../server/runtime';
import { ok } from './fixtures';

let ts: TestServer | undefined;
let blocker: net.Server | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-telemetry-busy-'));

afterAll(async () => {
  await ts?.close();
  await new Promise((r) => blocker?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('MQTT port already taken', () => {
  it('the server still starts and answers; ingest is reported off', async () => {
    blocker = net.createServer();
    await new Promise<void>((r) => blocker!.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    Object.assign(process.env, { MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1', SIMULATOR_DEVICES: '0', STATE_FLUSH_MS: '100000' });
    const logged: string[] = [];
    ts = await startTestServer({ plugins: ['telemetry'], config: { dataDir: dir }, logError: (m) => void logged.push(m) });
    const rt = telemetryRuntime(ts.server.db)!;
    await rt.ready;
    expect(rt.ingest).toBeUndefined();
    expect(logged.some((m) => m.includes('ingest NOT started'))).toBe(true);
    const feed = await ok(ts.a, '/device-alert/unsolved');
    expect(feed.carrier.total).toBe(0);
  });
});
