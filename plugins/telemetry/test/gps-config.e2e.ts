/**
 * GPS configuration in the console (issue 21 #3), in headless chromium on a real server with
 * the embedded broker: "Send config" on a tracker's row, the tracker (a master gateway
 * relaying it, played by the test) applies it and the list shows "Effective" without a
 * reload; a refusal shows "Not effective" with its reason; "Resend" and the batch send of
 * every pending or failed tracker reach the trackers again.
 */
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertConsoleBuilt, grantWholeCatalogue, openConsole, type ConsoleBrowser } from '../../../server/test/support/console-browser';
import { GW_PASSWORD, connectGateway, ok, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

let rig: Rig;
let fleet: Fleet;
let cb: ConsoleBrowser;
let page: Page;
let relay: MqttClient;
/** how the simulated trackers answer: applied, or refused with a reason */
const refusing = new Map<string, string>();
const received: Array<{ sn: string; requestId: string }> = [];

beforeAll(async () => {
  assertConsoleBuilt();
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
  const modelId = (await ok(rig.ts.a, '/device-model/list', { limit: 1 })).list[0].id;
  await ok(rig.ts.a, '/device-gps/create', { sn: 'GT-A2', name: 'Trailer', deviceModelId: modelId, useStatus: 20 });
  await ok(rig.ts.a, '/device-master-gateway/create', {
    sn: 'RELAY-A',
    name: 'Relay A',
    mac: 'AC233FC0A0EE',
    deviceModelId: modelId,
    warehouseId: fleet.warehouseA,
    purpose: 10,
    useStatus: 20,
    mqttClientId: 'r-A',
    mqttUsername: 'u-relay-A',
    mqttPassword: GW_PASSWORD,
  });
  await rig.rt.refresh();
  relay = await connectGateway(rig.mqttUrl, 'u-relay-A');
  relay.on('message', (topic, payload) => {
    const msg = JSON.parse(payload.toString()) as { requestId: string; sn: string; config: Record<string, number> };
    received.push({ sn: msg.sn, requestId: msg.requestId });
    const why = refusing.get(msg.sn);
    const answer = why ? { requestId: msg.requestId, status: 'refused', reason: why } : { requestId: msg.requestId, status: 'applied', applied: msg.config };
    setTimeout(() => void relay.publishAsync(`${topic}/ack`, JSON.stringify(answer), { qos: 1 }), 300);
  });
  await relay.subscribeAsync(`rti/${fleet.orgCode}/gps/+/config`, { qos: 1 });
  await grantWholeCatalogue(rig.ts);
  cb = await openConsole(rig.ts, rig.ts.a);
  page = cb.page;
});
afterAll(async () => {
  await relay?.endAsync();
  await cb?.close();
  await rig?.close();
});

const row = (sn: string) => page.locator('tr', { has: page.getByText(sn, { exact: true }) });

describe('GPS configuration', () => {
  it('sends a tracker its configuration and shows the answer live; a refusal with its reason; resend and batch', async () => {
    await page.goto(`${rig.ts.url}/device/device-gps`);
    await page.getByTestId('meta-table').waitFor();
    await row('GT-A').getByTestId('gps-configure').waitFor();
    expect(await row('GT-A').getByTestId('gps-configure').textContent()).toContain('Send config');
    await row('GT-A').getByTestId('gps-configure').click();
    // the list follows the tracker's answer by itself (live event), no reload
    await expect.poll(() => row('GT-A').textContent(), { timeout: 15_000 }).toContain('Effective');
    expect(await row('GT-A').getByTestId('gps-configure').textContent()).toContain('Resend');
    await cb.shot('gps-config-effective');

    refusing.set('GT-A2', 'sensor cycle out of range');
    await row('GT-A2').getByTestId('gps-configure').click();
    await expect.poll(() => row('GT-A2').textContent(), { timeout: 15_000 }).toContain('Not effective');
    const failed = await ok(rig.ts.a, '/device-gps/list', { sn: 'GT-A2' });
    expect(failed.list[0].configError).toBe('The device refused the configuration: sensor cycle out of range');

    // the batch send takes every pending or failed tracker: GT-A2 only (GT-A is effective)
    refusing.delete('GT-A2');
    const before = received.length;
    await page.getByTestId('gps-configure-all').click();
    await page.getByTestId('gps-configure-all-ok').click();
    await expect.poll(() => row('GT-A2').textContent(), { timeout: 15_000 }).toContain('Effective');
    expect(received.slice(before).map((r) => r.sn)).toEqual(['GT-A2']);
    await cb.shot('gps-config-batch');
  });
});
