/**
 * Fleet simulator: provisions its fleet (sim-fleet), then publishes real MQTT frames — beacon
 * scans, heartbeats, GPS reports — every SIMULATOR_STEP_MS with each gateway's own
 * credentials, exactly as hardware would (docs/TELEMETRY.md topic layout). The trackers take
 * the configurations the server sends through their relay (master gateway) and acknowledge
 * them with the values applied — or refuse them when told to (SIMULATOR_REFUSE_CONFIG: tracker
 * sns, comma-separated, or `*`). Used by `npm run simulate` (cli.ts) and, small, by `npm
 * start` (SIMULATOR_DEVICES).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { hashPassword, type Database } from '@rti/server';
import { FleetDriver } from './fleet-driver';
import { ensureSimFleet, loadShipping, type SimFleet, type SimGateway } from './sim-fleet';

const START_WAIT_MS = 20_000;
/** how often open ship orders are re-read (an order released in the console starts moving) */
const SHIPPING_REFRESH_MS = 30_000;

export interface SimulatorOptions {
  database: Database;
  /** broker URL, e.g. mqtt://127.0.0.1:1883 */
  url: string;
  /** carriers (beacons) to drive, spread over the organisations */
  devices: number;
  stepMs?: number;
  minuteMs?: number;
  /** longest trip of a ship order in simulated minutes (default SIMULATOR_TRIP_MINUTES or 30) */
  maxTripMinutes?: number;
  /** how often open ship orders are re-read, ms (default 30 s) */
  shippingRefreshMs?: number;
  /** trackers that refuse configurations (default SIMULATOR_REFUSE_CONFIG) */
  refuseConfig?: (sn: string) => boolean;
  /** how long a tracker takes to apply a configuration, ms (default 500) */
  configDelayMs?: number;
  log?: { info(m: string): void; warn(m: string): void };
}

/** SIMULATOR_REFUSE_CONFIG: `*` or tracker sns separated by commas */
export function refusingFromEnv(value = process.env.SIMULATOR_REFUSE_CONFIG ?? ''): (sn: string) => boolean {
  const list = new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return (sn) => list.has('*') || list.has(sn);
}

/** A tracker's answer to a configuration frame (docs/TELEMETRY.md "GPS configuration"), or null for a frame it cannot read. */
export function configAnswer(payload: Buffer | string, refuse: boolean): Record<string, unknown> | null {
  let msg: { requestId?: unknown; config?: unknown };
  try {
    msg = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  if (typeof msg?.requestId !== 'string' || !msg.config || typeof msg.config !== 'object') return null;
  return refuse
    ? { requestId: msg.requestId, status: 'refused', reason: 'simulated refusal' }
    : { requestId: msg.requestId, status: 'applied', applied: msg.config };
}

export interface Simulator {
  fleet: SimFleet;
  stats: { frames: number; readings: number; failed: number; shipments: number };
  stop(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const fleet = await ensureSimFleet(opts.database, { devices: opts.devices, hash: hashPassword });
  let driver: FleetDriver | undefined;
  const createdAt = Date.now();
  const clients = new Map<SimGateway, MqttClient>();
  const stats = { frames: 0, readings: 0, failed: 0, shipments: fleet.shipping?.shipments.length ?? 0 };
  const maxTripMinutes = opts.maxTripMinutes ?? (Number(process.env.SIMULATOR_TRIP_MINUTES) || 30);
  let lastShipping = Date.now();
  let reading = false;
  const readShipping = async () => {
    reading = true;
    try {
      const shipping = await loadShipping(opts.database, fleet);
      stats.shipments = shipping.shipments.length;
      driver?.setShipments(shipping.shipments, shipping.held, Date.now());
    } catch (err) {
      opts.log?.warn(`simulator: open ship orders not re-read (${(err as Error).message})`);
    } finally {
      reading = false;
    }
  };
  for (const g of fleet.gateways) {
    // the broker learns of new gateways on its directory refresh: keep retrying the login
    const c = mqtt.connect(opts.url, {
      clientId: `sim-${g.mac}`,
      username: g.username,
      password: g.password,
      reconnectPeriod: 2000,
      reconnectOnConnackError: true,
      connectTimeout: 5000,
    });
    c.on('error', () => undefined);
    if (g.master) {
      // the relay hears its organisation's trackers' configurations and answers for them
      const refuse = opts.refuseConfig ?? refusingFromEnv();
      c.on('connect', () => c.subscribe(`rti/${g.orgCode}/gps/+/config`, { qos: 1 }));
      c.on('message', (topic, payload) => {
        const sn = topic.split('/')[3];
        const answer = configAnswer(payload, refuse(sn));
        if (!answer) return;
        setTimeout(() => c.connected && c.publish(`${topic}/ack`, JSON.stringify(answer), { qos: 1 }), opts.configDelayMs ?? 500).unref();
      });
    }
    clients.set(g, c);
  }
  opts.log?.info(
    `simulator: ${fleet.carriers.length} carriers, ${fleet.trucks.length} trucks, ${fleet.gateways.length} gateways in ${new Set(fleet.warehouses.map((w) => w.orgId)).size} organisation(s), ${stats.shipments} ship order(s) on the road → ${opts.url}`,
  );
  const timer = setInterval(() => {
    // the world starts once every gateway is online (or after START_WAIT_MS with those that
    // are), so no gate pass is lost to a pending login
    if (!driver) {
      if (![...clients.values()].every((c) => c.connected) && Date.now() - createdAt < START_WAIT_MS) return;
      driver = new FleetDriver(fleet, Date.now(), { minuteMs: opts.minuteMs, maxTripMinutes });
    }
    if (!reading && Date.now() - lastShipping >= (opts.shippingRefreshMs ?? SHIPPING_REFRESH_MS)) {
      lastShipping = Date.now();
      void readShipping();
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
