import { loadMetadata } from '@rti/metadata';
import { createDatabase, hashPassword, verifyPassword, type Database } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbDeviceDirectory } from '../src/directory/db-directory';

let db: Database;
let dir: DbDeviceDirectory;

beforeAll(async () => {
  db = createDatabase('sqlite::memory:', { metadata: loadMetadata(), log: () => undefined });
  await db.migrate();
  const m = db.models;
  const acme = await m.organization.create({ code: 'ACME', name: 'Acme', available: true });
  const gone = await m.organization.create({ code: 'GONE', name: 'Gone', available: false });
  const orgId = acme.get('id');
  const hash = await hashPassword('Secret123');
  await m['device-slave-gateway'].create({
    orgId,
    sn: 'GW-1',
    name: 'Dock gate',
    mac: 'ac:23:3f:c0:a1:b2',
    useStatus: 20,
    mqttUsername: 'gw1',
    mqttPassword: hash,
  });
  await m['device-slave-gateway'].create({ orgId, sn: 'GW-2', name: 'Retired', mac: 'AC233FC0A1B3', useStatus: 30, mqttUsername: 'gw2', mqttPassword: hash });
  await m['device-master-gateway'].create({
    orgId,
    sn: 'MGW-1',
    name: 'Master',
    mac: 'AC233FC0FFFF',
    useStatus: 10,
    mqttUsername: 'master1',
    mqttPassword: hash,
  });
  await m['device-slave-gateway'].create({
    orgId: gone.get('id'),
    sn: 'GW-3',
    name: 'Other',
    mac: 'AC233FC0EEEE',
    useStatus: 20,
    mqttUsername: 'gw3',
    mqttPassword: hash,
  });
  await m['device-beacon'].create({ orgId, sn: 'B-1', name: 'Tag 1', mac: 'e2:c5:6d:b5:df:fb', useStatus: 20 });
  await m['device-beacon'].create({ orgId, sn: 'B-2', name: 'Tag 2', mac: 'E2C56DB5DFFC', useStatus: 30 });
  await m['device-gps'].create({ orgId, sn: 'GT-1', name: 'Truck 1', useStatus: 20 });
  dir = new DbDeviceDirectory({ database: db, verify: verifyPassword, refreshMs: 0 });
  await dir.start();
});

afterAll(async () => {
  dir?.stop();
  await db?.close();
});

describe('database-backed device directory', () => {
  it('authenticates gateways by their own MQTT credentials against the stored hash', async () => {
    expect(await dir.authenticate('gw1', 'Secret123')).toMatchObject({ orgCode: 'ACME', mac: 'AC233FC0A1B2', role: 'slave', sn: 'GW-1' });
    expect(await dir.authenticate('master1', 'Secret123')).toMatchObject({ role: 'master' });
    expect(await dir.authenticate('gw1', 'wrong')).toBeNull();
  });

  it('refuses disabled gateways and gateways of unavailable organisations', async () => {
    expect(await dir.authenticate('gw2', 'Secret123')).toBeNull();
    expect(await dir.authenticate('gw3', 'Secret123')).toBeNull();
    expect(dir.org('GONE')).toBeUndefined();
  });

  it('knows registered, enabled beacons and trackers by canonical key', async () => {
    const org = dir.org('ACME')!;
    expect(dir.beaconKnown(org.id, 'E2C56DB5DFFB')).toBe(true);
    expect(dir.beaconKnown(org.id, 'E2C56DB5DFFC')).toBe(false);
    expect(dir.gpsKnown(org.id, 'GT-1')).toBe(true);
    expect(dir.gateway(org.id, 'AC233FC0A1B2')?.sn).toBe('GW-1');
  });

  it('picks up changes on refresh', async () => {
    const org = dir.org('ACME')!;
    await db.models['device-beacon'].create({ orgId: org.id, sn: 'B-3', name: 'Tag 3', mac: 'E2C56DB5DFFD', useStatus: 10 });
    expect(dir.beaconKnown(org.id, 'E2C56DB5DFFD')).toBe(false);
    await dir.refresh();
    expect(dir.beaconKnown(org.id, 'E2C56DB5DFFD')).toBe(true);
  });
});
