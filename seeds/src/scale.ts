/**
 * How much demo data to make. `SEED_SCALE=full` (default, `npm start`) is the realistic volume
 * of the issue: 3 organisations, 30 warehouses, 100 gateways, 20,000 carriers each with its
 * beacon, 300 GPS trackers on trucks. `small` is a few hundred rows for tests.
 */
export type ScaleName = 'small' | 'full';

export interface OrgVolume {
  warehouses: number;
  /** one master gateway per warehouse up to this many */
  masterGateways: number;
  slaveGateways: number;
  carriers: number;
  /** GPS trackers, each on a truck carrier */
  gps: number;
  /** beacons left unbound (registered, ready to pair) on top of one per carrier */
  spareBeacons: number;
  carrierBinds: number;
}

export interface SeedScale {
  name: ScaleName;
  /** per organisation, in DEMO_ORGS order */
  orgs: [OrgVolume, OrgVolume, OrgVolume];
}

export const SCALES: Record<ScaleName, SeedScale> = {
  full: {
    name: 'full',
    orgs: [
      { warehouses: 10, masterGateways: 10, slaveGateways: 24, carriers: 8000, gps: 100, spareBeacons: 50, carrierBinds: 40 },
      { warehouses: 10, masterGateways: 10, slaveGateways: 23, carriers: 7000, gps: 100, spareBeacons: 50, carrierBinds: 40 },
      { warehouses: 10, masterGateways: 10, slaveGateways: 23, carriers: 5000, gps: 100, spareBeacons: 50, carrierBinds: 30 },
    ],
  },
  small: {
    name: 'small',
    orgs: [
      // a gate gateway per warehouse and one of each other purpose
      { warehouses: 5, masterGateways: 2, slaveGateways: 8, carriers: 60, gps: 4, spareBeacons: 10, carrierBinds: 3 },
      { warehouses: 4, masterGateways: 2, slaveGateways: 7, carriers: 40, gps: 3, spareBeacons: 10, carrierBinds: 2 },
      { warehouses: 4, masterGateways: 1, slaveGateways: 7, carriers: 30, gps: 3, spareBeacons: 5, carrierBinds: 2 },
    ],
  },
};

/** The scale named by SEED_SCALE (default full); anything else is refused, not guessed. */
export function scaleFromEnv(value = process.env.SEED_SCALE): SeedScale {
  const name = (value || 'full').trim().toLowerCase();
  if (name !== 'small' && name !== 'full') throw new Error(`SEED_SCALE must be "small" or "full", not "${value}"`);
  return SCALES[name];
}

/** Totals of a scale (what the issue counts). */
export function scaleTotals(scale: SeedScale) {
  const sum = (k: keyof OrgVolume) => scale.orgs.reduce((n, o) => n + o[k], 0);
  return {
    organizations: scale.orgs.length,
    warehouses: sum('warehouses'),
    gateways: sum('masterGateways') + sum('slaveGateways'),
    carriers: sum('carriers'),
    beacons: sum('carriers') + sum('spareBeacons'),
    gps: sum('gps'),
  };
}
