import { beforeEach, describe, expect, it } from 'vitest';
import { decodeIds, toPointSet } from '../console/point-set';
import { clustersAt, expansionZoom, labelsIn, MAX_LABELS } from '../console/providers/clusters-view';
import { getProvider, onProviderChange, PROVIDER_A, PROVIDER_B, setProvider, tagRgb } from '../console/map-settings';

describe('point set', () => {
  it('decodes delta ids and joins carriers and trackers', () => {
    expect(decodeIds([5, 1, 3])).toEqual([5, 6, 9]);
    const p = toPointSet({
      time: '',
      unplaced: 0,
      warehouses: [],
      routes: [],
      carriers: { id: [5, 2], lng: [1, 2], lat: [3, 4], st: [10, 20] },
      gps: { id: [9], lng: [5], lat: [6], st: [10] },
    });
    expect(p).toMatchObject({ id: [5, 7, 9], kind: [1, 1, 2], lng: [1, 2, 5], st: [10, 20, 10], version: 1 });
  });

  it('clusters at low zoom, single points at high zoom, and zooms into a cluster', () => {
    const p = toPointSet({
      time: '',
      unplaced: 0,
      warehouses: [],
      routes: [],
      carriers: { id: [1, 1, 1], lng: [121.47, 121.4701, 139.7], lat: [31.23, 31.2301, 35.7], st: [10, 40, 20] },
      gps: { id: [], lng: [], lat: [], st: [] },
    });
    const far = clustersAt(p, 3);
    const cluster = far.find((c) => c.index < 0)!;
    expect(cluster.count).toBe(2);
    expect(far.filter((c) => c.index >= 0).map((c) => c.index)).toEqual([2]);
    expect(expansionZoom(p, cluster.clusterId)).toBeGreaterThan(3);
    expect(
      clustersAt(p, 18)
        .map((c) => c.index)
        .sort(),
    ).toEqual([0, 1, 2]);
  });

  it('draws points at one position as one counted item, coloured by the dominant status', () => {
    const p = toPointSet({
      time: '',
      unplaced: 0,
      warehouses: [],
      routes: [],
      carriers: { id: [1, 1, 1, 1], lng: [121.5, 121.5, 121.5, 139.7], lat: [31.2, 31.2, 31.2, 35.7], st: [10, 20, 20, 30] },
      gps: { id: [], lng: [], lat: [], st: [] },
    });
    for (const zoom of [3, 18]) {
      const items = clustersAt(p, zoom).sort((a, b) => a.lng - b.lng);
      expect(items).toEqual([
        { lng: expect.closeTo(121.5, 9), lat: expect.closeTo(31.2, 9), index: 0, count: 3, st: 20, clusterId: -1 },
        { lng: expect.closeTo(139.7, 9), lat: expect.closeTo(35.7, 9), index: 3, count: 1, st: 30, clusterId: -1 },
      ]);
    }
    // the stack joins a cluster with a neighbour at low zoom, counted by rows
    const q = toPointSet({
      time: '',
      unplaced: 0,
      warehouses: [],
      routes: [],
      carriers: { id: [1, 1, 1], lng: [121.5, 121.5, 121.5001], lat: [31.2, 31.2, 31.2001], st: [10, 10, 40] },
      gps: { id: [], lng: [], lat: [], st: [] },
    });
    expect(clustersAt(q, 3)).toEqual([expect.objectContaining({ index: -1, count: 3, st: 10 })]);
  });
});

describe('provider per user', () => {
  beforeEach(() => {
    const mem = new Map<string, string>();
    (globalThis as unknown as { localStorage: Storage }).localStorage = {
      getItem: (k: string) => mem.get(k) ?? null,
      setItem: (k: string, v: string) => void mem.set(k, v),
    } as Storage;
  });

  it('defaults to A, stores the choice per user and notifies', () => {
    expect(getProvider(1)).toBe(PROVIDER_A);
    const seen: number[] = [];
    const off = onProviderChange((p) => seen.push(p));
    setProvider(1, PROVIDER_B);
    off();
    expect(getProvider(1)).toBe(PROVIDER_B);
    expect(getProvider(2)).toBe(PROVIDER_A);
    expect(seen).toEqual([PROVIDER_B]);
  });

  it('maps enum tag colours and #RRGGBB to RGB', () => {
    expect(tagRgb('error')).toEqual([255, 77, 79]);
    expect(tagRgb('#FAB912')).toEqual([250, 185, 18]);
    expect(tagRgb(undefined)).toEqual([140, 140, 140]);
  });
});

describe('point labels', () => {
  const item = (lng: number, index: number, count = 1) => ({ lng, lat: 30, index, count, st: 10, clusterId: count > 1 && index < 0 ? 7 : -1 });

  it('labels the single markers in view, never clusters or several points at one position', () => {
    const items = [item(120, 0), item(121, 1), item(121.5, -1, 40), item(121.6, 2, 3), item(140, 3)];
    const labels = labelsIn(items, [119, 29, 122, 31], (i) => `TRK-${i}`);
    expect(labels).toEqual([
      { lng: 120, lat: 30, text: 'TRK-0' },
      { lng: 121, lat: 30, text: 'TRK-1' },
    ]);
  });

  it('draws none when more than MAX_LABELS single markers are in view', () => {
    const many = Array.from({ length: MAX_LABELS + 1 }, (_, i) => item(120 + i / 1000, i));
    expect(labelsIn(many, [119, 29, 122, 31], String)).toEqual([]);
    expect(labelsIn(many.slice(0, MAX_LABELS), [119, 29, 122, 31], String)).toHaveLength(MAX_LABELS);
  });
});

describe('legendPadding (issue 10: "fit all" leaves the legend free)', () => {
  it('pushes the fit past the legend on the cheaper axis, at most half the map', async () => {
    const { legendPadding } = await import('../console/legend-padding');
    // desktop: a tall, narrow legend on a wide map → room on the left
    expect(legendPadding({ width: 1200, height: 700 }, { width: 130, height: 150 })).toEqual({ top: 40, right: 40, bottom: 40, left: 154 });
    // phone: the legend is wide relative to the map → room at the bottom
    expect(legendPadding({ width: 360, height: 600 }, { width: 150, height: 140 })).toEqual({ top: 40, right: 40, bottom: 164, left: 40 });
    // folded legend (a small button): the default padding covers it
    expect(legendPadding({ width: 360, height: 600 }, { width: 20, height: 10 })).toEqual({ top: 40, right: 40, bottom: 40, left: 40 });
    expect(legendPadding({ width: 200, height: 100 }, { width: 180, height: 90 })).toEqual({ top: 40, right: 40, bottom: 40, left: 100 });
    expect(legendPadding(undefined, undefined)).toEqual({ top: 40, right: 40, bottom: 40, left: 40 });
  });
});
