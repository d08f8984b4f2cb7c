import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveBinary, MOSQUITTO, startMosquitto, type RunningMosquitto } from '../../../ingest/test/helpers/processes';
import { GATE_A, ok, scan, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

const available = haveBinary(MOSQUITTO);
let broker: RunningMosquitto;
let rig: Rig;
let fleet: Fleet;

beforeAll(async () => {
  if (!available) return;
  broker = await startMosquitto();
  process.env.TELEMETRY_INGEST = 'off';
  process.env.MQTT_URL = broker.url;
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
});

afterAll(async () => {
  await rig?.close();
  await broker?.stop();
  delete process.env.TELEMETRY_INGEST;
  delete process.env.MQTT_URL;
});

describe.skipIf(!available)('ingest as separate workers (TELEMETRY_INGEST=off, external broker)', () => {
  it('the server hears every frame on the broker without the workers share group and derives the state', async () => {
    expect(rig.rt.ingest).toBeUndefined(); // no in-process ingest: workers store
    const c = await mqtt.connectAsync(broker.url, { clientId: `gw-${Math.random()}` });
    const t = Date.now();
    const end = Date.now() + 10_000;
    while (rig.rt.engine.stats.readings === 0 && Date.now() < end) {
      await c.publishAsync(`rti/ORGA/gw/${GATE_A}/scan`, JSON.stringify(scan(GATE_A, t)), { qos: 1 });
      await new Promise((r) => setTimeout(r, 200));
    }
    await c.endAsync();
    await rig.rt.flush();
    const rows = await ok(rig.ts.a, '/carrier-inout/list', { carrierId: fleet.carrierId });
    expect(rows.list.map((r: any) => [r.direction, r.warehouseId])).toEqual([[20, fleet.warehouseA]]);
    // a frame of an unknown organisation is dropped, not applied
    expect((await ok(rig.ts.b, '/carrier-inout/list', {})).total).toBe(0);
  });
});
