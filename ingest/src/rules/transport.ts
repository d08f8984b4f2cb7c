/**
 * Time-based carrier rules, run by the ticker: idle after the warehouse's idleCheckTime
 * without moving (carrier alert 30, log long-idle, status idle) and transport timeout when a
 * trip takes longer than the route's transportTime (carrier alert 20, status abnormal). The
 * limit of a trip is the longest transportTime of the routes leaving its departure warehouse
 * (the destination is not known until arrival).
 */
import { CARRIER_REASON, TRANSPORT } from '../state/effects';
import type { CarrierInfo } from '../state/fleet';
import { raise, type CarrierState } from '../state/subject-state';
import { MINUTE, type RuleContext } from './context';
import { openCarrierAlert, setTransport } from './carrier-trip';

export function transportTick(ctx: RuleContext, c: CarrierInfo, s: CarrierState, now: number): void {
  if (s.warehouseId !== null && (s.transportStatus === TRANSPORT.inWarehouse || s.transportStatus === TRANSPORT.idle)) {
    const w = ctx.fleet.warehouses.get(s.warehouseId);
    const idleMin = w?.idleCheckTime;
    if (w && idleMin && now - s.placedAt > idleMin * MINUTE && raise(s, 'idle', now)) {
      openCarrierAlert(ctx, c, s, CARRIER_REASON.idle, now, `idle in ${w.name} for more than ${idleMin} min`, w.id, {
        id: 'idle',
        params: { warehouse: w.name, minutes: idleMin },
      });
      setTransport(ctx, c, s, TRANSPORT.idle, now);
    }
  }
  if (s.departedFrom !== null && s.departedAt !== null) {
    let limit = 0;
    for (const r of ctx.fleet.routesFromWarehouse(s.departedFrom)) limit = Math.max(limit, r.transportTime ?? 0);
    if (limit > 0 && now - s.departedAt > limit * MINUTE && raise(s, 'timeout', now)) {
      const from = ctx.fleet.warehouses.get(s.departedFrom);
      openCarrierAlert(
        ctx,
        c,
        s,
        CARRIER_REASON.transportTimeout,
        now,
        `in transit from ${from?.name ?? s.departedFrom} for more than ${limit} min`,
        s.departedFrom,
        { id: 'transportTimeout', params: { warehouse: from?.name ?? s.departedFrom, minutes: limit } },
      );
      setTransport(ctx, c, s, TRANSPORT.abnormal, now);
    }
  }
}
