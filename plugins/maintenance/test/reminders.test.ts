/**
 * Maintenance due and its reminders (task 50) with a fake clock: an area's reminder mails the
 * assets whose next maintenance falls in its window, through the platform's mail service (the
 * file outbox here), and not again before its frequency has come round.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../server/test/import-fixtures';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { dictionary, ok, pool, type Pool } from './support';

let ts: TestServer;
let dir: string;
let p: Pool;
let east: number;
let west: number;
let soon: string;
let later: string;
const NOW = Date.UTC(2026, 5, 1, 8); // 2026-06-01 08:00 UTC

async function rack(sn: string, startTime: string, areaId: number) {
  const c = await ok(ts.a, '/carrier/create', { sn, carrierCodeId: p.codeId, warehouseId: p.warehouseId, status: 10, startTime });
  await ok(ts.a, '/carrier-asset/refresh', {});
  const a = (await ok(ts.a, '/carrier-asset/list', { carrierId: c.id, page: 1, limit: 1 })).list[0];
  await ok(ts.a, '/carrier-asset/update', { id: a.id, areaId, placement: 'Bay 7' });
  return ok(ts.a, '/carrier-asset/get', { id: a.id });
}

const outbox = () => (fs.existsSync(path.join(dir, 'outbox')) ? fs.readdirSync(path.join(dir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);
const run = (at: number) =>
  ts.server.reports.task('maintenanceExpiryMail')!.run({
    ctx: ts.server.systemContext(ts.orgA),
    task: {},
    now: new Date(at),
    timezone: 'UTC',
    language: 'en-US',
    t: (k: string, params?: Record<string, unknown>) => ts.server.t('en-US', k, params as never),
  });

beforeAll(async () => {
  dir = tempDataDir();
  ts = await startTestServer({ plugins: ['maintenance', 'scheduler'], config: { dataDir: dir } });
  p = await pool(ts.a, 'RM');
  east = await dictionary(ts.a, Enums.dictionaryCategory.area, 'East yard');
  west = await dictionary(ts.a, Enums.dictionaryCategory.area, 'West yard');
  // cycle 90 days: started 2026-03-10 → due 2026-06-08; started 2026-05-01 → due 2026-07-30
  soon = (await rack('RACK-SOON', '2026-03-10T00:00:00Z', east)).sn;
  later = (await rack('RACK-LATER', '2026-05-01T00:00:00Z', east)).sn;
  await rack('RACK-WEST', '2026-03-12T00:00:00Z', west);
  await ok(ts.a, '/task-mail-maintenance/create', {
    areaId: east,
    mailTo: 'yard@example.com',
    cc: 'lead@example.com',
    subject: 'Racks due for maintenance',
    text: 'Please plan these racks:',
    warnDayBegin: 0,
    warnDayEnd: 30,
    warnFrequency: 7,
  });
}, 120_000);
afterAll(() => ts?.close());

describe('the due list', () => {
  it('lists the assets due in a window of days, by area', async () => {
    const got = await ok(ts.a, '/carrier-asset/due/list', { areaId: east, daysFrom: 0, daysTo: 30, today: '2026-06-01', page: 1, limit: 10 });
    expect(got.list.map((r: any) => [r.sn, r.nextMaintenanceDate, r.daysLeft])).toEqual([[soon, '2026-06-08', 7]]);
    const wide = await ok(ts.a, '/carrier-asset/due/list', { daysFrom: 0, daysTo: 90, today: '2026-06-01', page: 1, limit: 10 });
    expect(wide.total).toBe(3);
    expect((await ok(ts.b, '/carrier-asset/due/list', { daysFrom: -3650, daysTo: 3650, page: 1, limit: 10 })).total).toBe(0);
  });
});

describe('reminder mails (task 50)', () => {
  it('mails the window of its area once per frequency', async () => {
    const first = await run(NOW);
    expect(first.kind).toBe('report');
    let mails = outbox();
    expect(mails).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, 'outbox', mails[0]), 'utf8');
    expect(eml).toContain('yard@example.com');
    expect(eml).toContain('lead@example.com');
    expect(eml).toContain('Racks due for maintenance');
    expect(eml).toContain(soon);
    expect(eml).not.toContain(later);
    expect(eml).not.toContain('RACK-WEST');
    const reminder = (await ok(ts.a, '/task-mail-maintenance/list', { page: 1, limit: 1 })).list[0];
    expect(new Date(reminder.lastSentAt).getTime()).toBe(NOW);

    // two days later: within its frequency, nothing again
    expect((await run(NOW + 2 * 86_400_000)).kind).toBe('empty');
    expect(outbox()).toHaveLength(1);

    // a week later: mailed again (the rack is due today)
    expect((await run(NOW + 7 * 86_400_000)).kind).toBe('report');
    mails = outbox();
    expect(mails).toHaveLength(2);
  });

  it('a window with nothing due mails nothing', async () => {
    await ok(ts.a, '/task-mail-maintenance/create', {
      areaId: west,
      mailTo: 'west@example.com',
      subject: 'West',
      warnDayBegin: 200,
      warnDayEnd: 300,
      warnFrequency: 1,
    });
    const before = outbox().length;
    await run(NOW + 30 * 86_400_000);
    expect(outbox().filter((f) => fs.readFileSync(path.join(dir, 'outbox', f), 'utf8').includes('west@example.com'))).toHaveLength(0);
    expect(outbox().length).toBeGreaterThanOrEqual(before);
  });
});

describe('maintenance due by use', () => {
  it('an asset is due after its trip interval, whichever comes first, and counts again after a maintenance', async () => {
    const a = await rack('RACK-TRIPS', '2026-05-20T00:00:00Z', east); // due by date 2026-08-18: far off
    await ok(ts.a, '/carrier-asset/update', { id: a.id, maintainTrips: 10, warnTrips: 2 });
    const listed = async () =>
      (await ok(ts.a, '/carrier-asset/due/list', { areaId: east, daysFrom: 0, daysTo: 30, today: '2026-06-01', page: 1, limit: 20 })).list.find(
        (r: any) => r.sn === 'RACK-TRIPS',
      );
    expect(await listed()).toBeUndefined();
    // seeded trips: the carrier's cycle count as receipts and gate passes keep it
    // eslint-disable-next-line rti/no-raw-models -- seeds the carrier's trip count, which only the movement code writes
    await ts.server.db.models.carrier.update({ cycleCount: 9 }, { where: { id: a.carrierId } });
    expect(await listed()).toMatchObject({ tripsLeft: 1, nextMaintenanceDate: '2026-08-18' });
    // the reminder says so
    await run(NOW + 60 * 86_400_000);
    const last = outbox().sort().at(-1)!;
    expect(fs.readFileSync(path.join(dir, 'outbox', last), 'utf8')).toContain('RACK-TRIPS');
    // maintained and audited: trips count from 9 again
    const auditor = await ts.callerFor(await ts.addUser(ts.orgA, 'aud-trips'), ts.orgA);
    const r = await ok(ts.a, '/carrier-asset-maintenance-record/create', {
      carrierId: a.carrierId,
      breakdownDescription: 'Scheduled upkeep',
      type: Enums.maintenanceType.upkeep,
    });
    await ok(ts.a, '/carrier-asset-maintenance-record/start', { id: r.id });
    await ok(ts.a, '/carrier-asset-maintenance-record/complete', {
      id: r.id,
      rootCauseId: await dictionary(ts.a, Enums.dictionaryCategory.rootCause, 'Wear'),
      strategy: 'Upkeep',
      hours: 1,
    });
    await ok(auditor, '/carrier-asset-maintenance-record/audit', { id: r.id });
    expect((await ok(ts.a, '/carrier-asset/get', { id: a.id })).tripsAtLastMaintenance).toBe(9);
    expect(await listed()).toBeUndefined();
  });
});
