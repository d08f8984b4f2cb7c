/**
 * Trips of a vehicle (the "transport orders" of the tracking service, SPEC §7): the stretches
 * between consecutive stops of its track — departure, arrival, distance, duration and top
 * speed. The track before the first stop and after the last one are trips too when the
 * vehicle moved there.
 */
import { haversine, indexAt, type Stop } from '@rti/common';

export interface Trip {
  start: number;
  end: number;
  from: [number, number];
  to: [number, number];
  distanceKm: number;
  maxSpeed: number | null;
  /** stop index the trip leaves / reaches (-1 = the track's start or end) */
  fromStop: number;
  toStop: number;
}

interface TrackCols {
  t: number[];
  lng: number[];
  lat: number[];
  speed: (number | null)[];
}

const MIN_TRIP_M = 200;

export function tripsOf(track: TrackCols, stops: readonly Stop[]): Trip[] {
  const n = track.t.length;
  if (n < 2) return [];
  // [first, last] point index of each moving stretch
  const spans: Array<[number, number, number, number]> = [];
  let from = 0;
  let fromStop = -1;
  // by time, not index: the stops' indices refer to the track before downsampling
  stops.forEach((s, k) => {
    const a = Math.max(0, indexAt(track.t, s.start));
    const b = Math.max(a, indexAt(track.t, s.end));
    if (a > from) spans.push([from, a, fromStop, k]);
    from = b;
    fromStop = k;
  });
  if (from < n - 1) spans.push([from, n - 1, fromStop, -1]);
  const out: Trip[] = [];
  for (const [a, b, fs, ts] of spans) {
    let m = 0;
    let top: number | null = null;
    for (let i = a + 1; i <= b; i++) {
      m += haversine(track.lng[i - 1], track.lat[i - 1], track.lng[i], track.lat[i]);
      const v = track.speed[i];
      if (v !== null && v !== undefined && (top === null || v > top)) top = v;
    }
    if (m < MIN_TRIP_M) continue;
    out.push({
      start: track.t[a],
      end: track.t[b],
      from: [track.lng[a], track.lat[a]],
      to: [track.lng[b], track.lat[b]],
      distanceKm: Math.round(m) / 1000,
      maxSpeed: top,
      fromStop: fs,
      toStop: ts,
    });
  }
  return out;
}
