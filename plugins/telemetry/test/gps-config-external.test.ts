/**
 * GPS configuration through an external broker (MQTT_URL, mosquitto): the server's own client
 * publishes the configuration and hears the tracker's answer on rti/+/gps/+/config/ack (here
 * with ingest in separate workers, TELEMETRY_INGEST=off).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enums } from '@rti/metadata';
import { haveBinary, MOSQUITTO, startMosquitto, type RunningMosquitto } from '../../../ingest/test/helpers/services';
import { ok, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

const available = haveBinary(MOSQUITTO);
let broker: RunningMosquitto;
let rig: Rig;
let fleet: Fleet;
let bridge: MqttClient;

beforeAll(async () => {
  if (!available) return;
  broker = await startMosquitto();
  process.env.TELEMETRY_INGEST = 'off';
  process.env.MQTT_URL = broker.url;
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
  bridge = await mqtt.connectAsync(broker.url, { clientId: `bridge-${Math.random()}` });
});

afterAll(async () => {
  await bridge?.endAsync();
  await rig?.close();
  await broker?.cleanup();
  delete process.env.TELEMETRY_INGEST;
  delete process.env.MQTT_URL;
});

describe.skipIf(!available)('GPS configuration on an external broker', () => {
  it('publishes the configuration and takes the answer the vendor bridge relays', async () => {
    const got: Array<{ topic: string; body: any }> = [];
    bridge.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) }));
    await bridge.subscribeAsync('rti/ORGA/gps/+/config', { qos: 1 });
    // the server's client subscribes once connected: send until the configuration arrives
    const end = Date.now() + 10_000;
    let requestId = '';
    while (!got.length && Date.now() < end) {
      requestId = (await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId })).devices[0].requestId;
      await new Promise((r) => setTimeout(r, 300));
    }
    const msg = got.find((g) => g.body.requestId === requestId) ?? got.at(-1)!;
    expect(msg.topic).toBe('rti/ORGA/gps/GT-A/config');
    await ok(rig.ts.a, '/device-gps/configure', { id: fleet.gpsId });
    await expect.poll(() => got.length, { timeout: 5000 }).toBeGreaterThan(got.indexOf(msg) + 1);
    const last = got.at(-1)!.body;
    await bridge.publishAsync('rti/ORGA/gps/GT-A/config/ack', JSON.stringify({ requestId: last.requestId, status: 'applied', applied: last.config }), {
      qos: 1,
    });
    await expect
      .poll(async () => (await ok(rig.ts.a, '/device-gps', { id: fleet.gpsId })).configStatus, { timeout: 10_000 })
      .toBe(Enums.gpsConfigStatus.effective);
  });
});
