/**
 * Connecting imported gateways (issue 23 item 6): a CSV of gateways imported through the mapping
 * step; generated MQTT credentials answered once (the password stored hashed); the gateway
 * page's broker address, topics and test command; a gateway connecting with what it was given.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedPatterns } from '@rti/metadata';
import { ok, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

let rig: Rig;
let fleet: Fleet;

beforeAll(async () => {
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
}, 60_000);
afterAll(async () => rig?.close());

async function importCsv(text: string, mapping: Record<string, string>) {
  const form = new FormData();
  form.append('mapping', JSON.stringify(mapping));
  form.append('file', new Blob([text]), 'gateways.csv');
  const up = await fetch(`${rig.ts.url}/api/device-slave-gateway/import`, {
    method: 'POST',
    headers: { Token: rig.ts.a.token, OrgId: String(rig.ts.a.orgId) },
    body: form,
  });
  const body = (await up.json()) as { code: number; message: string; data: { importId: number } };
  expect(body.code, body.message).toBe(0);
  await rig.ts.server.imports.idle();
  return ok(rig.ts.a, '/device-slave-gateway/import/status', { importId: body.data.importId });
}

const connect = (username: string, password: string) =>
  new Promise<'connected' | string>((resolve) => {
    const c = mqtt.connect(rig.mqttUrl, { username, password, clientId: `${username}-${Math.random()}`, reconnectPeriod: 0, connectTimeout: 5000 });
    c.once('connect', () => {
      c.end(true);
      resolve('connected');
    });
    c.once('error', (err) => {
      c.end(true);
      resolve(err.message);
    });
  });

describe('imported gateways get their MQTT credentials once', () => {
  let ids: number[] = [];

  it('imports gateways from a mapped CSV (semicolons), without passwords', async () => {
    const csv =
      'Serial;Label;MAC address;Model;Site;Use\nIMP-GW-1;Dock 1;AC:23:3F:C0:A1:01;Tag A;Warehouse A1;Gate / entrance\nIMP-GW-2;Dock 2;AC233FC0A102;Tag A;Warehouse A1;Gate / entrance\n';
    const status = await importCsv(csv, { Serial: 'sn', Label: 'name', 'MAC address': 'mac', Model: 'deviceModelId', Site: 'warehouseId', Use: 'purpose' });
    expect(status.importErrors).toEqual([]);
    expect(status).toMatchObject({ successVolume: 2, failedVolume: 0 });
    const list = (await ok(rig.ts.a, '/device-slave-gateway/list', { sn: 'IMP-GW', limit: 10 })).list as Array<{ id: number; sn: string }>;
    ids = list.map((g) => g.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(2);
  });

  it('answers user names and generated passwords once; the database holds hashes', async () => {
    const answer = await ok(rig.ts.a, '/device-slave-gateway/mqtt-credentials', { ids });
    expect(answer.gateways.map((g: { sn: string; mqttUsername: string }) => [g.sn, g.mqttUsername])).toEqual([
      ['IMP-GW-1', 'orga-imp-gw-1'],
      ['IMP-GW-2', 'orga-imp-gw-2'],
    ]);
    for (const g of answer.gateways) expect(namedPatterns.mqttPassword.test(g.mqttPassword)).toBe(true);
    const stored = (await rig.ts.server.db.models['device-slave-gateway'].findByPk(ids[0]))!.get('mqttPassword') as string;
    expect(stored).not.toBe(answer.gateways[0].mqttPassword);
    expect(stored).not.toContain(answer.gateways[0].mqttPassword);
    // never read back: the list and the record hold no password
    const row = await ok(rig.ts.a, '/device-slave-gateway', { id: ids[0] });
    expect(JSON.stringify(row)).not.toContain(answer.gateways[0].mqttPassword);
    // the gateway connects with them; a wrong password is refused
    await rig.rt.refresh();
    expect(await connect('orga-imp-gw-1', answer.gateways[0].mqttPassword)).toBe('connected');
    expect(await connect('orga-imp-gw-1', 'Wrong1234x')).not.toBe('connected');
  });

  it('gives every gateway still without a password its credentials at once (after an import)', async () => {
    await importCsv('sn;name;mac;Device model;Warehouse;Purpose\nIMP-GW-3;Dock 3;AC233FC0A103;Tag A;Warehouse A1;Gate / entrance\n', {
      sn: 'sn',
      name: 'name',
      mac: 'mac',
      'Device model': 'deviceModelId',
      Warehouse: 'warehouseId',
      Purpose: 'purpose',
    });
    const answer = await ok(rig.ts.a, '/device-slave-gateway/mqtt-credentials', { missing: true });
    expect(answer.gateways.map((g: { sn: string }) => g.sn)).toEqual(['IMP-GW-3']);
    expect((await ok(rig.ts.a, '/device-slave-gateway/mqtt-credentials', { missing: true })).gateways).toEqual([]);
  });

  it('refuses a gateway of another organisation, changing nothing', async () => {
    const other = (await ok(rig.ts.b, '/device-model/create', { name: 'B model' })).id;
    const wh = (await ok(rig.ts.b, '/warehouse/create', { code: 'B9', name: 'B nine' })).id;
    const theirs = (
      await ok(rig.ts.b, '/device-slave-gateway/create', { sn: 'B-GW', name: 'B', mac: 'AC233FC0B0FF', deviceModelId: other, warehouseId: wh, purpose: 20 })
    ).id;
    const refused = await rig.ts.a.call('/device-slave-gateway/mqtt-credentials', { ids: [ids[0], theirs] });
    expect(refused.body.code).toBe(10002);
    expect((await rig.ts.server.db.models['device-slave-gateway'].findByPk(theirs))!.get('mqttUsername')).toBeNull();
  });

  it('shows the broker address, the topics and a test command on the gateway page', async () => {
    const info = await ok(rig.ts.a, '/device-slave-gateway/mqtt-info', { id: ids[0] });
    const port = Number(new URL(rig.mqttUrl).port);
    expect(info.broker).toEqual({ host: '127.0.0.1', port, tls: false });
    expect(info.username).toBe('orga-imp-gw-1');
    expect(info.topics.publish).toEqual([
      `rti/${fleet.orgCode}/gw/AC233FC0A101/scan`,
      `rti/${fleet.orgCode}/gw/AC233FC0A101/heartbeat`,
      `rti/${fleet.orgCode}/gw/AC233FC0A101/state`,
    ]);
    expect(info.topics.lastWill).toEqual({ topic: `rti/${fleet.orgCode}/gw/AC233FC0A101/state`, payload: '{"connection":20}' });
    expect(info.command).toContain(`mosquitto_pub -h 127.0.0.1 -p ${port}`);
    expect(info.command).toContain(`-t 'rti/${fleet.orgCode}/gw/AC233FC0A101/heartbeat'`);
    expect(info.command).toContain("-u 'orga-imp-gw-1'");
  });
});
