/**
 * Ingest settings from the environment (docs/TELEMETRY.md lists them). Parsed once, with a
 * clear message for a bad value instead of a surprise at the first reading.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import { InfluxTelemetryStore } from './store/influx-store';
import { SegmentTelemetryStore } from './store/segment-store';
import { SqliteTelemetryStore } from './store/sqlite-store';
import type { TelemetryStore } from './store/telemetry-store';

export interface IngestEnvConfig {
  /** TELEMETRY_STORE: segments (default) | sqlite | influxdb */
  store: 'segments' | 'sqlite' | 'influxdb';
  /** <DATA_DIR>/telemetry */
  dir: string;
  retentionDays: number;
  influx: { url: string; database: string; username?: string; password?: string; token?: string; retentionPolicy?: string };
  /** MQTT_PORT for the embedded broker; null = off (MQTT_PORT=0) */
  mqttPort: number | null;
  mqttUrl?: string;
  mqttClientId: string;
  mqttGroup: string;
  mqttUsername?: string;
  mqttPassword?: string;
  maxPayloadBytes: number;
  maxReadings: number;
  journalMaxBytes: number;
  fullPolicy: 'refuse' | 'drop-oldest';
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export function ingestConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): IngestEnvConfig {
  const store = (env.TELEMETRY_STORE || 'segments') as IngestEnvConfig['store'];
  if (!['segments', 'sqlite', 'influxdb'].includes(store)) throw new Error(`TELEMETRY_STORE must be segments, sqlite or influxdb, got "${store}"`);
  const policy = (env.INGEST_BUFFER_FULL || 'refuse') as IngestEnvConfig['fullPolicy'];
  if (policy !== 'refuse' && policy !== 'drop-oldest') throw new Error(`INGEST_BUFFER_FULL must be refuse or drop-oldest, got "${policy}"`);
  const port = int(env, 'MQTT_PORT', 1883);
  if (port > 65535) throw new Error(`MQTT_PORT must be a port number, got "${env.MQTT_PORT}"`);
  return {
    store,
    dir: path.resolve(dataDir, 'telemetry'),
    retentionDays: int(env, 'TELEMETRY_RETENTION_DAYS', 0),
    influx: {
      url: env.INFLUX_URL || 'http://127.0.0.1:8086',
      database: env.INFLUX_DB || 'rti',
      username: env.INFLUX_USER || undefined,
      password: env.INFLUX_PASSWORD || undefined,
      token: env.INFLUX_TOKEN || undefined,
      retentionPolicy: env.INFLUX_RP || undefined,
    },
    mqttPort: port === 0 ? null : port,
    mqttUrl: env.MQTT_URL || undefined,
    // the host name too: in containers every worker is pid 1, and two sessions with one id evict each other
    mqttClientId: env.MQTT_CLIENT_ID || `rti-ingest-${hostname()}-${process.pid}`,
    mqttGroup: env.MQTT_SHARE_GROUP ?? 'ingest',
    mqttUsername: env.MQTT_USERNAME || undefined,
    mqttPassword: env.MQTT_PASSWORD || undefined,
    maxPayloadBytes: int(env, 'INGEST_MAX_PAYLOAD_BYTES', 256 * 1024, 1024),
    maxReadings: int(env, 'INGEST_MAX_READINGS', 1000, 1),
    journalMaxBytes: int(env, 'INGEST_BUFFER_MAX_BYTES', 1024 * 1024 * 1024, 1024 * 1024),
    fullPolicy: policy,
  };
}

export function createStore(cfg: IngestEnvConfig): TelemetryStore {
  switch (cfg.store) {
    case 'segments':
      return new SegmentTelemetryStore({ dir: path.join(cfg.dir, 'segments'), retentionDays: cfg.retentionDays });
    case 'sqlite':
      return new SqliteTelemetryStore({ file: path.join(cfg.dir, 'telemetry.sqlite'), retentionDays: cfg.retentionDays });
    case 'influxdb':
      return new InfluxTelemetryStore({ ...cfg.influx, createDatabase: !cfg.influx.token });
  }
}
