/**
 * The carrier each tracker is fitted to, by tracker id: the carrier row naming the tracker
 * (carrier.gpsId), else the tracker's own carrier reference — either side may be filled in.
 */
import { Op } from 'sequelize';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';

type Raw = Record<string, any>;

export async function carrierSnByTracker(ctx: PluginServerContext, call: RequestContext, trackers: Raw[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const g of trackers) if (g.carrierIdLabel) out.set(Number(g.id), String(g.carrierIdLabel));
  if (!trackers.length) return out;
  const rows = (await ctx
    .repo('carrier', call)
    .findAll({ attributes: ['sn', 'gpsId'], where: { gpsId: { [Op.in]: trackers.map((g) => Number(g.id)) } }, raw: true })) as unknown as Raw[];
  for (const r of rows) out.set(Number(r.gpsId), String(r.sn));
  return out;
}

/** Trackers a warehouse-restricted caller may see: the map plugin's one rule. */
export { trackerScope } from '@rti/plugin-map/server/scope';
