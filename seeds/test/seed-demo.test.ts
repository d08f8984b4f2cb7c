/**
 * The demo seed (small scale) on a real server: the counts of the scale, idempotence, the
 * documented logins, each organisation's theme, the operator narrower than the administrator
 * and inside its warehouses (shipping included, deleting nothing), devices bound both ways,
 * gateway MQTT logins derivable, and a sample of every seeded resource saved back unchanged
 * through the API's update call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceApiPath, type ResourceDef } from '@rti/metadata';
import { createServer, verifyPassword, type RtiServer } from '@rti/server';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/test-database';
import {
  CITIES,
  DEMO_LOGINS,
  DEMO_ORGS,
  SCALES,
  shipPlans,
  gatewayMqttPassword,
  gatewayMqttUsername,
  isServerEmpty,
  scaleTotals,
  seedServer,
} from '../src/index';
import { distanceKm } from '../src/random';
import { Enums } from '@rti/metadata';
import { Op } from 'sequelize';

const SMALL = SCALES.small;
let server: RtiServer;
let db: TestDatabase;
let url: string;
let orgIds: Record<string, number>;

const call = async (path: string, body: unknown = {}, headers: Record<string, string> = {}) => {
  const res = await fetch(url + '/api' + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message: string; data: any };
};
const login = async (username: string, password: string, entryCode?: string) => {
  const got = await call('/account/login', { username, password, entryCode });
  expect(got.code, `${username}: ${got.message}`).toBe(0);
  return got.data;
};
const count = (resource: string, where: Record<string, unknown> = {}) => server.db.sequelize.models[resource].count({ where });

beforeAll(async () => {
  db = await createTestDatabase();
  server = await createServer({ databaseUrl: db.url, plugins: ['open-api', 'master-data', 'shipping'], logError: () => undefined });
  ({ url } = await server.listen(0));
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('seedDemo (SEED_SCALE=small)', () => {
  it('seeds an empty database once and changes nothing the second time', async () => {
    expect(await isServerEmpty(server)).toBe(true);
    const first = await seedServer(server, { scale: SMALL });
    expect(first.scale).toBe('small');
    expect(first.created).toBeGreaterThan(500);
    expect(Object.keys(first.organizations).sort()).toEqual(['acme', 'demo', 'kansai']);
    orgIds = first.organizations;
    expect(await isServerEmpty(server)).toBe(false);
    const again = await seedServer(server, { scale: SMALL });
    expect(again.created).toBe(0);
    expect(again.organizations).toEqual(first.organizations);
  }, 90_000);

  it('holds exactly the rows of its scale, per organisation', async () => {
    for (const [i, org] of DEMO_ORGS.entries()) {
      const v = SMALL.orgs[i];
      const orgId = orgIds[org.entryCode];
      expect(await count('warehouse', { orgId }), org.code).toBe(v.warehouses);
      expect(await count('device-master-gateway', { orgId })).toBe(v.masterGateways);
      expect(await count('device-slave-gateway', { orgId })).toBe(v.slaveGateways);
      expect(await count('carrier', { orgId })).toBe(v.carriers);
      expect(await count('device-beacon', { orgId })).toBe(v.carriers + v.spareBeacons);
      expect(await count('device-gps', { orgId })).toBe(v.gps);
      expect(await count('carrier-bind', { orgId })).toBe(v.carrierBinds);
      // register + bind beacon per carrier, bind GPS per tracked truck (the shipping steps'
      // transport-status logs are counted in the shipping test below)
      expect(await count('carrier-log', { orgId, event: { [Op.ne]: Enums.carrierLogEvent.transportStatusChange } })).toBe(2 * v.carriers + v.gps);
    }
    const totals = scaleTotals(SMALL);
    expect(await count('carrier')).toBe(totals.carriers);
    expect(await count('organization')).toBe(3);
  });

  it('has the volume the issue asks for at full scale', () => {
    expect(scaleTotals(SCALES.full)).toEqual({ organizations: 3, warehouses: 30, gateways: 100, carriers: 20000, beacons: 20150, gps: 300 });
  });

  it('binds every carrier to its own beacon both ways, and every tracker to a truck', async () => {
    const m = server.db.sequelize.models;
    const carriers = (await m.carrier.findAll({ attributes: ['id', 'beaconId', 'gpsId', 'type', 'orgId'], raw: true })) as any[];
    const beacons = new Map(((await m['device-beacon'].findAll({ attributes: ['id', 'carrierId', 'orgId'], raw: true })) as any[]).map((b) => [b.id, b]));
    const trackers = new Map(((await m['device-gps'].findAll({ attributes: ['id', 'carrierId'], raw: true })) as any[]).map((g) => [g.id, g]));
    expect(new Set(carriers.map((c) => c.beaconId)).size).toBe(carriers.length);
    for (const c of carriers) {
      const b = beacons.get(c.beaconId);
      expect(b?.carrierId).toBe(c.id);
      expect(b?.orgId).toBe(c.orgId);
      if (c.gpsId) {
        expect(c.type).toBe(40);
        expect(trackers.get(c.gpsId)?.carrierId).toBe(c.id);
      }
    }
    expect([...trackers.values()].every((g) => g.carrierId)).toBe(true);
  });

  it('puts every warehouse near one of the four cities, with a fence radius', async () => {
    const rows = (await server.db.sequelize.models.location.findAll({ where: { type: 0 }, raw: true })) as any[];
    expect(rows.length).toBe(scaleTotals(SMALL).warehouses);
    for (const l of rows) {
      const nearest = Math.min(...Object.values(CITIES).map((c) => distanceKm(c, { longitude: Number(l.longitude), latitude: Number(l.latitude) })));
      expect(nearest).toBeLessThan(30);
      expect(l.fenceRadius).toBeGreaterThan(0);
    }
  });

  it('gives every gateway an MQTT login derivable from its serial, stored hashed', async () => {
    for (const resource of ['device-slave-gateway', 'device-master-gateway']) {
      const rows = (await server.db.sequelize.models[resource].findAll({ raw: true })) as any[];
      expect(rows.length).toBeGreaterThan(0);
      for (const g of rows.slice(0, 3)) {
        expect(g.mqttUsername).toBe(gatewayMqttUsername(g.sn));
        expect(g.mqttPassword).toMatch(/^scrypt\$/);
        expect(await verifyPassword(gatewayMqttPassword(g.sn), g.mqttPassword)).toBe(true);
      }
    }
    const purposes = new Set(
      ((await server.db.sequelize.models['device-slave-gateway'].findAll({ attributes: ['purpose'], raw: true })) as any[]).map((g) => g.purpose),
    );
    expect([...purposes].sort()).toEqual([10, 20, 50, 60]);
  });

  it('lets every documented login in', async () => {
    for (const l of DEMO_LOGINS) await login(l.username, l.password);
    const admin = await login('admin', 'Admin@12345');
    expect(admin.sysOrgUser).toBe(true);
    expect(admin.organizations.map((o: { entryCode: string }) => o.entryCode).sort()).toEqual(['acme', 'demo', 'kansai']);
    expect((await login('operator.acme', 'Operator@12345', 'acme')).loginOrgName).toBe('Acme Returnables');
    expect((await call('/account/login', { username: 'operator.acme', password: 'Operator@12345', entryCode: 'demo' })).code).toBe(10007);
  });

  it('gives each organisation its own theme and logo', async () => {
    const themes = [];
    for (const org of DEMO_ORGS) {
      const got = (await call('/organization/basic', { entryCode: org.entryCode })).data;
      expect(got.theme.primaryColor).toBe(org.primaryColor);
      expect(got.theme.largeLogo).toMatch(/^data:image\/svg\+xml;base64,/);
      themes.push(got.theme.largeLogo);
    }
    expect(new Set(themes).size).toBe(3);
  });

  it('keeps the operator out of the System group and inside its warehouses', async () => {
    const admin = await login('admin', 'Admin@12345', 'demo');
    const op = await login('operator.demo', 'Operator@12345', 'demo');
    expect(op.access.length).toBeLessThan(admin.access.length);
    expect(admin.access).toEqual(expect.arrayContaining(['ApiUserList', 'ApiRoleList', 'ApiOrganizationList']));
    const { resources } = server.metadata;
    for (const code of op.access as string[]) expect(code.startsWith('MenuSystem') || code.startsWith('ViewSystem')).toBe(false);
    for (const res of Object.values(resources).filter((r) => r.module === 'system' && r.calls?.list !== false)) {
      expect((await call(resourceApiPath(res, 'list'), {}, { Token: op.token })).code, res.name).toBe(10005);
    }
    const v = SMALL.orgs[0];
    expect((await call('/device-beacon/list', { limit: 1 }, { Token: op.token })).data.total).toBe(v.carriers + v.spareBeacons);
    expect((await call('/device-beacon/delete', { id: 1 }, { Token: op.token })).code).toBe(10005);
    expect((await call('/warehouse/list', { limit: 100 }, { Token: admin.token })).data.total).toBe(v.warehouses);
    const mine = (await call('/warehouse/list', { limit: 100 }, { Token: op.token })).data;
    expect(mine.total).toBe(2);
    // the carrier list of a warehouse-restricted operator holds its warehouses' carriers, and the
    // ones in transit on an open order to or from them (no warehouse while moving)
    const carriers = (await call('/carrier/list', { limit: 1000 }, { Token: op.token })).data;
    const ids = new Set(mine.list.map((w: { id: number }) => w.id));
    expect(carriers.total).toBeGreaterThan(0);
    expect(carriers.list.every((c: { warehouseId: number | null }) => c.warehouseId === null || ids.has(c.warehouseId))).toBe(true);
  });

  it('lets the operator do the shipping of its warehouses, the monitor and the truck report, deleting nothing', async () => {
    const op = await login('operator.demo', 'Operator@12345', 'demo');
    const as = (path: string, body: unknown = {}) => call(path, body, { Token: op.token });
    expect(op.access).toEqual(
      expect.arrayContaining([
        'MenuShipOrderManage',
        'ViewShipOrder',
        'ViewShipOrderCreate',
        'ApiShipOrderRelease',
        'ApiShipOrderDetailBatchAdd',
        'ViewShipPlan',
        'ViewDelivery',
        'ViewReceipt',
        'ApiReceiptReceive',
        'MenuShipOrderMonitor',
        'MenuReport',
        'ViewTruck',
        'ViewTruckDetail',
      ]),
    );
    // of the Reports group only the truck shipment report
    expect(op.access).not.toEqual(expect.arrayContaining(['MenuIdleCarrier']));
    expect(op.access).not.toEqual(expect.arrayContaining(['MenuInventoryReportList']));
    for (const code of op.access as string[]) expect(code.endsWith('Delete'), code).toBe(false);

    const mine = new Set((await as('/warehouse/list', { limit: 100 })).data.list.map((w: { id: number }) => w.id));
    const orders = await as('/ship-order/list', { limit: 1000 });
    expect(orders.code).toBe(0);
    expect(orders.data.total).toBeGreaterThan(0);
    for (const o of orders.data.list) expect(mine.has(o.shipperWarehouseId) || mine.has(o.receiverWarehouseId), o.orderNo).toBe(true);
    const first = orders.data.list[0];
    expect((await as('/ship-order', { id: first.id })).data.orderNo).toBe(first.orderNo);
    for (const path of [
      '/ship-order-detail/list',
      '/delivery/list',
      '/receipt/list',
      '/ship-plan/list',
      '/ship-order/list4map',
      '/ship-order/listlegend4map',
      '/truck/list',
    ]) {
      expect((await as(path, { limit: 10 })).code, path).toBe(0);
    }
    expect((await as('/ship-order/delete', { id: first.id })).code).toBe(10005);
    expect((await as('/ship-order-detail/delete', { id: 1 })).code).toBe(10005);
    expect((await as('/receipt/delete', { id: 1 })).code).toBe(10005);
    expect((await as('/ship-order', { id: first.id })).data.id, 'refused, not deleted').toBe(first.id);
  });
});

/**
 * The shipping demo (seed-shipping.ts): documents in every status, made through the steps, so
 * the carriers, in/out rows, logs and inventory say the same as the documents.
 */
describe('shipping demo', () => {
  const Order = Enums.shipOrderStatus;
  const Line = Enums.shipOrderLineStatus;
  const Dir = Enums.inoutDirection;
  const rows = async (resource: string, where: Record<string, unknown>) => (await server.db.sequelize.models[resource].findAll({ where, raw: true })) as any[];
  const values = (list: any[], field: string) => [...new Set(list.map((r) => Number(r[field])))].sort((a, b) => a - b);

  it('holds ship orders, deliveries and receipts in every status in every organisation', async () => {
    for (const org of DEMO_ORGS) {
      const orgId = orgIds[org.entryCode];
      const orders = await rows('ship-order', { orgId });
      expect(orders.length, org.code).toBe(shipPlans('small').length);
      expect(values(orders, 'status')).toEqual(Object.values(Order).sort((a, b) => a - b));
      expect(values(await rows('delivery', { orgId }), 'status')).toEqual(Object.values(Enums.deliveryStatus).sort((a, b) => a - b));
      expect(values(await rows('receipt', { orgId }), 'status')).toEqual(Object.values(Enums.receiptStatus).sort((a, b) => a - b));
      for (const o of orders) {
        expect(o.orderNo).toMatch(/^SO\d{12}$/);
        expect(o.sourcePlanNo).toMatch(new RegExp(`^${org.code}-SP\\d{2}$`));
        // moved by the steps: stamped by the administrator, the route's transport clock started
        if (o.status !== Order.new && o.status !== Order.cancelled) {
          expect(o.atd, o.orderNo).toBeTruthy();
          expect(o.releasedBy).toBe('Platform Administrator');
          expect(o.dueAt, o.orderNo).toBeTruthy();
        }
      }
      // a partial receipt, a missing and an extra carrier, a cancelled order with its reason
      expect(orders.some((o) => o.missingAmount > 0 && o.extraAmount > 0 && o.status === Order.received)).toBe(true);
      // and its receipt, closed, counts them the same
      const receipts = await rows('receipt', { orgId, status: Enums.receiptStatus.closed });
      expect(receipts.some((r) => r.missingAmount > 0 && r.extraAmount > 0)).toBe(true);
      expect(orders.find((o) => o.status === Order.cancelled)?.remark).toMatch(/cancelled/i);
      const receiving = (await rows('receipt', { orgId, status: Enums.receiptStatus.receiving }))[0];
      const partial = await rows('ship-order-detail', { shipOrderId: receiving.shipOrderId });
      expect(partial.some((l) => l.status === Line.received) && partial.some((l) => l.status === Line.shipped)).toBe(true);
    }
  });

  it('spreads the orders over the four cities', async () => {
    const orgId = orgIds.demo;
    const orders = await rows('ship-order', { orgId });
    const whs = new Map((await rows('warehouse', { orgId })).map((w) => [w.id, w]));
    const locs = new Map((await rows('location', { orgId })).map((l) => [l.id, l]));
    const cityOf = (whId: number) => {
      const l = locs.get(whs.get(whId)!.locationId)!;
      return Object.entries(CITIES).sort(([, a], [, b]) => distanceKm(a, l) - distanceKm(b, l))[0][0];
    };
    const cities = new Set(orders.flatMap((o) => [cityOf(o.shipperWarehouseId), cityOf(o.receiverWarehouseId)]));
    expect([...cities].sort()).toEqual(Object.keys(CITIES).sort());
    // land trips name the truck (a tracked truck carrier) that carries them
    const trucks = new Set((await rows('carrier', { orgId, type: Enums.carrierType.truck })).map((c) => c.sn));
    const land = orders.filter((o) => o.transportType === Enums.transportType.land);
    expect(land.length).toBeGreaterThan(0);
    for (const o of land) expect(trucks.has(o.conveyanceNo), o.orderNo).toBe(true);
  });

  it('moved the carriers as the documents say: in/out rows, carrier logs, states and inventory agree', async () => {
    for (const org of DEMO_ORGS) {
      const orgId = orgIds[org.entryCode];
      const carriers = new Map((await rows('carrier', { orgId })).map((c) => [c.id, c]));
      const inout = await rows('carrier-inout', { orgId });
      const logs = await rows('carrier-log', { orgId, event: Enums.carrierLogEvent.transportStatusChange });
      let inTransit = 0;
      for (const o of await rows('ship-order', { orgId })) {
        const lines = await rows('ship-order-detail', { shipOrderId: o.id });
        const mine = inout.filter((r) => r.shipOrderNo === o.orderNo);
        const out = (id: number) => mine.filter((r) => r.carrierId === id && r.direction === Dir.outbound && r.warehouseId === o.shipperWarehouseId).length;
        const inn = (id: number) => mine.filter((r) => r.carrierId === id && r.direction === Dir.inbound && r.warehouseId === o.receiverWarehouseId).length;
        for (const l of lines) {
          const c = carriers.get(l.carrierId);
          const where = `${o.orderNo} ${l.carrierSn} line ${l.status}`;
          if (l.status === Line.pending) {
            expect([c.warehouseId, out(c.id), inn(c.id)], where).toEqual([o.shipperWarehouseId, 0, 0]);
          } else if (l.status === Line.shipped || l.status === Line.missing) {
            // missing on arrival: no longer in transit but abnormal (a count or a write-off follows)
            const moving = l.status === Line.missing ? Enums.transportStatus.abnormal : Enums.transportStatus.inTransit;
            expect([c.warehouseId, c.transportStatus, out(c.id), inn(c.id)], where).toEqual([null, moving, 1, 0]);
            expect(l.departureConfirmedBy).toBe(Enums.confirmSource.hand);
            inTransit++;
          } else if (l.status === Line.received) {
            expect([c.warehouseId, c.transportStatus, out(c.id), inn(c.id)], where).toEqual([o.receiverWarehouseId, Enums.transportStatus.inWarehouse, 1, 1]);
            expect(c.cycleCount).toBeGreaterThan(0);
            expect(l.receiptBy).toBe('Platform Administrator');
          } else {
            expect(l.status).toBe(Line.extra);
            expect([c.warehouseId, out(c.id), inn(c.id)], where).toEqual([o.receiverWarehouseId, 0, 1]);
          }
        }
        // one transport-status log per in/out row of the order, each naming it, and one per carrier missing on arrival
        const missingNow = lines.filter((l) => l.status === Line.missing).length;
        expect(logs.filter((g) => String(g.remark).includes(o.orderNo)).length, o.orderNo).toBe(mine.length + missingNow);
        const count = (status: number) => lines.filter((l) => l.status === status).length;
        expect([o.receivedAmount, o.missingAmount, o.extraAmount], o.orderNo).toEqual([count(Line.received), count(Line.missing), count(Line.extra)]);
        expect(o.totalAmount).toBe(lines.length - count(Line.extra));
      }
      // every seeded carrier stood in a warehouse: exactly the shipped ones are on the road now
      expect([...carriers.values()].filter((c) => c.warehouseId === null).length, org.code).toBe(inTransit);
      expect(inTransit).toBeGreaterThan(0);
      // inventory per warehouse: what it held (carriers never listed, and listed ones from their
      // order's shipper), less the outbound rows there, plus the inbound rows there. An extra
      // carrier came from where nobody recorded (that is what extra means): it counts where it came in.
      const origin = new Map<number, number | null>();
      for (const o of await rows('ship-order', { orgId }))
        for (const l of await rows('ship-order-detail', { shipOrderId: o.id })) origin.set(l.carrierId, l.status === Line.extra ? null : o.shipperWarehouseId);
      const shipping = inout.filter((r) => r.shipOrderNo);
      for (const w of await rows('warehouse', { orgId })) {
        const held = [...carriers.values()].filter((c) => (origin.has(c.id) ? origin.get(c.id) : c.warehouseId) === w.id).length;
        const left = shipping.filter((r) => r.warehouseId === w.id && r.direction === Dir.outbound).length;
        const came = shipping.filter((r) => r.warehouseId === w.id && r.direction === Dir.inbound).length;
        const here = [...carriers.values()].filter((c) => c.warehouseId === w.id).length;
        expect(here, `${org.code} ${w.name}: ${held} − ${left} + ${came}`).toBe(held - left + came);
      }
      expect(shipping.length).toBe(inout.length);
    }
  });

  it('shows the documents to the API and the orders on the road on the monitor', async () => {
    const admin = await login('admin', 'Admin@12345', 'demo');
    const all = (await call('/ship-order/list', { limit: 100 }, { Token: admin.token })).data;
    expect(all.total).toBe(shipPlans('small').length);
    const released = all.list.find((o: any) => o.status === Order.released);
    const lines = (await call('/ship-order-detail/list', { shipOrderId: released.id, limit: 100 }, { Token: admin.token })).data;
    expect(lines.total).toBe(released.totalAmount);
    // the monitor shows every order on the road (released or delivered), with its route
    const onMap = (await call('/ship-order/list4map', {}, { Token: admin.token })).data;
    const road = all.list
      .filter((o: any) => o.status === Order.released || o.status === Order.delivered)
      .map((o: any) => o.orderNo)
      .sort();
    const shown = (Array.isArray(onMap) ? onMap : onMap.list).map((o: any) => o.orderNo).sort();
    expect(shown).toEqual(road);
    expect(road.length).toBeGreaterThanOrEqual(5);
    // a trip recorded after the fact (left 30 hours ago) is late on the monitor, dated as it happened
    const late = (Array.isArray(onMap) ? onMap : onMap.list).filter((o: any) => o.late);
    expect(late.length).toBeGreaterThanOrEqual(1);
    expect(Date.now() - new Date(late[0].atd ?? all.list.find((o: any) => o.orderNo === late[0].orderNo).atd).getTime()).toBeGreaterThan(24 * 3_600_000);
  });
});

/** Every seeded resource the API can update: a few rows saved back as listed, unchanged. */
describe('seeded rows pass the API', () => {
  const writable = (res: ResourceDef) => res.fields.filter((f) => !f.readOnly && !f.writeOnly && f.type !== 'password').map((f) => f.name);
  const editable = (res: ResourceDef, row: Record<string, unknown>) => !(res.rules?.editForbidden ?? []).some((r) => r.values.includes(row[r.field] as never));
  /** a document's lines change only while its header is in an editable status (shipping documents past new are frozen) */
  const linesEditable = async (res: ResourceDef, row: Record<string, unknown>) => {
    for (const parent of Object.values(server.metadata.resources)) {
      const child = parent.children?.find((c) => c.resource === res.name);
      if (!child?.editableWhen) continue;
      const header = (await server.db.sequelize.models[parent.name].findByPk(row[child.foreignKey] as number, { raw: true })) as Record<string, unknown> | null;
      if (header && !child.editableWhen.values.includes(header[child.editableWhen.field] as never)) return false;
    }
    return true;
  };

  it('re-saves a sample of every seeded resource of every organisation through its update call', async () => {
    const admin = await login('admin', 'Admin@12345');
    const skip = new Set(['organization', 'user', 'role']);
    let checked = 0;
    for (const org of DEMO_ORGS) {
      const headers = { Token: admin.token, OrgId: String(orgIds[org.entryCode]) };
      for (const res of Object.values(server.metadata.resources)) {
        if (skip.has(res.name) || !res.orgScoped || res.calls?.update === false) continue;
        // the demo organisation: two rows of page 2 (page 1 when short); the others: one row
        const limit = org === DEMO_ORGS[0] ? 2 : 1;
        let listed = await call(resourceApiPath(res, 'list'), { limit, page: 2 }, headers);
        expect(listed.code, `${res.name}: ${listed.message}`).toBe(0);
        if (!listed.data.list.length) listed = await call(resourceApiPath(res, 'list'), { limit, page: 1 }, headers);
        for (const row of listed.data.list as Array<Record<string, unknown>>) {
          if (!editable(res, row) || !(await linesEditable(res, row))) continue;
          const body: Record<string, unknown> = { id: row.id };
          for (const f of writable(res)) if (row[f] !== undefined) body[f] = row[f];
          const saved = await call(resourceApiPath(res, 'update'), body, headers);
          expect(saved.code, `${org.code} ${res.name} #${row.id}: ${saved.message}`).toBe(0);
          for (const f of writable(res)) expect(saved.data[f], `${res.name}.${f}`).toEqual(row[f]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  }, 90_000);
});
