/** Clusters of a PointSet at one zoom, as flat arrays both providers draw from. */
import { buildClusters, countsOf, dominant, type ClusterIndex, type ClusterProps, type PointProps } from '../../shared/cluster';
import type { PointSet } from '../map-types';

export interface ClusterItem {
  lng: number;
  lat: number;
  /** point index in the PointSet (the first one when several share the position), or -1 for a cluster */
  index: number;
  /** points drawn by this item: > 1 for a cluster or several points at one position */
  count: number;
  st: number;
  /** supercluster id of a cluster (click zooms in), -1 for points at one position */
  clusterId: number;
}

const cache = new WeakMap<PointSet, { version: number; index: ClusterIndex }>();

export function clusterIndex(p: PointSet): ClusterIndex {
  const got = cache.get(p);
  if (got && got.version === p.version) return got.index;
  const index = buildClusters(p.lng, p.lat, p.st);
  cache.set(p, { version: p.version, index });
  return index;
}

export function clustersAt(p: PointSet, zoom: number): ClusterItem[] {
  const idx = clusterIndex(p);
  return idx.getClusters([-180, -85, 180, 85], Math.max(0, Math.floor(zoom))).map((f) => {
    const [lng, lat] = f.geometry.coordinates;
    const props = f.properties as Partial<ClusterProps & PointProps & { cluster: boolean; cluster_id: number }>;
    if (props.cluster) return { lng, lat, index: -1, count: props.n ?? 0, st: dominant(countsOf(idx, props)), clusterId: props.cluster_id ?? -1 };
    return { lng, lat, index: props.i ?? -1, count: props.n ?? 1, st: dominant(countsOf(idx, props)), clusterId: -1 };
  });
}

export function expansionZoom(p: PointSet, clusterId: number): number {
  return Math.min(18, clusterIndex(p).getClusterExpansionZoom(clusterId));
}

/** at most this many labels: beyond it they would hide each other and the map */
export const MAX_LABELS = 300;

export interface PointLabel {
  lng: number;
  lat: number;
  text: string;
}

/** The single markers inside [west, south, east, north] with their text, or none when more than MAX_LABELS are in view. */
export function labelsIn(items: readonly ClusterItem[], bounds: readonly number[], label: (index: number) => string): PointLabel[] {
  const [w, s, e, n] = bounds;
  const out: PointLabel[] = [];
  for (const c of items) {
    if (c.count !== 1 || c.index < 0 || c.lng < w || c.lng > e || c.lat < s || c.lat > n) continue;
    if (out.length === MAX_LABELS) return [];
    const text = label(c.index);
    if (text) out.push({ lng: c.lng, lat: c.lat, text });
  }
  return out;
}
