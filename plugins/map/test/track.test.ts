import { describe, expect, it } from 'vitest';
import { detectStops, downsample, haversine, indexAt, positionAt, type Track } from '@rti/common';
import { buildClusters, countsOf, dominant } from '../shared/cluster';

const MIN = 60_000;

/** a drive east, a 30-minute stop, a drive north — one point a minute */
function sampleTrack(): Track {
  const t: number[] = [];
  const lng: number[] = [];
  const lat: number[] = [];
  let time = 0;
  const push = (x: number, y: number) => {
    t.push(time);
    lng.push(x);
    lat.push(y);
    time += MIN;
  };
  for (let i = 0; i < 30; i++) push(121 + i * 0.01, 31);
  for (let i = 0; i < 30; i++) push(121.3 + (i % 2) * 0.0001, 31);
  for (let i = 1; i <= 30; i++) push(121.3, 31 + i * 0.01);
  return { t, lng, lat };
}

describe('track logic', () => {
  it('measures distances on the sphere', () => {
    expect(haversine(0, 0, 1, 0)).toBeGreaterThan(111_000);
    expect(haversine(0, 0, 1, 0)).toBeLessThan(111_400);
  });

  it('finds the one stop of the sample track, with its time and place', () => {
    const stops = detectStops(sampleTrack(), 100, 10 * MIN);
    expect(stops).toHaveLength(1);
    expect(stops[0].start).toBe(30 * MIN);
    expect(stops[0].end).toBeGreaterThanOrEqual(59 * MIN);
    expect(stops[0].lng).toBeCloseTo(121.3, 3);
  });

  it('ignores short halts', () => {
    expect(detectStops(sampleTrack(), 100, 60 * MIN)).toHaveLength(0);
  });

  it('downsamples to the budget, keeps ends, corners and required indices', () => {
    const tr = sampleTrack();
    const idx = downsample(tr, 10, new Set([45]));
    expect(idx.length).toBeLessThanOrEqual(10);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(tr.t.length - 1);
    expect(idx).toContain(45);
    // the corner where the drive turns north survives
    expect(idx.some((i) => Math.abs(tr.lng[i] - 121.3) < 1e-3 && Math.abs(tr.lat[i] - 31) < 1e-3)).toBe(true);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
  });

  it('leaves short tracks alone', () => {
    expect(downsample(sampleTrack(), 1000)).toHaveLength(90);
  });

  it('handles 200k points without recursion', () => {
    const n = 200_000;
    const tr: Track = { t: [], lng: [], lat: [] };
    for (let i = 0; i < n; i++) {
      tr.t.push(i * 1000);
      tr.lng.push(100 + Math.sin(i / 500) * 0.1 + i * 1e-6);
      tr.lat.push(30 + Math.cos(i / 700) * 0.1);
    }
    const idx = downsample(tr, 5000);
    expect(idx.length).toBeLessThanOrEqual(5000);
    expect(idx.length).toBeGreaterThan(100);
  });

  it('interpolates the playback position between points and clamps at the ends', () => {
    const tr: Track = { t: [0, 1000, 2000], lng: [0, 10, 10], lat: [0, 0, 10] };
    expect(indexAt(tr.t, -1)).toBe(-1);
    expect(indexAt(tr.t, 1500)).toBe(1);
    expect(positionAt(tr, 500)).toMatchObject({ lng: 5, lat: 0, index: 0 });
    expect(positionAt(tr, 1500)).toMatchObject({ lng: 10, lat: 5, index: 1 });
    expect(positionAt(tr, -50)).toMatchObject({ lng: 0, lat: 0 });
    expect(positionAt(tr, 9999)).toMatchObject({ lng: 10, lat: 10 });
    expect(positionAt({ t: [], lng: [], lat: [] }, 0)).toBeNull();
  });
});

describe('clustering', () => {
  it('groups nearby points when zoomed out and splits them when zoomed in, counting statuses', () => {
    const lng = [121.47, 121.4701, 121.4702, 116.4];
    const lat = [31.23, 31.2301, 31.2302, 39.9];
    const st = [10, 10, 40, 20];
    const idx = buildClusters(lng, lat, st);
    const far = idx.getClusters([-180, -85, 180, 85], 3);
    expect(far).toHaveLength(2);
    const c = far.find((f) => (f.properties as { cluster?: boolean }).cluster)!;
    expect((c.properties as unknown as { point_count: number }).point_count).toBe(3);
    expect(countsOf(idx, c.properties as never)).toEqual({ 10: 2, 40: 1 });
    expect(dominant({ 10: 2, 40: 1 })).toBe(10);
    const near = idx.getClusters([-180, -85, 180, 85], 17);
    expect(near).toHaveLength(4);
    expect(near.map((f) => (f.properties as { i: number }).i).sort()).toEqual([0, 1, 2, 3]);
  });

  it('skips points without a position', () => {
    const idx = buildClusters([1, null, 3], [1, 2, null], [0, 0, 0]);
    expect(idx.getClusters([-180, -85, 180, 85], 17)).toHaveLength(1);
  });
});
