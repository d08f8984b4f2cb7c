/**
 * Ingest worker on an external broker (MQTT_URL). Connects as a persistent-session client
 * (clean: false, fixed client id) and subscribes with QoS 1 through shared subscriptions
 * ($share/<group>/…), so several workers split the load and each message reaches exactly one.
 * PUBACK is sent only after the frame is in the journal: mqtt.js acknowledges when
 * handleMessage calls back. Who may publish what is the broker's ACL's job here (see
 * docs/TELEMETRY.md).
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { INGEST_FILTERS } from '../decoders/topics';
import type { Intake } from '../intake';
import { silentLogger, type Logger } from '../pipeline/pipeline';

export interface ExternalIngestOptions {
  url: string;
  intake: Intake;
  /** stable per worker so the broker keeps its session across restarts */
  clientId: string;
  /** shared-subscription group (default "ingest"); '' = plain subscriptions (single worker) */
  group?: string;
  username?: string;
  password?: string;
  protocolVersion?: 4 | 5;
  log?: Logger;
}

export interface ExternalIngest {
  client: MqttClient;
  /** resolves once subscribed */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function startExternalIngest(opts: ExternalIngestOptions): ExternalIngest {
  const log = opts.log ?? silentLogger;
  const group = opts.group ?? 'ingest';
  const filters = INGEST_FILTERS.map((f) => (group ? `$share/${group}/${f}` : f));
  const options: IClientOptions = {
    clientId: opts.clientId,
    clean: false,
    protocolVersion: opts.protocolVersion ?? 4,
    username: opts.username,
    password: opts.password,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    resubscribe: true,
  };
  const client = mqtt.connect(opts.url, options);
  client.handleMessage = (packet, callback) => {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : (packet.payload as Buffer);
    const r = opts.intake.handleMqtt(packet.topic, payload, undefined, packet.dup === true);
    if (r.status === 'full') {
      opts.intake.acceptWhenWritable(r).then(
        () => callback(),
        (err) => callback(err),
      );
      return;
    }
    if (r.status === 'accepted' && r.ackAfter)
      r.ackAfter.then(
        () => callback(),
        (err) => callback(err),
      );
    else callback();
  };
  const ready = new Promise<void>((resolve) => {
    client.on('connect', (connack) => {
      log.info(`ingest: connected to ${opts.url} as ${opts.clientId} (session ${connack.sessionPresent ? 'resumed' : 'new'})`);
      client.subscribe(filters, { qos: 1 }, (err) => {
        if (err) log.error('ingest: subscribe failed', err);
        else resolve();
      });
    });
  });
  client.on('error', (err) => log.warn(`ingest: MQTT ${err.message}`));
  return {
    client,
    ready,
    close: () => new Promise<void>((resolve) => client.end(false, {}, () => resolve())),
  };
}
