/**
 * The demo as a user meets it (issue 12 "Demo"): the small demo seeded into a server with live
 * telemetry and shipping, the fleet simulator driving it over MQTT with the seeded gateways'
 * own logins. Orders already on the road arrive through the receiver's gate (their arrival is
 * confirmed by beacon); an order released in the console leaves through the shipper's gate
 * (departure confirmed by beacon) and arrives too — the monitor and the documents move.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enums } from '@rti/metadata';
import { createServer, type RtiServer } from '@rti/server';
import { startSimulator, type Simulator } from '@rti/ingest/simulator/simulator';
import { telemetryRuntime, type TelemetryRuntime } from '@rti/plugin-telemetry/testing';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/test-database';
import { SCALES, seedServer } from '../src/index';

const Confirm = Enums.confirmSource;
const Line = Enums.shipOrderLineStatus;
let server: RtiServer;
let db: TestDatabase;
let rt: TelemetryRuntime;
let sim: Simulator | undefined;
let url: string;
let mqttUrl: string;
let dir: string;
let token: string;
let orgId: number;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const call = async (p: string, body: unknown = {}) => {
  const res = await fetch(url + '/api' + p, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(orgId) },
    body: JSON.stringify(body),
  });
  const got = (await res.json()) as { code: number; message: string; data: any };
  if (got.code !== 0) throw new Error(`${p}: ${got.code} ${got.message}`);
  return got.data;
};

/** Polls until fn answers something, flushing the derived state (in/out rows, passes) between tries. */
async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 40_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    await rt.flush();
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const lines = (shipOrderId: number) => server.db.sequelize.models['ship-order-detail'].findAll({ where: { shipOrderId }, raw: true }) as Promise<any[]>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-demo-sim-'));
  const port = await freePort();
  Object.assign(process.env, {
    MQTT_PORT: String(port),
    MQTT_HOST: '127.0.0.1',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    SIMULATOR_DEVICES: '0',
    TELEMETRY_STORE: 'segments',
  });
  mqttUrl = `mqtt://127.0.0.1:${port}`;
  db = await createTestDatabase();
  server = await createServer({ databaseUrl: db.url, plugins: ['telemetry', 'shipping'], config: { dataDir: dir }, logError: () => undefined });
  ({ url } = await server.listen(0));
  rt = telemetryRuntime(server.db)!;
  await rt.ready;
  const seeded = await seedServer(server, { scale: SCALES.small });
  orgId = seeded.organizations.demo;
  // the broker's directory and the engine learn of the seeded gateways, carriers and orders
  await rt.refresh();
  const res = await fetch(url + '/api/account/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'Admin@12345', entryCode: 'demo' }),
  });
  token = ((await res.json()) as { data: { token: string } }).data.token;
}, 120_000);

afterAll(async () => {
  await sim?.stop();
  await server?.close();
  await db?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the seeded demo under the fleet simulator', () => {
  it('ships carriers along the open orders: gates confirm departures and arrivals by beacon', async () => {
    sim = await startSimulator({ database: server.db, url: mqttUrl, devices: 30, stepMs: 100, minuteMs: 150, maxTripMinutes: 8, shippingRefreshMs: 400 });
    // every demo organisation's orders on the road are driven
    const road = (await call('/ship-order/list', { status: [Enums.shipOrderStatus.released, Enums.shipOrderStatus.delivered], limit: 100 })).list as any[];
    expect(road.length).toBeGreaterThan(0);
    expect(sim.stats.shipments).toBeGreaterThanOrEqual(road.length);

    // an order released before the simulator ran: its carriers arrive through the receiver's gate
    const onRoad = road.find((o) => o.status === Enums.shipOrderStatus.released && o.receivedAmount === 0)!;
    const arrived = await until('an arrival confirmed by beacon', async () => {
      const ls = (await lines(onRoad.id)).filter((l) => l.status === Line.shipped);
      return ls.length && ls.every((l) => l.arrivalConfirmedBy === Confirm.beacon) ? ls : undefined;
    });
    // its departure happened before anyone watched: still confirmed by hand
    expect(arrived.every((l) => l.departureConfirmedBy === Confirm.hand)).toBe(true);
    const inbound = await call('/carrier-inout/list', { carrierId: arrived[0].carrierId, direction: Enums.inoutDirection.inbound, limit: 10 });
    expect(inbound.list.some((r: any) => r.warehouseId === onRoad.receiverWarehouseId)).toBe(true);

    // the clerk releases the new order in the console: the simulator picks it up and ships it
    const fresh = ((await call('/ship-order/list', { status: [Enums.shipOrderStatus.new], limit: 100 })).list as any[]).find((o) => o.remark === 'Demo SP01')!;
    await call('/ship-order/release', { id: fresh.id });
    const left = await until('a departure confirmed by beacon', async () => {
      const ls = await lines(fresh.id);
      return ls.every((l) => l.departureConfirmedBy === Confirm.beacon) ? ls : undefined;
    });
    expect(left.length).toBe(fresh.totalAmount);
    await until('its arrival confirmed by beacon', async () =>
      (await lines(fresh.id)).every((l) => l.arrivalConfirmedBy === Confirm.beacon) ? true : undefined,
    );
    // the gates' passes are in/out rows of their own (the document wrote one each way by hand)
    const outs = await call('/carrier-inout/list', { carrierId: left[0].carrierId, direction: Enums.inoutDirection.outbound, limit: 10 });
    expect(outs.list.filter((r: any) => r.warehouseId === fresh.shipperWarehouseId).length).toBeGreaterThanOrEqual(1);
    // and the clerk receives what arrived: the carriers stand in the receiver warehouse
    await call('/ship-order/receive', { id: fresh.id });
    const carrier = await call('/carrier', { id: left[0].carrierId });
    expect(carrier.warehouseId).toBe(fresh.receiverWarehouseId);
    expect(sim.stats.frames).toBeGreaterThan(0);
  }, 120_000);
});
