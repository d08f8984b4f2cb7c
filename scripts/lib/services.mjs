// Throwaway database/broker processes for tests and benchmarks: started from Debian's
// binaries on free loopback ports with temporary data folders, stopped on exit. Nothing here
// touches a system-wide service.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
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

export function which(bin) {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (existsSync(join(dir, bin))) return join(dir, bin);
  }
  return null;
}

async function waitForPort(port, proc, name, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    const ok = await new Promise((res) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); res(true); });
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
      await new Promise((r) => { const t = setTimeout(() => { proc.kill('SIGKILL'); r(); }, 10000); proc.once('exit', () => { clearTimeout(t); r(); }); });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => { if (proc.exitCode === null) proc.kill('SIGKILL'); });
  return stop;
}

/** MariaDB with grant checks off (loopback only, throwaway data) → { url, stop }. */
export async function startMariadb({ database = 'rti_test' } = {}) {
  const mariadbd = which('mariadbd') ?? which('mysqld');
  if (!mariadbd) throw new Error('mariadbd not found: install Debian package mariadb-server');
  const dir = mkdtempSync(join(tmpdir(), 'rti-mariadb-'));
  const data = join(dir, 'data');
  execFileSync(which('mariadb-install-db') ?? 'mysql_install_db', ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'], { stdio: 'ignore' });
  const port = await freePort();
  const proc = spawn(mariadbd, ['--no-defaults', `--datadir=${data}`, `--socket=${join(dir, 'sock')}`, `--port=${port}`, '--bind-address=127.0.0.1', '--user=root', '--skip-grant-tables', '--skip-log-bin', '--innodb-buffer-pool-size=128M', '--innodb-flush-log-at-trx-commit=2', `--pid-file=${join(dir, 'pid')}`], { stdio: 'ignore' });
  await waitForPort(port, proc, 'mariadbd');
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  await conn.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  return { url: `mysql://root@127.0.0.1:${port}/${database}`, port, stop: stopper(proc, dir) };
}

/** Mosquitto (MQTT 3.1.1 and 5) with anonymous access on a free port → { url, port, stop }. */
export async function startMosquitto() {
  const bin = which('mosquitto');
  if (!bin) throw new Error('mosquitto not found: install Debian package mosquitto');
  const dir = mkdtempSync(join(tmpdir(), 'rti-mosquitto-'));
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location ${dir}/\nmax_queued_messages 100000\n`);
  const proc = spawn(bin, ['-c', conf], { stdio: 'ignore' });
  await waitForPort(port, proc, 'mosquitto');
  return { url: `mqtt://127.0.0.1:${port}`, port, stop: stopper(proc, dir) };
}

/** InfluxDB 1.x (v1 HTTP API) with temp storage → { url, port, stop }. */
export async function startInfluxdb() {
  const bin = which('influxd');
  if (!bin) throw new Error('influxd not found: install Debian package influxdb');
  const dir = mkdtempSync(join(tmpdir(), 'rti-influx-'));
  const port = await freePort();
  const bindPort = await freePort();
  const conf = join(dir, 'influxdb.conf');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(conf, [
    'reporting-disabled = true',
    `bind-address = "127.0.0.1:${bindPort}"`,
    `[meta]\n  dir = "${dir}/meta"`,
    `[data]\n  dir = "${dir}/data"\n  wal-dir = "${dir}/wal"\n  query-log-enabled = false`,
    `[http]\n  bind-address = "127.0.0.1:${port}"\n  log-enabled = false`,
    '[monitor]\n  store-enabled = false',
    '[continuous_queries]\n  enabled = false',
  ].join('\n'));
  const proc = spawn(bin, ['-config', conf], { stdio: 'ignore' });
  await waitForPort(port, proc, 'influxd');
  return { url: `http://127.0.0.1:${port}`, port, stop: stopper(proc, dir) };
}
