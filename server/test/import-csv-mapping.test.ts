/**
 * Bulk onboarding imports (issue 23, "Bulk onboarding like the tools admins know"): CSV as well
 * as xlsx, a mapping step (preview of the first rows, file column → import column, suggested
 * from the headers) and "update existing" by the import's key. Bad input is refused before
 * anything is written: a wrong encoding, a mapping that leaves a required column out (named by
 * its label, translated); a BOM and semicolons are read as what they are. 10,000 CSV rows are
 * imported under 10 s (printed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from './support/test-server';
import { tempDataDir, xlsx } from './import-fixtures';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ config: { dataDir: tempDataDir() } });
  await ts.a.call('/device-model/create', { name: 'DM-1' });
  const project = await ts.a.call('/project/create', { name: 'Pool' });
  const type = ts.server.metadata.enums.carrierType[0].value;
  const code = await ts.a.call('/carrier-code/create', { code: 'CC-1', name: 'Pallet box', projectId: project.body.data.id, type, available: true });
  expect(code.body.code, code.body.message).toBe(0);
}, 60_000);
afterAll(() => ts?.close());

async function send(caller: Caller, path: string, bytes: Buffer, fileName: string, fields: Record<string, string> = {}, language = 'en-US') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = await fetch(`${ts.url}/api${path}`, {
    method: 'POST',
    headers: { Token: caller.token, OrgId: String(caller.orgId), Language: language },
    body: form,
  });
  return (await res.json()) as { code: number; message: string; data: any };
}

/** Uploads, waits for the job, answers its status. */
async function run(resource: string, bytes: Buffer, fileName: string, fields: Record<string, string> = {}, language = 'en-US') {
  const up = await send(ts.a, `/${resource}/import`, bytes, fileName, fields, language);
  if (up.code !== 0) return { refused: up };
  await ts.server.imports.idle();
  const status = await ts.a.call(`/${resource}/import/status`, { importId: up.data.importId }, { language });
  type Status = {
    successVolume: number;
    failedVolume: number;
    processedVolume: number;
    importErrors: Array<{ row: number; reason: string; column?: string; value?: string }>;
  };
  return { status: status.body.data as Status };
}

const beacons = async (sns: string[]) =>
  (await ts.a.call('/device-beacon/list', { limit: 100, sn: sns.length === 1 ? sns[0] : undefined })).body.data.list as Array<Record<string, any>>;
const count = async (resource: string) => (await ts.a.call(`/${resource}/list`, { limit: 1 })).body.data.total as number;

describe('CSV files', () => {
  it('imports a comma CSV, a semicolon CSV with a BOM and CRLF lines, and a UTF-16 one', async () => {
    const comma = await run('device-beacon', Buffer.from('sn,mac,deviceModelId\nCSV-1,AA:00:00:00:01:01,DM-1\nCSV-2,AA:00:00:00:01:02,DM-1\n'), 'beacons.csv');
    expect(comma.status).toMatchObject({ successVolume: 2, failedVolume: 0 });
    const semi = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('SN;MAC;Device model;Remark\r\nCSV-3;AA:00:00:00:01:03;DM-1;"a; b"\r\n')]);
    const second = await run('device-beacon', semi, 'semi.csv');
    expect(second.refused).toBeUndefined();
    expect(second.status).toMatchObject({ successVolume: 1, failedVolume: 0 });
    const row = (await beacons(['CSV-3']))[0];
    expect(row).toMatchObject({ sn: 'CSV-3', remark: 'a; b' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('sn,mac,deviceModelId\nCSV-4,AA:00:00:00:01:04,DM-1\n', 'utf16le')]);
    expect((await run('device-beacon', utf16, 'utf16.csv')).status).toMatchObject({ successVolume: 1 });
  });

  it('refuses a file in another encoding before anything is written, in the caller language', async () => {
    const before = await count('device-beacon');
    const latin1 = Buffer.from('sn,mac,deviceModelId,remark\nCSV-9,AA:00:00:00:01:09,DM-1,Bj\xf8rn\n', 'latin1');
    const refused = (await run('device-beacon', latin1, 'latin1.csv')).refused!;
    expect(refused.code).toBe(10001);
    expect(refused.message).toMatch(/not UTF-8/);
    const zh = (await run('device-beacon', latin1, 'latin1.csv', {}, 'zh-CN')).refused!;
    expect(zh.message).toContain('UTF-8');
    expect(zh.message).toContain('编码');
    expect(await count('device-beacon')).toBe(before);
  });

  it('reports refused rows by the row the file shows (quoted line breaks count as one record)', async () => {
    const csv = 'sn,mac,deviceModelId,remark\nCSV-5,AA:00:00:00:01:05,DM-1,"two\nlines"\nCSV-6,not-a-mac,DM-1,x\n';
    const r = await run('device-beacon', Buffer.from(csv), 'rows.csv');
    expect(r.status).toMatchObject({ successVolume: 1, failedVolume: 1 });
    expect(r.status!.importErrors[0]).toMatchObject({ row: 3, column: 'MAC', value: 'not-a-mac' });
  });
});

describe('the mapping step', () => {
  const file = Buffer.from('Beacon;Address;Model;Notes\nMAP-1;AA:00:00:00:02:01;DM-1;first\nMAP-2;AA:00:00:00:02:02;DM-1;second\n');

  it('previews the header, the first rows and a suggested mapping, writing nothing', async () => {
    const before = await count('device-beacon');
    const p = await send(ts.a, '/device-beacon/import/preview', Buffer.from('sn;MAC;Device model;Whatever\nP-1;AA:00:00:00:03:01;DM-1;x\n'), 'p.csv');
    expect(p.code, p.message).toBe(0);
    expect(p.data).toMatchObject({
      format: 'csv',
      separator: ';',
      header: ['sn', 'MAC', 'Device model', 'Whatever'],
      rows: [['P-1', 'AA:00:00:00:03:01', 'DM-1', 'x']],
      total: 1,
    });
    expect(p.data.mapping).toEqual({ sn: 'sn', MAC: 'mac', 'Device model': 'deviceModelId' });
    expect(p.data.fields).toEqual(expect.arrayContaining([{ name: 'sn', label: 'SN', required: true }]));
    expect(p.data.key).toEqual({ name: 'sn', label: 'SN' });
    const x = await send(ts.a, '/device-beacon/import/preview', await xlsx(['SN', 'Notes'], [['X-1', 'n']]), 'p.xlsx');
    expect(x.data).toMatchObject({ format: 'xlsx', header: ['SN', 'Notes'], rows: [['X-1', 'n']] });
    expect(await count('device-beacon')).toBe(before);
  });

  it('imports the file columns as mapped', async () => {
    const mapping = JSON.stringify({ Beacon: 'sn', Address: 'mac', Model: 'deviceModelId', Notes: 'remark' });
    const r = await run('device-beacon', file, 'mapped.csv', { mapping });
    expect(r.status).toMatchObject({ successVolume: 2, failedVolume: 0 });
    expect((await beacons(['MAP-2']))[0]).toMatchObject({ mac: 'AA:00:00:00:02:02', remark: 'second' });
  });

  it('refuses a mapping that leaves a required column out before any row is written, naming it', async () => {
    const before = await count('device-beacon');
    const mapping = JSON.stringify({ Beacon: 'sn', Model: 'deviceModelId' });
    const other = Buffer.from('Beacon;Address;Model\nMAP-8;AA:00:00:00:02:08;DM-1\n');
    const en = (await run('device-beacon', other, 'm.csv', { mapping })).refused!;
    expect(en.code).toBe(10001);
    expect(en.message).toBe('The required column MAC is not in the file or not mapped: nothing was imported');
    const ja = (await run('device-beacon', other, 'm.csv', { mapping }, 'ja-JP')).refused!;
    expect(ja.message).toContain('必須列');
    // an xlsx mapped the same way
    const book = await xlsx(['Beacon', 'Address', 'Model'], [['MAP-9', 'AA:00:00:00:02:09', 'DM-1']]);
    expect((await run('device-beacon', book, 'm.xlsx', { mapping })).refused!.message).toContain('MAC');
    // a CSV whose header lacks a required column, without a mapping
    expect((await run('device-beacon', Buffer.from('sn,deviceModelId\nN-1,DM-1\n'), 'n.csv')).refused!.message).toContain('MAC');
    // two columns onto one field, an unknown field
    expect(
      (await run('device-beacon', other, 'm.csv', { mapping: JSON.stringify({ Beacon: 'sn', Address: 'sn', Model: 'deviceModelId' }) })).refused!.code,
    ).toBe(10001);
    expect((await run('device-beacon', other, 'm.csv', { mapping: JSON.stringify({ Beacon: 'nope' }) })).refused!.code).toBe(10001);
    expect(await count('device-beacon')).toBe(before);
  });

  it('updates rows whose key exists when asked, and refuses them as existing otherwise', async () => {
    const mapping = JSON.stringify({ Beacon: 'sn', Address: 'mac', Model: 'deviceModelId', Notes: 'remark' });
    const changed = Buffer.from(
      'Beacon;Address;Model;Notes\nMAP-1;AA:00:00:00:02:01;DM-1;changed\nMAP-3;AA:00:00:00:02:03;DM-1;new\nMAP-2;AA:00:00:00:02:01;DM-1;steals a mac\n',
    );
    const refused = await run('device-beacon', changed, 'u.csv', { mapping });
    expect(refused.status).toMatchObject({ successVolume: 1, failedVolume: 2 });
    expect(refused.status!.importErrors.map((e) => e.row)).toEqual([2, 4]);
    const before = await count('device-beacon');
    const updated = await run('device-beacon', changed, 'u.csv', { mapping, updateExisting: 'true' });
    // MAP-1 updated (its own mac is no clash), MAP-3 now exists (updated), MAP-2 may not take MAP-1's mac
    expect(updated.status).toMatchObject({ successVolume: 2, failedVolume: 1 });
    expect(updated.status!.importErrors).toEqual([expect.objectContaining({ row: 4, column: 'MAC' })]);
    expect((await beacons(['MAP-1']))[0]).toMatchObject({ remark: 'changed' });
    expect((await beacons(['MAP-2']))[0]).toMatchObject({ remark: 'second', mac: 'AA:00:00:00:02:02' });
    expect(await count('device-beacon')).toBe(before);
  });
});

describe('locations', () => {
  it('imports sites with their coordinates from a CSV, and updates them by name', async () => {
    const csv = 'Site;Kind;Lng;Lat;Radius\nOslo depot;Own;10.752245;59.913868;300\nBergen hub;Customer;5.322054;60.391263;\n';
    const mapping = JSON.stringify({ Site: 'name', Kind: 'type', Lng: 'longitude', Lat: 'latitude', Radius: 'fenceRadius' });
    const r = await run('location', Buffer.from(csv), 'sites.csv', { mapping });
    expect(r.status?.importErrors).toEqual([]);
    const oslo = (await ts.a.call('/location/list', { name: 'Oslo depot' })).body.data.list[0];
    expect(oslo).toMatchObject({ type: 0, longitude: 10.752245, latitude: 59.913868, fenceRadius: 300 });
    const moved = await run('location', Buffer.from('Site;Kind;Lng;Lat\nOslo depot;Own;10.8;59.9\n'), 'moved.csv', {
      mapping: JSON.stringify({ Site: 'name', Kind: 'type', Lng: 'longitude', Lat: 'latitude' }),
      updateExisting: 'true',
    });
    expect(moved.status).toMatchObject({ successVolume: 1, failedVolume: 0 });
    expect((await ts.a.call('/location/list', { name: 'Oslo depot' })).body.data.list[0]).toMatchObject({ longitude: 10.8, fenceRadius: 300 });
  });
});

describe('10,000 rows', () => {
  it('imports 10,000 carriers from a CSV in under 10 s', { timeout: 60_000 }, async () => {
    const lines = ['Serial;Code;Note'];
    for (let i = 0; i < 10_000; i++) lines.push(`NCP-${String(i).padStart(5, '0')};CC-1;bulk`);
    const mapping = JSON.stringify({ Serial: 'sn', Code: 'carrierCodeId', Note: 'remark' });
    const started = performance.now();
    const r = await run('carrier', Buffer.from(lines.join('\n')), 'carriers.csv', { mapping });
    const ms = performance.now() - started;
    console.log(`[import] 10,000 carriers from CSV (mapped, semicolons): ${(ms / 1000).toFixed(2)} s`);
    expect(r.status!.importErrors.slice(0, 1)).toEqual([]);
    expect(r.status).toMatchObject({ successVolume: 10_000, failedVolume: 0 });
    expect(ms).toBeLessThan(10_000);
  });
});
