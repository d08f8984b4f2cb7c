/**
 * Carrier assets and their transfers over the API, as narrow roles (an asset keeper, a transfer
 * clerk, a receiver): refresh from the carriers of asset-managed codes keeping what was typed;
 * accept → enable → scrap, scrapping the carrier; every change in the carrier asset log; a
 * transfer moves the asset's fields only when received, and a scrapped asset is not transferred;
 * the import's SPEC §8 reasons 201–209.
 */
import ExcelJS from 'exceljs';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { carrier, dictionary, LANGS, narrowUser, ok, pool, type Pool } from './support';

const C = Enums.carrierStatus;
const A = Enums.carrierAssetStatus;
const D = Enums.dictionaryCategory;
const AS = '/carrier-asset';
const T = '/carrier-asset-transfer';
let ts: TestServer;
let p: Pool;
let keeper: Caller;
let clerk: Caller;
let receiver: Caller;
let area: { east: number; west: number };
let dept: { paint: number; weld: number };

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['maintenance'], config: { dataDir: tempDataDir() } });
  p = await pool(ts.a, 'AS');
  area = { east: await dictionary(ts.a, D.area, 'East yard'), west: await dictionary(ts.a, D.area, 'West yard') };
  dept = { paint: await dictionary(ts.a, D.department, 'Paint shop'), weld: await dictionary(ts.a, D.department, 'Weld shop') };
  await dictionary(ts.a, D.assetNature, 'Production rack');
  const read = [`${AS}/list`, `${AS}/get`];
  keeper = await narrowUser(
    ts,
    'keeper-zhao',
    [...read, `${AS}/update`, `${AS}/refresh`, `${AS}/accept`, `${AS}/enable`, `${AS}/scrap`, `${AS}/import`, `${AS}/import/status`, '/carrier'],
    'Zhao Keeper',
  );
  clerk = await narrowUser(ts, 'clerk-ma', [...read, `${T}/list`, T, `${T}/create`, `${T}/update`], 'Ma Clerk');
  receiver = await narrowUser(ts, 'recv-qian', [...read, `${T}/list`, T, `${T}/receive`], 'Qian Receiver');
}, 120_000);
afterAll(() => ts?.close());

const assetOf = async (caller: Caller, carrierId: number) => (await ok(caller, `${AS}/list`, { carrierId, page: 1, limit: 1 })).list[0];

describe('refresh', () => {
  it('makes asset rows for the carriers of asset-managed codes, keeps what was typed, follows the serial', async () => {
    const c1 = await carrier(ts.a, p);
    const c2 = await carrier(ts.a, p);
    const plain = (await ok(ts.a, '/carrier-code/create', { code: 'BOX-NA', name: 'Plain box', projectId: p.projectId, type: 10, available: true })).id;
    const box = await ok(ts.a, '/carrier/create', { sn: 'BOX-NOT-ASSET', carrierCodeId: plain, warehouseId: p.warehouseId, status: 10 });
    const first = await ok(keeper, `${AS}/refresh`, {});
    expect(first.created).toBeGreaterThanOrEqual(2);
    const a1 = await assetOf(keeper, c1.id);
    expect(a1).toMatchObject({ sn: c1.sn, carrierCodeId: p.codeId, status: A.new, maintainCycle: 90, warnCycle: 10, maintenanceCount: 0 });
    expect(a1.nextMaintenanceDate).toBeTruthy();
    expect(await assetOf(keeper, box.id)).toBeUndefined();

    await ok(keeper, `${AS}/update`, { id: a1.id, responsible: 'Zhou', areaId: area.east, originalPrice: 1350 });
    await ok(ts.a, '/carrier/update', { id: c1.id, sn: `${c1.sn}-R` });
    const again = await ok(keeper, `${AS}/refresh`, {});
    expect(again).toMatchObject({ created: 0, updated: 1 });
    expect(await assetOf(keeper, c1.id)).toMatchObject({ sn: `${c1.sn}-R`, responsible: 'Zhou', areaId: area.east, originalPrice: 1350 });
    expect(await assetOf(keeper, c2.id)).toBeTruthy();
    // the other organisation refreshes its own carriers only
    expect((await ok(ts.b, `${AS}/refresh`, {})).created).toBe(0);
    expect((await ok(ts.b, `${AS}/list`, { page: 1, limit: 10 })).total).toBe(0);
    // each change is in the carrier asset log
    const log = await ok(ts.a, '/log/carrierasset/list', { sn: c1.sn, page: 1, limit: 20 });
    expect(log.list.some((l: any) => l.action === Enums.operationLogAction.update && String(l.content).includes('Zhou'))).toBe(true);
  });
});

describe('accept, enable, scrap', () => {
  it('scrapping an asset scraps its carrier; a scrapped asset cannot be edited', async () => {
    const c = await carrier(ts.a, p);
    await ok(keeper, `${AS}/refresh`, {});
    const a = await assetOf(keeper, c.id);
    const accepted = await ok(keeper, `${AS}/accept`, { id: a.id, acceptanceNo: 'OA-ACC-7' });
    expect(accepted).toMatchObject({ status: A.accepted, acceptanceNo: 'OA-ACC-7' });
    expect(accepted.acceptanceTime).toBeTruthy();
    await ok(keeper, `${AS}/enable`, { id: a.id });
    // wrong status, naming the asset by its serial
    for (const lang of LANGS) {
      const got = await keeper.call(`${AS}/accept`, { id: a.id }, { language: lang });
      expect(got.body.code).toBe(10004);
      expect(got.body.message).toContain(c.sn);
    }
    const scrapped = await ok(keeper, `${AS}/scrap`, { id: a.id, scrapNo: 'OA-SCR-1' });
    expect(scrapped).toMatchObject({ status: A.scrapped, scrapNo: 'OA-SCR-1' });
    expect((await ok(ts.a, '/carrier', { id: c.id })).status).toBe(C.scrapped);
    const edit = await keeper.call(`${AS}/update`, { id: a.id, responsible: 'x' }, { language: 'ja-JP' });
    expect(edit.body.code).toBe(10004);
    expect(edit.body.message).toContain('廃棄');
    const log = await ok(ts.a, '/log/carrierasset/list', { sn: c.sn, page: 1, limit: 20 });
    expect(log.list.map((l: any) => JSON.parse(l.content).step).filter(Boolean)).toEqual(expect.arrayContaining(['accept', 'enable', 'scrap']));
  });

  it('refuses scrapping an asset under repair, and scraps nothing', async () => {
    const c = await carrier(ts.a, p);
    await ok(keeper, `${AS}/refresh`, {});
    const a = await assetOf(keeper, c.id);
    const rec = await ok(ts.a, '/carrier-asset-maintenance-record/create', { carrierId: c.id, breakdownDescription: 'Bent' });
    const got = await keeper.call(`${AS}/scrap`, { id: a.id }, { language: 'zh-CN' });
    expect(got.body.code).toBe(10004);
    expect(got.body.message).toContain(rec.recordNo);
    expect(got.body.message).toContain(c.sn);
    expect((await assetOf(keeper, c.id)).status).toBe(A.new);
    expect((await ok(ts.a, '/carrier', { id: c.id })).status).toBe(C.inUse);
  });
});

describe('transfers', () => {
  it("changes the asset's fields only when received", async () => {
    const c = await carrier(ts.a, p);
    await ok(keeper, `${AS}/refresh`, {});
    const a = await assetOf(keeper, c.id);
    await ok(keeper, `${AS}/update`, { id: a.id, areaId: area.east, departmentId: dept.paint, placement: 'Bay 3', responsible: 'Zhou', employeeNo: 'E100' });
    const t = await ok(clerk, `${T}/create`, {
      carrierAssetId: a.id,
      newAreaId: area.west,
      newDepartmentId: dept.weld,
      newPlacement: 'Bay 9',
      newResponsible: 'Sun',
      oaTransferNo: 'OA-T-1',
    });
    expect(t).toMatchObject({
      status: Enums.assetTransferStatus.transferredOut,
      oldAreaId: area.east,
      oldDepartmentId: dept.paint,
      oldPlacement: 'Bay 3',
      oldResponsible: 'Zhou',
      oldEmployeeNo: 'E100',
      transferBy: 'Ma Clerk',
    });
    expect(t.transferNo).toMatch(/^AT\d{12}$/);
    expect(await assetOf(keeper, c.id)).toMatchObject({ areaId: area.east, placement: 'Bay 3' });
    // one open transfer per asset
    const twice = await clerk.call(`${T}/create`, { carrierAssetId: a.id, newPlacement: 'Bay 1' }, { language: 'zh-CN' });
    expect(twice.body.code).toBe(10004);
    expect(twice.body.message).toContain(t.transferNo);
    // the clerk does not receive
    expect((await clerk.call(`${T}/receive`, { id: t.id })).body.code).toBe(10005);
    const received = await ok(receiver, `${T}/receive`, { id: t.id });
    expect(received).toMatchObject({ status: Enums.assetTransferStatus.received, receiveBy: 'Qian Receiver' });
    // new values given move, the employee no. not given stays
    expect(await assetOf(keeper, c.id)).toMatchObject({
      areaId: area.west,
      departmentId: dept.weld,
      placement: 'Bay 9',
      responsible: 'Sun',
      employeeNo: 'E100',
    });
    expect((await clerk.call(`${T}/update`, { id: t.id, newPlacement: 'x' })).body.code).toBe(10004);
  });

  it('refuses a scrapped asset, translated and naming its serial; nothing is written', async () => {
    const c = await carrier(ts.a, p);
    await ok(keeper, `${AS}/refresh`, {});
    const a = await assetOf(keeper, c.id);
    const open = await ok(clerk, `${T}/create`, { carrierAssetId: a.id, newPlacement: 'Bay 2' });
    await ok(keeper, `${AS}/scrap`, { id: a.id });
    const before = (await ok(clerk, `${T}/list`, { page: 1, limit: 1 })).total;
    const texts: string[] = [];
    for (const lang of LANGS) {
      const got = await clerk.call(`${T}/create`, { carrierAssetId: a.id, newPlacement: 'Bay 4' }, { language: lang });
      expect(got.body.code).toBe(10004);
      expect(got.body.message).toContain(c.sn);
      texts.push(got.body.message);
    }
    expect(texts[0]).toMatch(/scrapped/);
    expect(texts[1]).toContain('报废');
    expect(texts[2]).toContain('廃棄');
    expect((await ok(clerk, `${T}/list`, { page: 1, limit: 1 })).total).toBe(before);
    // the transfer already out is not received either
    const got = await receiver.call(`${T}/receive`, { id: open.id });
    expect(got.body.code).toBe(10004);
    expect((await ok(receiver, T, { id: open.id })).status).toBe(Enums.assetTransferStatus.transferredOut);
    expect((await assetOf(keeper, c.id)).placement).toBeNull();
  });
});

describe('/carrier-asset/import', () => {
  it('registers assets by carrier serial and reports reasons 201–209', async () => {
    const res = await ts.request(`${AS}/import/template`, {}, { token: keeper.token, orgId: keeper.orgId });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    const col = (name: string) => headers.indexOf(name);
    // a row of the sheet from values by header
    const row = (v: Record<string, unknown>) => headers.map((h) => v[h] ?? null);
    const H = {
      sn: headers[0],
      area: headers[col('Area')],
      dept: headers[col('Department')],
      nature: headers[col('Asset nature')],
      price: headers[col('Original price')],
      made: headers[col('Manufacture date')],
      cycle: headers[col('Maintenance cycle')],
      fixed: headers[col('Fixed asset')],
    };
    expect(
      Object.values(H).every((h) => h !== undefined),
      headers.join('|'),
    ).toBe(true);
    const fresh = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => carrier(ts.a, p)));
    const scrapped = await carrier(ts.a, p, C.scrapped);
    const good = {
      [H.area]: 'East yard',
      [H.dept]: 'Paint shop',
      [H.nature]: 'Production rack',
      [H.price]: 1200,
      [H.made]: '2025-03-01',
      [H.cycle]: 60,
      [H.fixed]: 'Yes',
    };
    const file = await xlsx(headers, [
      row({ ...good, [H.sn]: fresh[0].sn }), // 2 ok
      row({ ...good, [H.sn]: fresh[1].sn, [H.area]: 'Moon base' }), // 3 → 201
      row({ ...good, [H.sn]: fresh[2].sn, [H.dept]: 'No dept' }), // 4 → 202
      row({ ...good, [H.sn]: fresh[3].sn, [H.nature]: 'No nature' }), // 5 → 203
      row({ ...good, [H.sn]: fresh[4].sn, [H.made]: 'yesterday-ish' }), // 6 → 204
      row({ ...good, [H.sn]: 'NO-SUCH-RACK' }), // 7 → 205
      row({ ...good, [H.sn]: fresh[5].sn, [H.cycle]: -5 }), // 8 → 206
      row({ ...good, [H.sn]: fresh[6].sn, [H.fixed]: 'Perhaps' }), // 9 → 207
      row({ ...good, [H.sn]: scrapped.sn }), // 10 → 208
      row({ ...good, [H.sn]: fresh[7].sn, [H.price]: -1 }), // 11 → 209
    ]);
    const result = await importFile(ts, keeper, 'carrier-asset', file, 'zh-CN');
    expect(result.message).toBeNull();
    const R = Enums.assetImportError;
    expect(codesByRow(result)).toEqual({
      3: R.areaNotFound,
      4: R.departmentNotFound,
      5: R.assetNatureNotFound,
      6: R.timeInvalid,
      7: R.assetNotFound,
      8: R.maintenanceCycleInvalid,
      9: R.fixedFlagInvalid,
      10: R.assetScrapped,
      11: R.originalPriceInvalid,
    });
    for (const e of result.importErrors) expect(e.reason).toMatch(/[\u4e00-\u9fff]/);
    expect(result.successVolume).toBe(1);
    const made = await assetOf(keeper, fresh[0].id);
    expect(made).toMatchObject({
      sn: fresh[0].sn,
      areaId: area.east,
      departmentId: dept.paint,
      originalPrice: 1200,
      maintainCycle: 60,
      fixedAsset: Enums.fixedAsset.yes,
      carrierCodeId: p.codeId,
    });
    for (const c of [...fresh.slice(1), scrapped]) expect(await assetOf(keeper, c.id)).toBeUndefined();
    // a carrier that has its asset already: refused, the asset unchanged
    const again = await importFile(ts, keeper, 'carrier-asset', await xlsx(headers, [row({ ...good, [H.sn]: fresh[0].sn, [H.price]: 99 })]), 'en-US');
    expect(again).toMatchObject({ successVolume: 0, failedVolume: 1 });
    expect(again.importErrors[0].reason).toMatch(/exist/i);
    expect((await assetOf(keeper, fresh[0].id)).originalPrice).toBe(1200);

    // asked to update existing assets (the platform's updateExisting, the key is the carrier): the
    // asset of fresh[0] takes the sheet's values, fresh[8] gets its asset, the scrapped one is still refused
    const form = new FormData();
    const sheet = await xlsx(headers, [
      row({ ...good, [H.sn]: fresh[0].sn, [H.price]: 1350, [H.area]: 'West yard' }),
      row({ ...good, [H.sn]: fresh[8].sn }),
      row({ ...good, [H.sn]: scrapped.sn }),
    ]);
    form.append('file', new Blob([new Uint8Array(sheet)]), 'assets.xlsx');
    form.append('updateExisting', 'true');
    const up = await fetch(`${ts.url}/api${AS}/import`, {
      method: 'POST',
      headers: { Token: keeper.token, OrgId: String(keeper.orgId), Language: 'en-US' },
      body: form,
    });
    const upBody = (await up.json()) as { code: number; data: { importId: number } };
    expect(upBody.code).toBe(0);
    await ts.server.imports.idle();
    const updated = await ok(keeper, `${AS}/import/status`, { importId: upBody.data.importId });
    expect(updated).toMatchObject({ successVolume: 2, failedVolume: 1 });
    expect(codesByRow(updated)).toEqual({ 4: Enums.assetImportError.assetScrapped });
    expect(await assetOf(keeper, fresh[0].id)).toMatchObject({ originalPrice: 1350, areaId: area.west, sn: fresh[0].sn });
    expect((await ok(keeper, `${AS}/list`, { carrierId: fresh[0].id, page: 1, limit: 5 })).total).toBe(1);
    expect(await assetOf(keeper, fresh[8].id)).toMatchObject({ sn: fresh[8].sn, originalPrice: 1200 });
    // the change is in the carrier asset log
    const log = await ok(ts.a, '/log/carrierasset/list', { sn: fresh[0].sn, page: 1, limit: 20 });
    expect(log.list.some((l: any) => String(l.content).includes('1350'))).toBe(true);
  });
});
