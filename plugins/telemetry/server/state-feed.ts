/**
 * The state engine's feed when ingest runs as separate workers (TELEMETRY_INGEST=off with
 * MQTT_URL): the server subscribes to the same topics on the external broker WITHOUT the
 * workers' shared group, so it hears every frame once while the workers split storage among
 * themselves. Frames go through the real decoders and the same device checks as ingest; the
 * state is derived in this one process (per-device order intact), not per worker. HTTP pushes
 * arrive here too: the server publishes them on the broker (runtime.ts, ingest/src/http/push.ts).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { decodeByKind, INGEST_FILTERS, isReject, parseTopic, type DeviceDirectory } from '@rti/ingest';
import type { StateEngine } from '@rti/ingest/state/state-engine';

export interface StateFeedOptions {
  url: string;
  username?: string;
  password?: string;
  directory: DeviceDirectory;
  engine: StateEngine;
  log: (m: string, e?: unknown) => void;
}

export function startStateFeed(opts: StateFeedOptions): { client: MqttClient; stats: { frames: number; dropped: number }; stop(): Promise<void> } {
  const stats = { frames: 0, dropped: 0 };
  const client = mqtt.connect(opts.url, {
    clientId: `rti-state-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    username: opts.username,
    password: opts.password,
    clean: true,
    reconnectPeriod: 2000,
  });
  client.on('connect', () => client.subscribe(INGEST_FILTERS, { qos: 0 }, (err) => err && opts.log('state feed: subscribe failed', err)));
  client.on('error', (err) => opts.log('state feed: broker error', err));
  client.on('message', (topic, payload) => {
    const t = parseTopic(topic);
    const org = t && opts.directory.org(t.orgCode);
    if (!t || !org || (t.deviceType === 'gw' && !opts.directory.gateway(org.id, t.device))) return void stats.dropped++;
    const dir = opts.directory;
    const known = t.kind === 'scan' ? (m: string) => dir.beaconKnown(org.id, m) : t.kind === 'report' ? (sn: string) => dir.gpsKnown(org.id, sn) : undefined;
    const r = decodeByKind(t.kind, payload, { org: org.id, source: t.device, receivedAt: Date.now(), maxBytes: 256 * 1024, maxReadings: 1000, known });
    if (isReject(r)) return void stats.dropped++;
    stats.frames++;
    try {
      if (r.rows.length) opts.engine.applyBatch([{ series: r.series, rows: r.rows }]);
    } catch (err) {
      opts.log('state engine failed on a frame', err);
    }
  });
  return { client, stats, stop: () => client.endAsync().then(() => undefined) };
}
