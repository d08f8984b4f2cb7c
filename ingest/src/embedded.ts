/**
 * Ingest from the environment for a process of its own (worker.ts) or an embedding server:
 * directory from the business database, store and transport from the environment, the HTTP
 * push handler to mount at /ingest, and an onStored hook for the derived-state engine.
 *
 *   const ingest = await startIngestFromEnv({ database, dataDir: config.dataDir,
 *     resolveToken: (t) => tokenStore(database.sequelize).resolve(t) });
 *   app.use('/ingest', ingest.http);      // before the SPA fallback
 *   …
 *   await ingest.stop();
 */
import type { Database } from '@rti/server';
import { verifyPassword } from '@rti/server';
import { createStore, ingestConfigFromEnv, type IngestEnvConfig } from './config';
import { DbDeviceDirectory } from './directory/db-directory';
import { createHttpIntake } from './http/http-intake';
import { brokerPush, intakePush } from './http/push';
import { startIngest, type IngestService } from './ingest-service';
import { silentLogger, type Logger, type PipelineOptions } from './pipeline/pipeline';

export interface EmbeddedIngestOptions {
  database: Database;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /** open-API token → organisation id; without it the HTTP push answers 401 to everyone */
  resolveToken?: (token: string) => Promise<number | null>;
  /** called with every stored batch (the derived-state engine's input) */
  onStored?: PipelineOptions['onStored'];
  log?: Logger;
}

export interface EmbeddedIngest {
  service: IngestService;
  directory: DbDeviceDirectory;
  config: IngestEnvConfig;
  http: ReturnType<typeof createHttpIntake>;
  stop(): Promise<void>;
}

export async function startIngestFromEnv(opts: EmbeddedIngestOptions): Promise<EmbeddedIngest> {
  const log = opts.log ?? silentLogger;
  const config = ingestConfigFromEnv(opts.env ?? process.env, opts.dataDir);
  const directory = new DbDeviceDirectory({
    database: opts.database,
    verify: verifyPassword,
    onError: (e) => log.error('ingest: directory refresh failed', e),
  });
  await directory.start();
  const service = await startIngest({
    store: createStore(config),
    directory,
    dataDir: config.dir,
    journal: { maxBytes: config.journalMaxBytes },
    pipeline: { fullPolicy: config.fullPolicy, onStored: opts.onStored },
    intake: { maxBytes: config.maxPayloadBytes, maxReadings: config.maxReadings },
    mqttPort: config.mqttUrl ? null : config.mqttPort,
    external: config.mqttUrl
      ? { url: config.mqttUrl, clientId: config.mqttClientId, group: config.mqttGroup, username: config.mqttUsername, password: config.mqttPassword }
      : undefined,
    log,
  });
  // on an external broker a push is published like a gateway's frame, so the server's state
  // feed (rules) hears it too and the worker group shares it; embedded: straight into the intake
  const external = service.external;
  const target = external
    ? brokerPush({
        directory,
        maxBytes: config.maxPayloadBytes,
        maxReadings: config.maxReadings,
        publish: (topic, payload) => external.client.publishAsync(topic, payload, { qos: 1 }).then(() => undefined),
      })
    : intakePush(service.intake);
  const http = createHttpIntake({ target, directory, resolveToken: opts.resolveToken ?? (async () => null) });
  return {
    service,
    directory,
    config,
    http,
    async stop() {
      await service.stop();
      directory.stop();
    },
  };
}
