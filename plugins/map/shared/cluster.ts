/**
 * Marker clustering for both providers: supercluster over the columnar /map/list answer.
 * Points keep their index into the columns so a click finds the row without copies.
 */
import Supercluster, { type PointFeature } from 'supercluster';

export interface PointProps {
  i: number;
  s: number;
}
export interface ClusterProps {
  /** transport status → count inside the cluster */
  counts: Record<number, number>;
}

export type ClusterIndex = Supercluster<PointProps, ClusterProps>;

export function buildClusters(lng: ArrayLike<number | null>, lat: ArrayLike<number | null>, status: ArrayLike<number>, radius = 60): ClusterIndex {
  const features: Array<PointFeature<PointProps>> = [];
  for (let i = 0; i < lng.length; i++) {
    const x = lng[i];
    const y = lat[i];
    if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    features.push({ type: 'Feature', properties: { i, s: status[i] }, geometry: { type: 'Point', coordinates: [x, y] } });
  }
  const index = new Supercluster<PointProps, ClusterProps>({
    radius,
    maxZoom: 16,
    map: (p) => ({ counts: { [p.s]: 1 } }),
    // supercluster copies properties shallowly: build a new counts object, never mutate a shared one
    reduce: (acc, p) => {
      const merged = { ...acc.counts };
      for (const [k, v] of Object.entries(p.counts)) merged[Number(k)] = (merged[Number(k)] ?? 0) + v;
      acc.counts = merged;
    },
  });
  index.load(features);
  return index;
}

/** The most frequent status inside a cluster (its colour). */
export function dominant(counts: Record<number, number>): number {
  let best = 0;
  let n = -1;
  for (const [k, v] of Object.entries(counts)) if (v > n) [best, n] = [Number(k), v];
  return best;
}
