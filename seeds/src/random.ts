/** A small seeded generator: the same demo data on every machine and every run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** a value by weight: [[value, weight], …] */
    weighted: <T>(items: ReadonlyArray<readonly [T, number]>): T => {
      const total = items.reduce((n, [, w]) => n + w, 0);
      let r = next() * total;
      for (const [v, w] of items) if ((r -= w) < 0) return v;
      return items[items.length - 1][0];
    },
  };
}
export type Rng = ReturnType<typeof rng>;

/** Great-circle distance in km. */
export function distanceKm(a: { longitude: number; latitude: number }, b: { longitude: number; latitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

export const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Six octets from a prefix of three and a 24-bit number: stable, unique per prefix. */
export function macAddress(prefix: string, n: number): string {
  const hex = n.toString(16).padStart(6, '0').toUpperCase();
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}
