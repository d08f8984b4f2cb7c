/**
 * The simulated world, advanced one step at a time (pure: no network, testable). Carriers
 * dwell in a warehouse (seen by its hall gateway), leave through its gate, travel for a while
 * (now and then to a warehouse no route leads to: misuse), and enter the next warehouse
 * through its gate. Batteries drain (a few start near the threshold); some beacons go silent
 * for good; trucks drive between warehouses reporting position, altitude and temperature,
 * with an occasional cold-chain breach.
 */
import type { SimCarrier, SimFleet, SimGateway, SimTruck, SimWarehouse } from './sim-fleet';

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

  constructor(private readonly fleet: SimFleet, now: number, opts: DriverOptions = {}) {
    this.minute = opts.minuteMs ?? 60_000;
    this.rnd = opts.random ?? Math.random;
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
  }

  /** Frames for one step at `now` (call every few seconds). */
  step(now: number): Frame[] {
    const scans = new Map<SimGateway, Array<Record<string, unknown>>>();
    const seen = (g: SimGateway | undefined, c: SimCarrier, t: number) => {
      if (!g) return;
      let list = scans.get(g);
      if (!list) scans.set(g, (list = []));
      list.push({ mac: c.beaconMac, rssi: -55 - Math.round(this.rnd() * 30), battery: Math.max(0, Math.round(c.battery * 10) / 10), temperature: 18 + Math.round(this.rnd() * 40) / 10, txPower: -59, time: t });
    };
    for (const s of this.carriers) {
      if (s.silentAt !== null && now >= s.silentAt) continue;
      s.c.battery = Math.max(0, s.c.battery - 0.02);
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
    const frames: Frame[] = [];
    for (const [g, readings] of scans) frames.push({ topic: `rti/${g.orgCode}/gw/${g.mac}/scan`, payload: { gatewayMac: g.mac, time: now, readings }, via: g });
    if (now - this.lastHeartbeat >= 30_000) {
      this.lastHeartbeat = now;
      for (const g of this.fleet.gateways) if (!g.master) frames.push({ topic: `rti/${g.orgCode}/gw/${g.mac}/heartbeat`, payload: { gatewayMac: g.mac, time: now, uptime: 3600, firmware: 'sim-1.0', scanned: scans.get(g)?.length ?? 0 }, via: g });
    }
    const sensors = now - this.lastSensor >= this.minute;
    if (sensors) this.lastSensor = now;
    for (const [i, t] of this.fleet.trucks.entries()) {
      const via = this.relay.get(t.orgId);
      if (via) frames.push({ topic: `rti/${t.orgCode}/gps/${t.sn}/report`, payload: { sn: t.sn, reports: this.truckReports(t, i, now, sensors) }, via });
    }
    return frames;
  }

  /** position along a back-and-forth run between two warehouses of the organisation */
  private truckReports(t: SimTruck, i: number, now: number, sensors: boolean): Array<Record<string, unknown>> {
    const list = this.fleet.warehouses.filter((w) => w.orgId === t.orgId);
    const a = list[i % list.length];
    const b = list[(i + 1) % list.length];
    const period = 40 * this.minute;
    const phase = ((now + i * 7 * this.minute) % period) / period;
    const f = phase < 0.1 ? 0 : phase < 0.5 ? (phase - 0.1) / 0.4 : phase < 0.6 ? 1 : 1 - (phase - 0.6) / 0.4;
    const reports: Array<Record<string, unknown>> = [
      { ts: now, dataType: 10, longitude: a.lng + (b.lng - a.lng) * f, latitude: a.lat + (b.lat - a.lat) * f, altitude: 40 + Math.round(Math.sin(f * Math.PI) * 120), speed: f > 0 && f < 1 ? 72 : 0, battery: 80 - ((now / this.minute) % 60), mileage: Math.round(f * 100) },
    ];
    if (sensors) {
      // a cold-chain breach a few minutes in every hour
      const breach = Math.floor(now / this.minute) % 60 < 3 && i % 2 === 0;
      reports.push({ ts: now, dataType: 30, temperature1: breach ? (t.highTemp ?? 8) + 1.5 : Math.min(4, (t.highTemp ?? 8) - 4) + this.rnd(), humidity1: 55 + Math.round(this.rnd() * 10) });
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
