/**
 * Fleet simulator: provisions its fleet (sim-fleet), then publishes real MQTT frames — beacon
 * scans, heartbeats, GPS reports — every SIMULATOR_STEP_MS with each gateway's own
 * credentials, exactly as hardware would (docs/TELEMETRY.md topic layout). Used by `npm run
 * simulate` (cli.ts) and, small, by `npm start` (SIMULATOR_DEVICES).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { hashPassword, type Database } from '@rti/server';
import { FleetDriver } from './fleet-driver';
import { ensureSimFleet, type SimFleet, type SimGateway } from './sim-fleet';

const START_WAIT_MS = 20_000;

export interface SimulatorOptions {
  database: Database;
  /** broker URL, e.g. mqtt://127.0.0.1:1883 */
  url: string;
  /** carriers (beacons) to drive, spread over the organisations */
  devices: number;
  stepMs?: number;
  minuteMs?: number;
  log?: { info(m: string): void; warn(m: string): void };
}

export interface Simulator {
  fleet: SimFleet;
  stats: { frames: number; readings: number; failed: number };
  stop(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const fleet = await ensureSimFleet(opts.database, { devices: opts.devices, hash: hashPassword });
  let driver: FleetDriver | undefined;
  const createdAt = Date.now();
  const clients = new Map<SimGateway, MqttClient>();
  const stats = { frames: 0, readings: 0, failed: 0 };
  for (const g of fleet.gateways) {
    // the broker learns of new gateways on its directory refresh: keep retrying the login
    const c = mqtt.connect(opts.url, { clientId: `sim-${g.mac}`, username: g.username, password: g.password, reconnectPeriod: 2000, reconnectOnConnackError: true, connectTimeout: 5000 });
    c.on('error', () => undefined);
    clients.set(g, c);
  }
  opts.log?.info(`simulator: ${fleet.carriers.length} carriers, ${fleet.trucks.length} trucks, ${fleet.gateways.length} gateways in ${new Set(fleet.warehouses.map((w) => w.orgId)).size} organisation(s) → ${opts.url}`);
  const timer = setInterval(() => {
    // the world starts once every gateway is online (or after START_WAIT_MS with those that
    // are), so no gate pass is lost to a pending login
    if (!driver) {
      if (![...clients.values()].every((c) => c.connected) && Date.now() - createdAt < START_WAIT_MS) return;
      driver = new FleetDriver(fleet, Date.now(), { minuteMs: opts.minuteMs });
    }
    for (const f of driver.step(Date.now())) {
      const c = clients.get(f.via);
      if (!c?.connected) {
        stats.failed++;
        continue;
      }
      stats.frames++;
      const r = f.payload.readings ?? f.payload.reports;
      if (Array.isArray(r)) stats.readings += r.length;
      c.publish(f.topic, JSON.stringify(f.payload), { qos: 1 });
    }
  }, opts.stepMs ?? 5000);
  timer.unref();
  return {
    fleet,
    stats,
    async stop() {
      clearInterval(timer);
      await Promise.all([...clients.values()].map((c) => c.endAsync().catch(() => undefined)));
    },
  };
}
