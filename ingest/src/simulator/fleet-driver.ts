/**
 * The simulated world, advanced one step at a time (pure: no network, testable). Carriers
 * dwell in a warehouse (seen by its hall gateway), leave through its gate, travel for a while
 * (now and then to a warehouse no route leads to: misuse), and enter the next warehouse
 * through its gate. Batteries drain (a few start near the threshold); some beacons go silent
 * for good; trucks drive between warehouses reporting position, altitude and temperature,
 * with an occasional cold-chain breach.
 *
 * Ship orders on the road (setShipments) take their carriers out of that wandering: they leave
 * through the shipper's gate (when released while the simulator watched; one released before
 * left unseen), ride the truck named on the order — its tracker reports positions along the
 * line from shipper to receiver — are heard by the truck-detection gateway on the way, and
 * arrive through the receiver's gate, where they wait in the hall to be received. Those gate
 * passes are what confirms the shipping list by beacon. Carriers listed on a new order stay
 * in their warehouse until it is released.
 */
import type { SimCarrier, SimFleet, SimGateway, SimShipment, SimTruck, SimWarehouse } from './sim-fleet';

export interface Frame {
  topic: string;
  payload: Record<string, unknown>;
  /** gateway whose credentials publish it */
  via: SimGateway;
}

interface CarrierSim {
  c: SimCarrier;
  at: number | null;
  to: number | null;
  until: number;
  silentAt: number | null;
}

export interface DriverOptions {
  /** dwell and travel times are scaled by this (1 = minutes, as in reality-lite demo) */
  minuteMs?: number;
  random?: () => number;
  /**
   * A trip lasts its route's transport time, at most this many simulated minutes (default 30):
   * a sea route of days still arrives while someone watches the demo.
   */
  maxTripMinutes?: number;
}

interface TripSim {
  s: SimShipment;
  start: number;
  end: number;
  /** whether its departure is still to be seen at the shipper's gate */
  leave: boolean;
  arrived: boolean;
}

export class FleetDriver {
  private readonly carriers: CarrierSim[];
  private readonly hall = new Map<number, SimGateway>();
  private readonly gate = new Map<number, SimGateway>();
  private readonly relay = new Map<number, SimGateway>();
  /** truck-detection gateways (purpose 60) per organisation: they hear carriers in transit */
  private readonly truck = new Map<number, SimGateway>();
  private readonly whs = new Map<number, SimWarehouse>();
  private readonly minute: number;
  private readonly rnd: () => number;
  private lastHeartbeat = 0;
  private lastSensor = 0;
  private readonly maxTrip: number;
  /** when the driver started watching: an order released before then left unseen */
  private readonly since: number;
  private readonly trips = new Map<number, TripSim>();
  /** carrier id → its trip (not wandering meanwhile) */
  private readonly onTrip = new Map<number, TripSim>();
  /** carriers waiting on a new order's list */
  private held = new Set<number>();
  private readonly byId = new Map<number, CarrierSim>();

  constructor(
    private readonly fleet: SimFleet,
    now: number,
    opts: DriverOptions = {},
  ) {
    this.minute = opts.minuteMs ?? 60_000;
    this.rnd = opts.random ?? Math.random;
    this.maxTrip = opts.maxTripMinutes ?? 30;
    this.since = now;
    for (const g of fleet.gateways) {
      if (g.master) {
        if (!this.relay.has(g.orgId)) this.relay.set(g.orgId, g);
      } else if (g.purpose === 60) {
        if (!this.truck.has(g.orgId)) this.truck.set(g.orgId, g);
      } else if (g.warehouseId !== null) {
        const map = g.purpose === 20 ? this.gate : this.hall;
        if (!map.has(g.warehouseId)) map.set(g.warehouseId, g);
      }
    }
    for (const w of fleet.warehouses) this.whs.set(w.id, w);
    const orgWhs = (org: number) => fleet.warehouses.filter((w) => w.orgId === org);
    this.carriers = fleet.carriers.map((c, i) => {
      const list = orgWhs(c.orgId);
      const home = c.warehouseId && this.whs.has(c.warehouseId) ? c.warehouseId : (list[i % list.length]?.id ?? null);
      return { c, at: home, to: null, until: now + this.rnd() * 5 * this.minute, silentAt: i % 29 === 5 ? now + 10 * this.minute : null };
    });
    for (const s of this.carriers) this.byId.set(s.c.id, s);
    if (fleet.shipping) this.setShipments(fleet.shipping.shipments, fleet.shipping.held, now);
  }

  /**
   * The open ship orders as they are now (the simulator re-reads them): new trips start, trips
   * whose order was received or closed end — their carriers wander on from the receiver.
   */
  setShipments(shipments: readonly SimShipment[], held: readonly number[], now: number): void {
    const current = new Set<number>();
    for (const s of shipments) {
      current.add(s.id);
      const known = this.trips.get(s.id);
      if (known) {
        known.s = s;
        continue;
      }
      const length = Math.max(2, Math.min(s.minutes, this.maxTrip)) * this.minute;
      // seen leaving only when released while watched; one already on the road is at most half way
      const leave = s.departedAt >= this.since;
      const start = leave ? Math.max(s.departedAt, now - this.minute) : Math.max(s.departedAt, now - length / 2);
      this.trips.set(s.id, { s, start, end: start + length, leave, arrived: false });
    }
    for (const [id, t] of this.trips) {
      if (current.has(id)) continue;
      this.trips.delete(id);
      for (const c of t.s.carriers) {
        const w = this.byId.get(c.id);
        if (w) Object.assign(w, { at: t.s.to, to: null, until: now + (3 + this.rnd() * 7) * this.minute });
      }
    }
    this.onTrip.clear();
    for (const t of this.trips.values()) for (const c of t.s.carriers) this.onTrip.set(c.id, t);
    this.held = new Set(held);
  }

  /** The open trips at `now` (stats, tests): how far along each is and whether it arrived. */
  tripsAt(now: number): Array<{ id: number; orderNo: string; progress: number; arrived: boolean }> {
    return [...this.trips.values()].map((t) => ({ id: t.s.id, orderNo: t.s.orderNo, progress: this.progress(t, now), arrived: t.arrived }));
  }

  /** Frames for one step at `now` (call every few seconds). */
  step(now: number): Frame[] {
    const scans = new Map<SimGateway, Array<Record<string, unknown>>>();
    const seen = (g: SimGateway | undefined, c: SimCarrier, t: number) => {
      if (!g) return;
      let list = scans.get(g);
      if (!list) scans.set(g, (list = []));
      list.push({
        mac: c.beaconMac,
        rssi: -55 - Math.round(this.rnd() * 30),
        battery: Math.max(0, Math.round(c.battery * 10) / 10),
        temperature: 18 + Math.round(this.rnd() * 40) / 10,
        txPower: -59,
        time: t,
      });
    };
    for (const s of this.carriers) {
      if (s.silentAt !== null && now >= s.silentAt) continue;
      // a carrier on a trip is driven by it (below)
      if (this.onTrip.has(s.c.id)) continue;
      s.c.battery = Math.max(0, s.c.battery - 0.02);
      // listed on a new order: it waits in its warehouse to be loaded
      if (this.held.has(s.c.id)) {
        if (s.at !== null) seen(this.hall.get(s.at), s.c, now);
        continue;
      }
      if (s.at !== null) {
        if (now < s.until) {
          seen(this.hall.get(s.at), s.c, now);
          continue;
        }
        // leave through the gate: one pass of three sightings
        for (let k = 0; k < 3; k++) seen(this.gate.get(s.at), s.c, now - 4000 + k * 2000);
        // a warehouse without a gate gateway: the carrier just stops being heard there
        s.to = this.next(s.c.orgId, s.at);
        s.at = null;
        s.until = now + (2 + this.rnd() * 4) * this.minute;
      } else if (now < s.until) {
        seen(this.truck.get(s.c.orgId), s.c, now);
      } else if (s.to !== null) {
        const gate = this.gate.get(s.to);
        if (gate) for (let k = 0; k < 3; k++) seen(gate, s.c, now - 4000 + k * 2000);
        else seen(this.hall.get(s.to), s.c, now);
        s.at = s.to;
        s.to = null;
        s.until = now + (3 + this.rnd() * 7) * this.minute;
      }
    }
    for (const t of this.trips.values()) this.trip(t, now, seen);
    const frames: Frame[] = [];
    for (const [g, readings] of scans) frames.push({ topic: `rti/${g.orgCode}/gw/${g.mac}/scan`, payload: { gatewayMac: g.mac, time: now, readings }, via: g });
    if (now - this.lastHeartbeat >= 30_000) {
      this.lastHeartbeat = now;
      for (const g of this.fleet.gateways)
        if (!g.master)
          frames.push({
            topic: `rti/${g.orgCode}/gw/${g.mac}/heartbeat`,
            payload: { gatewayMac: g.mac, time: now, uptime: 3600, firmware: 'sim-1.0', scanned: scans.get(g)?.length ?? 0 },
            via: g,
          });
    }
    const sensors = now - this.lastSensor >= this.minute;
    if (sensors) this.lastSensor = now;
    // trucks carrying an order drive its route; the others shuttle between warehouses. A truck
    // named on several open orders drives the earliest one still on the road, else waits at
    // the end of the last one it finished.
    const carrying = new Map<string, TripSim>();
    const rank = (t: TripSim) => (t.arrived || now >= t.end ? [1, -t.end] : [0, t.start]);
    for (const t of this.trips.values()) {
      if (!t.s.truck) continue;
      const held = carrying.get(t.s.truck.sn);
      const [a, b] = rank(t);
      const [c, d] = held ? rank(held) : [Infinity, Infinity];
      if (a < c || (a === c && b < d)) carrying.set(t.s.truck.sn, t);
    }
    const trucks: SimTruck[] = [
      ...this.fleet.trucks,
      ...[...carrying.values()].map((t) => t.s.truck!).filter((t) => !this.fleet.trucks.some((x) => x.sn === t.sn)),
    ];
    for (const [i, t] of trucks.entries()) {
      const via = this.relay.get(t.orgId);
      const trip = carrying.get(t.sn);
      if (via) frames.push({ topic: `rti/${t.orgCode}/gps/${t.sn}/report`, payload: { sn: t.sn, reports: this.truckReports(t, i, now, sensors, trip) }, via });
    }
    return frames;
  }

  /** One trip at `now`: the departure pass, the road (truck-detection gateway), the arrival pass, waiting in the hall. */
  private trip(t: TripSim, now: number, seen: (g: SimGateway | undefined, c: SimCarrier, t: number) => void): void {
    const { s } = t;
    if (now < t.start) {
      for (const c of s.carriers) seen(this.hall.get(s.from), c, now);
      return;
    }
    const pass = (w: number) => {
      const gate = this.gate.get(w);
      for (const c of s.carriers) {
        // one pass of three sightings; a warehouse without a gate only hears it inside
        if (gate) for (let k = 0; k < 3; k++) seen(gate, c, now - 4000 + k * 2000);
        else seen(this.hall.get(w), c, now);
      }
    };
    if (t.leave) {
      t.leave = false;
      pass(s.from);
      return;
    }
    if (now < t.end) {
      for (const c of s.carriers) seen(this.truck.get(s.orgId), c, now);
      return;
    }
    if (!t.arrived) {
      t.arrived = true;
      pass(s.to);
      return;
    }
    for (const c of s.carriers) seen(this.hall.get(s.to), c, now);
  }

  /** how far along its route a trip is at `now` (0 at the shipper, 1 at the receiver) */
  private progress(t: TripSim, now: number): number {
    return Math.min(1, Math.max(0, (now - t.start) / Math.max(1, t.end - t.start)));
  }

  /** position along its order's route, or along a back-and-forth run between two warehouses of the organisation */
  private truckReports(t: SimTruck, i: number, now: number, sensors: boolean, trip?: TripSim): Array<Record<string, unknown>> {
    const list = this.fleet.warehouses.filter((w) => w.orgId === t.orgId);
    let a = list[i % list.length];
    let b = list[(i + 1) % list.length];
    let f: number;
    const from = trip && this.whs.get(trip.s.from);
    const to = trip && this.whs.get(trip.s.to);
    if (trip && from && to) {
      [a, b] = [from, to];
      f = this.progress(trip, now);
    } else {
      const period = 40 * this.minute;
      const phase = ((now + i * 7 * this.minute) % period) / period;
      f = phase < 0.1 ? 0 : phase < 0.5 ? (phase - 0.1) / 0.4 : phase < 0.6 ? 1 : 1 - (phase - 0.6) / 0.4;
    }
    const reports: Array<Record<string, unknown>> = [
      {
        ts: now,
        dataType: 10,
        longitude: a.lng + (b.lng - a.lng) * f,
        latitude: a.lat + (b.lat - a.lat) * f,
        altitude: 40 + Math.round(Math.sin(f * Math.PI) * 120),
        speed: f > 0 && f < 1 ? 72 : 0,
        battery: 80 - ((now / this.minute) % 60),
        mileage: Math.round(f * 100),
      },
    ];
    if (sensors) {
      // a cold-chain breach a few minutes in every hour
      const breach = Math.floor(now / this.minute) % 60 < 3 && i % 2 === 0;
      reports.push({
        ts: now,
        dataType: 30,
        temperature1: breach ? (t.highTemp ?? 8) + 1.5 : Math.min(4, (t.highTemp ?? 8) - 4) + this.rnd(),
        humidity1: 55 + Math.round(this.rnd() * 10),
      });
    }
    return reports;
  }

  private next(orgId: number, from: number): number {
    const routes = this.fleet.routes.filter((r) => r.from === from);
    if (routes.length && this.rnd() > 0.05) return routes[Math.floor(this.rnd() * routes.length)].to;
    const others = this.fleet.warehouses.filter((w) => w.orgId === orgId && w.id !== from);
    return others.length ? others[Math.floor(this.rnd() * others.length)].id : from;
  }
}
