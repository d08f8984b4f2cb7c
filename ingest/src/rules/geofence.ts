/**
 * GPS geofences: the device's own fence list (name, radius, warehouse or centre) or, when it
 * has none, the organisation's fence rows and every warehouse with coordinates (radius = the
 * location's fenceRadius). Crossing a boundary raises GPS code Y (enter) or N (leave), and a
 * fence-log row for fence rows; the first fix only sets the initial inside/outside state. A
 * fence of a warehouse moves the carrier bound to the tracker in or out of it when the
 * warehouse's GPS inbound/outbound flag is on.
 */
import { DIRECTION, GPS_CODE } from '../state/effects';
import type { DeviceInfo, FenceInfo } from '../state/fleet';
import type { DeviceState } from '../state/subject-state';
import type { RuleContext } from './context';
import { openDeviceAlert } from './device-alerts';
import { arrive, confirmExpected, depart } from './carrier-trip';

const EARTH_M = 6_371_000;

export function distanceM(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const keyOf = (f: FenceInfo) => (f.id !== undefined ? `fence:${f.id}` : f.warehouseId ? `warehouse:${f.warehouseId}` : f.name);

function fencesOf(ctx: RuleContext, d: DeviceInfo): FenceInfo[] {
  if (d.fences && d.fences.length) return d.fences;
  const out: FenceInfo[] = [...ctx.fleet.fencesOf(d.orgId)];
  for (const w of ctx.fleet.warehousesOf(d.orgId)) {
    if (w.longitude !== null && w.latitude !== null)
      out.push({ name: w.name, longitude: w.longitude, latitude: w.latitude, radius: w.radius, warehouseId: w.id });
  }
  return out;
}

export function geofenceRule(ctx: RuleContext, d: DeviceInfo, s: DeviceState, lng: number, lat: number, time: number): void {
  const fences = fencesOf(ctx, d);
  const now: string[] = [];
  for (const f of fences) if (distanceM(lng, lat, f.longitude, f.latitude) <= f.radius) now.push(keyOf(f));
  const before = s.inside;
  s.inside = now;
  if (before === null) return;
  const c = ctx.fleet.carrierOf(d);
  for (const f of fences) {
    const k = keyOf(f);
    const was = before.includes(k);
    const is = now.includes(k);
    if (was === is) continue;
    openDeviceAlert(
      ctx,
      d,
      time,
      { code: is ? GPS_CODE.fenceEnter : GPS_CODE.fenceLeave },
      `${is ? 'entered' : 'left'} fence ${f.name}`,
      { longitude: lng, latitude: lat, fence: f.name },
      { id: is ? 'fenceEnter' : 'fenceLeave', params: { fence: f.name } },
    );
    if (f.id !== undefined) ctx.emit({ type: 'fence', orgId: d.orgId, fenceId: f.id, deviceType: 20, deviceSn: d.sn, action: is ? 10 : 20, time });
    const w = f.warehouseId ? ctx.fleet.warehouses.get(f.warehouseId) : undefined;
    if (!c || !w) continue;
    const cs = ctx.carrier(c);
    // a move a document booked: leaving the shipper's fence, or entering the receiver's
    const e = cs.expectedPass;
    if (e && e.warehouseId === w.id && (e.direction === DIRECTION.outbound ? !is && w.gpsOutbound : is && w.gpsInbound)) {
      confirmExpected(ctx, c, cs, w, time, 'gps');
      continue;
    }
    if (is && w.gpsInbound && cs.warehouseId !== w.id) arrive(ctx, c, cs, w, time, 'gps');
    else if (!is && w.gpsOutbound && cs.warehouseId === w.id) depart(ctx, c, cs, w, time, 'gps');
  }
}
