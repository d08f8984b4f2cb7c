import { describe, expect, it } from 'vitest';
import { decodeBeaconScan, decodeGatewayHeartbeat, decodeGpsReport, isReject, parseTopic } from '../src/decoders';
import { FleetDriver } from '../src/simulator/fleet-driver';
import type { SimFleet } from '../src/simulator/sim-fleet';

const gw = (id: number, mac: string, warehouseId: number | null, purpose: number, master = false) => ({ id, orgId: 1, orgCode: 'DEMO', mac, username: `sim-${mac}`, password: 'SimGateway1', warehouseId, purpose, master });
const fleet = (): SimFleet => ({
  gateways: [gw(1, '5A0001000001', 10, 10), gw(2, '5A0001000002', 10, 20), gw(3, '5A0001000003', 20, 10), gw(4, '5A0001000004', 20, 20), gw(5, '5A00010003E7', 10, 10, true), gw(6, '5A0001000060', null, 60)],
  warehouses: [{ id: 10, orgId: 1, name: 'Hamburg', lng: 9.99, lat: 53.55 }, { id: 20, orgId: 1, name: 'Prague', lng: 14.43, lat: 50.07 }],
  routes: [{ from: 10, to: 20, minutes: 20 }, { from: 20, to: 10, minutes: 20 }],
  carriers: Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, orgId: 1, sn: `SIM-C${i}`, beaconMac: `C30000${(i + 1).toString(16).padStart(6, '0').toUpperCase()}`, battery: i === 3 ? 20.5 : 70 })),
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
