import { MapProviderEnum } from '@rti/metadata/browser';
/**
 * Map settings shared by every map screen.
 *
 * - Provider per user (SPEC §1, §9 "map type"): localStorage `admin-map-type:<userId>`, values
 *   of the `mapProvider` enum — 10 = provider A (MapLibre + deck.gl, the default), 20 =
 *   provider B (AntV L7). The /map/bingHistory pages always use B.
 * - Basemap: `VITE_MAP_STYLE_URL` (a MapLibre style JSON URL, e.g. a self-hosted
 *   OpenMapTiles/Protomaps style) or, at run time, `window.RTI_MAP_STYLE_URL` set in
 *   index.html by the deployment. Without either, both providers draw the offline Natural
 *   Earth basemap shipped with the console (world-atlas, land and borders).
 * - SPEC §3 geographic default list: four cities, Shanghai the default; default zoom 15 (§9).
 */
export const PROVIDER_A = MapProviderEnum.amap;
export const PROVIDER_B = MapProviderEnum.bing;
export type ProviderId = typeof PROVIDER_A | typeof PROVIDER_B;

const key = (userId: string | number | undefined) => `admin-map-type:${userId ?? ''}`;
const listeners = new Set<(p: ProviderId) => void>();

export function getProvider(userId: string | number | undefined): ProviderId {
  try {
    return Number(localStorage.getItem(key(userId))) === PROVIDER_B ? PROVIDER_B : PROVIDER_A;
  } catch {
    return PROVIDER_A;
  }
}

export function setProvider(userId: string | number | undefined, p: ProviderId): void {
  try {
    localStorage.setItem(key(userId), String(p));
  } catch {
    // private mode: the choice lasts for this page only
  }
  for (const fn of listeners) fn(p);
}

export function onProviderChange(fn: (p: ProviderId) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function styleUrl(): string | undefined {
  const fromWindow = (globalThis as { RTI_MAP_STYLE_URL?: string }).RTI_MAP_STYLE_URL;
  const fromEnv = (import.meta as unknown as { env?: Record<string, string | undefined> }).env?.VITE_MAP_STYLE_URL;
  return fromWindow || fromEnv || undefined;
}

export interface City {
  key: string;
  lng: number;
  lat: number;
}

/** SPEC §3: four cities, the first is the default. */
export const CITIES: City[] = [
  { key: 'shanghai', lng: 121.4737, lat: 31.2304 },
  { key: 'beijing', lng: 116.4074, lat: 39.9042 },
  { key: 'shenzhen', lng: 114.0579, lat: 22.5431 },
  { key: 'tokyo', lng: 139.6917, lat: 35.6895 },
];
export const DEFAULT_ZOOM = 15;

/** antd tag colour names of the enums (metadata) → marker colours (RGB). */
const TAG_RGB: Record<string, [number, number, number]> = {
  default: [140, 140, 140],
  success: [82, 196, 26],
  processing: [22, 119, 255],
  warning: [250, 173, 20],
  error: [255, 77, 79],
  blue: [22, 119, 255],
  cyan: [19, 194, 194],
  green: [82, 196, 26],
  red: [255, 77, 79],
  orange: [250, 140, 22],
  gold: [250, 173, 20],
  purple: [114, 46, 209],
  magenta: [235, 47, 150],
  volcano: [250, 84, 28],
};

export function tagRgb(color: string | undefined): [number, number, number] {
  if (color && /^#[0-9a-f]{6}$/i.test(color)) return [parseInt(color.slice(1, 3), 16), parseInt(color.slice(3, 5), 16), parseInt(color.slice(5, 7), 16)];
  return TAG_RGB[color ?? 'default'] ?? TAG_RGB.default;
}

export const rgbCss = (c: readonly number[], a = 1) => `rgba(${c[0]},${c[1]},${c[2]},${a})`;
