/**
 * The downlink on an external broker (MQTT_URL): a client of this server publishes trackers'
 * configurations and hears their answers on `rti/+/gps/+/config/ack` (every instance hears
 * every answer; the first to end the request wins, the others find it answered). Who may
 * publish answers is the broker's ACL's job there (docs/TELEMETRY.md "GPS configuration").
 * With the embedded broker answers come through the intake and publishes through aedes.
 */
import mqtt from 'mqtt';
import { GPS_CONFIG_ACK_FILTER, parseConfigAck } from '@rti/ingest';
import type { Downlink } from './gps-config';

export interface ConfigLink extends Downlink {
  stop(): Promise<void>;
}

export function startConfigLink(opts: {
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  onAck(ack: { orgCode: string; sn: string; payload: Buffer }): void;
  log: (message: string, err?: unknown) => void;
}): ConfigLink {
  const client = mqtt.connect(opts.url, {
    clientId: opts.clientId,
    clean: true,
    username: opts.username,
    password: opts.password,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  client.on('connect', () => {
    client.subscribe(GPS_CONFIG_ACK_FILTER, { qos: 1 }, (err) => (err ? opts.log('gps configuration: subscribing to answers failed', err) : undefined));
  });
  client.on('message', (topic, payload) => {
    const ack = parseConfigAck(topic);
    if (ack) opts.onAck({ ...ack, payload: Buffer.from(payload) });
  });
  client.on('error', (err) => opts.log(`gps configuration link: ${err.message}`));
  return {
    publish: (topic, payload) => client.publishAsync(topic, payload, { qos: 1 }).then(() => undefined),
    stop: () => client.endAsync(),
  };
}
