/**
 * The telemetry runtime inside the server process: the embedded ingest worker (broker,
 * journal, store) with the derived-state engine on its onStored hook, the state sink, the
 * ticker, master-data refresh and the demo fleet simulator. One per server (keyed by its
 * database) so tests and the event stream can reach it.
 */
import { createStore, DbDeviceDirectory, ingestConfigFromEnv, startIngest, type IngestService, type TelemetryStore } from '@rti/ingest';
import { brokerPush, intakePush, type PushTarget } from '@rti/ingest/http/push';
import { StateEngine } from '@rti/ingest/state/state-engine';
import { startSimulator, type Simulator } from '@rti/ingest/simulator/simulator';
import { verifyPassword, type Database } from '@rti/server';
import type { PluginServerContext } from '@rti/server/plugin-api';
import type { CarrierPlacement } from '@rti/ingest/state/state-engine';
import { leaseMigration, RelayedBus, startClusterLink, startLease, type ClusterLink, type Lease } from './cluster';
import type { EventBus } from './event-bus';
import { loadFleet } from './fleet-loader';
import { startStateFeed } from './state-feed';
import { StateSink } from './state-sink';
import { loadStates } from './state-table';
import type { ConfigAck, Downlink } from './gps-config';
import { startConfigLink, type ConfigLink } from './gps-config-link';

export interface TelemetryRuntime {
  bus: EventBus;
  engine: StateEngine;
  sink: StateSink;
  /** undefined while starting or when ingest is off */
  ingest?: IngestService;
  store?: TelemetryStore;
  directory?: DbDeviceDirectory;
  /** where HTTP pushes go: the in-process intake, or the external broker (workers + state feed) */
  push?: PushTarget;
  simulator?: Simulator;
  /** where trackers' configurations are published (embedded broker or the external one) */
  downlink?: Downlink;
  /** a tracker's answer to a configuration (set by gps-config) */
  onConfigAck?: (ack: ConfigAck) => void;
  /** re-reads master data (devices, carriers, warehouses, routes) */
  refresh(): Promise<void>;
  /** engine flush + sink write, now (tests, shutdown) */
  flush(): Promise<void>;
  /** a document moved carriers: this engine and (scale-out) every other instance's */
  placeCarriers(moves: readonly CarrierPlacement[]): void;
  /** true when this instance writes what the engine derives (always, unless several instances run with TELEMETRY_INGEST=off: the lease holder) */
  writer(): boolean;
  /** scale-out (TELEMETRY_INGEST=off): the writer's lease and the link to the other instances */
  lease?: Lease;
  link?: ClusterLink;
  ready: Promise<void>;
  stop(): Promise<void>;
}

const runtimes = new WeakMap<Database, TelemetryRuntime>();

export function telemetryRuntime(db: Database): TelemetryRuntime | undefined {
  return runtimes.get(db);
}

function envInt(name: string, def: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return n;
}

/** Master data that changes what the rules see. */
const WATCHED = [
  'device-beacon',
  'device-gps',
  'device-slave-gateway',
  'device-master-gateway',
  'device-model',
  'carrier',
  'warehouse',
  'location',
  'route',
  'fence',
];

export function installRuntime(ctx: PluginServerContext): TelemetryRuntime {
  const mode = process.env.TELEMETRY_INGEST || 'embedded';
  if (mode !== 'embedded' && mode !== 'off') throw new Error(`TELEMETRY_INGEST must be embedded or off, got "${mode}"`);
  // With ingest in workers (mode off) several API instances may run: each derives (its live
  // positions stay current), only the lease holder writes and raises events (cluster.ts).
  ctx.addMigration(leaseMigration);
  const bus = new RelayedBus();
  const sink = new StateSink(ctx.database, bus, ctx.log);
  let lease: Lease | undefined;
  const writer = () => mode !== 'off' || (lease?.held() ?? false);
  const engine = new StateEngine({ onEffect: (e) => (writer() ? sink.push(e) : undefined) });
  const leaseTtlMs = envInt('TELEMETRY_LEADER_TTL_MS', 10_000);
  const flushMs = envInt('STATE_FLUSH_MS', 1000);
  const tickMs = envInt('STATE_TICK_MS', 15_000);
  // a small demo fleet by default so a fresh `npm start` is alive; 0 turns it off
  const simDevices = envInt('SIMULATOR_DEVICES', 20);
  const simDelayMs = envInt('SIMULATOR_DELAY_MS', 5000);
  let simTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let markReady!: () => void;
  let feed: ReturnType<typeof startStateFeed> | undefined;
  let configLink: ConfigLink | undefined;
  /** external broker: this server's own client for trackers' configurations and their answers */
  const linkConfig = (cfg: { mqttUrl?: string; mqttUsername?: string; mqttPassword?: string }) => {
    configLink = startConfigLink({
      url: cfg.mqttUrl!,
      username: cfg.mqttUsername,
      password: cfg.mqttPassword,
      clientId: `rti-config-${ctx.config.instanceId}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`.slice(0, 100),
      onAck: (a) => {
        const org = rt.directory?.org(a.orgCode);
        if (org) rt.onConfigAck?.({ orgId: org.id, orgCode: org.code, sn: a.sn, payload: a.payload });
      },
      log: ctx.log,
    });
    rt.downlink = configLink;
  };
  let flushing: Promise<void> = Promise.resolve();
  const rt: TelemetryRuntime = {
    bus,
    engine,
    sink,
    ready: new Promise<void>((r) => (markReady = r)),
    async refresh() {
      engine.setFleet(await loadFleet(ctx.database));
      await rt.directory?.refresh();
    },
    flush() {
      // one writer at a time: a flush job and an explicit flush must not interleave; an
      // instance that is not the writer drops what it derived (the writer stores the same)
      flushing = flushing
        .then(() => {
          const dump = engine.flush();
          return writer() ? sink.flush(dump) : undefined;
        })
        .catch((err) => ctx.log('state flush failed', err));
      return flushing;
    },
    placeCarriers(moves) {
      engine.placeCarriers(moves);
      rt.link?.announce({ kind: 'place', moves: [...moves] });
    },
    writer,
    async stop() {
      stopped = true;
      if (simTimer) clearTimeout(simTimer);
      await rt.simulator?.stop();
      await rt.ingest?.stop();
      rt.directory?.stop();
      await feed?.stop();
      await configLink?.stop().catch(() => undefined);
      if (mode === 'off') await rt.store?.close();
      await rt.flush();
      // given up at once: another instance writes from its next renewal on
      await rt.lease?.stop();
      await rt.link?.stop();
    },
  };
  runtimes.set(ctx.database, rt);

  let refreshTimer: NodeJS.Timeout | undefined;
  const refreshSoon = () => {
    if (refreshTimer) return;
    // after the write's transaction has committed
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      rt.refresh().catch((err) => ctx.log('master data refresh failed', err));
      // and every other instance's engine (scale-out)
      rt.link?.announce({ kind: 'refresh' });
    }, 300);
    refreshTimer.unref();
  };
  for (const r of WATCHED) for (const action of ['create', 'update', 'delete'] as const) ctx.hooks.after(action, r, refreshSoon);

  ctx.onReady(async () => {
    engine.load(await loadStates(ctx.db));
    engine.setFleet(await loadFleet(ctx.database));
    const cfg = ingestConfigFromEnv(process.env, ctx.config.dataDir);
    if (mode === 'embedded') {
      const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m), error: (m: string, e?: unknown) => ctx.log(m, e) };
      rt.directory = new DbDeviceDirectory({ database: ctx.database, verify: verifyPassword, onError: (e) => ctx.log('ingest directory refresh failed', e) });
      await rt.directory.start();
      // a busy MQTT port (another server, `npm run seed` beside a running one) must not take the
      // API down: the server answers without ingest and says why
      rt.ingest = await startIngest({
        store: createStore(cfg),
        directory: rt.directory,
        dataDir: cfg.dir,
        journal: { maxBytes: cfg.journalMaxBytes },
        pipeline: {
          fullPolicy: cfg.fullPolicy,
          onStored: (batches) => {
            try {
              engine.applyBatch(batches);
            } catch (err) {
              // the readings are stored; a rule failure must not stall the pipeline
              ctx.log('state engine failed on a batch', err);
            }
          },
        },
        intake: { maxBytes: cfg.maxPayloadBytes, maxReadings: cfg.maxReadings, onConfigAck: (a) => rt.onConfigAck?.(a) },
        mqttPort: cfg.mqttUrl ? null : cfg.mqttPort,
        mqttHost: process.env.MQTT_HOST || undefined,
        external: cfg.mqttUrl
          ? { url: cfg.mqttUrl, clientId: cfg.mqttClientId, group: cfg.mqttGroup, username: cfg.mqttUsername, password: cfg.mqttPassword }
          : undefined,
        log,
      }).catch((err) => {
        ctx.log(`ingest NOT started (MQTT_PORT ${cfg.mqttPort ?? '-'}): live telemetry is off in this process`, err);
        return undefined;
      });
      if (!rt.ingest) {
        rt.directory.stop();
        rt.directory = undefined;
        markReady();
        return;
      }
      rt.store = rt.ingest.store;
      rt.push = intakePush(rt.ingest.intake);
      const broker = rt.ingest.broker;
      if (broker) rt.downlink = { publish: (topic, payload) => broker.publish(topic, payload) };
      else if (cfg.mqttUrl) linkConfig(cfg);
      if (simDevices > 0 && broker) {
        // started a little after the server is up (a short-lived server — the seed step — never provisions)
        simTimer = setTimeout(() => {
          simTimer = undefined;
          startSimulator({
            database: ctx.database,
            url: `mqtt://127.0.0.1:${broker.port}`,
            devices: simDevices,
            stepMs: envInt('SIMULATOR_STEP_MS', 5000) || 5000,
            minuteMs: envInt('SIMULATOR_MINUTE_MS', 60_000) || 60_000,
            log,
          })
            .then(async (sim) => {
              if (stopped) return sim.stop();
              rt.simulator = sim;
              await rt.refresh();
            })
            .catch((err) => ctx.log('simulator failed to start', err));
        }, simDelayMs);
        simTimer.unref();
      }
    } else {
      lease = rt.lease = startLease({
        sequelize: ctx.db,
        name: 'state',
        holder: `${ctx.config.instanceId}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
        ttlMs: leaseTtlMs,
        log: ctx.log,
      });
      await lease.tick();
      rt.store = createStore(cfg);
      await rt.store.init();
      if (cfg.mqttUrl) {
        // workers store; this process hears every frame (no shared group) and derives the state
        rt.directory = new DbDeviceDirectory({
          database: ctx.database,
          verify: verifyPassword,
          onError: (e) => ctx.log('state feed directory refresh failed', e),
        });
        await rt.directory.start();
        feed = startStateFeed({ url: cfg.mqttUrl, username: cfg.mqttUsername, password: cfg.mqttPassword, directory: rt.directory, engine, log: ctx.log });
        linkConfig(cfg);
        rt.link = startClusterLink({
          url: cfg.mqttUrl,
          username: cfg.mqttUsername,
          password: cfg.mqttPassword,
          instanceId: ctx.config.instanceId,
          bus,
          onControl: (c) => {
            if (c.kind === 'refresh') rt.refresh().catch((err) => ctx.log('master data refresh failed', err));
            else if (Array.isArray(c.moves)) engine.placeCarriers(c.moves);
          },
          log: ctx.log,
        });
        // an HTTP push goes onto the broker like a gateway's publish: the workers store it and
        // the feed above derives state from it
        const client = feed.client;
        rt.push = brokerPush({
          directory: rt.directory,
          maxBytes: cfg.maxPayloadBytes,
          maxReadings: cfg.maxReadings,
          publish: (topic, payload) => client.publishAsync(topic, payload, { qos: 1 }).then(() => undefined),
        });
      }
    }
    markReady();
  });

  ctx.jobs.every('state-flush', Math.max(10, flushMs), () => rt.flush());
  ctx.jobs.every('state-tick', Math.max(10, tickMs), () => engine.tick());
  ctx.jobs.every('master-data-refresh', 60_000, () => rt.refresh());
  // holds the runtime for the server's lifetime: the job runner awaits this run on close
  let held = false;
  ctx.jobs.every('runtime', 10, async ({ signal }) => {
    if (held) return;
    held = true;
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    await rt.stop();
  });
  return rt;
}
