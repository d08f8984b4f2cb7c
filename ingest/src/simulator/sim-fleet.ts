/**
 * The fleet the simulator drives. An organisation whose seeded gateways have MQTT logins
 * (seeds: username = serial in lower case, password "Mqtt@<serial>"; override the pattern
 * with SIMULATOR_GATEWAY_PASSWORD, `{sn}` standing for the serial) is driven as seeded: its
 * gateways, carriers with beacons, GPS trackers and routes. Otherwise the simulator
 * provisions what it needs, idempotently (rows found by their SIM- serials): a location per
 * warehouse, a hall and a gate gateway per warehouse and a master gateway (the GPS relay)
 * with known credentials, a ring of routes, carriers bound to the enabled beacons, trackers.
 * Written through the models directly (the simulator is a tool, not a user).
 */
import { Enums } from '@rti/metadata';
import type { Database } from '@rti/server';
import { Op } from 'sequelize';

type Row = Record<string, any>;

/** coordinates of the seeded sites; other names get a grid position */
const CITIES: Record<string, [number, number]> = {
  Hamburg: [9.9937, 53.5511],
  Rotterdam: [4.4777, 51.9244],
  Antwerp: [4.4025, 51.2194],
  Duisburg: [6.7623, 51.4344],
  Prague: [14.4378, 50.0755],
  Lyon: [4.8357, 45.764],
  Turin: [7.6869, 45.0703],
  Munich: [11.582, 48.1351],
  Vienna: [16.3738, 48.2082],
  Budapest: [19.0402, 47.4979],
};

export const SIM_PASSWORD = process.env.SIMULATOR_MQTT_PASSWORD || 'SimGateway1';

export interface SimGateway {
  id: number;
  orgId: number;
  orgCode: string;
  mac: string;
  username: string;
  password: string;
  warehouseId: number | null;
  purpose: number;
  master: boolean;
}

const PASSWORD_PATTERN = process.env.SIMULATOR_GATEWAY_PASSWORD || 'Mqtt@{sn}';
const canonical = (mac: unknown) =>
  String(mac ?? '')
    .replace(/[^0-9A-F]/gi, '')
    .toUpperCase();
export interface SimWarehouse {
  id: number;
  orgId: number;
  name: string;
  lng: number;
  lat: number;
}
export interface SimCarrier {
  id: number;
  orgId: number;
  sn: string;
  beaconMac: string;
  battery: number;
  warehouseId?: number | null;
}
export interface SimTruck {
  orgId: number;
  orgCode: string;
  sn: string;
  /** °C: the cold-chain breach goes above it */ highTemp?: number;
}
export interface SimRoute {
  from: number;
  to: number;
  minutes: number;
}
/**
 * An open ship order on the road (released or delivered, with shipped lines): its carriers
 * travel from the shipper to the receiver warehouse, on the truck named by its conveyance number.
 */
export interface SimShipment {
  id: number;
  orgId: number;
  orderNo: string;
  from: number;
  to: number;
  /** when it left (the order's atd), ms */
  departedAt: number;
  /** the route's transport time */
  minutes: number;
  /** carriers of its shipped lines that have a beacon */
  carriers: SimCarrier[];
  /** the GPS tracker of the truck carrying it */
  truck: SimTruck | null;
}
export interface SimShipping {
  shipments: SimShipment[];
  /** carriers on the shipping list of a new order: they wait in their warehouse to be loaded */
  held: number[];
}
export interface SimFleet {
  gateways: SimGateway[];
  warehouses: SimWarehouse[];
  carriers: SimCarrier[];
  trucks: SimTruck[];
  routes: SimRoute[];
  shipping?: SimShipping;
}

const macOf = (org: number, n: number) => `5A${org.toString(16).padStart(4, '0')}${n.toString(16).padStart(6, '0')}`.toUpperCase();

export async function ensureSimFleet(db: Database, opts: { devices: number; hash: (p: string) => Promise<string> }): Promise<SimFleet> {
  const m = db.models;
  const find = async (resource: string, where: Row): Promise<Row | null> => {
    const r = await m[resource].findOne({ where: where as never });
    return r ? (r.get({ plain: true }) as Row) : null;
  };
  const ensure = async (resource: string, where: Row, values: Row): Promise<Row> =>
    (await find(resource, where)) ?? (m[resource].create({ ...where, ...values }) as Promise<any>).then((r: any) => r.get({ plain: true }));
  const hash = await opts.hash(SIM_PASSWORD);
  const fleet: SimFleet = { gateways: [], warehouses: [], carriers: [], trucks: [], routes: [] };
  // organisations with something to drive: a device model and at least two warehouses
  const orgs: Array<{ org: Row; model: Row; warehouses: Row[] }> = [];
  for (const org of (await m.organization.findAll({ raw: true })) as Row[]) {
    if (org.available === false || !org.code) continue;
    const model = (await m['device-model'].findOne({ where: { orgId: org.id } as never, raw: true })) as Row | null;
    const warehouses = (await m.warehouse.findAll({ where: { orgId: org.id } as never, order: [['id', 'ASC']], raw: true })) as Row[];
    if (model && warehouses.length >= 2) orgs.push({ org, model, warehouses });
  }
  const perOrg = Math.max(1, Math.ceil(opts.devices / Math.max(1, orgs.length)));
  for (const { org, model, warehouses } of orgs) {
    const orgId = Number(org.id);
    if (await drivenAsSeeded(db, org, warehouses, perOrg, fleet)) continue;
    const whs: SimWarehouse[] = [];
    for (const [i, w] of warehouses.entries()) {
      const city = Object.keys(CITIES).find((c) => String(w.name).includes(c));
      const [lng, lat] = city ? CITIES[city] : [8 + i, 48 + (orgId % 5)];
      let locationId = w.locationId;
      if (!locationId) {
        locationId = (await ensure('location', { orgId, name: `SIM ${w.name}` }, { type: 0, longitude: lng, latitude: lat, fenceRadius: 300 })).id;
        await m.warehouse.update(
          {
            locationId,
            idleCheckTime: w.idleCheckTime ?? 30,
            bleInboundEnabled: true,
            bleOutboundEnabled: true,
            bleDeDup: true,
            gpsInboundEnabled: true,
            gpsOutboundEnabled: true,
          } as never,
          { where: { id: w.id } as never },
        );
      }
      whs.push({ id: w.id, orgId, name: w.name, lng, lat });
      let n = orgId * 1000 + i * 10;
      for (const [purpose, kind] of [
        [10, 'IN'],
        [20, 'GATE'],
      ] as const) {
        const mac = macOf(orgId, ++n);
        const g = await ensure(
          'device-slave-gateway',
          { orgId, sn: `SIM-${org.code}-${kind}-${i + 1}` },
          {
            name: `${w.name} ${kind === 'IN' ? 'hall' : 'gate'}`,
            mac,
            deviceModelId: model.id,
            warehouseId: w.id,
            purpose,
            useStatus: 20,
            mqttClientId: `sim-${mac}`,
            mqttUsername: `sim-${mac}`,
            mqttPassword: hash,
          },
        );
        fleet.gateways.push({
          id: g.id,
          orgId,
          orgCode: org.code,
          mac: canonical(g.mac),
          username: g.mqttUsername,
          password: SIM_PASSWORD,
          warehouseId: w.id,
          purpose,
          master: false,
        });
      }
    }
    fleet.warehouses.push(...whs);
    const relayMac = macOf(orgId, orgId * 1000 + 999);
    const relay = await ensure(
      'device-master-gateway',
      { orgId, sn: `SIM-${org.code}-RELAY` },
      {
        name: 'GPS relay',
        mac: relayMac,
        deviceModelId: model.id,
        warehouseId: whs[0].id,
        purpose: 10,
        useStatus: 20,
        mqttClientId: `sim-${relayMac}`,
        mqttUsername: `sim-${relayMac}`,
        mqttPassword: hash,
      },
    );
    fleet.gateways.push({
      id: relay.id,
      orgId,
      orgCode: org.code,
      mac: relayMac,
      username: relay.mqttUsername,
      password: SIM_PASSWORD,
      warehouseId: whs[0].id,
      purpose: 10,
      master: true,
    });
    for (let i = 0; i < whs.length; i++) {
      const from = whs[i];
      const to = whs[(i + 1) % whs.length];
      const r = await ensure(
        'route',
        { orgId, fromWarehouseId: from.id, toWarehouseId: to.id },
        { routeName: `SIM ${from.name} → ${to.name}`, transportType: 20, transportTime: 20, distance: 100 },
      );
      fleet.routes.push({ from: from.id, to: to.id, minutes: Number(r.transportTime) || 20 });
    }
    const project = await ensure('project', { orgId, name: 'Simulator' }, {});
    const code = await ensure('carrier-code', { orgId, code: 'SIM-BOX' }, { name: 'Simulated box', projectId: project.id, type: 10, available: true });
    const beacons = (await m['device-beacon'].findAll({ where: { orgId, useStatus: 20 } as never, order: [['id', 'ASC']], limit: perOrg, raw: true })) as Row[];
    for (const [i, b] of beacons.entries()) {
      const sn = `SIM-${org.code}-C${String(i + 1).padStart(4, '0')}`;
      const c = await ensure(
        'carrier',
        { orgId, sn },
        {
          name: `Sim box ${i + 1}`,
          carrierCodeId: code.id,
          projectId: project.id,
          type: 10,
          status: 10,
          beaconId: b.id,
          warehouseId: whs[i % whs.length].id,
          transportStatus: 10,
        },
      );
      if (b.carrierId !== c.id) await m['device-beacon'].update({ carrierId: c.id } as never, { where: { id: b.id } as never });
      fleet.carriers.push({ id: c.id, orgId, sn, beaconMac: canonical(b.mac), battery: i % 17 === 3 ? 22 : 60 + (i % 40), warehouseId: c.warehouseId });
    }
    const trucks = Math.max(1, Math.ceil(beacons.length / 10));
    for (let i = 1; i <= trucks; i++) {
      const sn = `SIM-${org.code}-T${i}`;
      await ensure(
        'device-gps',
        { orgId, sn },
        {
          name: `Truck ${i}`,
          deviceModelId: model.id,
          useStatus: 20,
          highTempThreshold: 8,
          lowTempThreshold: 0,
          shakeThreshold: 2,
          highHumidityThreshold: 90,
          lowHumidityThreshold: 10,
        },
      );
      fleet.trucks.push({ orgId, orgCode: org.code, sn, highTemp: 8 });
    }
  }
  fleet.shipping = await loadShipping(db, fleet);
  return fleet;
}

/** ship orders on the road: their shipped carriers travel */
const ON_THE_ROAD: number[] = [Enums.shipOrderStatus.released, Enums.shipOrderStatus.delivered];
const NEW_ORDER = Enums.shipOrderStatus.new;
const PENDING_LINE = Enums.shipOrderLineStatus.pending;
const SHIPPED_LINE = Enums.shipOrderLineStatus.shipped;

/**
 * The open ship orders of the driven organisations (re-read every little while, so an order
 * released in the console starts moving): orders on the road with their shipped carriers and
 * truck, and the carriers listed on new orders, which stay where they are.
 */
export async function loadShipping(db: Database, fleet: Pick<SimFleet, 'warehouses' | 'gateways'>): Promise<SimShipping> {
  const m = db.models;
  const orgIds = [...new Set(fleet.warehouses.map((w) => w.orgId))];
  if (!m['ship-order'] || !m['ship-order-detail'] || !orgIds.length) return { shipments: [], held: [] };
  const orgCode = new Map(fleet.gateways.map((g) => [g.orgId, g.orgCode]));
  const orders = (await m['ship-order'].findAll({
    where: { orgId: { [Op.in]: orgIds }, status: { [Op.in]: [...ON_THE_ROAD, NEW_ORDER] } } as never,
    attributes: ['id', 'orgId', 'orderNo', 'status', 'shipperWarehouseId', 'receiverWarehouseId', 'routeId', 'atd', 'conveyanceNo'],
    order: [['id', 'ASC']],
    raw: true,
  })) as Row[];
  if (!orders.length) return { shipments: [], held: [] };
  const lines = (await m['ship-order-detail'].findAll({
    where: { shipOrderId: { [Op.in]: orders.map((o) => o.id) }, status: { [Op.in]: [PENDING_LINE, SHIPPED_LINE] } } as never,
    attributes: ['shipOrderId', 'carrierId', 'status'],
    raw: true,
  })) as Row[];
  const held = lines.filter((l) => l.status === PENDING_LINE).map((l) => Number(l.carrierId));
  const shipped = lines.filter((l) => l.status === SHIPPED_LINE);
  const road = orders.filter((o) => ON_THE_ROAD.includes(Number(o.status)));
  const carriers = shipped.length
    ? ((await m.carrier.findAll({
        where: { id: { [Op.in]: shipped.map((l) => l.carrierId) }, beaconId: { [Op.ne]: null } } as never,
        attributes: ['id', 'orgId', 'sn', 'beaconId'],
        raw: true,
      })) as Row[])
    : [];
  const beacons = carriers.length
    ? new Map(
        (
          (await m['device-beacon'].findAll({
            where: { id: { [Op.in]: carriers.map((c) => c.beaconId) } } as never,
            attributes: ['id', 'mac', 'battery', 'useStatus'],
            raw: true,
          })) as Row[]
        ).map((b) => [b.id, b]),
      )
    : new Map<number, Row>();
  const byId = new Map(carriers.map((c) => [Number(c.id), c]));
  const routes = (await m.route.findAll({
    where: { orgId: { [Op.in]: orgIds } } as never,
    attributes: ['id', 'fromWarehouseId', 'toWarehouseId', 'transportTime'],
    raw: true,
  })) as Row[];
  // the order's route, else the first from its shipper to its receiver (as the transport clock reads it)
  const minutesOf = (o: Row) => {
    const r = o.routeId
      ? routes.find((x) => x.id === o.routeId)
      : routes.find((x) => x.fromWarehouseId === o.shipperWarehouseId && x.toWarehouseId === o.receiverWarehouseId);
    return Number(r?.transportTime) || 60;
  };
  // the truck: the carrier whose serial is the conveyance number, through its GPS tracker
  const plates = [...new Set(road.map((o) => o.conveyanceNo).filter(Boolean))];
  const trucks = plates.length
    ? ((await m.carrier.findAll({
        where: { orgId: { [Op.in]: orgIds }, sn: { [Op.in]: plates }, gpsId: { [Op.ne]: null } } as never,
        attributes: ['orgId', 'sn', 'gpsId'],
        raw: true,
      })) as Row[])
    : [];
  const trackers = trucks.length
    ? new Map(
        (
          (await m['device-gps'].findAll({
            where: { id: { [Op.in]: trucks.map((t) => t.gpsId) } } as never,
            attributes: ['id', 'sn', 'highTempThreshold'],
            raw: true,
          })) as Row[]
        ).map((g) => [g.id, g]),
      )
    : new Map<number, Row>();
  const truckOf = (o: Row): SimTruck | null => {
    const t = trucks.find((x) => x.orgId === o.orgId && x.sn === o.conveyanceNo);
    const g = t && trackers.get(t.gpsId);
    return g ? { orgId: Number(o.orgId), orgCode: orgCode.get(Number(o.orgId)) ?? '', sn: String(g.sn), highTemp: Number(g.highTempThreshold) || 8 } : null;
  };
  const shipments: SimShipment[] = [];
  for (const o of road) {
    const list: SimCarrier[] = [];
    for (const l of shipped) {
      if (l.shipOrderId !== o.id) continue;
      const c = byId.get(Number(l.carrierId));
      const b = c && beacons.get(c.beaconId);
      if (!c || !b || b.useStatus === Enums.deviceUseStatus.disabled) continue;
      list.push({
        id: Number(c.id),
        orgId: Number(c.orgId),
        sn: String(c.sn),
        beaconMac: canonical(b.mac),
        battery: Number(b.battery) || 80,
        warehouseId: null,
      });
    }
    if (!list.length) continue;
    shipments.push({
      id: Number(o.id),
      orgId: Number(o.orgId),
      orderNo: String(o.orderNo),
      from: Number(o.shipperWarehouseId),
      to: Number(o.receiverWarehouseId),
      departedAt: o.atd ? new Date(o.atd).getTime() : Date.now(),
      minutes: minutesOf(o),
      carriers: list,
      truck: truckOf(o),
    });
  }
  return { shipments, held };
}

/** Drives the organisation's own seeded gateways, carriers and trackers; false when it has none with logins. */
async function drivenAsSeeded(db: Database, org: Row, warehouses: Row[], perOrg: number, fleet: SimFleet): Promise<boolean> {
  const m = db.models;
  const orgId = Number(org.id);
  const where = { orgId, useStatus: 20 } as never;
  const login = (r: Row) => r.mqttUsername && !String(r.sn).startsWith('SIM-');
  const slaves = ((await m['device-slave-gateway'].findAll({ where, raw: true })) as Row[]).filter(login);
  const masters = ((await m['device-master-gateway'].findAll({ where, raw: true })) as Row[]).filter(login);
  if (!slaves.length || !masters.length) return false;
  const gw = (r: Row, master: boolean): SimGateway => ({
    id: r.id,
    orgId,
    orgCode: org.code,
    mac: canonical(r.mac),
    username: r.mqttUsername,
    password: PASSWORD_PATTERN.replace('{sn}', r.sn),
    warehouseId: r.warehouseId ?? null,
    purpose: Number(r.purpose) || 10,
    master,
  });
  fleet.gateways.push(...slaves.map((r) => gw(r, false)), gw(masters[0], true));
  const locations = new Map(((await m.location.findAll({ where: { orgId } as never, raw: true })) as Row[]).map((l) => [l.id, l]));
  for (const [i, w] of warehouses.entries()) {
    const l = locations.get(w.locationId);
    fleet.warehouses.push({ id: w.id, orgId, name: w.name, lng: Number(l?.longitude ?? 8 + i), lat: Number(l?.latitude ?? 48) });
  }
  for (const r of (await m.route.findAll({ where: { orgId } as never, raw: true })) as Row[]) {
    if (r.fromWarehouseId && r.toWarehouseId) fleet.routes.push({ from: r.fromWarehouseId, to: r.toWarehouseId, minutes: Number(r.transportTime) || 60 });
  }
  const carriers = (await m.carrier.findAll({
    where: { orgId, beaconId: { [Op.ne]: null } } as never,
    order: [['id', 'ASC']],
    limit: perOrg,
    raw: true,
  })) as Row[];
  const beacons = new Map(
    ((await m['device-beacon'].findAll({ where: { id: carriers.map((c) => c.beaconId) } as never, raw: true })) as Row[]).map((b) => [b.id, b]),
  );
  for (const [i, c] of carriers.entries()) {
    const b = beacons.get(c.beaconId);
    if (!b || b.useStatus === 30) continue;
    fleet.carriers.push({
      id: c.id,
      orgId,
      sn: c.sn,
      beaconMac: canonical(b.mac),
      battery: Number(b.battery) || (i % 17 === 3 ? 22 : 60 + (i % 40)),
      warehouseId: c.warehouseId ?? null,
    });
  }
  const trackers = (await m['device-gps'].findAll({ where, order: [['id', 'ASC']], limit: Math.max(1, Math.ceil(perOrg / 10)), raw: true })) as Row[];
  for (const t of trackers) fleet.trucks.push({ orgId, orgCode: org.code, sn: t.sn, highTemp: Number(t.highTempThreshold) || 8 });
  return true;
}
