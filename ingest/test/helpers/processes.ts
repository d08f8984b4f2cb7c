/**
 * Throwaway influxd and mosquitto for tests: temp config and dirs, free loopback ports, stopped
 * by the caller. A missing binary fails under CI=true (CI installs both) and skips elsewhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** true when the binary exists; throws under CI when it does not (tests must not silently skip there). */
export function haveBinary(file: string): boolean {
  if (fs.existsSync(file)) return true;
  if (process.env.CI === 'true') throw new Error(`${file} is required under CI but missing`);
  return false;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `rti-${prefix}-`));
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready`);
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

export const INFLUXD = '/usr/bin/influxd';
export const MOSQUITTO = '/usr/sbin/mosquitto';

export interface RunningInflux {
  url: string;
  port: number;
  pid(): number | undefined;
  dir: string;
  stop(): Promise<void>;
  /** restart on the same port and data (for outage tests) */
  start(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function startInfluxd(): Promise<RunningInflux> {
  const dir = tempDir('influxd');
  const port = await freePort();
  const rpcPort = await freePort();
  const conf = path.join(dir, 'influxdb.conf');
  fs.writeFileSync(
    conf,
    `reporting-disabled = true
bind-address = "127.0.0.1:${rpcPort}"
[meta]
  dir = "${dir}/meta"
  logging-enabled = false
[data]
  dir = "${dir}/data"
  wal-dir = "${dir}/wal"
  query-log-enabled = false
[coordinator]
  log-queries-after = "0s"
[retention]
  enabled = false
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:${port}"
  log-enabled = false
[subscriber]
  enabled = false
[continuous_queries]
  enabled = false
`,
  );
  let proc: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}`;
  const handle: RunningInflux = {
    url,
    port,
    dir,
    pid: () => proc?.pid,
    async start() {
      proc = spawn(INFLUXD, ['-config', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
      proc.stderr?.resume();
      await waitFor(async () => (await fetch(`${url}/ping`)).status === 204, 'influxd');
    },
    async stop() {
      if (proc) await stop(proc);
      proc = undefined;
    },
    async cleanup() {
      await handle.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}

export interface RunningMosquitto {
  url: string;
  port: number;
  pid(): number | undefined;
  stop(): Promise<void>;
  start(): Promise<void>;
  cleanup(): Promise<void>;
}

/** mosquitto with persistence on (so a restart keeps persistent sessions and queued QoS 1). */
export async function startMosquitto(extra = ''): Promise<RunningMosquitto> {
  const dir = tempDir('mosquitto');
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    `listener ${port} 127.0.0.1
allow_anonymous true
persistence true
persistence_location ${dir}/
autosave_interval 1
max_queued_messages 100000
max_inflight_messages 100
log_dest none
${extra}
`,
  );
  let proc: ChildProcess | undefined;
  const handle: RunningMosquitto = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    pid: () => proc?.pid,
    async start() {
      proc = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
      proc.stderr?.resume();
      await waitFor(
        () =>
          new Promise<boolean>((resolve) => {
            const s = net.connect(port, '127.0.0.1', () => {
              s.destroy();
              resolve(true);
            });
            s.on('error', () => resolve(false));
          }),
        'mosquitto',
      );
    },
    async stop() {
      if (proc) await stop(proc);
      proc = undefined;
    },
    async cleanup() {
      await handle.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}
