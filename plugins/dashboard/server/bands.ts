/**
 * Carrier life-cycle bands (SPEC §9): in service under 1 year, 1 to 3 years, over 3 years,
 * counted from the carrier's start time; carriers without one are counted apart.
 */
import { Op } from 'sequelize';
import type { ScopedRepository } from '@rti/server/plugin-api';

const YEAR = 365.25 * 86_400_000;

export interface LifeCycleBand {
  band: 'under1' | 'from1to3' | 'over3' | 'unknown';
  count: number;
}

/** the band of a start time at a given moment (1 year exactly → 1–3) */
export function lifeBandOf(start: Date | null, now = Date.now()): LifeCycleBand['band'] {
  if (!start) return 'unknown';
  const age = now - start.getTime();
  if (age < YEAR) return 'under1';
  if (age <= 3 * YEAR) return 'from1to3';
  return 'over3';
}

export async function lifeCycleBands(carriers: ScopedRepository, now = Date.now()): Promise<LifeCycleBand[]> {
  const oneYear = new Date(now - YEAR);
  const threeYears = new Date(now - 3 * YEAR);
  const [under1, from1to3, over3, unknown] = await Promise.all([
    carriers.count({ startTime: { [Op.gt]: oneYear } }),
    carriers.count({ startTime: { [Op.lte]: oneYear, [Op.gte]: threeYears } }),
    carriers.count({ startTime: { [Op.lt]: threeYears } }),
    carriers.count({ startTime: { [Op.is]: null } }),
  ]);
  return [
    { band: 'under1', count: under1 },
    { band: 'from1to3', count: from1to3 },
    { band: 'over3', count: over3 },
    { band: 'unknown', count: unknown },
  ];
}
