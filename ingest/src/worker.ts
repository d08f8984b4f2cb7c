/**
 * A stand-alone ingest worker process (production scale-out):
 *   MQTT_URL=mqtt://broker:1883 MQTT_CLIENT_ID=ingest-1 TELEMETRY_STORE=influxdb \
 *   INFLUX_URL=http://influxdb:8086 DATABASE_URL=mysql://… tsx ingest/src/worker.ts
 * Each worker needs its own MQTT_CLIENT_ID (its persistent session) and its own DATA_DIR (its
 * journal). Without MQTT_URL it runs the embedded broker on MQTT_PORT.
 */
import { loadMetadata } from '@rti/metadata';
import { createDatabase, loadConfig, verifyPassword } from '@rti/server';
import { createStore, ingestConfigFromEnv } from './config';
import { DbDeviceDirectory } from './directory/db-directory';
import { startIngest } from './ingest-service';

const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m), error: (m: string, e?: unknown) => console.error(m, e ?? '') };

async function main(): Promise<void> {
  const server = loadConfig(process.env);
  const cfg = ingestConfigFromEnv(process.env, server.dataDir);
  const database = createDatabase(server.databaseUrl, { metadata: loadMetadata(), log: log.info });
  const directory = new DbDeviceDirectory({ database, verify: verifyPassword, onError: (e) => log.error('ingest: directory refresh failed', e) });
  await directory.start();
  const svc = await startIngest({
    store: createStore(cfg),
    directory,
    dataDir: cfg.dir,
    journal: { maxBytes: cfg.journalMaxBytes },
    pipeline: { fullPolicy: cfg.fullPolicy },
    intake: { maxBytes: cfg.maxPayloadBytes, maxReadings: cfg.maxReadings },
    mqttPort: cfg.mqttUrl ? null : cfg.mqttPort,
    external: cfg.mqttUrl ? { url: cfg.mqttUrl, clientId: cfg.mqttClientId, group: cfg.mqttGroup, username: cfg.mqttUsername, password: cfg.mqttPassword } : undefined,
    log,
  });
  const stop = async () => {
    log.info('ingest: stopping');
    await svc.stop();
    directory.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
