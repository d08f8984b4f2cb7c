import { describe, expect, it } from 'vitest';
import { decodeBeaconScan, decodeGatewayHeartbeat, decodeGpsReport, isReject, parseTopic } from '../src/decoders';
import { FleetDriver } from '../src/simulator/fleet-driver';
import type { SimCarrier, SimFleet, SimShipment } from '../src/simulator/sim-fleet';

const gw = (id: number, mac: string, warehouseId: number | null, purpose: number, master = false) => ({
  id,
  orgId: 1,
  orgCode: 'DEMO',
  mac,
  username: `sim-${mac}`,
  password: 'SimGateway1',
  warehouseId,
  purpose,
  master,
});
const fleet = (): SimFleet => ({
  gateways: [
    gw(1, '5A0001000001', 10, 10),
    gw(2, '5A0001000002', 10, 20),
    gw(3, '5A0001000003', 20, 10),
    gw(4, '5A0001000004', 20, 20),
    gw(5, '5A00010003E7', 10, 10, true),
    gw(6, '5A0001000060', null, 60),
  ],
  warehouses: [
    { id: 10, orgId: 1, name: 'Hamburg', lng: 9.99, lat: 53.55 },
    { id: 20, orgId: 1, name: 'Prague', lng: 14.43, lat: 50.07 },
  ],
  routes: [
    { from: 10, to: 20, minutes: 20 },
    { from: 20, to: 10, minutes: 20 },
  ],
  carriers: Array.from({ length: 30 }, (_, i) => ({
    id: 100 + i,
    orgId: 1,
    sn: `SIM-C${i}`,
    beaconMac: `C30000${(i + 1).toString(16).padStart(6, '0').toUpperCase()}`,
    battery: i === 3 ? 20.5 : 70,
  })),
  trucks: [{ orgId: 1, orgCode: 'DEMO', sn: 'SIM-DEMO-T1' }],
});

function decode(topic: string, payload: unknown) {
  const t = parseTopic(topic)!;
  const ctx = { org: 1, source: t.device, receivedAt: Date.now(), maxBytes: 1 << 20, maxReadings: 1000 };
  const buf = Buffer.from(JSON.stringify(payload));
  return t.kind === 'scan' ? decodeBeaconScan(buf, ctx) : t.kind === 'report' ? decodeGpsReport(buf, ctx) : decodeGatewayHeartbeat(buf, ctx, t.kind);
}

describe('fleet simulator driver', () => {
  it('produces frames every decoder accepts, on topics of the publishing gateway', () => {
    const t0 = Date.UTC(2026, 10, 22, 8, 0, 0);
    const d = new FleetDriver(fleet(), t0, { minuteMs: 1000, random: () => 0.5 });
    let frames = 0;
    for (let s = 0; s < 120; s++) {
      for (const f of d.step(t0 + s * 5000)) {
        frames++;
        const r = decode(f.topic, f.payload);
        expect(isReject(r), f.topic).toBe(false);
        expect(r && !isReject(r) && r.dropped).toBeFalsy();
        const topic = parseTopic(f.topic)!;
        // slave gateways publish only their own topics; GPS goes through the master relay
        if (topic.deviceType === 'gw') expect(topic.device).toBe(f.via.mac);
        else expect(f.via.master).toBe(true);
      }
    }
    expect(frames).toBeGreaterThan(200);
  });

  it('moves carriers through gates between warehouses, drains batteries and silences some beacons', () => {
    const t0 = Date.UTC(2026, 10, 22, 8, 0, 0);
    const f = fleet();
    const d = new FleetDriver(f, t0, { minuteMs: 1000, random: () => 0.5 });
    const gateSightings = new Map<string, number>();
    const seenAt = new Map<string, number>();
    let truckSightings = 0;
    for (let s = 0; s < 240; s++) {
      const now = t0 + s * 1000;
      for (const fr of d.step(now)) {
        const readings = (fr.payload.readings as Array<{ mac: string }>) ?? [];
        for (const r of readings) {
          seenAt.set(r.mac, now);
          if (fr.via.purpose === 60) truckSightings++;
          if (fr.via.purpose === 20) gateSightings.set(fr.via.mac, (gateSightings.get(fr.via.mac) ?? 0) + 1);
        }
      }
    }
    // both warehouses' gates saw passes
    expect(gateSightings.get('5A0001000002')).toBeGreaterThan(0);
    expect(gateSightings.get('5A0001000004')).toBeGreaterThan(0);
    // carriers in transit are heard by the truck-detection gateway
    expect(truckSightings).toBeGreaterThan(0);
    expect(f.carriers[3].battery).toBeLessThan(20);
    // carrier index 5 goes silent after ten simulated minutes
    const silent = f.carriers[5].beaconMac;
    expect(seenAt.get(silent) ?? 0).toBeLessThan(t0 + 10 * 1000 + 1);
  });

  it('trucks breach their own high temperature threshold a few minutes an hour', () => {
    const f = fleet();
    f.trucks[0].highTemp = 60;
    const t0 = Date.UTC(2026, 10, 22, 8, 0, 0);
    const d = new FleetDriver(f, t0, { minuteMs: 1000, random: () => 0.5 });
    const temps: number[] = [];
    for (let s = 0; s < 120; s++) {
      for (const fr of d.step(t0 + s * 1000)) {
        for (const r of (fr.payload.reports as Array<Record<string, number>>) ?? []) if (r.dataType === 30) temps.push(r.temperature1);
      }
    }
    expect(temps.some((t) => t > 60)).toBe(true);
    expect(temps.filter((t) => t <= 60).length).toBeGreaterThan(temps.filter((t) => t > 60).length);
  });
});

/** Ship orders on the road (issue 12 "Demo"): carriers travel with their order, the truck drives its route. */
describe('fleet simulator driver: shipping', () => {
  const t0 = Date.UTC(2026, 10, 22, 8, 0, 0);
  const MIN = 1000;
  const HALL_10 = '5A0001000001';
  const GATE_10 = '5A0001000002';
  const HALL_20 = '5A0001000003';
  const GATE_20 = '5A0001000004';
  const TRUCK_GW = '5A0001000060';
  const shipped = (f: SimFleet, from: number, to: number) => f.carriers.slice(from, to).map((c) => ({ ...c, warehouseId: null }));
  const shipment = (f: SimFleet, id: number, departedAt: number, carriers: SimCarrier[], truck = true): SimShipment => ({
    id,
    orgId: 1,
    orderNo: `SO${id}`,
    from: 10,
    to: 20,
    departedAt,
    minutes: 600,
    carriers,
    truck: truck ? { orgId: 1, orgCode: 'DEMO', sn: 'DEMO-G0007', highTemp: 8 } : null,
  });
  /** every sighting per carrier mac: [gateway mac, time of the step that produced it] in order */
  function run(d: FleetDriver, from: number, steps: number, each?: (now: number) => void) {
    const sightings = new Map<string, Array<[string, number]>>();
    const positions: Array<[number, number]> = [];
    for (let s = 0; s < steps; s++) {
      const now = from + s * MIN;
      each?.(now);
      for (const fr of d.step(now)) {
        for (const r of (fr.payload.readings as Array<{ mac: string }>) ?? []) {
          let list = sightings.get(r.mac);
          if (!list) sightings.set(r.mac, (list = []));
          list.push([fr.via.mac, now]);
        }
        if (fr.payload.sn === 'DEMO-G0007')
          for (const r of fr.payload.reports as Array<Record<string, number>>) if (r.dataType === 10) positions.push([r.longitude, r.latitude]);
      }
    }
    return { sightings, positions };
  }
  /** the gateways that heard a carrier, in order, repeats collapsed */
  const path = (list: Array<[string, number]> = []) => list.map(([g]) => g).filter((g, i, all) => g !== all[i - 1]);

  it('takes an order released while watching out through the shipper gate, on the road and in through the receiver gate', () => {
    const f = fleet();
    const d = new FleetDriver(f, t0, { minuteMs: MIN, random: () => 0.5, maxTripMinutes: 20 });
    const cargo = shipped(f, 10, 14);
    const { sightings, positions } = run(d, t0, 40, (now) => {
      // released in the console two simulated minutes in; the simulator re-reads the orders
      if (now === t0 + 2 * MIN) d.setShipments([shipment(f, 7, now - 500, cargo)], [], now);
    });
    for (const c of cargo) {
      const p = path(sightings.get(c.beaconMac));
      // before the release it wandered like any carrier; from the release on: gate, road, gate, hall
      const after = (sightings.get(c.beaconMac) ?? []).filter(([, t]) => t >= t0 + 2 * MIN);
      expect(path(after), c.sn).toEqual([GATE_10, TRUCK_GW, GATE_20, HALL_20]);
      expect(p.length).toBeGreaterThanOrEqual(4);
      // one pass of three sightings at each gate
      expect(after.filter(([g]) => g === GATE_10).length).toBe(3);
      expect(after.filter(([g]) => g === GATE_20).length).toBe(3);
    }
    // the truck drives from the shipper (lng 9.99) to the receiver (lng 14.43), never back, and stops there
    expect(positions.length).toBeGreaterThan(20);
    const lngs = positions.map(([lng]) => lng);
    for (let i = 1; i < lngs.length; i++) expect(lngs[i]).toBeGreaterThanOrEqual(lngs[i - 1] - 1e-9);
    // it left half a simulated minute before the order was read: just outside the shipper
    expect(lngs[0]).toBeGreaterThan(9.99);
    expect(lngs[0]).toBeLessThan(10.2);
    expect(lngs[lngs.length - 1]).toBeCloseTo(14.43, 5);
    expect(d.tripsAt(t0 + 40 * MIN)).toEqual([{ id: 7, orderNo: 'SO7', progress: 1, arrived: true }]);
  });

  it('lets an order already on the road arrive without a second departure pass, within the trip cap', () => {
    const f = fleet();
    const cargo = shipped(f, 0, 3);
    // released an hour before the simulator started (its departure was not seen)
    f.shipping = { shipments: [shipment(f, 8, t0 - 60 * MIN, cargo, false)], held: [] };
    const d = new FleetDriver(f, t0, { minuteMs: MIN, random: () => 0.5, maxTripMinutes: 20 });
    expect(d.tripsAt(t0)[0].progress).toBeCloseTo(0.5, 5);
    const { sightings } = run(d, t0, 30);
    for (const c of cargo) {
      const p = path(sightings.get(c.beaconMac));
      expect(p, c.sn).toEqual([TRUCK_GW, GATE_20, HALL_20]);
      // half the 20-minute cap was left: it arrives ten minutes in
      const arrived = sightings.get(c.beaconMac)!.find(([g]) => g === GATE_20)![1];
      expect(arrived).toBeGreaterThanOrEqual(t0 + 10 * MIN);
      expect(arrived).toBeLessThanOrEqual(t0 + 11 * MIN);
    }
  });

  it('keeps carriers on a new order in their warehouse, and lets received ones wander on from the receiver', () => {
    const f = fleet();
    const waiting = f.carriers.slice(20, 24);
    const cargo = shipped(f, 0, 2);
    f.shipping = { shipments: [shipment(f, 9, t0 - 60 * MIN, cargo, false)], held: waiting.map((c) => c.id) };
    for (const c of waiting) c.warehouseId = 10;
    const d = new FleetDriver(f, t0, { minuteMs: MIN, random: () => 0.5, maxTripMinutes: 4 });
    // received (the order leaves the open list) twenty minutes in; the waiting order is still new
    const { sightings } = run(d, t0, 80, (now) => {
      if (now === t0 + 20 * MIN)
        d.setShipments(
          [],
          waiting.map((c) => c.id),
          now,
        );
    });
    for (const c of waiting) expect(path(sightings.get(c.beaconMac)), c.sn).toEqual([HALL_10]);
    for (const c of cargo) {
      const later = path((sightings.get(c.beaconMac) ?? []).filter(([, t]) => t > t0 + 20 * MIN));
      // it stood in the receiver's hall, then left through its gate again
      expect(later[0], c.sn).toBe(HALL_20);
      expect(later).toContain(GATE_20);
      expect(later).toContain(TRUCK_GW);
    }
  });

  it('lets a truck named on two open orders finish the earlier trip before driving the later one', () => {
    const f = fleet();
    const first = shipment(f, 11, t0 - 60 * MIN, shipped(f, 0, 2));
    f.shipping = { shipments: [first], held: [] };
    const d = new FleetDriver(f, t0, { minuteMs: MIN, random: () => 0.5, maxTripMinutes: 20 });
    const lngAt: Array<[number, number]> = [];
    for (let k = 0; k < 40; k++) {
      const now = t0 + k * MIN;
      // the same truck, back from the receiver, on an order released five minutes in
      if (k === 5) d.setShipments([first, { ...shipment(f, 12, now - 100, shipped(f, 2, 4)), from: 20, to: 10 }], [], now);
      for (const fr of d.step(now))
        if (fr.payload.sn === 'DEMO-G0007')
          for (const r of fr.payload.reports as Array<Record<string, number>>) if (r.dataType === 10) lngAt.push([now, r.longitude]);
    }
    const until = lngAt.filter(([t]) => t < t0 + 10 * MIN).map(([, l]) => l);
    const after = lngAt.filter(([t]) => t >= t0 + 10 * MIN).map(([, l]) => l);
    // out to the receiver (east) until the first trip arrives, then back west on the second
    for (let i = 1; i < until.length; i++) expect(until[i]).toBeGreaterThanOrEqual(until[i - 1]);
    expect(until[until.length - 1]).toBeGreaterThan(14);
    // the second trip is already on its way back when the truck takes it up
    expect(after[0]).toBeLessThan(14);
    for (let i = 1; i < after.length; i++) expect(after[i]).toBeLessThanOrEqual(after[i - 1]);
    expect(after[after.length - 1]).toBeCloseTo(9.99, 5);
  });
});
