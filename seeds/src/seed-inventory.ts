/**
 * Inventory for the demo (issue 18 item 5): the levels of every carrier code per warehouse (the
 * carrier-code warehouse configuration the volume seed wrote with fixed numbers) set around what
 * stands there once the ship orders moved, the hub above its maximum and the last two depots
 * below their minimum, so the real-time view colours levels and the rebalancing page has
 * suggestions on first start; and two adjustment orders through the module's own calls — one
 * adjusted (a few carriers moved from the hub to a short depot), one new, waiting for its step.
 * Idempotent: levels already set are left alone, and an organisation with an adjustment order gets no other.
 */
import { Op, fn, col, type Sequelize } from 'sequelize';

type Row = Record<string, any>;
type CallRunner = (path: string, body: Record<string, unknown>) => Promise<any>;

/** transport statuses of a carrier standing in its warehouse (unknown, in warehouse, idle) */
const STANDING = [0, 10, 30];
/** SPEC §4 carrier status in use and standby: carriers an adjustment may move */
const [IN_USE, STANDBY] = [10, 20];
/** SPEC §4 inventory adjust type out and in */
const OUT_AND_IN = 1;

export async function seedInventory(sequelize: Sequelize, call: CallRunner, has: (path: string) => boolean, orgId: number, whIds: number[]): Promise<number> {
  const configs = sequelize.models['carrier-code-warehouse'];
  const carriers = sequelize.models.carrier;
  if (!configs || !carriers || whIds.length < 3 || !has('/carrier-code/warehouse/update')) return 0;
  const standing = { orgId, warehouseId: { [Op.in]: whIds }, transportStatus: { [Op.in]: STANDING } };
  const grouped = (await carriers.findAll({
    where: standing,
    attributes: ['warehouseId', 'carrierCodeId', [fn('COUNT', col('id')), 'n']],
    group: ['warehouseId', 'carrierCodeId'],
    raw: true,
  })) as unknown as Row[];
  const counts = new Map(grouped.map((r) => [`${r.warehouseId}:${r.carrierCodeId}`, Number(r.n)]));
  if (!grouped.length) return 0;
  let created = 0;
  const last = whIds.length - 1;
  const existing = (await configs.findAll({
    where: { orgId, warehouseId: { [Op.in]: whIds } },
    attributes: ['id', 'warehouseId', 'carrierCodeId', 'minInventory', 'maxInventory'],
    raw: true,
  })) as unknown as Row[];
  for (const cfg of existing) {
    const i = whIds.indexOf(Number(cfg.warehouseId));
    const have = counts.get(`${cfg.warehouseId}:${cfg.carrierCodeId}`) ?? 0;
    // the hub holds more than it should, the last two depots less than they need, the rest in band
    const hub = i === 0;
    const short = i >= last - 1;
    const minInventory = hub ? Math.floor(have * 0.3) : short ? have + 3 : Math.floor(have * 0.7);
    const maxInventory = hub ? Math.max(1, Math.floor(have * 0.6)) : short ? have * 2 + 6 : Math.ceil(have * 1.3) + 1;
    if (Number(cfg.minInventory) === minInventory && Number(cfg.maxInventory) === maxInventory) continue;
    await call('/carrier-code/warehouse/update', { id: cfg.id, minInventory, maxInventory });
    created++;
  }
  const adjustments = sequelize.models['inventory-adjustment'];
  if (!adjustments || !has('/inventory/adjustment/save') || (await adjustments.count({ where: { orgId } }))) return created;
  // free carriers of the hub (on no open document), longest in first
  const busy = new Set<number>();
  for (const lines of ['ship-order-detail', 'inventory-adjust-detail']) {
    const m = sequelize.models[lines];
    if (m) for (const r of (await m.findAll({ where: { orgId }, attributes: ['carrierId'], raw: true })) as unknown as Row[]) busy.add(Number(r.carrierId));
  }
  const free = (
    (await carriers.findAll({
      where: { ...standing, warehouseId: whIds[0], status: { [Op.in]: [IN_USE, STANDBY] } },
      attributes: ['id'],
      order: [['id', 'ASC']],
      limit: 50,
      raw: true,
    })) as unknown as Row[]
  )
    .map((r) => Number(r.id))
    .filter((id) => !busy.has(id));
  if (free.length >= 3) {
    const moved = await call('/inventory/adjustment/save', {
      type: OUT_AND_IN,
      sourceWarehouseId: whIds[0],
      targetWarehouseId: whIds[last],
      remark: 'Demo: top-up of a short depot',
      lines: free.slice(0, 2).map((carrierId) => ({ carrierId })),
    });
    await call('/inventory/adjustment/out-in', { id: moved.id });
    await call('/inventory/adjustment/save', {
      type: OUT_AND_IN,
      sourceWarehouseId: whIds[0],
      targetWarehouseId: whIds[last - 1],
      remark: 'Demo: waiting for its step',
      lines: free.slice(2, 4).map((carrierId) => ({ carrierId })),
    });
    created += 2;
  }
  return created;
}
