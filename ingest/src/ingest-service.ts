/**
 * Wires one ingest worker: store → journal → pipeline → intake → MQTT transport. The server
 * starts one in-process (embedded broker, SQLite store); production runs it as separate
 * worker processes on an external broker and InfluxDB (see docs/TELEMETRY.md).
 */
import path from 'node:path';
import type { DeviceDirectory } from './directory/device-directory';
import { Intake, RECENT_FRAMES, type IntakeOptions } from './intake';
import { Journal, type JournalOptions } from './journal/journal';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt/embedded-broker';
import { startExternalIngest, type ExternalIngest, type ExternalIngestOptions } from './mqtt/external-client';
import { IngestPipeline, silentLogger, type Logger, type PipelineOptions, type PipelineStats } from './pipeline/pipeline';
import type { TelemetryStore } from './store/telemetry-store';

export interface IngestConfig {
  store: TelemetryStore;
  directory: DeviceDirectory;
  /** the journal lives in <dataDir>/journal (one directory per worker) */
  dataDir: string;
  journal?: Omit<JournalOptions, 'dir'>;
  pipeline?: Omit<PipelineOptions, 'store' | 'journal' | 'redecode' | 'log'>;
  intake?: Omit<IntakeOptions, 'directory' | 'pipeline' | 'log'>;
  /** embedded broker port (0 = any free port); null = no embedded broker */
  mqttPort?: number | null;
  mqttHost?: string;
  /** external broker: when set, no embedded broker is started */
  external?: Omit<ExternalIngestOptions, 'intake' | 'log'>;
  log?: Logger;
}

export interface IngestService {
  intake: Intake;
  pipeline: IngestPipeline;
  store: TelemetryStore;
  broker?: EmbeddedBroker;
  external?: ExternalIngest;
  stats(): PipelineStats & { rejectedFrames: Record<string, number>; rejectedReadings: Record<string, number> };
  stop(): Promise<void>;
}

export async function startIngest(cfg: IngestConfig): Promise<IngestService> {
  const log = cfg.log ?? silentLogger;
  await cfg.store.init();
  const journal = new Journal({ dir: path.join(cfg.dataDir, 'journal'), ...cfg.journal });
  let intake: Intake | undefined;
  const pipeline = new IngestPipeline({ ...cfg.pipeline, store: cfg.store, journal, redecode: (rec) => intake!.redecode(rec), log });
  intake = new Intake({ ...cfg.intake, directory: cfg.directory, pipeline, log });
  intake.seedRecent(journal.read(Math.max(1, journal.lastSeq - RECENT_FRAMES + 1), RECENT_FRAMES));
  await pipeline.start();
  let broker: EmbeddedBroker | undefined;
  let external: ExternalIngest | undefined;
  if (cfg.external) {
    external = startExternalIngest({ ...cfg.external, intake, log });
  } else if (cfg.mqttPort !== null && cfg.mqttPort !== undefined) {
    broker = await startEmbeddedBroker({ intake, directory: cfg.directory, port: cfg.mqttPort, host: cfg.mqttHost, log });
  }
  const svc: IngestService = {
    intake,
    pipeline,
    store: cfg.store,
    broker,
    external,
    stats: () =>
      ({ ...pipeline.stats(), rejectedFrames: { ...intake!.counters.frames }, rejectedReadings: { ...intake!.counters.readings } }) as ReturnType<
        IngestService['stats']
      >,
    async stop() {
      await external?.close();
      await broker?.close();
      await pipeline.stop();
      await cfg.store.close();
    },
  };
  return svc;
}
