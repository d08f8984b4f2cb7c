/**
 * Maintenance for the demo (issue 20 item 8): the carrier assets of the asset-managed carrier
 * codes (the maintenance plugin's own `/carrier-asset/refresh`), a few of them registered in full
 * (area, department, placement, responsible, price) and accepted or enabled; repair records in
 * every status — new, in progress, completed, audited, and rejected twice (an application refused,
 * a completed repair not accepted, which leaves its carrier damaged) — with breakdown and repair
 * pictures; two asset transfers (one received, one on its way) and two maintenance reminders.
 *
 * Everything goes through the plugin's registered calls, so the carriers move to maintenance and
 * back, the assets count their maintenance and the carrier asset log holds it all, exactly as the
 * team's clicks would leave them. Repairs are applied for by the organisation's operator (the
 * shop floor) and started, completed and audited by the administrator: the auditor is never the
 * applicant. An organisation without a second user gets assets, transfers and reminders only.
 * Idempotent, part by part: an organisation with a registered (accepted) asset, a repair record, a
 * transfer or a reminder gets no more of that kind; refresh makes only the assets missing.
 */
import { Enums } from '@rti/metadata';
import type { RequestContext } from '@rti/server/http/types';
import { Op, type Sequelize } from 'sequelize';

type Row = Record<string, any>;
/** Runs a registered call of the server in-process as the given caller. */
export type CallAs = (path: string, body: Record<string, unknown>, ctx: RequestContext) => Promise<any>;

const C = Enums.carrierStatus;
const T = Enums.maintenanceType;
const P = Enums.maintenancePattern;
const D = Enums.dictionaryCategory;

/** dictionary rows the demo's repairs name, besides the one of each category seed-volume writes */
const DICTIONARY: Array<[number, string, string]> = [
  [D.rootCause, 'CRACK', 'Fatigue crack'],
  [D.rootCause, 'IMPACT', 'Forklift impact'],
  [D.maintenancePosition, 'CASTOR', 'Castor'],
  [D.maintenanceCategory, 'WELD', 'Welding'],
];

/** A small picture (SVG data URL, shown by the console like an upload): a rack, `crack` drawn red. */
export function demoPicture(label: string, crack: boolean): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">` +
    `<rect width="320" height="200" fill="#f0f2f5"/>` +
    `<rect x="60" y="30" width="14" height="150" fill="#5b6b7f"/><rect x="246" y="30" width="14" height="150" fill="#5b6b7f"/>` +
    `<rect x="60" y="60" width="200" height="10" fill="#7d8da1"/><rect x="60" y="120" width="200" height="10" fill="#7d8da1"/>` +
    (crack
      ? `<path d="M67 80 l8 10 l-10 8 l9 12" stroke="#e53935" stroke-width="4" fill="none"/>`
      : `<path d="M58 88 h20" stroke="#43a047" stroke-width="6"/>`) +
    `<text x="160" y="195" font-size="14" text-anchor="middle" fill="#333">${label}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

interface Plan {
  type: number;
  /** the steps taken after the application */
  steps: Array<'start' | 'complete' | 'audit' | 'reject'>;
  what: string;
}

/** One record per plan, each on its own carrier. */
export const REPAIR_PLANS: Plan[] = [
  { type: T.repair, steps: ['start', 'complete', 'audit'], what: 'Upright bent at the fork pocket' },
  { type: T.repair, steps: ['start', 'complete', 'audit'], what: 'Castor wheel lock broken' },
  { type: T.upkeep, steps: ['start', 'complete', 'audit'], what: 'Yearly upkeep: castors greased, bolts tightened' },
  { type: T.inspection, steps: ['start', 'complete', 'audit'], what: 'Inspection after a forklift touch' },
  { type: T.repair, steps: ['start', 'complete'], what: 'Cracked weld on the base frame' },
  { type: T.spotCheck, steps: ['start', 'complete'], what: 'Spot check of the stacking pins' },
  { type: T.repair, steps: ['start'], what: 'Base frame twisted, rack rocks when stacked' },
  { type: T.repair, steps: ['start'], what: 'Divider bar missing' },
  { type: T.repair, steps: [], what: 'Corner post dented' },
  { type: T.inspection, steps: [], what: 'Label plate unreadable' },
  { type: T.repair, steps: ['reject'], what: 'Paint scratched (cosmetic only)' },
  { type: T.repair, steps: ['start', 'complete', 'reject'], what: 'Stacking pin replaced, still loose' },
];

export async function seedMaintenance(
  sequelize: Sequelize,
  call: CallAs,
  has: (path: string) => boolean,
  orgId: number,
  admin: RequestContext,
): Promise<number> {
  const models = sequelize.models;
  if (!has('/carrier-asset/refresh') || !models['carrier-asset'] || !models['carrier-asset-maintenance-record']) return 0;
  const run = (path: string, body: Record<string, unknown>, as: RequestContext = admin) => call(path, body, as);
  let created = 0;

  // the dictionary rows the repairs name
  const dict = new Map<string, number>();
  for (const [category, value, name] of DICTIONARY) {
    const found = (await models.dictionary.findOne({ where: { orgId, category, value }, attributes: ['id'], raw: true })) as Row | null;
    dict.set(value, found ? Number(found.id) : Number((await run('/dictionary/create', { category, value, name })).id));
    if (!found) created++;
  }
  const firstOf = async (category: number) =>
    Number(((await models.dictionary.findOne({ where: { orgId, category }, order: [['id', 'ASC']], attributes: ['id'], raw: true })) as Row | null)?.id ?? 0) ||
    null;
  const areas = (await models.dictionary.findAll({
    where: { orgId, category: D.area },
    order: [['id', 'ASC']],
    attributes: ['id'],
    raw: true,
  })) as unknown as Row[];
  const departments = (await models.dictionary.findAll({
    where: { orgId, category: D.department },
    order: [['id', 'ASC']],
    attributes: ['id'],
    raw: true,
  })) as unknown as Row[];

  // the assets of every carrier of an asset-managed code (only the missing ones are made)
  created += Number((await run('/carrier-asset/refresh', {})).created) || 0;
  const none = async (resource: string, where: Row = {}) => !models[resource] || !(await models[resource].count({ where: { orgId, ...where } }));

  // the shop floor: another user of the organisation (its operator), restricted as that user is
  const worker = (await models.user.findOne({
    where: { orgId, id: { [Op.ne]: admin.user?.id ?? 0 }, sysOrgUser: false },
    order: [['id', 'ASC']],
    raw: true,
  })) as Row | null;
  // a raw read leaves a JSON column as its text on some dialects
  const listed: unknown = typeof worker?.warehouseIds === 'string' ? JSON.parse(worker.warehouseIds) : worker?.warehouseIds;
  const workerWarehouses: number[] | null = Array.isArray(listed) && listed.length ? listed.map(Number) : null;
  const applicant: RequestContext | null = worker
    ? {
        ...admin,
        user: { id: Number(worker.id), username: String(worker.name), realName: worker.realName ?? null, sysOrgUser: false },
        orgIds: [orgId],
        warehouseIds: workerWarehouses,
      }
    : null;

  // free carriers (in use or standby, on no document line) with their assets: the repairs take
  // those of the worker's warehouses, the register and the transfers the others
  const busy = new Set<number>();
  for (const lines of ['ship-order-detail', 'receipt-detail', 'delivery-detail', 'inventory-adjust-detail']) {
    const m = models[lines];
    if (m && m.getAttributes().carrierId)
      for (const r of (await m.findAll({ where: { orgId }, attributes: ['carrierId'], raw: true })) as unknown as Row[]) busy.add(Number(r.carrierId));
  }
  const freeAssets = async (warehouseIds: number[] | null, limit: number, not: Row[] = []): Promise<Row[]> => {
    const where: Row = { orgId, status: { [Op.in]: [C.inUse, C.standby] } };
    if (warehouseIds) where.warehouseId = { [Op.in]: warehouseIds };
    const taken = new Set(not.map((a) => Number(a.carrierId)));
    const free = ((await models.carrier.findAll({ where, attributes: ['id'], order: [['id', 'ASC']], limit: 400, raw: true })) as unknown as Row[])
      .map((r) => Number(r.id))
      .filter((id) => !busy.has(id) && !taken.has(id));
    return (await models['carrier-asset'].findAll({
      where: { orgId, carrierId: { [Op.in]: free } },
      attributes: ['id', 'carrierId', 'sn'],
      order: [['id', 'ASC']],
      limit,
      raw: true,
    })) as unknown as Row[];
  };
  const repaired = await freeAssets(workerWarehouses, REPAIR_PLANS.length);
  const assets = await freeAssets(null, 10, repaired);
  if (!assets.length) return created;

  // the asset team's register: a few assets in full, accepted and put into use
  const registered = !(await none('carrier-asset', { status: { [Op.ne]: Enums.carrierAssetStatus.new } }));
  for (const [i, a] of (registered ? [] : assets.slice(0, 8)).entries()) {
    await run('/carrier-asset/update', {
      id: a.id,
      areaId: areas.length ? Number(areas[i % areas.length].id) : null,
      departmentId: departments.length ? Number(departments[i % departments.length].id) : null,
      propertyId: await firstOf(D.assetNature),
      fixedAsset: i % 2 ? Enums.fixedAsset.no : Enums.fixedAsset.yes,
      originalPrice: 1250 + i * 35,
      placement: `Line ${1 + (i % 3)}, bay ${10 + i}`,
      responsible: i % 2 ? 'Zhang Min' : 'Sato Ken',
      employeeNo: `E${1040 + i}`,
      oaDepartment: 'Logistics',
      originalAssetNo: `FA-${2024}${String(i + 1).padStart(4, '0')}`,
    });
    if (i < 6) await run('/carrier-asset/accept', { id: a.id, acceptanceNo: `ACC-${orgId}-${String(i + 1).padStart(3, '0')}` });
    if (i < 4) await run('/carrier-asset/enable', { id: a.id });
    created++;
  }

  // repairs in every status (they need an applicant who is not the auditor)
  if (applicant && (await none('carrier-asset-maintenance-record'))) {
    const R = '/carrier-asset-maintenance-record';
    const rootCauses = [dict.get('CRACK')!, dict.get('IMPACT')!];
    for (const [i, plan] of REPAIR_PLANS.entries()) {
      const a = repaired[i];
      if (!a) break;
      const r = await run(
        `${R}/create`,
        { carrierId: a.carrierId, type: plan.type, breakdownDescription: plan.what, breakdownPictures: [demoPicture(`${a.sn}: before`, true)] },
        applicant,
      );
      created++;
      for (const step of plan.steps) {
        if (step === 'start')
          await run(`${R}/start`, {
            id: r.id,
            pattern: i % 3 === 2 ? P.returnToFactory : P.onSite,
            locationId: await firstOf(D.maintenanceLocation),
            positionId: i % 2 ? dict.get('CASTOR') : await firstOf(D.maintenancePosition),
          });
        if (step === 'complete')
          await run(`${R}/complete`, {
            id: r.id,
            rootCauseId: rootCauses[i % 2],
            categoryId: dict.get('WELD'),
            strategy: i % 2 ? 'Replaced the castor and its lock' : 'Straightened and welded, repainted',
            spareParts: i % 2 ? 'Castor 125 mm with brake' : 'Weld wire, primer',
            replacedParts: i % 2 ? 'Castor 125 mm' : null,
            hours: 1.5 + (i % 4),
            cost: 60 + i * 25,
            maintainPictures: [demoPicture(`${a.sn}: repaired`, false)],
          });
        if (step === 'audit') await run(`${R}/audit`, { id: r.id, auditRemark: 'Checked on the line: OK' });
        if (step === 'reject')
          await run(`${R}/reject`, { id: r.id, auditRemark: plan.steps.length > 1 ? 'Pin still loose: repair again' : 'Cosmetic: no repair needed' });
      }
    }
  }

  // transfers: one received (the asset moved to its new place), one on its way
  const moving = (await none('carrier-asset-transfer')) ? assets.slice(8, 10) : [];
  for (const [i, a] of moving.entries()) {
    const t = await run('/carrier-asset-transfer/create', {
      carrierAssetId: a.id,
      newAreaId: areas.length ? Number(areas[(i + 1) % areas.length].id) : null,
      newDepartmentId: departments.length ? Number(departments[(i + 1) % departments.length].id) : null,
      newPlacement: `Line 4, bay ${20 + i}`,
      newResponsible: 'Li Na',
      newEmployeeNo: `E${2050 + i}`,
      newOaDepartment: 'Assembly',
      oaTransferNo: `OA-TR-${orgId}-${i + 1}`,
      remark: i ? 'Waiting for the receiving line' : 'Moved to the new assembly line',
    });
    if (!i) await run('/carrier-asset-transfer/receive', { id: t.id });
    created++;
  }

  // reminders: the asset team of each of the first two areas, weekly, for the next 30 days
  for (const [i, area] of ((await none('task-mail-maintenance')) ? areas.slice(0, 2) : []).entries()) {
    await run('/task-mail-maintenance/create', {
      areaId: Number(area.id),
      mailTo: `maintenance${i + 1}@example.com`,
      cc: 'asset.team@example.com',
      subject: 'Racks due for maintenance',
      text: 'These racks are due for maintenance within the next 30 days.',
      warnDayBegin: 0,
      warnDayEnd: 30,
      warnFrequency: 7,
    });
    created++;
  }
  return created;
}
