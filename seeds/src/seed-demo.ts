/**
 * The demo data set: idempotent (every row is looked up by its natural key first), so
 * running it twice changes nothing and a partly seeded database gets completed.
 */
import type { Model, ModelStatic, Sequelize, Transaction, WhereOptions } from 'sequelize';
import type { Metadata } from '@rti/metadata';
import type { PermissionNode } from '@rti/server/access/catalogue';
import { hashPassword } from '@rti/server/resources/password';
import { BEACONS_PER_ORG, DEMO_ORGS, OPERATOR_WAREHOUSES, logoUrl, type DemoOrg } from './demo-data';
import { operatorCodes } from './operator-codes';

export interface SeedInput {
  sequelize: Sequelize;
  metadata: Metadata;
  /** the permission catalogue (codes and tree) of the server the data is for */
  catalogue: { codes: Set<string>; tree: PermissionNode[] };
}

export interface SeedResult {
  organizations: Record<string, number>;
  created: number;
}

/** One transaction: all or nothing, and one disk sync instead of one per row. */
export function seedDemo(input: SeedInput): Promise<SeedResult> {
  return input.sequelize.transaction((transaction) => seedIn(input, transaction));
}

async function seedIn(input: SeedInput, transaction: Transaction): Promise<SeedResult> {
  const { sequelize, metadata } = input;
  let created = 0;

  const model = (name: string): ModelStatic<Model> => {
    const m = sequelize.models[name];
    if (!m) throw new Error(`seed: resource "${name}" is not in the metadata`);
    return m;
  };
  /** Only fields the resource declares (plus its organisation column) reach the table. */
  const pick = (resource: string, values: Record<string, unknown>): Record<string, unknown> => {
    const res = metadata.resources[resource];
    const names = new Set(res.fields.map((f) => f.name));
    if (res.orgScoped) names.add(res.orgField ?? 'orgId');
    return Object.fromEntries(Object.entries(values).filter(([k]) => names.has(k)));
  };
  const ensure = async (resource: string, where: Record<string, unknown>, values: Record<string, unknown>): Promise<number> => {
    const m = model(resource);
    const found = await m.findOne({ where: where as WhereOptions, transaction });
    if (found) return Number(found.get('id'));
    created++;
    const row = await m.create(pick(resource, { ...where, ...values }), { transaction });
    return Number(row.get('id'));
  };
  const has = (resource: string) => Boolean(metadata.resources[resource]);

  const allCodes = [...input.catalogue.codes].sort();
  const operator = operatorCodes(input.catalogue.tree);
  const orgIds: Record<string, number> = {};
  const adminRoles: number[] = [];
  const password = { admin: await hashPassword('Admin@12345'), operator: await hashPassword('Operator@12345') };

  for (const org of DEMO_ORGS) {
    const orgId = await ensure('organization', { code: org.code }, {
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
    });
    orgIds[org.entryCode] = orgId;

    adminRoles.push(await ensure('role', { orgId, name: 'Administrator' }, { pcPermissions: allCodes, pdaPermissions: [] }));
    const operatorRole = await ensure('role', { orgId, name: 'Operator' }, { pcPermissions: operator, pdaPermissions: [] });

    const warehouses = await seedWarehouses(org, orgId, ensure);
    const models = [];
    for (const [i, dm] of org.models.entries()) {
      models.push(
        await ensure('device-model', { orgId, name: dm.name }, {
          brand: dm.brand,
          ipLevel: i === 2 ? 'IP68' : 'IP67',
          batteryThreshold: 20,
          offlineCheckTime: 60,
        }),
      );
    }
    for (let i = 1; i <= BEACONS_PER_ORG; i++) {
      const sn = `${org.code}-B${String(i).padStart(4, '0')}`;
      await ensure('device-beacon', { orgId, sn }, {
        name: `Beacon ${i}`,
        mac: mac(org.code, i),
        deviceModelId: models[i % models.length],
        status: [10, 10, 20, 0][i % 4],
        useStatus: i % 10 === 0 ? 10 : 20,
        remark: null,
      });
    }
    if (has('dictionary')) await seedDictionary(orgId, ensure);

    await ensure('user', { name: `operator.${org.entryCode}` }, {
      orgId,
      realName: `${org.shortName} Operator`,
      password: password.operator,
      locked: false,
      sysOrgUser: false,
      organizationIds: [orgId],
      roleIds: [operatorRole],
      warehouseIds: warehouses.slice(0, OPERATOR_WAREHOUSES),
      pcPermissions: [],
      pdaPermissions: [],
    });
  }

  const ids = DEMO_ORGS.map((o) => orgIds[o.entryCode]);
  await ensure('user', { name: 'admin' }, {
    orgId: ids[0],
    realName: 'Platform Administrator',
    password: password.admin,
    locked: false,
    sysOrgUser: true,
    organizationIds: ids,
    roleIds: adminRoles,
    warehouseIds: [],
    pcPermissions: [],
    pdaPermissions: [],
  });
  return { organizations: orgIds, created };
}

type Ensure = (resource: string, where: Record<string, unknown>, values: Record<string, unknown>) => Promise<number>;

async function seedWarehouses(org: DemoOrg, orgId: number, ensure: Ensure): Promise<number[]> {
  const out: number[] = [];
  for (const [i, site] of org.sites.entries()) {
    out.push(
      await ensure('warehouse', { orgId, code: `${org.code}-WH${i + 1}` }, {
        name: `${site} ${i === 0 ? 'Hub' : 'Depot'}`,
        shortName: site,
        available: true,
        vmi: false,
        needDelivery: true,
        inoutProcessor: 10,
        minInventory: 50,
        maxInventory: 500,
        theoryInventory: 200,
        visibleInMap: true,
        fenceVisibleInMap: true,
        outboundCheckTime: 30,
        idleCheckTime: 1440,
      }),
    );
  }
  return out;
}

/** A few rows of the SPEC §9 dictionary categories (material, unit, carrier type, colour). */
async function seedDictionary(orgId: number, ensure: Ensure): Promise<void> {
  const rows: Array<[number, string, string]> = [
    [10, 'PP', 'Polypropylene'],
    [10, 'STEEL', 'Steel'],
    [20, 'PCS', 'Pieces'],
    [20, 'SET', 'Set'],
    [30, 'KLT', 'Small load carrier'],
    [30, 'GLT', 'Large load carrier'],
    [40, 'BLUE', 'Blue'],
    [40, 'GREY', 'Grey'],
  ];
  for (const [i, [category, value, name]] of rows.entries()) await ensure('dictionary', { orgId, category, value }, { name, displayOrder: i + 1 });
}

/** A stable, per-organisation-unique MAC address. */
function mac(orgCode: string, i: number): string {
  const prefix = orgCode === 'DEMO' ? 'C3:00:00' : 'C3:00:01';
  const hex = i.toString(16).padStart(6, '0').toUpperCase();
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}

/** True when no organisation exists yet (npm start seeds only then). */
export async function isEmpty(sequelize: Sequelize): Promise<boolean> {
  const m = sequelize.models.organization;
  if (!m) throw new Error('seed: resource "organization" is not in the metadata');
  return (await m.count()) === 0;
}
