/**
 * Environment → configuration. Every default is an embedded one, so `npm start` works on a
 * fresh clone; production overrides through the environment only.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storageConfigFromEnv, type StorageConfig } from './files/storage';
import { renderConfigFromEnv, type RenderConfig } from './render/console-png';

/** Repository root (server/src/../..). */
export const repoRoot: string = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerConfig {
  port: number;
  databaseUrl: string;
  dataDir: string;
  /** JSON body limit, in the notation of body-parser ("1mb", "500kb") */
  bodyLimit: string;
  /** built console served with SPA fallback when the folder exists */
  consoleDist: string;
  /** folder scanned for plugins/<id>/server/index.ts */
  pluginsDir: string;
  /** whole request (headers and body) must arrive within this (SPEC §9 client time-out 60 s) */
  requestTimeoutMs: number;
  /** an upload that sends nothing for this long is refused */
  uploadIdleMs: number;
  /**
   * The server's IANA zone (TIME_ZONE; SCHEDULER_TIMEZONE, its older name, when unset; else
   * UTC): an organisation that names no `timeZone` cuts its days — reports, snapshots,
   * schedules, dated document numbers, imported wall-clock times — here.
   */
  timeZone: string;
  /**
   * Proxies whose X-Forwarded-For names the client (TRUST_PROXY: comma-separated addresses,
   * CIDR ranges or Express names such as "loopback"). Empty = none: the client is the socket's
   * peer and a forwarded header is ignored, so no client can choose its own address.
   */
  trustProxy: string[];
  /**
   * This instance among several on one database (INSTANCE_ID): it owns the import jobs it
   * took and its temporary files. Default: the host name and the data folder, stable across
   * restarts of one installation (docs/SERVER.md "Running on several machines").
   */
  instanceId: string;
  /** where uploads, report workbooks and running imports' files are stored: the data folder, or S3 (STORAGE_URL) */
  storage: StorageConfig;
  /** how often an instance beats the heartbeat of its import jobs (IMPORT_HEARTBEAT_MS, 5 s) */
  importHeartbeatMs: number;
  /** an import job whose heartbeat is older than this is a dead instance's, taken over and resumed (IMPORT_STALE_MS, 60 s) */
  importStaleMs: number;
  /**
   * The console's origin printed codes point at (PUBLIC_URL, e.g. https://rti.example.com):
   * set it behind a proxy; empty = the origin the printing caller used.
   */
  publicUrl: string;
  /** console pages drawn to PNG for mails: the console's origin, the browser, the wait (render/console-png.ts) */
  render: RenderConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(env.DATA_DIR || resolve(repoRoot, 'data'));
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || `sqlite:${resolve(dataDir, 'rti.sqlite')}`,
    bodyLimit: env.BODY_LIMIT || '1mb',
    consoleDist: resolve(env.CONSOLE_DIST || resolve(repoRoot, 'console/dist')),
    pluginsDir: resolve(env.PLUGINS_DIR || resolve(repoRoot, 'plugins')),
    requestTimeoutMs: positive(env, 'REQUEST_TIMEOUT_MS', 60_000),
    uploadIdleMs: positive(env, 'UPLOAD_IDLE_MS', 20_000),
    timeZone: zone(env.TIME_ZONE || env.SCHEDULER_TIMEZONE || 'UTC'),
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    instanceId: instanceId(env.INSTANCE_ID, dataDir),
    storage: storageConfigFromEnv(env),
    importHeartbeatMs: positive(env, 'IMPORT_HEARTBEAT_MS', 5_000),
    importStaleMs: positive(env, 'IMPORT_STALE_MS', 60_000),
    // SHIPPING_PUBLIC_URL: the name before public links were the platform's
    publicUrl: origin(env.PUBLIC_URL || env.SHIPPING_PUBLIC_URL || ''),
    render: renderConfigFromEnv(env),
  };
}

function origin(value: string): string {
  if (!value) return '';
  const u = new URL(value);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an http(s) address, got "${value}"`);
  return u.origin;
}

function instanceId(value: string | undefined, dataDir: string): string {
  if (value === undefined || value === '') return `${hostname().slice(0, 60)}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) throw new Error(`INSTANCE_ID must be 1 to 64 letters, digits, dots, dashes or underscores, got "${value}"`);
  return value;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name] ? Number(env[name]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive number of milliseconds, got "${env[name]}"`);
  return v;
}

function zone(name: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    throw new Error(`TIME_ZONE must be an IANA time zone such as Asia/Shanghai, got "${name}"`);
  }
  return name;
}
