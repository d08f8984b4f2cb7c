import type { RtiServer } from '@rti/server';
import { isEmpty, seedDemo, type SeedInput, type SeedResult } from './seed-demo';
import type { SeedScale } from './scale';

export { seedDemo, isEmpty, type SeedInput, type SeedResult } from './seed-demo';
export { DEMO_LOGINS, DEMO_ORGS, CITIES, DEFAULT_CITY } from './demo-data';
export { operatorCodes } from './operator-codes';
export { SCALES, scaleFromEnv, scaleTotals, type SeedScale, type OrgVolume } from './scale';
export { gatewayMqttClientId, gatewayMqttPassword, gatewayMqttUsername } from './gateway-credentials';
export { SHIP_PLANS, shipPlans, type ShipPlan } from './seed-shipping';

/**
 * Seeds a created server's database with the demo, using that server's permission catalogue.
 * Documents (ship orders …) go through the server's own registered calls, run in-process.
 */
export function seedServer(server: RtiServer, opts: { scale?: SeedScale; now?: number } = {}): Promise<SeedResult> {
  const catalogue = server.access.catalogue();
  const shipping = server.calls.has('/ship-order/save');
  const call = (path: string, body: Record<string, unknown>, ctx: Parameters<NonNullable<SeedInput['call']>>[2]) => {
    const def = server.calls.get(path);
    if (!def) throw new Error(`seed: the server has no call ${path}`);
    // handlers of generated and document calls read body and ctx only (no HTTP in a seed)
    return Promise.resolve(def.handler({ body, ctx, req: undefined as never, res: undefined as never }));
  };
  return seedDemo({
    sequelize: server.db.sequelize,
    metadata: server.metadata,
    catalogue: { codes: catalogue.codes, tree: catalogue.tree('en-US') },
    ...(shipping ? { call, has: (path: string) => server.calls.has(path) } : {}),
    ...opts,
  });
}

export const isServerEmpty = (server: RtiServer): Promise<boolean> => isEmpty(server.db.sequelize);
