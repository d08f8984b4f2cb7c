/**
 * A stand-alone ingest worker process (production scale-out):
 *   MQTT_URL=mqtt://broker:1883 MQTT_CLIENT_ID=ingest-1 TELEMETRY_STORE=influxdb \
 *   INFLUX_URL=http://influxdb:8086 DATABASE_URL=mysql://… tsx ingest/src/worker.ts
 * Each worker needs its own MQTT_CLIENT_ID (its persistent session) and its own DATA_DIR (its
 * journal). Without MQTT_URL it runs the embedded broker on MQTT_PORT.
 */
import { loadMetadata } from '@rti/metadata';
import { createDatabase, loadConfig } from '@rti/server';
import { startIngestFromEnv } from './embedded';

const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m), error: (m: string, e?: unknown) => console.error(m, e ?? '') };

async function main(): Promise<void> {
  const server = loadConfig(process.env);
  const database = createDatabase(server.databaseUrl, { metadata: loadMetadata(), log: log.info });
  const ingest = await startIngestFromEnv({ database, dataDir: server.dataDir, log });
  const stop = async () => {
    log.info('ingest: stopping');
    await ingest.stop();
    await database.close();
    process.exit(0);
  };
  // a signal handler is not awaited: a failed stop is reported and still ends the process
  const onSignal = () => {
    stop().catch((e: unknown) => {
      log.error('ingest: stop failed', e);
      process.exit(1);
    });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
