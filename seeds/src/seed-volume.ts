/**
 * One organisation's operational data at the chosen volume: dictionary, projects, models,
 * suppliers/customers and their locations, warehouses around the four cities with their
 * fences, routes, carrier codes (route and warehouse config, parts), gateways with MQTT
 * logins, beacons, GPS trackers, carriers (each with its beacon, trucks with a tracker),
 * register/bind log events and carrier binds. Every natural key is looked up first, so a
 * second run adds nothing and a partial one gets completed.
 */
import type { OrgVolume } from './scale';
import { CITIES, type DemoOrg } from './demo-data';
import type { BulkWriter } from './bulk-writer';
import { distanceKm, macAddress, pad, rng, type Rng } from './random';
import { gatewayMqttClientId, gatewayMqttPassword, gatewayMqttUsername } from './gateway-credentials';

type Row = Record<string, unknown>;
const DAY = 86_400_000;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** SPEC §9 dictionary categories: a few rows each. */
const DICTIONARY: Array<[number, string, string]> = [
  [10, 'PP', 'Polypropylene'],
  [10, 'STEEL', 'Steel'],
  [10, 'HDPE', 'HDPE'],
  [10, 'ALU', 'Aluminium'],
  [20, 'PCS', 'Pieces'],
  [20, 'SET', 'Set'],
  [30, 'KLT', 'Small load carrier'],
  [30, 'GLT', 'Large load carrier'],
  [40, 'BLUE', 'Blue'],
  [40, 'GREY', 'Grey'],
  [50, 'STORE', 'In warehouse'],
  [50, 'GATE', 'Gate'],
  [60, 'OWNED', 'Owned'],
  [60, 'LEASED', 'Leased'],
  [70, 'EAST', 'East region'],
  [70, 'SOUTH', 'South region'],
  [80, 'OPS', 'Operations'],
  [80, 'MAINT', 'Maintenance team'],
  [90, 'WEAR', 'Wear and tear'],
  [91, 'WORKSHOP', 'Workshop'],
  [92, 'FRAME', 'Frame'],
  [93, 'REPAIR', 'Repair'],
];

interface CodeDef {
  code: string;
  name: string;
  type: number;
  spec: string;
  color: number;
  material: string;
  weight: number;
  /** share of the non-truck carriers */
  share: number;
  particular?: number;
}
const CARRIER_CODES: CodeDef[] = [
  { code: 'KLT-6428', name: 'KLT box 600x400x280', type: 10, spec: '600x400x280', color: 20, material: 'PP', weight: 2.9, share: 30 },
  { code: 'KLT-4314', name: 'KLT box 400x300x147', type: 10, spec: '400x300x147', color: 30, material: 'PP', weight: 1.1, share: 25 },
  { code: 'GLT-1210', name: 'GLT large box 1200x1000', type: 10, spec: '1200x1000x975', color: 20, material: 'HDPE', weight: 55, share: 10 },
  { code: 'PAL-1208', name: 'Plastic pallet 1200x800', type: 30, spec: '1200x800x150', color: 30, material: 'HDPE', weight: 18.5, share: 15 },
  { code: 'RACK-ST1', name: 'Steel rack', type: 30, spec: '1600x1200x1100', color: 40, material: 'STEEL', weight: 96, share: 8 },
  { code: 'FLT-25', name: 'Forklift 2.5 t', type: 20, spec: '2.5t', color: 50, material: 'STEEL', weight: 3850, share: 2, particular: 10 },
  { code: 'CNT-20', name: '20 ft container', type: 50, spec: '20GP', color: 20, material: 'STEEL', weight: 2200, share: 5 },
  { code: 'OTH-CAGE', name: 'Roll cage', type: 70, spec: '800x700x1800', color: 30, material: 'ALU', weight: 32, share: 5 },
];
const TRUCK_CODE: CodeDef = {
  code: 'TRK-40',
  name: 'Truck 40 ft',
  type: 40,
  spec: '40ft',
  color: 10,
  material: 'STEEL',
  weight: 15000,
  share: 0,
  particular: 10,
};
const ROUTE_COLORS = ['#1677FF', '#52C41A', '#FA8C16', '#EB2F96', '#722ED1', '#13C2C2', '#FADB14', '#F5222D'];
/** slave gateways after one gate per warehouse: in-warehouse, geofence, truck detection in turn */
const PURPOSES = [10, 50, 60];
const GATE = 20;

/**
 * Where slave gateway k stands and what it does: first a gate gateway at every warehouse (so
 * every shipment's departure and arrival can be seen by a gate and confirm its shipping list),
 * then the others spread over the warehouses.
 */
function slavePlace(k: number, whIds: number[]): { warehouseId: number; purpose: number } {
  if (k < whIds.length) return { warehouseId: whIds[k], purpose: GATE };
  const j = k - whIds.length;
  return { warehouseId: whIds[j % whIds.length], purpose: PURPOSES[j % PURPOSES.length] };
}

export interface VolumeResult {
  /** warehouse ids in code order */
  warehouseIds: number[];
}

export async function seedVolume(bw: BulkWriter, org: DemoOrg, orgIndex: number, orgId: number, vol: OrgVolume, now: number): Promise<VolumeResult> {
  const r = rng(0x5eed + orgIndex * 7919);
  const { whIds, codeIds, models, loopProject, fleetProject, beaconModels, gpsModel } = await bw.step(() => seedReference(bw, org, orgIndex, orgId, vol, r));

  const scope = { orgId };
  const up = (resource: string, key: string[], rows: Row[]) => bw.upsertMissing(resource, scope, key, rows);
  const iso = (ms: number) => new Date(ms).toISOString();
  const codeDefs = [...CARRIER_CODES, TRUCK_CODE];

  // Beacons (one per carrier plus spares), GPS trackers, carriers.
  const trucks = vol.gps + Math.ceil(vol.gps / 10);
  const truckEvery = Math.max(1, Math.floor(vol.carriers / trucks));
  const isTruck = (i: number) => i % truckEvery === 0 && i / truckEvery <= trucks;
  const beaconSn = (i: number) => `${org.code}-B${pad(i, 6)}`;
  const gpsSn = (g: number) => `${org.code}-G${pad(g, 4)}`;
  const beaconRows: Row[] = [];
  for (let i = 1; i <= vol.carriers + vol.spareBeacons; i++) {
    const bound = i <= vol.carriers;
    const startTime = now - r.int(30, 720) * DAY;
    beaconRows.push({
      sn: beaconSn(i),
      name: `Beacon ${i}`,
      mac: macAddress(`C3:0${orgIndex}:00`, i),
      deviceModelId: beaconModels[i % beaconModels.length],
      projectId: loopProject,
      status: bound
        ? r.weighted([
            [10, 80],
            [20, 15],
            [0, 5],
          ] as const)
        : 0,
      useStatus: bound ? 20 : 10,
      battery: bound ? r.int(8, 100) : 100,
      lastReportTime: bound ? iso(now - r.int(1, 600) * 60_000) : null,
      startTime: iso(startTime),
    });
  }
  const beacons = await up('device-beacon', ['sn'], beaconRows);
  const gpsRows: Row[] = [];
  for (let g = 1; g <= vol.gps; g++) {
    gpsRows.push({
      sn: gpsSn(g),
      name: `Truck tracker ${g}`,
      imei: `86${orgIndex}${pad(g, 12)}`,
      sim: `8986${orgIndex}${pad(g, 10)}`,
      hwid: `HW-${org.code}-${pad(g, 4)}`,
      deviceModelId: gpsModel,
      status: r.weighted([
        [10, 85],
        [20, 15],
      ] as const),
      useStatus: 20,
      configStatus: 20,
      battery: r.int(15, 100),
      lastReportTime: iso(now - r.int(1, 240) * 60_000),
      startTime: iso(now - r.int(30, 500) * DAY),
      reportCycle: r.pick([1, 2, 4]),
      locateModel: 10,
    });
  }
  const gps = await up('device-gps', ['sn'], gpsRows);

  const weights = CARRIER_CODES.map((c, i) => [i, c.share] as const);
  const carrierRows: Row[] = [];
  let truckNo = 0;
  const kindOf = new Map<string, number>();
  for (let i = 1; i <= vol.carriers; i++) {
    const truck = isTruck(i) && truckNo < trucks;
    const def = truck ? TRUCK_CODE : CARRIER_CODES[r.weighted(weights)];
    const codeIndex = codeDefs.indexOf(def);
    const gpsNo = truck ? ++truckNo : 0;
    const status = truck
      ? 10
      : r.weighted([
          [10, 70],
          [0, 10],
          [20, 10],
          [50, 5],
          [60, 2],
          [40, 2],
          [30, 1],
        ] as const);
    const transportStatus =
      status !== 10
        ? 10
        : truck
          ? r.weighted([
              [20, 60],
              [10, 40],
            ] as const)
          : r.weighted([
              [10, 80],
              [20, 14],
              [30, 6],
            ] as const);
    const w = r.weighted(whIds.map((_, k) => [k, k === 0 ? 3 : 1] as const));
    const startTime = now - r.int(20, 700) * DAY;
    const inbound = transportStatus !== 20 ? now - r.int(1, 20 * 24) * 3_600_000 : null;
    const sn = `${org.code}-C${pad(i, 6)}`;
    kindOf.set(sn, def.type);
    carrierRows.push({
      sn,
      name: `${def.name} #${i}`,
      carrierCodeId: codeIds[codeIndex],
      projectId: truck ? fleetProject : loopProject,
      type: def.type,
      color: def.color,
      limits: 0,
      beaconId: beacons.ids.get(beaconSn(i)),
      gpsId: gpsNo && gpsNo <= vol.gps ? gps.ids.get(gpsSn(gpsNo)) : null,
      deviceModelId: beaconModels[i % beaconModels.length],
      warehouseId: whIds[w],
      status,
      loadingStatus: r.weighted([
        [10, 55],
        [20, 45],
      ] as const),
      transportStatus,
      startTime: iso(startTime),
      timeoutDays: truck ? 3 : r.pick([7, 14, 30]),
      cycleCount: r.int(0, 60),
      turnoverDays: round(r.next() * 20 + 2, 1),
      inboundWarehouseId: inbound ? whIds[w] : null,
      inboundTime: inbound ? iso(inbound) : null,
      outboundWarehouseId: inbound ? null : whIds[w],
      outboundTime: inbound ? null : iso(now - r.int(1, 72) * 3_600_000),
    });
  }
  const carriers = await up('carrier', ['sn'], carrierRows);
  // Devices point back at their carrier, as the binding plugin leaves them.
  await bw.step(async () => {
    await bw.linkBack('device-beacon', 'carrierId', 'carrier', 'beaconId', orgId);
    await bw.linkBack('device-gps', 'carrierId', 'carrier', 'gpsId', orgId);
  });

  await seedLogs(
    bw,
    orgId,
    carrierRows.filter((c) => carriers.added.has(String(c.sn))),
    carriers.ids,
  );
  await seedBinds(bw, org, orgId, vol, carrierRows, carriers.ids, kindOf, r);
  // Last, so that their passwords (prehashed by the caller) are ready by then.
  await seedGateways(bw, org, orgIndex, orgId, vol, whIds, models, now, r);
  return { warehouseIds: whIds };
}

/** The serial numbers of an organisation's gateways (master and slave). */
export function gatewaySerials(org: DemoOrg, vol: OrgVolume): string[] {
  return [
    ...Array.from({ length: vol.masterGateways }, (_, k) => gatewaySn(org, 'master', k)),
    ...Array.from({ length: vol.slaveGateways }, (_, k) => gatewaySn(org, 'slave', k)),
  ];
}
const gatewaySn = (org: DemoOrg, kind: 'master' | 'slave', k: number) => `${org.code}-${kind === 'master' ? 'MGW' : 'SGW'}${pad(k + 1, 3)}`;

async function seedGateways(
  bw: BulkWriter,
  org: DemoOrg,
  orgIndex: number,
  orgId: number,
  vol: OrgVolume,
  whIds: number[],
  models: Map<string, number>,
  now: number,
  r: Rng,
): Promise<void> {
  const rows = (kind: 'master' | 'slave', n: number) =>
    Array.from({ length: n }, (_, k) => {
      const sn = gatewaySn(org, kind, k);
      const serial = orgIndex * 2000 + (kind === 'master' ? 1000 : 0) + k + 1;
      return {
        sn,
        name: `${kind === 'master' ? 'Master gateway' : 'Gateway'} ${k + 1}`,
        mac: macAddress(`AC:23:3${kind === 'master' ? 'E' : 'F'}`, serial),
        imei: `35${orgIndex}${kind === 'master' ? 1 : 2}${pad(k + 1, 11)}`,
        sim: `8981${orgIndex}${pad(serial, 10)}`,
        hwid: `${org.code}-${kind.toUpperCase()}-${pad(k + 1, 3)}`,
        deviceModelId: models.get(org.gatewayModels[kind].name),
        ...(kind === 'master' ? { warehouseId: whIds[k % whIds.length], purpose: 10 } : slavePlace(k, whIds)),
        status: r.weighted([
          [10, 90],
          [20, 10],
        ] as const),
        useStatus: 20,
        lastReportTime: new Date(now - r.int(1, 30) * 60_000).toISOString(),
        startTime: new Date(now - r.int(60, 700) * DAY).toISOString(),
        mqttClientId: gatewayMqttClientId(sn),
        mqttUsername: gatewayMqttUsername(sn),
        mqttPassword: gatewayMqttPassword(sn),
      };
    });
  await bw.upsertMissing('device-master-gateway', { orgId }, ['sn'], rows('master', vol.masterGateways));
  await bw.upsertMissing('device-slave-gateway', { orgId }, ['sn'], rows('slave', vol.slaveGateways));
}

/** What the binding plugin writes when a carrier is registered with its devices. */
async function seedLogs(bw: BulkWriter, orgId: number, added: Row[], ids: Map<string, number>): Promise<void> {
  const carrierLog: Row[] = [];
  const beaconLog: Row[] = [];
  const gpsLog: Row[] = [];
  const operator = 'admin';
  for (const c of added) {
    const carrierId = ids.get(String(c.sn));
    const t = Date.parse(String(c.startTime));
    const at = (min: number) => new Date(t + min * 60_000).toISOString();
    carrierLog.push({ orgId, carrierId, event: 10, newValue: String(c.status), operator, time: at(0) });
    beaconLog.push({ orgId, beaconId: c.beaconId, event: 10, newValue: '10', operator, time: at(-60) });
    carrierLog.push({ orgId, carrierId, event: 20, beaconId: c.beaconId, operator, time: at(1) });
    beaconLog.push({ orgId, beaconId: c.beaconId, carrierId, event: 20, operator, time: at(1) });
    if (c.gpsId) {
      gpsLog.push({ orgId, gpsId: c.gpsId, event: 10, newValue: '20', operator, time: at(-120) });
      carrierLog.push({ orgId, carrierId, event: 40, gpsId: c.gpsId, operator, time: at(2) });
      gpsLog.push({ orgId, gpsId: c.gpsId, carrierId, event: 20, operator, time: at(2) });
    }
  }
  for (const [resource, rows] of [
    ['carrier-log', carrierLog],
    ['device-beacon-log', beaconLog],
    ['device-gps-log', gpsLog],
  ] as const) {
    if (!bw.has(resource)) continue;
    const valid = await Promise.all(rows.map((row) => bw.validated(resource, row)));
    await bw.step(() => bw.insertRows(resource, valid));
  }
}

/** Carrier binds: a pallet or rack carrying a few boxes, in each bind status. */
async function seedBinds(
  bw: BulkWriter,
  org: DemoOrg,
  orgId: number,
  vol: OrgVolume,
  carriers: Row[],
  ids: Map<string, number>,
  kindOf: Map<string, number>,
  r: Rng,
): Promise<void> {
  if (!bw.has('carrier-bind') || !bw.has('carrier-bind-detail')) return;
  const usable = (types: number[]) => carriers.filter((c) => types.includes(kindOf.get(String(c.sn))!) && c.status !== 30).map((c) => ids.get(String(c.sn))!);
  const mains = usable([30]);
  const boxes = usable([10]);
  const binds: Array<{ bindNo: string; carrierId: number; status: number; details: Array<{ carrierId: number; qty: number }> }> = [];
  for (let b = 0; b < vol.carrierBinds && b < mains.length; b++) {
    const details = [];
    for (let d = 0, n = r.int(2, 4); d < n && boxes.length; d++) details.push({ carrierId: boxes.shift()!, qty: r.int(1, 6) });
    if (!details.length) break;
    binds.push({ bindNo: `${org.code}-BD${pad(b + 1, 4)}`, carrierId: mains[b], status: [10, 10, 20, 30][b % 4], details });
  }
  const saved = await bw.upsertMissing(
    'carrier-bind',
    { orgId },
    ['bindNo'],
    binds.map((b) => ({
      bindNo: b.bindNo,
      carrierId: b.carrierId,
      status: b.status,
      totalAmount: b.details.reduce((n, d) => n + d.qty, 0),
    })),
  );
  const details = binds.filter((b) => saved.added.has(b.bindNo)).flatMap((b) => b.details.map((d) => ({ carrierBindId: saved.ids.get(b.bindNo), ...d })));
  await bw.upsertMissing('carrier-bind-detail', { orgId }, ['carrierBindId', 'carrierId'], details);
}

/** Dictionary, projects, models, partners, sites, warehouses, fences, routes, carrier codes. */
async function seedReference(bw: BulkWriter, org: DemoOrg, orgIndex: number, orgId: number, vol: OrgVolume, r: Rng) {
  const scope = { orgId };
  const up = (resource: string, key: string[], rows: Row[]) => bw.upsertMissing(resource, scope, key, rows);

  // Reference data.
  const dict = (
    await up(
      'dictionary',
      ['category', 'value'],
      DICTIONARY.map(([category, value, name], i) => ({ category, value, name, displayOrder: i + 1 })),
    )
  ).ids;
  const projects = (
    await up(
      'project',
      ['name'],
      [
        { name: `${org.shortName} Returnables`, remark: 'Boxes, pallets and racks in the loop' },
        { name: `${org.shortName} Fleet`, remark: 'Trucks, forklifts and containers' },
      ],
    )
  ).ids;
  const loopProject = projects.get(`${org.shortName} Returnables`)!;
  const fleetProject = projects.get(`${org.shortName} Fleet`)!;
  const modelRows = [
    ...org.models.map((m, i) => ({
      ...m,
      ipLevel: i === 2 ? 'IP68' : 'IP67',
      batteryThreshold: 20,
      offlineCheckTime: 60,
      features: i === 2 ? ['temperature', 'vibration'] : ['temperature'],
    })),
    { ...org.gpsModel, ipLevel: 'IP67', batteryThreshold: 15, offlineCheckTime: 480, features: ['temperature', 'humidity', 'speed', 'vibration'] },
    { ...org.gatewayModels.master, ipLevel: 'IP65', batteryThreshold: 0, offlineCheckTime: 10, features: [] },
    { ...org.gatewayModels.slave, ipLevel: 'IP65', batteryThreshold: 0, offlineCheckTime: 10, features: [] },
  ];
  const models = (await up('device-model', ['name'], modelRows)).ids;
  const beaconModels = org.models.map((m) => models.get(m.name)!);
  const gpsModel = models.get(org.gpsModel.name)!;

  // Warehouses around the organisation's cities, each with its site (location) and fence.
  const perCity = new Map<string, number>();
  const sites = Array.from({ length: vol.warehouses }, (_, w) => {
    const cityKey = org.cities[w % org.cities.length];
    const city = CITIES[cityKey];
    const k = perCity.get(cityKey) ?? 0;
    perCity.set(cityKey, k + 1);
    const name = k === 0 ? `${city.name} Hub` : `${city.name} ${city.district[k % city.district.length]} Depot${k >= city.district.length ? ` ${k}` : ''}`;
    return {
      cityKey,
      code: `${org.code}-WH${pad(w + 1, 2)}`,
      name,
      shortName: k === 0 ? city.name : city.district[k % city.district.length],
      longitude: round(city.longitude + (k === 0 ? 0.02 : r.next() * 0.36 - 0.18), 6),
      latitude: round(city.latitude + (k === 0 ? -0.01 : r.next() * 0.24 - 0.12), 6),
      fenceRadius: k === 0 ? 500 : r.pick([150, 200, 250, 300, 400]),
    };
  });
  const partners = [
    { type: 10, entCode: 'SUP-01', name: `${org.shortName} Plastics Supplier`, city: org.cities[0] },
    { type: 10, entCode: 'SUP-02', name: `${org.shortName} Steel Works`, city: org.cities[1 % org.cities.length] },
    { type: 20, entCode: 'CUS-01', name: `${org.shortName} Auto Assembly`, city: org.cities[0] },
    { type: 20, entCode: 'CUS-02', name: `${org.shortName} Electronics`, city: org.cities[1 % org.cities.length] },
    { type: 20, entCode: 'CUS-03', name: `${org.shortName} Retail DC`, city: org.cities[org.cities.length - 1] },
    { type: 30, entCode: 'PKG-01', name: `${org.shortName} Packaging Services`, city: org.cities[0] },
  ];
  const partnerIds = (
    await up(
      'supplier-customer',
      ['name'],
      partners.map((p, i) => ({
        type: p.type,
        entCode: p.entCode,
        name: p.name,
        shortName: p.name.split(' ').slice(1).join(' '),
        address: `${100 + i * 17} Industrial Road, ${CITIES[p.city].name}`,
        contact1: ['Li Wei', 'Sato Yuki', 'Chen Jing', 'Tanaka Ken', 'Wang Fang', 'Suzuki Aoi'][i],
        mobile1:
          CITIES[p.city].country === 'CN'
            ? `+86 138 ${pad(1000 + orgIndex * 100 + i, 4)} ${pad(5000 + i, 4)}`
            : `+81 90 ${pad(2000 + orgIndex * 100 + i, 4)} ${pad(6000 + i, 4)}`,
        available: true,
      })),
    )
  ).ids;
  const customers = partners.filter((p) => p.type === 20);
  const locations = (
    await up(
      'location',
      ['name'],
      [
        ...sites.map((s, w) => ({
          name: `${s.name} site`,
          type: 0,
          // a VMI warehouse stands at a customer's: its site is the customer's, so the pool
          // analytics' partner balances and statements hold the carriers there
          ...(w % 5 === 4 ? { supplierCustomerId: partnerIds.get(customers[Math.floor(w / 5) % customers.length].name) } : {}),
          address: `${s.shortName}, ${CITIES[s.cityKey].name}`,
          longitude: s.longitude,
          latitude: s.latitude,
          fenceRadius: s.fenceRadius,
        })),
        ...partners.map((p) => {
          const c = CITIES[p.city];
          return {
            name: `${p.name} plant`,
            type: p.type,
            supplierCustomerId: partnerIds.get(p.name),
            address: `${c.name}`,
            longitude: round(c.longitude + r.next() * 0.3 - 0.15, 6),
            latitude: round(c.latitude + r.next() * 0.2 - 0.1, 6),
            fenceRadius: 300,
          };
        }),
      ],
    )
  ).ids;
  const warehouses = (
    await up(
      'warehouse',
      ['code'],
      sites.map((s, w) => {
        const max = w === 0 ? 5000 : r.pick([800, 1200, 1500, 2000]);
        return {
          code: s.code,
          name: s.name,
          shortName: s.shortName,
          locationId: locations.get(`${s.name} site`),
          color: ROUTE_COLORS[w % ROUTE_COLORS.length],
          available: true,
          vmi: w % 5 === 4,
          needDelivery: w === 0,
          inoutProcessor: w === 0 ? 10 : r.pick([10, 20]),
          minInventory: Math.round(max / 10),
          maxInventory: max,
          theoryInventory: Math.round(max / 2),
          minCarrierCount: 10,
          projectCycleDays: 14,
          projectCycleDaysSent: 7,
          outboundCheckTime: 30,
          idleCheckTime: 1440 * (w === 0 ? 3 : 7),
          truckInboundCheckTime: 20,
          truckOutboundCheckTime: 20,
          visibleInMap: true,
          fenceVisibleInMap: true,
        };
      }),
    )
  ).ids;
  const whIds = sites.map((s) => warehouses.get(s.code)!);
  if (bw.has('fence')) {
    await up(
      'fence',
      ['name'],
      sites.map((s, w) => ({
        name: `${s.code} fence`,
        type: 10,
        longitude: s.longitude,
        latitude: s.latitude,
        radius: s.fenceRadius,
        warehouseId: whIds[w],
        color: '#1890FF',
      })),
    );
  }

  // Routes: hub ↔ every warehouse, and a ring through the others.
  const pairs: Array<[number, number]> = [];
  for (let w = 1; w < sites.length; w++) pairs.push([0, w], [w, 0]);
  for (let w = 1; w + 1 < sites.length; w++) pairs.push([w, w + 1]);
  const routeRows = pairs.map(([a, b], i) => {
    const from = sites[a];
    const to = sites[b];
    const sea = CITIES[from.cityKey].country !== CITIES[to.cityKey].country;
    const km = Math.max(1, distanceKm(from, to) * (sea ? 1.15 : 1.3));
    const minutes = Math.round(sea ? (km / 30) * 60 + 720 : (km / 55) * 60 + 45);
    return {
      routeName: `${from.name} → ${to.name}`,
      fromWarehouseId: whIds[a],
      toWarehouseId: whIds[b],
      distance: round(km, 1),
      transportType: sea ? 10 : 20,
      transportTime: minutes,
      exceptionCheckTime: Math.round(minutes * 1.5),
      needDrawLine: from.cityKey !== to.cityKey,
      routeColor: ROUTE_COLORS[i % ROUTE_COLORS.length],
    };
  });
  const routes = (await up('route', ['routeName'], routeRows)).ids;
  const routeIds = routeRows.map((rr) => routes.get(rr.routeName)!);

  // Carrier codes with their route and warehouse config and parts.
  const codeDefs = [...CARRIER_CODES, TRUCK_CODE];
  const codes = (
    await up(
      'carrier-code',
      ['code'],
      codeDefs.map((c, i) => ({
        code: c.code,
        name: c.name,
        projectId: c.type === 40 || c.type === 20 || c.type === 50 ? fleetProject : loopProject,
        type: c.type,
        spec: c.spec,
        color: c.color,
        materialId: dict.get(`10|${c.material}`),
        unitId: dict.get('20|PCS'),
        supplierCustomerId: partnerIds.get(partners[i % 2].name),
        available: true,
        particular: c.particular ?? null,
        weight: c.weight,
        needTruckDetection: c.type === 40,
        lifeCycle: c.type === 10 ? 1825 : 3650,
        maintainCycle: c.type === 10 ? 365 : 180,
        warnCycle: 30,
        remark: null,
      })),
    )
  ).ids;
  const codeIds = codeDefs.map((c) => codes.get(c.code)!);
  if (bw.has('carrier-code-route')) {
    await up(
      'carrier-code-route',
      ['carrierCodeId', 'routeId'],
      codeIds.flatMap((carrierCodeId, i) =>
        [...new Set([i % routeIds.length, (i + 3) % routeIds.length, (i * 5 + 1) % routeIds.length])].map((k) => ({ carrierCodeId, routeId: routeIds[k] })),
      ),
    );
  }
  if (bw.has('carrier-code-warehouse')) {
    await up(
      'carrier-code-warehouse',
      ['carrierCodeId', 'warehouseId'],
      codeIds.flatMap((carrierCodeId, i) =>
        whIds.map((warehouseId, w) => ({
          carrierCodeId,
          warehouseId,
          minInventory: 20 + i * 5,
          maxInventory: (w === 0 ? 2000 : 400) + i * 50,
          perAc: 12 + i,
          outboundCheckTime: 60,
          idleCheckTime: 2880 + w * 60,
        })),
      ),
    );
  }
  if (bw.has('part')) {
    await up(
      'part',
      ['carrierCodeId', 'code'],
      codeDefs.flatMap((c, i) => [
        { carrierCodeId: codeIds[i], code: `${c.code}-ASM`, name: `${c.name} assembly`, qty: 1 },
        { carrierCodeId: codeIds[i], code: `${c.code}-P01`, name: 'Body', parentCode: `${c.code}-ASM`, qty: 1 },
        { carrierCodeId: codeIds[i], code: `${c.code}-P02`, name: c.type === 10 ? 'Lid' : 'Frame', parentCode: `${c.code}-ASM`, qty: c.type === 10 ? 1 : 2 },
        { carrierCodeId: codeIds[i], code: `${c.code}-P03`, name: 'Label holder', parentCode: `${c.code}-P01`, qty: 2 },
      ]),
    );
  }

  return { whIds, codeIds, models, loopProject, fleetProject, beaconModels, gpsModel };
}
