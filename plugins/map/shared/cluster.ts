/**
 * Marker clustering for both providers: supercluster over the columnar /map/list answer.
 * Points keep their index into the columns so a click finds the row without copies.
 */
import Supercluster, { type PointFeature } from 'supercluster';

/**
 * Status counts live in plain number fields `k0`…`k7` (one per distinct status, in the order
 * the index met them): supercluster copies properties shallowly per cluster and zoom, so
 * numbers can be summed in place, where a counts object would have to be copied on every
 * merge (that copying was most of the clustering time at 100,000 points).
 */
const SLOTS = 8;
const KEYS = Array.from({ length: SLOTS }, (_, j) => `k${j}`);

export interface ClusterProps {
  /** rows inside the cluster (or at this position) */
  n: number;
  [slot: `k${number}`]: number;
}
export interface PointProps extends ClusterProps {
  /** first row at this position */
  i: number;
}

export type ClusterIndex = Supercluster<PointProps, ClusterProps> & {
  /** status value of each count slot */
  slots: number[];
};

/**
 * Rows at exactly the same position (every carrier placed at its warehouse) become one feature
 * with a count first: supercluster's cost grows with features, and 100,000 carriers in 50
 * warehouses plus 30,000 on the road are ~30,000 features (clustering 3× faster).
 */
export function buildClusters(lng: ArrayLike<number | null>, lat: ArrayLike<number | null>, status: ArrayLike<number>, radius = 60): ClusterIndex {
  const features: Array<PointFeature<PointProps>> = [];
  // by longitude, then latitude: exact positions without building a string key per row
  const at = new Map<number, Map<number, PointProps>>();
  const slots: number[] = [];
  const slotOf = new Map<number, string>();
  const keyOf = (s: number): string => {
    let k = slotOf.get(s);
    if (k === undefined) {
      // more distinct statuses than slots: the rest share the last slot (colour by majority)
      if (slots.length < SLOTS) slots.push(s);
      k = KEYS[Math.min(slots.length, SLOTS) - 1]!;
      slotOf.set(s, k);
    }
    return k;
  };
  for (let i = 0; i < lng.length; i++) {
    const x = lng[i];
    const y = lat[i];
    if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const k = keyOf(status[i]!);
    let col = at.get(x);
    if (!col) at.set(x, (col = new Map()));
    const got = col.get(y) as Record<string, number> | undefined;
    if (got) {
      got.n!++;
      got[k] = (got[k] ?? 0) + 1;
      continue;
    }
    const props = { i, n: 1 } as PointProps;
    for (const s of KEYS) (props as unknown as Record<string, number>)[s] = 0;
    (props as unknown as Record<string, number>)[k] = 1;
    col.set(y, props);
    features.push({ type: 'Feature', properties: props, geometry: { type: 'Point', coordinates: [x, y] } });
  }
  const index = new Supercluster<PointProps, ClusterProps>({
    radius,
    // above 14 (SPEC's street-level default is 15) points show one by one; rows at one
    // position are already one counted marker, and each level less is ~1/6 of the build
    maxZoom: 14,
    // the point's own properties: supercluster copies them for a new cluster, so the sums
    // below never touch a point
    map: (p) => p,
    reduce: (acc, p) => {
      const a = acc as unknown as Record<string, number>;
      const b = p as unknown as Record<string, number>;
      a.n! += b.n!;
      for (let j = 0; j < SLOTS; j++) a[KEYS[j]!]! += b[KEYS[j]!]!;
    },
  }) as ClusterIndex;
  index.slots = slots;
  index.load(features);
  return index;
}

/** Status → rows of one cluster or point's properties. */
export function countsOf(index: ClusterIndex, props: Partial<ClusterProps>): Record<number, number> {
  const out: Record<number, number> = {};
  index.slots.forEach((s, j) => {
    const v = (props as Record<string, number | undefined>)[KEYS[j]!] ?? 0;
    if (v > 0) out[s] = v;
  });
  return out;
}

/** The most frequent status inside a cluster (its colour). */
export function dominant(counts: Record<number, number>): number {
  let best = 0;
  let n = -1;
  for (const [k, v] of Object.entries(counts)) if (v > n) [best, n] = [Number(k), v];
  return best;
}
