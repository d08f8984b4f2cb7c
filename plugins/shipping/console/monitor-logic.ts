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
  /** the newest device fix since departure, when the server knows one (map-calls.ts `OrderFix`) */
  position?: OrderFix | null;
}

/** Where a device last saw the order: the truck's GPS, a tracker on board, or a gate gateway. */
export interface OrderFix {
  longitude: number;
  latitude: number;
  time?: string;
  source?: 'truck' | 'tracker' | 'gateway';
  sn?: string | null;
  warehouse?: { id: number; name: string } | null;
}

/** The card's words for a fix: a translation key of `shipping.monitor` and its parameters. */
export function fixText(fix: OrderFix | null | undefined): { key: string; params: Record<string, string> } | null {
  if (!fix) return null;
  const sn = fix.sn ?? '-';
  if (fix.source === 'gateway') return { key: 'shipping.monitor.fixGateway', params: { sn, warehouse: fix.warehouse?.name ?? '-' } };
  if (fix.source === 'tracker') return { key: 'shipping.monitor.fixTracker', params: { sn } };
  if (fix.source === 'truck') return { key: 'shipping.monitor.fixTruck', params: { sn } };
  return { key: 'shipping.monitor.fixReported', params: {} };
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
  if (o.position && Number.isFinite(o.position.longitude) && Number.isFinite(o.position.latitude))
    return { lng: o.position.longitude, lat: o.position.latitude, estimated: false };
  if (!placed(o.from)) return null;
  if (!placed(o.to)) return { lng: o.from.longitude, lat: o.from.latitude, estimated: true };
  const f = progress(o, now) ?? 0;
  return { lng: o.from.longitude + (o.to.longitude - o.from.longitude) * f, lat: o.from.latitude + (o.to.latitude - o.from.latitude) * f, estimated: true };
}

/** Bounds [west, south, east, north] around every end and position, or null when nothing is placed. */
export function boundsOf(points: Array<[number, number]>): [number, number, number, number] | null {
  if (!points.length) return null;
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
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
/** Tag colour of late orders (the server's legend says the same): not delivered's red (SPEC §4 "error") */
export const LATE_COLOR = 'magenta';
export const markerStatus = (o: MapOrder): number => (o.late ? LATE : o.status);
