import type { RtiServer } from '@rti/server';
import { isEmpty, seedDemo, type SeedResult } from './seed-demo';

export { seedDemo, isEmpty, type SeedInput, type SeedResult } from './seed-demo';
export { DEMO_LOGINS, DEMO_ORGS } from './demo-data';
export { operatorCodes } from './operator-codes';

/** Seeds a created server's database with the demo, using that server's permission catalogue. */
export function seedServer(server: RtiServer): Promise<SeedResult> {
  const catalogue = server.access.catalogue();
  return seedDemo({ sequelize: server.db.sequelize, metadata: server.metadata, catalogue: { codes: catalogue.codes, tree: catalogue.tree('en-US') } });
}

export const isServerEmpty = (server: RtiServer): Promise<boolean> => isEmpty(server.db.sequelize);
