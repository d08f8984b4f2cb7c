/**
 * /dashboard: carriers by status and by transport status, inventory per warehouse against its
 * min/max/theory levels, the alert trend and the life-cycle bands — one answer for the home
 * and big-screen dashboards.
 */
import { Op, type WhereOptions } from 'sequelize';
import { declaredFilter, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { alertTrend } from './alerts';
import { lifeCycleBands } from './bands';
import { countBy } from './group-count';

/** carriers counted as stock of their warehouse: the carrier's declared filter, as inventory counts them */
export const inStock = (ctx: PluginServerContext): WhereOptions => ({
  [Op.and]: [declaredFilter(ctx.metadata, 'carrier', 'inStock'), { warehouseId: { [Op.ne]: null } }],
});

export interface WarehouseInventory {
  id: number;
  name: string;
  count: number;
  min: number | null;
  max: number | null;
  theory: number | null;
  /** below min / above max / within */
  level: 'low' | 'high' | 'ok';
}

export function levelOf(count: number, min: number | null, max: number | null): WarehouseInventory['level'] {
  if (min !== null && count < min) return 'low';
  if (max !== null && max > 0 && count > max) return 'high';
  return 'ok';
}

export async function inventory(ctx: PluginServerContext, call: RequestContext): Promise<WarehouseInventory[]> {
  const counts = await countBy(ctx.repo('carrier', call), 'warehouseId', inStock(ctx));
  const warehouses = (await ctx.repo('warehouse', call).findAll({
    attributes: ['id', 'name', 'minInventory', 'maxInventory', 'theoryInventory'],
    order: [['id', 'ASC']],
    limit: 500,
    raw: true,
  })) as unknown as Array<Record<string, unknown>>;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return warehouses
    .map((w) => {
      const count = counts.get(Number(w.id)) ?? 0;
      const min = num(w.minInventory);
      const max = num(w.maxInventory);
      return { id: Number(w.id), name: String(w.name), count, min, max, theory: num(w.theoryInventory), level: levelOf(count, min, max) };
    })
    .sort((a, b) => b.count - a.count || a.id - b.id);
}

const asList = (m: Map<number | string | null, number>) =>
  [...m.entries()].map(([value, count]) => ({ value, count })).sort((a, b) => Number(a.value ?? -1) - Number(b.value ?? -1));

export async function dashboardSummary(ctx: PluginServerContext, call: RequestContext) {
  const carriers = ctx.repo('carrier', call);
  const [byStatus, byTransport, total, warehouses, trend, lifeCycle] = await Promise.all([
    countBy(carriers, 'status'),
    countBy(carriers, 'transportStatus'),
    carriers.count(),
    inventory(ctx, call),
    alertTrend(ctx, call),
    lifeCycleBands(carriers),
  ]);
  return { carriers: { total, byStatus: asList(byStatus), byTransportStatus: asList(byTransport) }, inventory: warehouses, alertTrend: trend, lifeCycle };
}
