// Throwaway database/broker processes for tests and benchmarks: started from Debian's
// binaries on free loopback ports with temporary data folders, stopped on exit. Nothing here
// touches a system-wide service. The one service starter of the repository (scripts/test.mjs,
// console e2e, ingest and telemetry tests, bench/ingest); types in services.d.mts.
//
// mosquitto and influxd come back as restartable handles for outage tests:
//   { url, port, dir, pid(), stop() (process only, data kept), start() (same port and data),
//     cleanup() (stop and delete the data) }
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh temporary directory rti-<prefix>-XXXXXX. */
export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `rti-${prefix}-`));
}

export function which(bin) {
  if (bin.includes('/')) return existsSync(bin) ? bin : null;
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (existsSync(join(dir, bin))) return join(dir, bin);
  }
  return null;
}

export const MOSQUITTO = 'mosquitto';
export const INFLUXD = 'influxd';

/** true when the binary is installed; throws under CI=true (CI installs them: no silent skips there). */
export function haveBinary(bin) {
  if (which(bin)) return true;
  if (process.env.CI === 'true') throw new Error(`${bin} is required under CI but missing`);
  return false;
}

async function waitForPort(port, proc, name, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    const ok = await new Promise((res) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        res(true);
      });
      s.on('error', () => res(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not open port ${port} within ${timeoutMs} ms`);
}

function stopper(proc, dir) {
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => {
          proc.kill('SIGKILL');
          r();
        }, 10000);
        proc.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  });
  return stop;
}

/** MariaDB with grant checks off (loopback only, throwaway data) → { url, stop }. */
export async function startMariadb({ database = 'rti_test' } = {}) {
  const mariadbd = which('mariadbd') ?? which('mysqld');
  if (!mariadbd) throw new Error('mariadbd not found: install Debian package mariadb-server');
  const dir = mkdtempSync(join(tmpdir(), 'rti-mariadb-'));
  const data = join(dir, 'data');
  execFileSync(
    which('mariadb-install-db') ?? 'mysql_install_db',
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
    { stdio: 'ignore' },
  );
  const port = await freePort();
  const proc = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${join(dir, 'sock')}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--user=root',
      '--skip-grant-tables',
      '--skip-log-bin',
      // tests: small; a pool-scale bench sizes it to its data (RTI_MARIADB_POOL=6G), as production does
      `--innodb-buffer-pool-size=${process.env.RTI_MARIADB_POOL ?? '128M'}`,
      '--innodb-flush-log-at-trx-commit=2',
      `--pid-file=${join(dir, 'pid')}`,
    ],
    { stdio: 'ignore' },
  );
  await waitForPort(port, proc, 'mariadbd');
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  await conn.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  return { url: `mysql://root@127.0.0.1:${port}/${database}`, port, stop: stopper(proc, dir) };
}

/**
 * A restartable service: `launch()` spawns the process, `ready()` says when it answers.
 * Killed with the test process if still running at exit.
 */
function restartable({ name, url, port, dir, launch, ready }) {
  let proc;
  process.once('exit', () => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  });
  const handle = {
    url,
    port,
    dir,
    pid: () => proc?.pid,
    async start() {
      // already running: a second process on the same port would only be orphaned
      if (proc && proc.exitCode === null && proc.signalCode === null) return;
      proc = launch();
      proc.stderr?.resume();
      const until = Date.now() + 30000;
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
        if (await ready().catch(() => false)) return;
        if (Date.now() > until) throw new Error(`${name} did not become ready on port ${port}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      const p = proc;
      proc = undefined;
      if (!p || p.exitCode !== null || p.signalCode !== null) return;
      await new Promise((resolve) => {
        const t = setTimeout(() => p.kill('SIGKILL'), 5000);
        p.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        p.kill('SIGTERM');
      });
    },
    async cleanup() {
      await handle.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

const portOpen = (port) =>
  new Promise((res) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
  });

/**
 * Mosquitto (MQTT 3.1.1 and 5), anonymous, persistence on (a restart keeps persistent sessions
 * and queued QoS 1 messages). `extra`: more mosquitto.conf lines.
 */
export async function startMosquitto({ extra = '' } = {}) {
  const bin = which(MOSQUITTO);
  if (!bin) throw new Error('mosquitto not found: install Debian package mosquitto');
  const dir = tempDir('mosquitto');
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${dir}/`,
      'autosave_interval 1',
      'max_queued_messages 100000',
      'max_inflight_messages 100',
      'log_dest none',
      extra,
      '',
    ].join('\n'),
  );
  const h = restartable({
    name: 'mosquitto',
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    launch: () => spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] }),
    ready: () => portOpen(port),
  });
  await h.start();
  return h;
}

/** InfluxDB 1.x (v1 HTTP API: /write, /query, /ping) with temporary storage. */
export async function startInfluxdb() {
  const bin = which(INFLUXD);
  if (!bin) throw new Error('influxd not found: install Debian package influxdb');
  const dir = tempDir('influxd');
  const port = await freePort();
  const rpcPort = await freePort();
  const conf = join(dir, 'influxdb.conf');
  writeFileSync(
    conf,
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      `[meta]\n  dir = "${dir}/meta"\n  logging-enabled = false`,
      `[data]\n  dir = "${dir}/data"\n  wal-dir = "${dir}/wal"\n  query-log-enabled = false`,
      '[coordinator]\n  log-queries-after = "0s"',
      '[retention]\n  enabled = false',
      '[monitor]\n  store-enabled = false',
      `[http]\n  enabled = true\n  bind-address = "127.0.0.1:${port}"\n  log-enabled = false`,
      '[subscriber]\n  enabled = false',
      '[continuous_queries]\n  enabled = false',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}`;
  const h = restartable({
    name: 'influxd',
    url,
    port,
    dir,
    launch: () => spawn(bin, ['-config', conf], { stdio: ['ignore', 'ignore', 'pipe'] }),
    ready: async () => (await fetch(`${url}/ping`)).status === 204,
  });
  await h.start();
  return h;
}

/**
 * s3rver (npm, a devDependency of the server; installed by `npm ci`, no system package): a
 * real S3 HTTP server in its own process, path-style, signature V4 checked against its fixed
 * credentials, objects in a temporary folder. Restartable like the others (outage tests).
 * → handle + { endpoint, accessKeyId, secretAccessKey }.
 */
export async function startS3rver() {
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const dir = tempDir('s3rver');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const h = restartable({
    name: 's3rver',
    url,
    port,
    dir,
    launch: () =>
      spawn(process.execPath, [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '-s', '--no-vhost-buckets'], { stdio: ['ignore', 'ignore', 'pipe'] }),
    ready: () => portOpen(port),
  });
  await h.start();
  return Object.assign(h, { endpoint: url, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
}
