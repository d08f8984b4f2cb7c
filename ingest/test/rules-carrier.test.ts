import { describe, expect, it } from 'vitest';
import { CARRIER_LOG, CARRIER_REASON, DIRECTION, TRANSPORT } from '../src/state/effects';
import { GW_GATE_A, GW_GATE_B, GW_GATE_C, GW_IN_A, GW_IN_B, GW_TRUCK, MIN, Rig, snapshot } from './state-helpers/rig';

const transports = (rig: Rig) =>
  rig
    .of('log')
    .filter((l) => l.kind === 'carrier' && l.event === CARRIER_LOG.transportStatusChange)
    .map((l) => Number(l.newValue));
const inouts = (rig: Rig) => rig.of('inout').map((e) => [e.direction, e.warehouseId]);

/** a gate pass: three sightings a few seconds apart */
function pass(rig: Rig, gate: string): void {
  for (let i = 0; i < 3; i++) {
    rig.scan(gate, [{}]);
    rig.clock += 5000;
  }
}

describe('carrier location and gate passes', () => {
  it('places a carrier in the warehouse of the in-warehouse gateway that sees its beacon', () => {
    const snap = snapshot();
    snap.carriers[0].warehouseId = null;
    snap.carriers[0].transportStatus = 0;
    const rig = new Rig(snap);
    rig.scan(GW_IN_B, [{}]);
    const flushed = rig.engine.flush();
    expect(flushed.carriers[0]).toMatchObject({ warehouseId: 2, transportStatus: TRANSPORT.inWarehouse, longitude: 12, latitude: 50 });
    expect(rig.of('carrier')[0]).toMatchObject({ id: 100, warehouseId: 2, transportStatus: 10 });
    expect(inouts(rig)).toEqual([]); // no gate, no in/out row
  });

  it('a gate pass out of the current warehouse is outbound (20), into another warehouse inbound (10); one row per pass', () => {
    const rig = new Rig();
    pass(rig, GW_GATE_A);
    expect(inouts(rig)).toEqual([[DIRECTION.outbound, 1]]);
    rig.clock += 60 * MIN;
    pass(rig, GW_GATE_B);
    expect(inouts(rig)).toEqual([
      [20, 1],
      [10, 2],
    ]);
    expect(rig.of('inout')[1]).toMatchObject({ sn: 'C-100', name: 'Box 100', carrierCodeId: 5, carrierId: 100 });
    expect(transports(rig)).toEqual([TRANSPORT.inTransit, TRANSPORT.inWarehouse]);
    rig.engine.flush();
    expect(rig.of('carrier').at(-1)).toMatchObject({ warehouseId: 2, inboundWarehouseId: 2, outboundWarehouseId: 1 });
  });

  it('BLE de-duplication: a second pass soon after is ignored with bleDeDup on, counted with it off', () => {
    const on = new Rig();
    pass(on, GW_GATE_A);
    on.clock += 4 * MIN;
    pass(on, GW_GATE_A);
    expect(inouts(on)).toEqual([[20, 1]]);

    const snap = snapshot();
    snap.warehouses[0].bleDeDup = false;
    const off = new Rig(snap);
    pass(off, GW_GATE_A);
    off.clock += 4 * MIN;
    pass(off, GW_GATE_A);
    expect(inouts(off)).toEqual([
      [20, 1],
      [10, 1],
    ]);
  });

  it('honours the warehouse BLE inbound/outbound flags', () => {
    const snap = snapshot();
    snap.warehouses[0].bleOutbound = false;
    snap.warehouses[1].bleInbound = false;
    const rig = new Rig(snap);
    pass(rig, GW_GATE_A);
    expect(inouts(rig)).toEqual([]);
    rig.scan(GW_TRUCK, [{}]); // loaded on a truck: in transit
    expect(transports(rig)).toEqual([TRANSPORT.inTransit]);
    rig.clock += 30 * MIN;
    pass(rig, GW_GATE_B);
    expect(inouts(rig)).toEqual([]);
  });

  it('inside antennas hearing the carrier at the dock right after an outbound pass do not bring it back', () => {
    const rig = new Rig();
    pass(rig, GW_GATE_A);
    rig.scan(GW_IN_A, [{}]);
    expect(transports(rig)).toEqual([TRANSPORT.inTransit]);
  });
});

describe('transport rules', () => {
  it('idle after the warehouse idleCheckTime: one alert, long-idle log, status idle; cleared when it leaves', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{}]);
    rig.advance(119 * MIN);
    expect(rig.alerts('carrier')).toHaveLength(0);
    rig.advance(2 * MIN);
    rig.advance(30 * MIN);
    const idle = rig.alerts('carrier');
    expect(idle.map((a) => a.reason)).toEqual([CARRIER_REASON.idle]);
    expect(idle[0]).toMatchObject({ sn: 'C-100', warehouseId: 1 });
    expect(rig.of('log').some((l) => l.kind === 'carrier' && l.event === CARRIER_LOG.longIdle)).toBe(true);
    expect(transports(rig)).toEqual([TRANSPORT.idle]);
    pass(rig, GW_GATE_A);
    expect(rig.cleared('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.idle]);
    expect(transports(rig)).toEqual([TRANSPORT.idle, TRANSPORT.inTransit]);
  });

  it('transport timeout against the route transportTime: abnormal, one alert, cleared on arrival', () => {
    const rig = new Rig();
    pass(rig, GW_GATE_A);
    rig.advance(170 * MIN);
    expect(rig.alerts('carrier')).toHaveLength(0);
    rig.advance(11 * MIN); // routes from warehouse 1: 180 minutes
    rig.advance(30 * MIN);
    expect(rig.alerts('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.transportTimeout]);
    expect(transports(rig)).toEqual([TRANSPORT.inTransit, TRANSPORT.abnormal]);
    pass(rig, GW_GATE_B);
    expect(rig.cleared('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.transportTimeout]);
    expect(transports(rig)).toEqual([TRANSPORT.inTransit, TRANSPORT.abnormal, TRANSPORT.inWarehouse]);
  });

  it('misuse / invalid route: arriving where no route leads raises reason 10 (abnormal) until it leaves', () => {
    const rig = new Rig();
    pass(rig, GW_GATE_A);
    rig.clock += 30 * MIN;
    pass(rig, GW_GATE_C); // no route 1 → 3
    expect(rig.alerts('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.invalidRoute]);
    expect(rig.alerts('carrier')[0].warehouseId).toBe(3);
    expect(transports(rig)).toEqual([TRANSPORT.inTransit, TRANSPORT.abnormal]);
    rig.clock += 30 * MIN;
    pass(rig, GW_GATE_C);
    expect(rig.cleared('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.invalidRoute]);
    rig.clock += 30 * MIN;
    pass(rig, GW_GATE_A); // 3 → 1: no route from 3 at all, so nothing to check
    expect(rig.alerts('carrier')).toHaveLength(1);
  });

  it('misuse: a scrapped, damaged or in-maintenance carrier leaving a warehouse raises reason 10 until it is back', () => {
    const snap = snapshot();
    snap.carriers[0].status = 30;
    const rig = new Rig(snap);
    pass(rig, GW_GATE_A);
    const misuse = rig.alerts('carrier');
    expect(misuse.map((a) => [a.reason, a.message])).toEqual([[CARRIER_REASON.invalidRoute, 'left WH1 while scrapped']]);
    expect(transports(rig)).toEqual([TRANSPORT.abnormal]);
    rig.clock += 30 * MIN;
    pass(rig, GW_GATE_B);
    expect(rig.cleared('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.invalidRoute]);

    const inUse = new Rig();
    pass(inUse, GW_GATE_A);
    expect(inUse.alerts('carrier')).toHaveLength(0);
  });
});
