/**
 * Alert texts are stored as a key and values and rendered when read, in the reader's language
 * (issue 10 "Every language, everywhere"): lists, details, the notification feed, exports and
 * the dashboard's messages all answer the same alert in en-US, zh-CN and ja-JP; rows written
 * before the key existed keep their text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HALL_A, ok, push, scan, seedFleet, startRig, type Fleet, type Rig } from './fixtures';

const here = new URL('.', import.meta.url).pathname;
const catalogue = (lang: string) => JSON.parse(readFileSync(join(here, `../server/messages/${lang}.json`), 'utf8')).telemetry.alerts as Record<string, string>;
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('alert text catalogue', () => {
  it('every message id the rules emit has a text in all three languages, with the same placeholders', () => {
    const rulesDir = join(here, '../../../ingest/src/rules');
    const ids = new Set<string>();
    for (const f of readdirSync(rulesDir)) {
      for (const m of readFileSync(join(rulesDir, f), 'utf8').matchAll(/\bid: (?:is \? )?'(\w+)'(?: : '(\w+)')?/g)) {
        ids.add(m[1]);
        if (m[2]) ids.add(m[2]);
      }
    }
    expect(ids.size).toBeGreaterThanOrEqual(17);
    const en = catalogue('en-US');
    for (const lang of ['zh-CN', 'ja-JP']) {
      const other = catalogue(lang);
      expect(Object.keys(other).sort(), lang).toEqual(Object.keys(en).sort());
      for (const k of Object.keys(en)) {
        expect(placeholders(other[k]), `${lang} ${k}`).toEqual(placeholders(en[k]));
        expect(other[k], `${lang} ${k}`).not.toBe(en[k]);
      }
    }
    for (const id of ids) expect(en[id], id).toBeTruthy();
  });
});

describe('alert texts rendered on read (real server, telemetry, dashboard)', () => {
  let rig: Rig;
  let fleet: Fleet;
  const T = Date.now() - 10 * 60_000;

  beforeAll(async () => {
    rig = await startRig({ plugins: ['dashboard'] });
    fleet = await seedFleet(rig, rig.ts.a);
    for (let k = 0; k < 2; k++) await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T + k * 1000, { battery: 12 }));
  });
  afterAll(async () => rig?.close());

  const list = (language: string) => rig.ts.a.call('/device-alert/beacon/list', { beaconId: fleet.beaconId }, { language });

  it('one low-battery alert reads in the caller language, the stored key and values unchanged', async () => {
    const en = (await list('en-US')).body.data as any;
    expect(en.total).toBe(1);
    expect(en.list[0].message).toBe('Battery 12% below 20%');
    expect(en.list[0].messageKey).toEqual({ key: 'telemetry.alerts.battery', params: { value: 12, threshold: 20 } });
    expect(((await list('zh-CN')).body.data as any).list[0].message).toBe('电量 12%，低于 20%');
    expect(((await list('ja-JP')).body.data as any).list[0].message).toBe('バッテリー 12%（しきい値 20% 未満）');
    const detail = await rig.ts.a.call('/device-alert/beacon', { id: en.list[0].id }, { language: 'zh-CN' });
    expect((detail.body.data as any).message).toBe('电量 12%，低于 20%');
    // the column keeps what the rule wrote (a filter on the message reads the stored text)
    const [stored] = (await rig.ts.server.db.sequelize.query(`SELECT message FROM device_beacon_alert WHERE id = ${Number(en.list[0].id)}`)) as [
      Array<{ message: string }>,
      unknown,
    ];
    expect(stored[0].message).toBe('battery 12% below 20%');
  });

  it('the notification feed and the dashboard messages read it in the caller language too', async () => {
    const feed = (await rig.ts.a.call('/device-alert/unsolved', {}, { language: 'ja-JP' })).body.data as any;
    expect(feed.beacon.list[0].message).toBe('バッテリー 12%（しきい値 20% 未満）');
    const dash = (await rig.ts.a.call('/dashboard/message', {}, { language: 'zh-CN' })).body.data as any;
    expect(dash.list.find((m: any) => m.category === 'beacon').message).toBe('电量 12%，低于 20%');
  });

  it('the export writes the text in the caller language', async () => {
    const res = await rig.ts.a.fetch('/device-alert/beacon/export', { beaconId: fleet.beaconId }, { language: 'ja-JP' });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const values = wb.worksheets[0].getSheetValues().flat().map(String);
    expect(values).toContain('バッテリー 12%（しきい値 20% 未満）');
    expect(values).toContain('メッセージ');
  });

  it('a row written before texts had keys shows its text as written in every language', async () => {
    const row = await rig.ts.server.db.models['device-beacon-alert'].create({
      orgId: rig.ts.orgA,
      beaconId: fleet.beaconId,
      beaconSn: 'B-A',
      reason: 20,
      createdTime: new Date(T),
      message: 'legacy text',
      status: 0,
    });
    for (const language of ['en-US', 'zh-CN', 'ja-JP']) {
      const got = (await rig.ts.a.call('/device-alert/beacon', { id: row.get('id') }, { language })).body.data as any;
      expect(got.message).toBe('legacy text');
      expect(got.messageKey).toBeNull();
    }
    // a key no catalogue knows (a plugin removed since) also keeps the text
    await row.update({ messageKey: { key: 'gone.plugin.text', params: {} } });
    expect(((await rig.ts.a.call('/device-alert/beacon', { id: row.get('id') }, { language: 'zh-CN' })).body.data as any).message).toBe('legacy text');
  });
});
