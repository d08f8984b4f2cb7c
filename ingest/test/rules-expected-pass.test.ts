/**
 * Documents move carriers before the devices see them (placeCarriers): the state follows the
 * document and the pass still to come at that warehouse confirms the move in its direction.
 */
import { describe, expect, it } from 'vitest';
import { DIRECTION, TRANSPORT } from '../src/state/effects';
import { GW_GATE_A, GW_GATE_B, GW_IN_A, MIN, ORG, Rig, snapshot } from './state-helpers/rig';

const carrierAlerts = (rig: Rig, type: 'alert' | 'alert-cleared') =>
  rig
    .of(type)
    .filter((a) => a.kind === 'carrier')
    .map((a) => a.reason);
const inouts = (rig: Rig) => rig.of('inout').map((e) => [e.direction, e.warehouseId, e.via]);

function pass(rig: Rig, gate: string): void {
  for (let i = 0; i < 3; i++) {
    rig.scan(gate, [{}]);
    rig.clock += 5000;
  }
}

describe('placeCarriers: the engine follows the documents', () => {
  it('released before any gateway placed it: the shipper gate pass is its departure, hall antennas at the dock do not bring it back', () => {
    const snap = snapshot();
    snap.carriers[0].warehouseId = null; // the release already wrote "in transit"
    snap.carriers[0].transportStatus = TRANSPORT.inTransit;
    const rig = new Rig(snap);
    const released = rig.clock;
    rig.engine.placeCarriers([{ id: 100, orgId: ORG, direction: DIRECTION.outbound, warehouseId: 1, transportStatus: TRANSPORT.inTransit, time: released }]);
    expect(rig.engine.flush().carriers[0]).toMatchObject({ warehouseId: null, transportStatus: TRANSPORT.inTransit, outboundWarehouseId: 1, departedFrom: 1 });
    rig.clock += 30 * MIN; // loading takes a while
    rig.scan(GW_IN_A, [{}]);
    expect(rig.engine.peekCarrier(100)).toMatchObject({ warehouseId: null, transportStatus: TRANSPORT.inTransit });
    pass(rig, GW_GATE_A);
    expect(inouts(rig)).toEqual([[DIRECTION.outbound, 1, 'gate']]);
    // the pass confirms the release: the carrier's outbound time stays the document's
    expect(rig.engine.peekCarrier(100)).toMatchObject({ warehouseId: null, expectedPass: null, outboundTime: released, departedAt: rig.clock - 15_000 });
    rig.clock += 60 * MIN;
    pass(rig, GW_GATE_B);
    expect(inouts(rig)).toEqual([
      [DIRECTION.outbound, 1, 'gate'],
      [DIRECTION.inbound, 2, 'gate'],
    ]);
    expect(rig.engine.peekCarrier(100)).toMatchObject({ warehouseId: 2, transportStatus: TRANSPORT.inWarehouse });
  });

  it('received before the receiver gate saw it: that gate pass is its arrival, not a departure', () => {
    const rig = new Rig();
    pass(rig, GW_GATE_A); // left A through the gate
    rig.clock += 60 * MIN;
    rig.engine.placeCarriers([{ id: 100, orgId: ORG, direction: DIRECTION.inbound, warehouseId: 2, transportStatus: TRANSPORT.inWarehouse, time: rig.clock }]);
    rig.clock += MIN;
    pass(rig, GW_GATE_B);
    expect(inouts(rig)).toEqual([
      [DIRECTION.outbound, 1, 'gate'],
      [DIRECTION.inbound, 2, 'gate'],
    ]);
    expect(rig.engine.peekCarrier(100)).toMatchObject({ warehouseId: 2, transportStatus: TRANSPORT.inWarehouse, expectedPass: null });
    // the next pass there is the usual rule again: leaving
    rig.clock += 60 * MIN;
    pass(rig, GW_GATE_B);
    expect(inouts(rig).at(-1)).toEqual([DIRECTION.outbound, 2, 'gate']);
  });

  it('a carrier placed in transit is not timed out from its old place, and a receipt clears its trip timeout', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{}]);
    rig.engine.placeCarriers([{ id: 100, orgId: ORG, direction: DIRECTION.outbound, warehouseId: 1, transportStatus: TRANSPORT.inTransit, time: rig.clock }]);
    rig.advance(200 * MIN); // longer than the route (180 min): the trip from the release times out
    expect(carrierAlerts(rig, 'alert')).toEqual([20]); // and not idle (30) in A: it left
    rig.engine.placeCarriers([{ id: 100, orgId: ORG, direction: DIRECTION.inbound, warehouseId: 2, transportStatus: TRANSPORT.inWarehouse, time: rig.clock }]);
    expect(carrierAlerts(rig, 'alert-cleared')).toEqual([20]);
  });
});
