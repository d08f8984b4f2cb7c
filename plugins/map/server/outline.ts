/**
 * The offline basemap for server-drawn documents: Natural Earth 1:50m countries (world-atlas,
 * the finer sibling of the console's 1:110m basemap, since a report zooms onto one track) as
 * land rings and border lines in lng/lat, parsed once on first use (~60 ms).
 */
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { GeometryObject, Topology } from 'topojson-specification';

export type Ring = Array<[number, number]>;
export interface Outline {
  /** land polygons, each [outer, ...holes], with their bounding box for quick culling */
  land: Array<{ rings: Ring[]; box: [number, number, number, number] }>;
  borders: Ring[];
}

let cached: Outline | undefined;

function boxOf(rings: Ring[]): [number, number, number, number] {
  let w = 180,
    s = 90,
    e = -180,
    n = -90;
  for (const r of rings)
    for (const [x, y] of r) {
      if (x < w) w = x;
      if (x > e) e = x;
      if (y < s) s = y;
      if (y > n) n = y;
    }
  return [w, s, e, n];
}

export function outline(): Outline {
  if (cached) return cached;
  const world = createRequire(import.meta.url)('world-atlas/countries-50m.json') as Topology<{ countries: GeometryObject }>;
  const land: Outline['land'] = [];
  const fc = feature(world, world.objects.countries) as unknown as { features: Array<{ geometry: { type: string; coordinates: unknown } | null }> };
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const polys = g.type === 'Polygon' ? [g.coordinates as Ring[]] : g.type === 'MultiPolygon' ? (g.coordinates as Ring[][]) : [];
    for (const rings of polys) land.push({ rings, box: boxOf(rings) });
  }
  const m = mesh(world, world.objects.countries, (a, b) => a !== b) as unknown as { coordinates: Ring[] };
  cached = { land, borders: m.coordinates };
  return cached;
}
