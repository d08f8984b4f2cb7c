/**
 * The demo data set: organisations, roles, the documented logins, and each organisation's
 * operational data at the chosen scale (seed-volume.ts). Idempotent (every row is looked up
 * by its natural key first), so running it twice changes nothing and a partly seeded
 * database gets completed. Every row passes the server's own write validation.
 */
import type { Sequelize } from 'sequelize';
import type { Metadata } from '@rti/metadata';
import type { PermissionNode } from '@rti/server/access/catalogue';
import type { RequestContext } from '@rti/server/http/types';
import { DEMO_ORGS, OPERATOR_WAREHOUSES, logoUrl } from './demo-data';
import { operatorCodes } from './operator-codes';
import { BulkWriter } from './bulk-writer';
import { scaleFromEnv, type SeedScale } from './scale';
import { gatewaySerials, seedVolume } from './seed-volume';
import { gatewayMqttPassword } from './gateway-credentials';
import { seedInventory } from './seed-inventory';
import { seedMaintenance } from './seed-maintenance';
import { seedPool } from './seed-pool';
import { seedReports } from './seed-reports';
import { seedShipping } from './seed-shipping';

export interface SeedInput {
  sequelize: Sequelize;
  metadata: Metadata;
  /** the permission catalogue (codes and tree) of the server the data is for */
  catalogue: { codes: Set<string>; tree: PermissionNode[] };
  /** default: SEED_SCALE from the environment (full when unset) */
  scale?: SeedScale;
  /** the seeding clock (device report times, start dates are relative to it) */
  now?: number;
  /**
   * Runs one of the server's registered calls in-process (no HTTP, no guard). With it, and
   * when the server has the shipping calls, the demo gets its ship orders, deliveries and
   * receipts through the documents' own steps (seed-shipping.ts).
   */
  call?: (path: string, body: Record<string, unknown>, ctx: RequestContext) => Promise<unknown>;
  /** whether the server has a call (the reports' history needs the inventory plugin's) */
  has?: (path: string) => boolean;
}

export interface SeedResult {
  /** entry code → organisation id */
  organizations: Record<string, number>;
  created: number;
  scale: SeedScale['name'];
  /** ship orders of the demo plans (0 without the shipping calls) */
  shipOrders: number;
  /** time the documents took, ms */
  shippingMs: number;
}

/**
 * A transaction per step (BulkWriter.step): thousands of rows per disk sync, and a failure
 * leaves whole steps behind that the next run completes.
 */
export function seedDemo(input: SeedInput): Promise<SeedResult> {
  return seedIn(input, new BulkWriter(input.sequelize, input.metadata));
}

async function seedIn(input: SeedInput, bw: BulkWriter): Promise<SeedResult> {
  const scale = input.scale ?? scaleFromEnv();
  const now = input.now ?? Date.now();
  const allCodes = [...input.catalogue.codes].sort();
  const operator = operatorCodes(input.catalogue.tree);
  const orgIds: Record<string, number> = {};
  const adminRoles: number[] = [];
  const orgWarehouses: number[][] = [];

  // Gateway MQTT passwords not stored yet: hashed in the background while the rest is written.
  const known = new Set<string>();
  for (const resource of ['device-master-gateway', 'device-slave-gateway']) {
    if (!bw.has(resource)) continue;
    for (const g of (await bw.model(resource).findAll({ attributes: ['sn'], raw: true })) as unknown as Array<{ sn: string }>) known.add(g.sn);
  }
  bw.prehash(
    DEMO_ORGS.flatMap((org, i) => gatewaySerials(org, scale.orgs[i]))
      .filter((sn) => !known.has(sn))
      .map(gatewayMqttPassword),
  );

  for (const [index, org] of DEMO_ORGS.entries()) {
    const orgId = await bw.step(() =>
      bw.ensure(
        'organization',
        { code: org.code },
        {
          name: org.name,
          shortName: org.shortName,
          entryCode: org.entryCode,
          level: 10,
          available: true,
          primaryColor: org.primaryColor,
          menuColor: org.menuColor,
          largeLogo: [logoUrl(org.logo)],
          smallLogo: [logoUrl(org.mark)],
          pcPermissions: allCodes,
          pdaPermissions: [],
        },
      ),
    );
    orgIds[org.entryCode] = orgId;

    const [adminRole, operatorRole] = await bw.step(async () => [
      await bw.ensure('role', { orgId, name: 'Administrator' }, { pcPermissions: allCodes, pdaPermissions: [] }),
      await bw.ensure('role', { orgId, name: 'Operator' }, { pcPermissions: operator, pdaPermissions: [] }),
    ]);
    adminRoles.push(adminRole);
    const { warehouseIds } = await seedVolume(bw, org, index, orgId, scale.orgs[index], now);
    orgWarehouses.push(warehouseIds);

    if (org.operatorLogin) {
      await bw.step(() =>
        bw.ensure(
          'user',
          { name: `operator.${org.entryCode}` },
          {
            orgId,
            realName: `${org.shortName} Operator`,
            // "Forgot password" mails here (the file outbox data/outbox/ by default)
            email: `operator.${org.entryCode}@example.com`,
            password: 'Operator@12345',
            locked: false,
            sysOrgUser: false,
            organizationIds: [orgId],
            roleIds: [operatorRole],
            warehouseIds: warehouseIds.slice(0, OPERATOR_WAREHOUSES),
            pcPermissions: [],
            pdaPermissions: [],
          },
        ),
      );
    }
  }

  const ids = DEMO_ORGS.map((o) => orgIds[o.entryCode]);
  const adminId = await bw.step(() =>
    bw.ensure(
      'user',
      { name: 'admin' },
      {
        orgId: ids[0],
        realName: 'Platform Administrator',
        email: 'admin@example.com',
        password: 'Admin@12345',
        locked: false,
        sysOrgUser: true,
        organizationIds: ids,
        roleIds: adminRoles,
        warehouseIds: [],
        pcPermissions: [],
        pdaPermissions: [],
      },
    ),
  );

  // Documents last: they ship the carriers seeded above, as the administrator would.
  let created = bw.created;
  let shipOrders = 0;
  const call = input.call;
  const started = Date.now();
  if (call) {
    for (const [index, org] of DEMO_ORGS.entries()) {
      const orgId = orgIds[org.entryCode];
      const ctx: RequestContext = {
        language: 'en-US',
        user: { id: adminId, username: 'admin', realName: 'Platform Administrator', sysOrgUser: true },
        orgId,
        orgIds: ids,
        warehouseIds: null,
        via: 'session',
      };
      const r = await seedShipping(input.sequelize, (path, body) => call(path, body, ctx), org, orgId, orgWarehouses[index], scale.name);
      created += r.created;
      shipOrders += r.orders;
      // inventory levels around what stands, and two adjustment orders (before today's close)
      if (input.has) created += await seedInventory(input.sequelize, (path, body) => call(path, body, ctx), input.has, orgId, orgWarehouses[index]);
      // report history: closing snapshots walked back from today's close, three-batch records
      if (input.has) created += await seedReports(input.sequelize, (path, body) => call(path, body, ctx), input.has, orgId, orgWarehouses[index], now);
      // carrier assets, repairs in every status, transfers and reminders (seed-maintenance.ts)
      if (input.has) created += await seedMaintenance(input.sequelize, call, input.has, orgId, ctx);
      // the partners' agreed free periods of the pool analytics (seed-pool.ts)
      if (input.has) created += await seedPool(input.sequelize, (path, body) => call(path, body, ctx), input.has, orgId);
      // one customer report plugin switched on for the demo organisation (the others stay off until an administrator switches them on)
      if (index === 0 && input.has?.(`/${DEMO_CUSTOMER_REPORT}/list`))
        await call('/organization/plugin/update', { plugin: DEMO_CUSTOMER_REPORT, enabled: true }, ctx);
    }
  }
  return { organizations: orgIds, created, scale: scale.name, shipOrders, shippingMs: Date.now() - started };
}

/** the customer report plugin the demo organisation has switched on */
export const DEMO_CUSTOMER_REPORT = 'customer-operation-a';

/** True when no organisation exists yet (npm start seeds only then). */
export async function isEmpty(sequelize: Sequelize): Promise<boolean> {
  const m = sequelize.models.organization;
  if (!m) throw new Error('seed: resource "organization" is not in the metadata');
  return (await m.count()) === 0;
}
