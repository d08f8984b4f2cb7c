/**
 * Where a carrier is, from the gateway that sees its beacon (SPEC §9 purposes): an
 * in-warehouse gateway (10) or geofence gateway (50) places it in that gateway's warehouse, a
 * truck-detection gateway (60) puts it in transit, a gate gateway (20) makes in/out passes.
 *
 * Gate passes: sightings at one warehouse's gate less than PASS_GAP_MS apart are one pass;
 * a pass into a warehouse the carrier is in is outbound (20), otherwise inbound (10). With the
 * warehouse's bleDeDup flag, a pass within DEDUP_MS of the last in/out there is ignored
 * (beacons bouncing between gate antennas). A channel whose inbound/outbound flag is off does
 * not move carriers through that warehouse's gate.
 */
import { DIRECTION, TRANSPORT } from '../state/effects';
import { PURPOSE, type CarrierInfo, type DeviceInfo } from '../state/fleet';
import type { CarrierState } from '../state/subject-state';
import { MINUTE, type RuleContext } from './context';
import { arrive, confirmExpected, depart, setTransport } from './carrier-trip';

export const PASS_GAP_MS = 2 * MINUTE;
export const DEDUP_MS = 10 * MINUTE;

export function beaconSighting(ctx: RuleContext, c: CarrierInfo, s: CarrierState, gw: DeviceInfo, time: number): void {
  const w = gw.warehouseId ? ctx.fleet.warehouses.get(gw.warehouseId) : undefined;
  if (gw.purpose === PURPOSE.truck) {
    if (s.transportStatus !== TRANSPORT.inTransit && s.transportStatus !== TRANSPORT.abnormal) {
      if (s.warehouseId !== null && w === undefined) {
        const from = ctx.fleet.warehouses.get(s.warehouseId);
        if (from) return depart(ctx, c, s, from, time, false);
      }
      setTransport(ctx, c, s, TRANSPORT.inTransit, time);
    }
    return;
  }
  if (!w) return;
  if (gw.purpose === PURPOSE.gate) {
    const key = String(w.id);
    const last = s.gateSeen[key];
    if (last !== undefined && time < last) return; // a late sighting belongs to a pass already counted
    s.gateSeen[key] = time;
    if (last !== undefined && time - last < PASS_GAP_MS) return;
    // a move a document booked (released, or received before the gate saw it): this pass is it
    const expected = s.expectedPass;
    if (expected && expected.warehouseId === w.id && (expected.direction === DIRECTION.outbound ? w.bleOutbound : w.bleInbound)) {
      confirmExpected(ctx, c, s, w, time, 'gate');
      s.lastInOut[key] = time;
      return;
    }
    const lastInOut = s.lastInOut[key];
    if (w.bleDeDup && lastInOut !== undefined && Math.abs(time - lastInOut) < DEDUP_MS) return;
    if (s.warehouseId === w.id) {
      if (!w.bleOutbound) return;
      depart(ctx, c, s, w, time, 'gate');
    } else {
      if (!w.bleInbound) return;
      arrive(ctx, c, s, w, time, 'gate');
    }
    s.lastInOut[key] = time;
    return;
  }
  // seen inside a warehouse: it is there, whatever the gates said — except just after it left
  // through that warehouse's gate (the inside antennas still hear it at the dock)
  if (s.departedFrom === w.id && s.departedAt !== null && time - s.departedAt < DEDUP_MS) return;
  // booked out of this warehouse and not through its gate yet: loading at the dock
  if (s.expectedPass && s.expectedPass.warehouseId === w.id && s.expectedPass.direction === DIRECTION.outbound) return;
  if (s.warehouseId !== w.id) arrive(ctx, c, s, w, time, false);
}
