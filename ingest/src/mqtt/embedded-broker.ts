/**
 * Embedded MQTT 3.1.1 broker (aedes). Gateways log in with their own mqttUsername and
 * mqttPassword; each publish is handled in authorizePublish — before aedes sends PUBACK — so
 * a QoS 1 message is acknowledged only once it is in the journal. A full journal holds the
 * PUBACK back (the gateway keeps the message and the broker stops reading from it).
 */
import net from 'node:net';
import aedesModule, { type AuthenticateError, type Client } from 'aedes';

type Aedes = aedesModule;
import type { DeviceDirectory, GatewayIdentity } from '../directory/device-directory';
import { isGpsConfigSubscription } from '../decoders/topics';
import type { Intake } from '../intake';
import { silentLogger, type Logger } from '../pipeline/pipeline';

const createBroker = (aedesModule as unknown as { createBroker: (opts?: object) => Aedes }).createBroker;

export interface EmbeddedBrokerOptions {
  intake: Intake;
  directory: DeviceDirectory;
  /** 0 = pick a free port (tests); the server maps MQTT_PORT=0 to "off" before calling */
  port: number;
  host?: string;
  log?: Logger;
}

export interface EmbeddedBroker {
  port: number;
  aedes: Aedes;
  /** publishes from the server itself (downlink: configurations to trackers), QoS 1 */
  publish(topic: string, payload: string): Promise<void>;
  /** connected gateways */
  clients(): number;
  close(): Promise<void>;
}

function authError(message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: 4 as const }) as AuthenticateError;
}

export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const log = opts.log ?? silentLogger;
  const gateways = new WeakMap<Client, GatewayIdentity>();
  const aedes = createBroker({
    authenticate(
      client: Client,
      username: string | undefined,
      password: Buffer | undefined,
      done: (err: AuthenticateError | null, ok: boolean | null) => void,
    ) {
      if (!username || !password) return done(authError('credentials required'), false);
      opts.directory.authenticate(username, password.toString('utf8')).then(
        (gw) => {
          if (!gw) {
            opts.intake.counters.frame('unknown-device');
            log.warn(`ingest: refused MQTT login "${username}"`);
            return done(authError('bad user name or password'), false);
          }
          gateways.set(client, gw);
          done(null, true);
        },
        (err) => {
          log.error('ingest: gateway authentication failed', err);
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 as const }) as AuthenticateError, false);
        },
      );
    },
    authorizePublish(client: Client | null, packet: { topic: string; payload: Buffer | string; dup?: boolean }, callback: (err?: Error | null) => void) {
      if (!client) return callback(null); // broker-internal (wills of vanished clients)
      const gw = gateways.get(client);
      if (!gw) return callback(new Error('not authenticated'));
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      const r = opts.intake.handleMqtt(packet.topic, payload, gw, packet.dup === true);
      if (r.status === 'forbidden') return callback(new Error(`publish to ${packet.topic} not allowed`));
      if (r.status === 'full') {
        opts.intake.acceptWhenWritable(r).then(() => callback(null), callback);
        return;
      }
      // PUBACK once the frame is on disk; a lagging store holds it back too (back-pressure)
      if (r.status === 'accepted' && r.ackAfter) r.ackAfter.then(() => callback(null), callback);
      else callback(null);
    },
    authorizeSubscribe(client: Client, sub: { topic: string }, callback: (err: Error | null, sub?: { topic: string } | null) => void) {
      // Gateways may listen on their own topic tree only (commands, configuration); a master
      // gateway relaying trackers also on its organisation's tracker configurations.
      const gw = gateways.get(client);
      const own = gw ? `rti/${gw.orgCode}/gw/${gw.mac}/` : null;
      const trackers = gw?.role === 'master' && isGpsConfigSubscription(sub.topic, gw.orgCode);
      callback(null, (own && sub.topic.startsWith(own)) || trackers ? sub : null);
    },
  } as object);
  aedes.on('clientReady', (client: Client) => {
    const gw = gateways.get(client);
    if (gw) opts.intake.connection(gw, true);
  });
  aedes.on('clientDisconnect', (client: Client) => {
    const gw = gateways.get(client);
    if (gw) opts.intake.connection(gw, false);
  });
  aedes.on('clientError', (client: Client, err: Error) => log.warn(`ingest: MQTT client ${client?.id ?? '?'}: ${err.message}`));

  const server = net.createServer(aedes.handle as (socket: net.Socket) => void);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  log.info(`ingest: embedded MQTT broker on port ${port}`);
  return {
    port,
    aedes,
    clients: () => aedes.connectedClients,
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false } as Parameters<Aedes['publish']>[0],
          (err?: Error) => (err ? reject(err) : resolve()),
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        aedes.close(() => server.close(() => resolve()));
      }),
  };
}
