/** Clusters of a PointSet at one zoom, as flat arrays both providers draw from. */
import { buildClusters, dominant, type ClusterIndex } from '../../shared/cluster';
import type { PointSet } from '../map-types';

export interface ClusterItem {
  lng: number;
  lat: number;
  /** point index in the PointSet, or -1 for a cluster */
  index: number;
  count: number;
  st: number;
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
    const props = f.properties as unknown as { cluster?: boolean; cluster_id?: number; point_count?: number; counts?: Record<number, number>; i?: number; s?: number };
    if (props.cluster) return { lng, lat, index: -1, count: props.point_count ?? 0, st: dominant(props.counts ?? {}), clusterId: props.cluster_id ?? -1 };
    return { lng, lat, index: props.i ?? -1, count: 1, st: props.s ?? 0, clusterId: -1 };
  });
}

export function expansionZoom(p: PointSet, clusterId: number): number {
  return Math.min(18, clusterIndex(p).getClusterExpansionZoom(clusterId));
}
