/**
 * The maintenance demo (issue 20 item 8): on a freshly seeded server with the maintenance plugin
 * the asset list, repair records in every status (with pictures), transfers in both statuses and
 * reminders are there on first start; the applicant is never the auditor; the carriers stand as
 * the steps left them; a second seeding adds nothing.
 */
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDemo, type SeededDemo } from './support/seeded-demo';
import { SCALES, seedServer } from '../src/index';
import { REPAIR_PLANS } from '../src/seed-maintenance';

const M = Enums.maintenanceStatus;
let demo: SeededDemo;
const R = '/carrier-asset-maintenance-record';
const call = (path: string, body: unknown = {}) => demo.ok(path, body);

beforeAll(async () => {
  demo = await seededDemo(['shipping', 'maintenance']);
}, 240_000);
afterAll(() => demo?.close());

describe('maintenance demo', () => {
  it('has assets, repairs in every status with pictures, transfers and reminders', async () => {
    const assets = await call('/carrier-asset/list', { page: 1, limit: 1 });
    expect(assets.total).toBeGreaterThan(20);
    const statuses = await call('/carrier-asset/list', { status: [Enums.carrierAssetStatus.enabled], page: 1, limit: 10 });
    expect(statuses.total).toBe(4);

    const records = (await call(`${R}/list`, { page: 1, limit: 100 })).list as any[];
    expect(records).toHaveLength(REPAIR_PLANS.length);
    expect(new Set(records.map((r) => r.status))).toEqual(new Set([M.new, M.inProgress, M.completed, M.audited, M.rejected]));
    // applied for by the operator, on carriers of the operator's warehouses
    const operator = (await call('/user/list', { name: 'operator.demo', page: 1, limit: 1 })).list[0];
    const ids = new Set(records.map((r) => r.carrierId));
    const carriers = ((await call('/carrier/list', { page: 1, limit: 500 })).list as any[]).filter((c) => ids.has(c.id));
    expect(carriers).toHaveLength(ids.size);
    for (const c of carriers) expect(operator.warehouseIds).toContain(c.warehouseId);
    for (const r of records) {
      expect(r.applicant).not.toBe('Platform Administrator');
      if (r.auditor) expect(r.auditor).not.toBe(r.applicant);
    }
    const audited = records.find((r) => r.status === M.audited);
    const full = await call(R, { id: audited.id });
    expect(full.breakdownPictures[0]).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(full.maintainPictures).toHaveLength(1);
    expect(full.rootCauseId).toBeGreaterThan(0);
    // the carrier under repair is in maintenance; the audited one is back in use or standby
    const started = records.find((r) => r.status === M.inProgress);
    expect((await call('/carrier', { id: started.carrierId })).status).toBe(Enums.carrierStatus.maintenance);
    expect([Enums.carrierStatus.inUse, Enums.carrierStatus.standby]).toContain((await call('/carrier', { id: audited.carrierId })).status);
    expect((await call('/carrier-asset/get', { id: audited.carrierAssetId })).maintenanceCount).toBe(1);

    const transfers = (await call('/carrier-asset-transfer/list', { page: 1, limit: 10 })).list as any[];
    expect(transfers.map((t) => t.status).sort()).toEqual([Enums.assetTransferStatus.transferredOut, Enums.assetTransferStatus.received].sort());
    expect((await call('/task-mail-maintenance/list', { page: 1, limit: 10 })).total).toBe(2);
    // the reports show them
    const top = await call(`${R}/top`, {});
    expect(top.list.length).toBeGreaterThan(0);
  });

  it('adds nothing when seeded again', async () => {
    const before = (await call(`${R}/list`, { page: 1, limit: 1 })).total;
    const assets = (await call('/carrier-asset/list', { page: 1, limit: 1 })).total;
    await seedServer(demo.server, { scale: SCALES.small });
    expect((await call(`${R}/list`, { page: 1, limit: 1 })).total).toBe(before);
    expect((await call('/carrier-asset/list', { page: 1, limit: 1 })).total).toBe(assets);
    expect((await call('/carrier-asset-transfer/list', { page: 1, limit: 1 })).total).toBe(2);
    expect((await call('/task-mail-maintenance/list', { page: 1, limit: 1 })).total).toBe(2);
  });
});
