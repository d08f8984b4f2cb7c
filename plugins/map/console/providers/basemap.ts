/**
 * The offline basemap: Natural Earth 1:110m countries from the world-atlas package, as land
 * polygons and country borders (GeoJSON). Loaded on demand as its own chunk (~100 KB) only
 * when no style URL is configured.
 */
import type { FeatureCollection, MultiLineString } from 'geojson';

export interface Basemap {
  land: FeatureCollection;
  borders: FeatureCollection<MultiLineString>;
}

let cached: Promise<Basemap> | undefined;

export function loadBasemap(): Promise<Basemap> {
  cached ??= Promise.all([import('world-atlas/countries-110m.json'), import('topojson-client')]).then(([atlas, topo]) => {
    const world = (atlas.default ?? atlas) as unknown as Parameters<typeof topo.feature>[0] & { objects: Record<string, never> };
    const land = topo.feature(world, world.objects.countries) as unknown as FeatureCollection;
    const mesh = topo.mesh(world, world.objects.countries, (a: unknown, b: unknown) => a !== b) as MultiLineString;
    return { land, borders: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: mesh }] } };
  });
  return cached;
}

export const WATER = '#d6e6f2';
export const LAND = '#f4f2ec';
export const BORDER = '#b9b4a8';

/** A MapLibre style drawing the offline basemap (no glyphs, no tiles: nothing leaves the machine). */
export function offlineStyle(b: Basemap): object {
  return {
    version: 8,
    sources: { land: { type: 'geojson', data: b.land }, borders: { type: 'geojson', data: b.borders } },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': WATER } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': LAND } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': BORDER, 'line-width': 0.8 } },
    ],
  };
}
