/**
 * Track logic shared by the server (downsampling before sending) and the console (stops,
 * playback). Pure functions over columnar tracks: t (epoch ms, ascending), lng, lat.
 */

export interface Track {
  t: number[];
  lng: number[];
  lat: number[];
}

export interface Stop {
  /** index of the first and last point of the stop */
  from: number;
  to: number;
  start: number;
  end: number;
  lng: number;
  lat: number;
}

const R = 6371008.8;
const rad = Math.PI / 180;

/** Great-circle distance in metres. */
export function haversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Stops: runs of consecutive points staying within `radiusM` of the run's first point for at
 * least `minMs`. A gap in reports inside the radius counts as standing still (a parked tracker
 * reports less often).
 */
export function detectStops(track: Track, radiusM = 100, minMs = 10 * 60_000): Stop[] {
  const stops: Stop[] = [];
  const n = track.t.length;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && haversine(track.lng[i], track.lat[i], track.lng[j + 1], track.lat[j + 1]) <= radiusM) j++;
    if (j > i && track.t[j] - track.t[i] >= minMs) {
      let sx = 0;
      let sy = 0;
      for (let k = i; k <= j; k++) {
        sx += track.lng[k];
        sy += track.lat[k];
      }
      const c = j - i + 1;
      stops.push({ from: i, to: j, start: track.t[i], end: track.t[j], lng: sx / c, lat: sy / c });
      i = j + 1;
    } else i++;
  }
  return stops;
}

/**
 * Indices to keep so a track fits `max` points: Ramer–Douglas–Peucker on lng/lat with a
 * tolerance found by bisection, always keeping the ends and any index in `keep` (events,
 * stops). Shapes survive; straight stretches lose their intermediate points.
 */
export function downsample(track: Track, max: number, keep: ReadonlySet<number> = new Set()): number[] {
  const n = track.t.length;
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  let lo = 0;
  let hi = 1;
  // grow until the tolerance is coarse enough
  while (rdp(track, hi, keep).length > max && hi < 1e3) hi *= 4;
  let best = rdp(track, hi, keep);
  for (let k = 0; k < 18; k++) {
    const mid = (lo + hi) / 2;
    const got = rdp(track, mid, keep);
    if (got.length > max) lo = mid;
    else {
      hi = mid;
      best = got;
    }
  }
  return best;
}

/** Iterative RDP (no recursion: tracks of 100k points would overflow the stack). */
function rdp(track: Track, eps: number, keep: ReadonlySet<number>): number[] {
  const n = track.t.length;
  const marked = new Uint8Array(n);
  marked[0] = 1;
  marked[n - 1] = 1;
  for (const k of keep) if (k >= 0 && k < n) marked[k] = 1;
  const stack: number[] = [0, n - 1];
  const eps2 = eps * eps;
  const { lng, lat } = track;
  while (stack.length) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const ax = lng[a];
    const ay = lat[a];
    const dx = lng[b] - ax;
    const dy = lat[b] - ay;
    const len2 = dx * dx + dy * dy;
    let far = -1;
    let farD = -1;
    for (let i = a + 1; i < b; i++) {
      let px = lng[i] - ax;
      let py = lat[i] - ay;
      if (len2 > 0) {
        const u = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        px -= u * dx;
        py -= u * dy;
      }
      const d = px * px + py * py;
      if (d > farD) {
        farD = d;
        far = i;
      }
    }
    if (farD > eps2) {
      marked[far] = 1;
      stack.push(a, far, far, b);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (marked[i]) out.push(i);
  return out;
}

/** Index of the last point at or before `time` (binary search); -1 before the first. */
export function indexAt(t: readonly number[], time: number): number {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0 || time < t[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[mid] <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The position at `time`, linearly interpolated between the surrounding points (clamped to the ends). */
export function positionAt(track: Track, time: number): { lng: number; lat: number; index: number } | null {
  const n = track.t.length;
  if (!n) return null;
  const i = indexAt(track.t, time);
  if (i < 0) return { lng: track.lng[0], lat: track.lat[0], index: 0 };
  if (i >= n - 1) return { lng: track.lng[n - 1], lat: track.lat[n - 1], index: n - 1 };
  const span = track.t[i + 1] - track.t[i];
  const u = span > 0 ? (time - track.t[i]) / span : 0;
  return { lng: track.lng[i] + (track.lng[i + 1] - track.lng[i]) * u, lat: track.lat[i] + (track.lat[i + 1] - track.lat[i]) * u, index: i };
}

/** Picks the given indices of every column of a columnar object. */
export function pick<T extends Record<string, unknown[]>>(cols: T, idx: readonly number[]): T {
  const out: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries(cols)) out[k] = idx.map((i) => v[i]);
  return out as T;
}
