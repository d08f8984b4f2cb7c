import type { RtiServer } from '@rti/server';
import { isEmpty, seedDemo, type SeedResult } from './seed-demo';
import type { SeedScale } from './scale';

export { seedDemo, isEmpty, type SeedInput, type SeedResult } from './seed-demo';
export { DEMO_LOGINS, DEMO_ORGS, CITIES, DEFAULT_CITY } from './demo-data';
export { operatorCodes } from './operator-codes';
export { SCALES, scaleFromEnv, scaleTotals, type SeedScale, type OrgVolume } from './scale';
export { gatewayMqttClientId, gatewayMqttPassword, gatewayMqttUsername } from './gateway-credentials';

/** Seeds a created server's database with the demo, using that server's permission catalogue. */
export function seedServer(server: RtiServer, opts: { scale?: SeedScale; now?: number } = {}): Promise<SeedResult> {
  const catalogue = server.access.catalogue();
  return seedDemo({ sequelize: server.db.sequelize, metadata: server.metadata, catalogue: { codes: catalogue.codes, tree: catalogue.tree('en-US') }, ...opts });
}

export const isServerEmpty = (server: RtiServer): Promise<boolean> => isEmpty(server.db.sequelize);
