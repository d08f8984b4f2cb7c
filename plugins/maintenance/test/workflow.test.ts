/**
 * The repair workflow over the API, as the least-privileged people who do it — a worker who may
 * only apply, a maintainer who repairs but may not audit, an auditor — never as administrator:
 * apply → start (the carrier goes to maintenance 50) → complete (findings required) → audit (the
 * carrier returns to its former status, the asset counts the maintenance) or reject. Every
 * refusal is translated, names records by number and carriers by serial, and writes nothing.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jimp } from 'jimp';
import { tempDataDir, upload } from '../../../server/test/import-fixtures';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { carrier, dictionary, LANGS, narrowUser, ok, pool, type Pool } from './support';

const C = Enums.carrierStatus;
const M = Enums.maintenanceStatus;
const R = '/carrier-asset-maintenance-record';
let ts: TestServer;
let p: Pool;
let worker: Caller;
let maintainer: Caller;
let auditor: Caller;
let approver: Caller;
let rootCause: number;

const READ = [R, `${R}/list`, '/carrier/list', '/carrier'];
const FINDINGS = () => ({ rootCauseId: rootCause, strategy: 'Weld the cracked upright', hours: 2.5, cost: 180, maintainPictures: ['repair/after-1.jpg'] });

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['maintenance'], config: { dataDir: tempDataDir() } });
  p = await pool(ts.a, 'WF');
  rootCause = await dictionary(ts.a, Enums.dictionaryCategory.rootCause, 'Fatigue crack');
  worker = await narrowUser(ts, 'worker-li', [...READ, `${R}/create`, `${R}/apply`], 'Li Worker');
  maintainer = await narrowUser(ts, 'maint-wang', [...READ, `${R}/update`, `${R}/start`, `${R}/complete`, `${R}/reject`], 'Wang Maintainer');
  auditor = await narrowUser(ts, 'audit-sato', [...READ, `${R}/create`, `${R}/audit`, `${R}/reject`, '/carrier-asset/get'], 'Sato Auditor');
  approver = await narrowUser(ts, 'audit-chen', [...READ, `${R}/audit`, `${R}/reject`], 'Chen Auditor');
}, 120_000);
afterAll(() => ts?.close());

const record = (caller: Caller, id: number) => ok(caller, R, { id });
const carrierStatus = async (id: number) => (await ok(ts.a, '/carrier', { id })).status as number;

describe('a repair from application to audit', () => {
  it('moves the carrier to maintenance and back, and counts the maintenance on the asset', async () => {
    const c = await carrier(ts.a, p, C.inUse);
    expect((await ok(ts.a, '/carrier-asset/refresh', {})).created).toBeGreaterThanOrEqual(1);
    const applied = await ok(worker, `${R}/create`, {
      carrierId: c.id,
      type: Enums.maintenanceType.repair,
      breakdownDescription: 'Upright bent at the fork pocket',
      breakdownPictures: ['repair/bent.jpg'],
    });
    expect(applied).toMatchObject({ status: M.new, applicant: 'Li Worker', carrierSn: c.sn });
    expect(applied.recordNo).toMatch(/^MR\d{8}\d{4}$/);
    expect(applied.applyTime).toBeTruthy();
    expect(applied.carrierAssetId).toBeGreaterThan(0);

    // the asset shows the application at once
    expect((await ok(ts.a, '/carrier-asset/get', { id: applied.carrierAssetId })).maintenanceStatus).toBe(M.new);
    // the worker may only apply
    expect((await worker.call(`${R}/start`, { id: applied.id })).body.code).toBe(10005);

    const started = await ok(maintainer, `${R}/start`, { id: applied.id, pattern: Enums.maintenancePattern.onSite, planDocuments: ['repair/plan.pdf'] });
    expect(started).toMatchObject({ status: M.inProgress, maintainer: 'Wang Maintainer', carrierFormerStatus: C.inUse });
    expect(await carrierStatus(c.id)).toBe(C.maintenance);

    await ok(maintainer, `${R}/complete`, { id: applied.id, ...FINDINGS() });
    // the maintainer holds no audit code
    expect((await maintainer.call(`${R}/audit`, { id: applied.id })).body.code).toBe(10005);

    const audited = await ok(auditor, `${R}/audit`, { id: applied.id, auditRemark: 'OK' });
    expect(audited).toMatchObject({ status: M.audited, auditor: 'Sato Auditor' });
    expect(await carrierStatus(c.id)).toBe(C.inUse);

    const asset = await ok(auditor, '/carrier-asset/get', { id: applied.carrierAssetId });
    expect(asset).toMatchObject({ maintenanceCount: 1, maintenanceStatus: M.audited });
    expect(asset.lastMaintenanceDate).toBe(String(audited.endTime).slice(0, 10));
    const next = new Date(`${asset.lastMaintenanceDate}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 90);
    expect(asset.nextMaintenanceDate).toBe(next.toISOString().slice(0, 10));
    // the asset's log holds the maintenance
    const log = await ok(ts.a, '/log/carrierasset/list', { sn: c.sn, page: 1, limit: 50 });
    expect(log.list.some((l: any) => String(l.content).includes(applied.recordNo))).toBe(true);
    // the carrier's history
    const history = await ok(ts.a, `${R}/bycarrier`, { carrierId: c.id, page: 1, limit: 10 });
    expect(history.list.map((r: any) => r.recordNo)).toEqual([applied.recordNo]);
  });

  it('gives the asset back its former maintenance status when an application is deleted', async () => {
    const c = await carrier(ts.a, p, C.inUse);
    await ok(ts.a, '/carrier-asset/refresh', {});
    const first = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Loose pin' });
    await ok(auditor, `${R}/reject`, { id: first.id, auditRemark: 'Not broken' });
    const asset = () => ok(ts.a, '/carrier-asset/get', { id: first.carrierAssetId });
    expect((await asset()).maintenanceStatus).toBe(M.rejected);
    const second = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Loose pin again' });
    expect((await asset()).maintenanceStatus).toBe(M.new);
    await ok(ts.a, `${R}/delete`, { ids: [second.id] });
    expect((await asset()).maintenanceStatus).toBe(M.rejected);
    await ok(ts.a, `${R}/delete`, { ids: [first.id] });
    expect((await asset()).maintenanceStatus).toBeNull();
  });

  it('returns a standby carrier to standby and a damaged one to standby once repaired', async () => {
    for (const [before, after] of [
      [C.standby, C.standby],
      [C.damaged, C.standby],
    ] as const) {
      const c = await carrier(ts.a, p, before);
      const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Check' });
      await ok(maintainer, `${R}/start`, { id: r.id });
      expect(await carrierStatus(c.id)).toBe(C.maintenance);
      await ok(maintainer, `${R}/complete`, { id: r.id, ...FINDINGS() });
      await ok(auditor, `${R}/audit`, { id: r.id });
      expect(await carrierStatus(c.id)).toBe(after);
    }
  });
});

describe('refusals, translated, naming the record and the carrier, writing nothing', () => {
  it('refuses a step in the wrong status', async () => {
    const c = await carrier(ts.a, p);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Loose wheel' });
    for (const lang of LANGS) {
      const got = await auditor.call(`${R}/audit`, { id: r.id }, { language: lang });
      expect(got.body.code).toBe(10004);
      expect(got.body.message).toContain(r.recordNo);
      expect(got.body.message).not.toContain(`#${r.id}`);
    }
    expect((await auditor.call(`${R}/audit`, { id: r.id }, { language: 'ja-JP' })).body.message).toMatch(/監査|完了/);
    expect((await record(ts.a, r.id)).status).toBe(M.new);
    expect(await carrierStatus(c.id)).toBe(C.inUse);
  });

  it('refuses completing without the findings, and the record stays in progress', async () => {
    const c = await carrier(ts.a, p);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, type: Enums.maintenanceType.repair, breakdownDescription: 'Cracked base' });
    await ok(maintainer, `${R}/start`, { id: r.id });
    const texts: string[] = [];
    for (const lang of LANGS) {
      const got = await maintainer.call(`${R}/complete`, { id: r.id, strategy: 'Weld', cost: 10 }, { language: lang });
      expect(got.body.code).toBe(10001);
      expect(got.body.message).toContain(r.recordNo);
      texts.push(got.body.message);
    }
    expect(texts[0]).toContain('Root cause');
    expect(texts[1]).toContain('故障原因');
    expect(texts[2]).toContain('根本原因');
    const after = await record(ts.a, r.id);
    expect(after).toMatchObject({ status: M.inProgress, strategy: null, cost: null });
  });

  it('refuses an audit by a user without the audit code, and by the applicant', async () => {
    const c = await carrier(ts.a, p);
    // the auditor applies himself: he may not audit his own application
    const r = await ok(auditor, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Bent arm' });
    await ok(maintainer, `${R}/start`, { id: r.id });
    await ok(maintainer, `${R}/complete`, { id: r.id, ...FINDINGS() });
    expect((await maintainer.call(`${R}/audit`, { id: r.id })).body.code).toBe(10005);
    // reject needs the audit code too: the maintainer holds reject's own code, not audit's
    for (const lang of LANGS) {
      const got = await maintainer.call(`${R}/reject`, { id: r.id }, { language: lang });
      expect(got.body.code).toBe(10005);
      expect(got.body.message).toContain(r.recordNo);
      expect(got.body.message).toContain('ApiCarrierAssetMaintenanceRecordAudit');
    }
    for (const lang of LANGS) {
      const got = await auditor.call(`${R}/audit`, { id: r.id }, { language: lang });
      expect(got.body.code).toBe(10004);
      expect(got.body.message).toContain(r.recordNo);
      expect(got.body.message).toContain('Sato Auditor');
    }
    expect((await record(ts.a, r.id)).status).toBe(M.completed);
    expect(await carrierStatus(c.id)).toBe(C.maintenance);
    // another auditor may
    await ok(approver, `${R}/audit`, { id: r.id });
    expect(await carrierStatus(c.id)).toBe(C.inUse);
  });

  it('refuses a scrapped carrier and a second open record for one carrier, naming the serial', async () => {
    const scrapped = await carrier(ts.a, p, C.scrapped);
    const texts: string[] = [];
    for (const lang of LANGS) {
      const got = await worker.call(`${R}/create`, { carrierId: scrapped.id, breakdownDescription: 'x' }, { language: lang });
      expect(got.body.code).toBe(10004);
      expect(got.body.message).toContain(scrapped.sn);
      texts.push(got.body.message);
    }
    expect(texts[1]).toContain('报废');
    const c = await carrier(ts.a, p);
    const first = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'x' });
    const again = await worker.call(`${R}/create`, { carrierId: c.id, breakdownDescription: 'y' }, { language: 'zh-CN' });
    expect(again.body.code).toBe(10004);
    expect(again.body.message).toContain(first.recordNo);
    expect(again.body.message).toContain(c.sn);
    expect((await ok(ts.a, `${R}/list`, { carrierId: c.id, page: 1, limit: 10 })).total).toBe(1);
  });
});

describe('warehouses', () => {
  it('a maintainer restricted to another warehouse cannot move the carrier: refused, naming it, nothing written', async () => {
    const elsewhere = (await ok(ts.a, '/warehouse/create', { code: 'WF-2', name: 'Plant two' })).id;
    const local = await narrowUser(ts, 'maint-two', [...READ, `${R}/start`], 'Maintainer Two', { warehouseIds: [elsewhere] });
    const c = await carrier(ts.a, p);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Bent' });
    const got = await local.call(`${R}/start`, { id: r.id }, { language: 'zh-CN' });
    expect(got.body.code).toBe(10004);
    expect(got.body.message).toContain(c.sn);
    expect((await record(ts.a, r.id)).status).toBe(M.new);
    expect(await carrierStatus(c.id)).toBe(C.inUse);
  });
});

describe('rejection', () => {
  it('a rejected application leaves the carrier alone; a rejected repair leaves it damaged, and it may be applied again', async () => {
    const c = await carrier(ts.a, p);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Noise' });
    await ok(approver, `${R}/reject`, { id: r.id, auditRemark: 'Not a fault' });
    expect(await carrierStatus(c.id)).toBe(C.inUse);

    const again = await ok(worker, `${R}/apply`, { id: r.id, breakdownDescription: 'Noise and a bent wheel', breakdownPictures: ['repair/wheel.jpg'] });
    expect(again).toMatchObject({ status: M.new, breakdownDescription: 'Noise and a bent wheel' });
    await ok(maintainer, `${R}/start`, { id: r.id });
    await ok(maintainer, `${R}/complete`, { id: r.id, ...FINDINGS() });
    await ok(approver, `${R}/reject`, { id: r.id, auditRemark: 'Weld not accepted' });
    expect(await carrierStatus(c.id)).toBe(C.damaged);
    // the timeline shows who did what
    await ts.server.audit.flush();
    const steps = (await ok(ts.a, `${R}/timeline`, { id: r.id })).map((s: any) => s.step);
    expect(steps).toEqual(['create', 'reject', 'apply', 'start', 'complete', 'reject']);
  });
});

describe('the application form', () => {
  it('needs a breakdown description, in the caller language', async () => {
    const c = await carrier(ts.a, p);
    const got = await worker.call(`${R}/create`, { carrierId: c.id }, { language: 'zh-CN' });
    expect(got.body.code).toBe(10001);
    expect(got.body.message).toContain('故障描述');
    expect((await ok(ts.a, `${R}/list`, { carrierId: c.id, page: 1, limit: 10 })).total).toBe(0);
  });
});

describe('a lost carrier', () => {
  it('may be applied for, but its repair starts only once it is found', async () => {
    const c = await carrier(ts.a, p, C.lost);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Reported bent before it went missing' });
    const got = await maintainer.call(`${R}/start`, { id: r.id }, { language: 'en-US' });
    expect(got.body.code).toBe(10004);
    expect(got.body.message).toContain(c.sn);
    expect((await record(ts.a, r.id)).status).toBe(M.new);
    await ok(ts.a, '/carrier/status/update', { id: c.id, status: C.standby });
    await ok(maintainer, `${R}/start`, { id: r.id });
    expect(await carrierStatus(c.id)).toBe(C.maintenance);
  });
});

describe('pictures', () => {
  it('the worker uploads the breakdown picture through the image upload; a wrong type or size is refused in the caller language', async () => {
    const png = await new Jimp({ width: 320, height: 200, color: 0x884422ff }).getBuffer('image/png');
    const up = await upload(ts, worker, '/file/image/upload', png, 'bent.png');
    expect(up.body.code, up.body.message).toBe(0);
    const c = await carrier(ts.a, p);
    const r = await ok(worker, `${R}/create`, { carrierId: c.id, breakdownDescription: 'Bent', breakdownPictures: [up.body.data.fileName] });
    expect(r.breakdownPictures).toEqual([up.body.data.fileName]);
    const gif = await upload(ts, worker, '/file/image/upload', Buffer.from('GIF89a'), 'anim.gif', 'zh-CN');
    expect(gif.body.code).not.toBe(0);
    expect(gif.body.message).toMatch(/[\u4e00-\u9fff]/);
    const big = await upload(ts, worker, '/file/image/upload', Buffer.concat([png, Buffer.alloc(5120 * 1024)]), 'big.png', 'ja-JP');
    expect(big.status).toBe(413);
    expect(big.body.message).toContain('5120');
  });
});
