/**
 * One time zone per organisation (issue 19 item 4): the `timeZone` field, refused when the
 * runtime knows no such zone (in the caller's language, nothing written); dated document
 * numbers and report queries cut their days in it; other instances learn a change within the
 * cache's lifetime, the saving instance at once. Runs on SQLite, and on MariaDB when
 * TEST_MYSQL_URL is set.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../src/reports/time';
import { OrgZones } from '../src/access/org-zones';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
const refs: Record<string, number> = {};
let n = 700;

/** A zone whose calendar day differs from UTC's right now (UTC+14 or UTC−11: 25 hours apart, one of them always does). */
function otherDayZone(now = Date.now()): string {
  const utc = dayOf(now, 'UTC');
  return dayOf(now, 'Pacific/Kiritimati') !== utc ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
}

beforeAll(async () => {
  ts = await startTestServer();
  refs.organization = ts.orgA;
  n = await createMasterForCarriers(ts, ts.a, refs, n);
});
afterAll(async () => {
  await ts?.server.db.models.organization.update({ timeZone: null }, { where: {} });
  await ts?.close();
});

describe('the organisation time zone', () => {
  it('refuses a zone the runtime does not know, in the caller language, and writes nothing', async () => {
    const before = await ts.server.db.models.organization.findByPk(ts.orgA, { raw: true });
    for (const [language, text] of [
      ['en-US', 'time zone'],
      ['zh-CN', '时区'],
      ['ja-JP', 'タイムゾーン'],
    ] as const) {
      const r = await ts.a.call('/organization/update', { id: ts.orgA, timeZone: 'Mars/Olympus_Mons' }, { language });
      expect(r.body.code, language).not.toBe(0);
      expect(r.body.message, language).toContain(text);
    }
    expect(await ts.server.db.models.organization.findByPk(ts.orgA, { raw: true })).toEqual(before);
  });

  it('cuts dated document numbers in the organisation day; empty falls back to the server zone', async () => {
    const zone = otherDayZone();
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: zone });
    expect((await callOk(ts.a, '/organization/get', { id: ts.orgA })).timeZone).toBe(zone);
    const carrier = await createSample(ts, ts.a, 'carrier', n++, refs, { beaconId: null, gpsId: null });
    const bind = await callOk(ts.a, '/carrier-bind/create', { carrierId: carrier.id });
    const local = dayOf(Date.now(), zone).replace(/-/g, '');
    expect(bind.bindNo.slice(2, 10)).toBe(local);

    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
    const other = await createSample(ts, ts.a, 'carrier', n++, refs, { beaconId: null, gpsId: null });
    const plain = await callOk(ts.a, '/carrier-bind/create', { carrierId: other.id });
    expect(plain.bindNo.slice(2, 10)).toBe(dayOf(Date.now(), ts.server.config.timeZone).replace(/-/g, ''));
  });

  it('is the zone of a report query that names none; a scheduled run or the definition may name another', async () => {
    const zone = otherDayZone();
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: zone });
    const def = {
      name: 'test.org-zone',
      title: 'zone',
      parameters: [],
      columns: [{ key: 'zone', title: 'zone' }],
      rows: async () => [],
      schedule: undefined,
    };
    const ctx = ts.server.systemContext(ts.orgA);
    expect((await ts.server.reports.query(def as never, {}, ctx)).zone).toBe(zone);
    expect((await ts.server.reports.query(def as never, {}, ts.server.systemContext(ts.orgB))).zone).toBe(ts.server.config.timeZone);
    expect((await ts.server.reports.query(def as never, {}, ctx, 'Asia/Tokyo')).zone).toBe('Asia/Tokyo');
    expect((await ts.server.reports.query({ ...def, zone: () => 'Europe/Berlin' } as never, {}, ctx)).zone).toBe('Europe/Berlin');
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
  });

  it('writes exported date-times in the organisation zone, which its imports read them in', async () => {
    const carrier = await createSample(ts, ts.a, 'carrier', n++, refs, { beaconId: null, gpsId: null, startTime: '2026-03-01T23:30:00.000Z' });
    const exported = async () => {
      const r = await ts.a.fetch('/carrier/export', { sn: carrier.sn });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await r.arrayBuffer()) as never);
      const sheet = wb.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const col = header.findIndex((h) => h === 'Start time');
      return String(sheet.getRow(2).getCell(col).value);
    };
    expect(await exported()).toBe('2026-03-01 23:30:00');
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'Asia/Shanghai' });
    expect(await exported()).toBe('2026-03-02 07:30:00');
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
  });

  it('reaches another instance within the cache lifetime (the database row is the truth)', async () => {
    const other = new OrgZones(ts.server.db, 'UTC', 60_000);
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'Asia/Shanghai' });
    expect(await other.of(ts.orgA)).toBe('Asia/Shanghai');
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: 'Europe/Berlin' });
    // cached a moment, then read again
    expect(await other.of(ts.orgA)).toBe('Asia/Shanghai');
    expect(await other.of(ts.orgA, Date.now() + 61_000)).toBe('Europe/Berlin');
    // a zone this runtime does not know (written around the API) and no organisation: the server's
    await ts.server.db.models.organization.update({ timeZone: 'Nowhere/Atlantis' }, { where: { id: ts.orgA } });
    expect(await new OrgZones(ts.server.db, 'UTC').of(ts.orgA)).toBe('UTC');
    expect(await other.of(null)).toBe('UTC');
    await callOk(ts.a, '/organization/update', { id: ts.orgA, timeZone: null });
  });
});
