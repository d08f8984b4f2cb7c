/**
 * Beacon battery bands (SPEC §9): 75–100, 25–75 and 0–25 % — the dashboard reads the same
 * bands as "above 75 % (about 550 days left), above 25 % (about 180 days), below 25 %".
 * Counted through the caller's scoped repository; beacons that never reported a level are
 * counted apart rather than guessed into a band.
 */
import type { ScopedRepository } from '@rti/server/plugin-api';

export interface BatteryBand {
  band: 'high' | 'middle' | 'low';
  /** inclusive lower bound, exclusive upper bound except for 100 */
  from: number;
  to: number;
  /** rough remaining life the dashboard shows with the band */
  days: number | null;
  count: number;
}

export const BATTERY_BANDS: ReadonlyArray<Omit<BatteryBand, 'count'>> = [
  { band: 'high', from: 75, to: 100, days: 550 },
  { band: 'middle', from: 25, to: 75, days: 180 },
  { band: 'low', from: 0, to: 25, days: null },
];

/** the band a level falls in (75 → high, 25 → middle, 24.9 → low) */
export function bandOf(level: number): BatteryBand['band'] {
  if (level >= 75) return 'high';
  if (level >= 25) return 'middle';
  return 'low';
}

export interface BatteryBands {
  bands: BatteryBand[];
  unknown: number;
  total: number;
}

/** the bands of the beacons in the caller's scope, in one scan (the top band includes 100) */
export async function batteryBands(beacons: Pick<ScopedRepository, 'countRanges'>): Promise<BatteryBands> {
  const { counts, nulls } = await beacons.countRanges(
    'battery',
    BATTERY_BANDS.map((b) => (b.band === 'high' ? { gte: b.from } : { gte: b.from, lt: b.to })),
  );
  const bands = BATTERY_BANDS.map((b, i) => ({ ...b, count: counts[i] }));
  return { bands, unknown: nulls, total: bands.reduce((n, b) => n + b.count, nulls) };
}
