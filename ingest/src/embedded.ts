/**
 * What the server calls to run ingest in-process (`npm start`), and what worker.ts runs on its
 * own: directory from the business database, store and transport from the environment, and
 * the HTTP push handler to mount at /ingest.
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
import { startIngest, type IngestService } from './ingest-service';
import { silentLogger, type Logger } from './pipeline/pipeline';
import { DeviceStateTracker } from './state/device-state';
import { GpsRules } from './state/gps-rules';
import { LiveEvents } from './live/live-events';

export interface EmbeddedIngestOptions {
  database: Database;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /** open-API token → organisation id; without it the HTTP push answers 401 to everyone */
  resolveToken?: (token: string) => Promise<number | null>;
  log?: Logger;
}

export interface EmbeddedIngest {
  service: IngestService;
  directory: DbDeviceDirectory;
  /** derived device state (absent with INGEST_DEVICE_STATE=off) */
  state?: DeviceStateTracker;
  gpsRules?: GpsRules;
  /** alerts, status changes and positions for the console; stream with createLiveEventsHandler */
  events: LiveEvents;
  config: IngestEnvConfig;
  http: ReturnType<typeof createHttpIntake>;
  stop(): Promise<void>;
}

export async function startIngestFromEnv(opts: EmbeddedIngestOptions): Promise<EmbeddedIngest> {
  const log = opts.log ?? silentLogger;
  const config = ingestConfigFromEnv(opts.env ?? process.env, opts.dataDir);
  const directory = new DbDeviceDirectory({ database: opts.database, verify: verifyPassword, onError: (e) => log.error('ingest: directory refresh failed', e) });
  await directory.start();
  const env = opts.env ?? process.env;
  const events = new LiveEvents();
  const state = env.INGEST_DEVICE_STATE === 'off' ? undefined : new DeviceStateTracker({ database: opts.database, log, events });
  const gpsRules = state ? new GpsRules({ database: opts.database, log, events }) : undefined;
  await state?.start();
  await gpsRules?.start();
  const onStored = state && gpsRules ? (b: Parameters<DeviceStateTracker['observe']>[0]) => (state.observe(b), gpsRules.observe(b)) : undefined;
  const service = await startIngest({
    store: createStore(config),
    directory,
    dataDir: config.dir,
    journal: { maxBytes: config.journalMaxBytes },
    pipeline: { fullPolicy: config.fullPolicy, onStored },
    intake: { maxBytes: config.maxPayloadBytes, maxReadings: config.maxReadings },
    mqttPort: config.mqttUrl ? null : config.mqttPort,
    external: config.mqttUrl ? { url: config.mqttUrl, clientId: config.mqttClientId, group: config.mqttGroup, username: config.mqttUsername, password: config.mqttPassword } : undefined,
    log,
  });
  const http = createHttpIntake({ intake: service.intake, directory, resolveToken: opts.resolveToken ?? (async () => null) });
  return {
    service,
    directory,
    state,
    gpsRules,
    events,
    config,
    http,
    async stop() {
      await service.stop();
      await state?.stop();
      await gpsRules?.stop();
      directory.stop();
    },
  };
}
