import { loadMetadata } from '@rti/metadata';
import { createDatabase, type Database } from '@rti/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveEvents, type LiveEvent } from '../src/live/live-events';
import { GpsRules } from '../src/state/gps-rules';
import type { SeriesRow } from '../src/store/series';

let db: Database;
let rules: GpsRules;
let orgId: number;
let now = Date.UTC(2026, 10, 22, 8, 0, 0);
const published: LiveEvent[] = [];

const report = (fields: Partial<SeriesRow>): SeriesRow => ({ org: orgId, sn: 'GT-1', time: now, dataType: 30, ...fields });
const feed = async (...rows: SeriesRow[]) => {
  rules.observe([{ series: 'gps', rows }]);
  await rules.drain();
};
const alerts = async () => (await db.models['device-gps-alert'].findAll({ raw: true, order: [['id', 'ASC']] })) as unknown as Array<Record<string, unknown>>;

beforeAll(async () => {
  db = createDatabase('sqlite::memory:', { metadata: loadMetadata(), log: () => undefined });
  await db.migrate();
  orgId = (await db.models.organization.create({ code: 'ACME', name: 'Acme', available: true })).get('id') as number;
  await db.models['device-gps'].create({ orgId, sn: 'GT-1', name: 'Reefer 1', useStatus: 20, highTempThreshold: 8, lowTempThreshold: 2, highHumidityThreshold: 80, lowHumidityThreshold: 20, shakeThreshold: 2.5 });
  const events = new LiveEvents();
  events.subscribe(orgId, (e) => published.push(e));
  rules = new GpsRules({ database: db, now: () => now, sweepMs: 0, events });
  await rules.start();
});

afterAll(async () => {
  await rules?.stop();
  await db?.close();
});

describe('GPS alert rules', () => {
  it('files each tracker event as an event alert with its own code, once per report', async () => {
    const ev = report({ dataType: 20, eventCode: '018', eventValue: '1' });
    await feed(ev, ev);
    expect(await alerts()).toEqual([expect.objectContaining({ gpsSn: 'GT-1', code: '018', dataType: 20, status: 0, message: 'event 018 = 1' })]);
  });

  it('opens a threshold alert once while the condition lasts and clears it when it ends', async () => {
    now += 60_000;
    await feed(report({ temperature1: 9.5, humidity1: 50 }));
    now += 60_000;
    await feed(report({ temperature1: 10.1, temperature2: 7 }));
    let high = (await alerts()).filter((a) => a.code === 'T_HIGH');
    expect(high).toHaveLength(1);
    expect(high[0]).toMatchObject({ clearedAt: null, dataType: 20 });
    now += 60_000;
    await feed(report({ temperature1: 5 }));
    high = (await alerts()).filter((a) => a.code === 'T_HIGH');
    expect(high[0].clearedAt).not.toBeNull();
    await feed(report({ humidity2: 90, acceleration: 3.2, dataType: 10, longitude: 1, latitude: 1 }));
    expect((await alerts()).map((a) => a.code)).toEqual(expect.arrayContaining(['H_HIGH', 'SHAKE']));
  });

  it('files an altitude jump above 200 m between consecutive fixes', async () => {
    now += 60_000;
    await feed(report({ dataType: 10, longitude: 1, latitude: 1, altitude: 100 }));
    now += 60_000;
    await feed(report({ dataType: 10, longitude: 1, latitude: 1, altitude: 250 }));
    expect((await alerts()).filter((a) => a.code === 'ALT_JUMP')).toHaveLength(0);
    now += 60_000;
    await feed(report({ dataType: 10, longitude: 1, latitude: 1, altitude: 480 }));
    expect((await alerts()).filter((a) => a.code === 'ALT_JUMP')).toEqual([expect.objectContaining({ message: 'altitude changed by 230 m' })]);
    // the console hears about it live, and about the tracker's positions
    expect(published).toContainEqual(expect.objectContaining({ type: 'alert', data: expect.objectContaining({ code: 'ALT_JUMP', gpsSn: 'GT-1' }) }));
    expect(published.filter((e) => e.type === 'position').at(-1)).toMatchObject({ data: { sn: 'GT-1', altitude: 480 } });
  });

  it('opens the data-missing alert after more than 60 minutes of silence, once', async () => {
    now += 60 * 60_000;
    await rules.sweep();
    expect((await alerts()).filter((a) => a.code === 'NO_DATA')).toHaveLength(0);
    now += 60_000;
    await rules.sweep();
    await rules.sweep();
    const missing = (await alerts()).filter((a) => a.code === 'NO_DATA');
    expect(missing).toHaveLength(1);
    await feed(report({ dataType: 10, longitude: 1, latitude: 1 }));
    expect((await alerts()).filter((a) => a.code === 'NO_DATA')[0].clearedAt).not.toBeNull();
  });
});
