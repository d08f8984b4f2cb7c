/** Pure logic of the ship-order monitor (unit-tested in test/console-logic.test.ts). */

export interface MapEnd {
  id: number;
  name: string;
  longitude: number | null;
  latitude: number | null;
}

/** One row of `/ship-order/list4map`. */
export interface MapOrder {
  id: number;
  orderNo: string;
  status: number;
  type?: number;
  transportType?: number | null;
  conveyanceNo?: string | null;
  totalAmount?: number;
  atd?: string | null;
  eta?: string | null;
  dueAt?: string | null;
  late: boolean;
  from: MapEnd | null;
  to: MapEnd | null;
  /** a reported position (truck GPS or last gateway), when the server knows one */
  position?: { longitude: number; latitude: number; time?: string } | null;
}

export interface LegendItem {
  key: string;
  status: number | null;
  label: string;
  color: string | null;
  count: number;
}

const placed = (e: MapEnd | null): e is MapEnd & { longitude: number; latitude: number } =>
  !!e && e.longitude !== null && e.latitude !== null && Number.isFinite(e.longitude) && Number.isFinite(e.latitude);

/** Share of the route's transport time already spent (0..1), from departure to due time. */
export function progress(o: Pick<MapOrder, 'atd' | 'dueAt'>, now: number): number | null {
  if (!o.atd || !o.dueAt) return null;
  const start = new Date(o.atd).getTime();
  const end = new Date(o.dueAt).getTime();
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return null;
  return Math.min(1, Math.max(0, (now - start) / (end - start)));
}

/** Hours until the due time (negative: overdue), rounded to one decimal. */
export function hoursLeft(dueAt: string | null | undefined, now: number): number | null {
  if (!dueAt) return null;
  const t = new Date(dueAt).getTime();
  return Number.isFinite(t) ? Math.round((t - now) / 360_000) / 10 : null;
}

/**
 * Where to draw the order: its reported position when there is one, else the point of the
 * straight route line matching the share of transport time spent (estimated).
 */
export function orderPosition(o: MapOrder, now: number): { lng: number; lat: number; estimated: boolean } | null {
  if (o.position && Number.isFinite(o.position.longitude) && Number.isFinite(o.position.latitude)) return { lng: o.position.longitude, lat: o.position.latitude, estimated: false };
  if (!placed(o.from)) return null;
  if (!placed(o.to)) return { lng: o.from.longitude, lat: o.from.latitude, estimated: true };
  const f = progress(o, now) ?? 0;
  return { lng: o.from.longitude + (o.to.longitude - o.from.longitude) * f, lat: o.from.latitude + (o.to.latitude - o.from.latitude) * f, estimated: true };
}

/** Bounds [west, south, east, north] around every end and position, or null when nothing is placed. */
export function boundsOf(points: Array<[number, number]>): [number, number, number, number] | null {
  if (!points.length) return null;
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  for (const [lng, lat] of points) {
    w = Math.min(w, lng);
    e = Math.max(e, lng);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  return [w, s, e, n];
}

/** Marker status of an order: late ones get their own colour (the legend's `late` item). */
export const LATE = -1;
export const markerStatus = (o: MapOrder): number => (o.late ? LATE : o.status);
