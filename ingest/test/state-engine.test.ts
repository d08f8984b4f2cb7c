import { describe, expect, it } from 'vitest';
import { BEACON_REASON, CARRIER_REASON } from '../src/state/effects';
import { Fleet } from '../src/state/fleet';
import { StateEngine } from '../src/state/state-engine';
import { GW_GATE_A, GW_IN_A, MIN, Rig, snapshot } from './state-helpers/rig';

describe('state engine', () => {
  it('coalesces: many readings of one device give one device effect per flush', () => {
    const rig = new Rig();
    for (let i = 0; i < 50; i++) {
      rig.clock += 1000;
      rig.scan(GW_IN_A, [{ battery: 80 }]);
    }
    const dump = rig.engine.flush();
    expect(dump.devices).toHaveLength(1);
    expect(rig.of('device')).toHaveLength(1);
    expect(rig.of('device')[0]).toMatchObject({ kind: 'beacon', id: 11, battery: 80, status: 10, lastReportTime: rig.clock });
    rig.engine.flush();
    expect(rig.of('device')).toHaveLength(1); // nothing changed since
    expect(rig.engine.stats.readings).toBe(50);
  });

  it('a restart restores open conditions from the dump: no second alert for a condition still open', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{ battery: 10 }]);
    expect(rig.alerts('beacon').map((a) => a.reason)).toEqual([BEACON_REASON.battery]);
    rig.scan(GW_GATE_A, [{}]);
    const dump = JSON.parse(JSON.stringify(rig.engine.flush()));

    const effects: unknown[] = [];
    const again = new StateEngine({ onEffect: (e) => effects.push(e), now: () => rig.clock });
    again.setFleet(new Fleet(snapshot()));
    again.load(dump);
    const rig2 = Object.assign(Object.create(Rig.prototype), { engine: again, effects, clock: rig.clock + MIN }) as Rig;
    rig2.scan(GW_IN_A, [{ battery: 9 }]);
    expect(rig2.alerts('beacon')).toHaveLength(0);
    // the carrier left through the gate before the restart: it is still in transit afterwards
    rig2.advance(200 * MIN);
    expect(rig2.alerts('carrier').map((a) => a.reason)).toEqual([CARRIER_REASON.transportTimeout]);
  });

  it('readings of unknown devices are counted and ignored; a fleet refresh keeps the states', () => {
    // without slots: the decoder lets every mac through, the engine decides (ingest with acceptUnknownDevices)
    const rig = new Rig(snapshot(), { slots: false });
    rig.scan(GW_IN_A, [{ mac: 'AABBCCDDEEFF' }]);
    expect(rig.engine.stats.unknown).toBe(1);
    rig.scan(GW_IN_A, [{ battery: 10 }]);
    rig.engine.setFleet(new Fleet(snapshot()));
    rig.scan(GW_IN_A, [{ battery: 9 }]);
    expect(rig.alerts('beacon')).toHaveLength(1);
  });
});

describe('read-only lookups', () => {
  it('peek never creates a state', () => {
    const rig = new Rig();
    expect(rig.engine.peekCarrier(100)).toBeUndefined();
    expect(rig.engine.peekDevice('beacon', 11)).toBeUndefined();
    rig.scan(GW_IN_A, [{ battery: 77 }]);
    expect(rig.engine.peekDevice('beacon', 11)).toMatchObject({ battery: 77, gatewayMac: GW_IN_A });
    expect(rig.engine.peekCarrier(100)).toMatchObject({ warehouseId: 1 });
    expect(rig.engine.peekDevice('gps', 21)).toBeUndefined();
  });
});

describe('flush throttling', () => {
  it('a device whose only news is a later reading time is flushed at most once a minute', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{ battery: 80 }]);
    rig.engine.flush();
    rig.clock += 10_000;
    rig.scan(GW_IN_A, [{ battery: 80 }]);
    expect(rig.engine.flush().devices).toHaveLength(0);
    rig.clock += 10_000;
    rig.scan(GW_IN_A, [{ battery: 79 }]);
    expect(rig.engine.flush().devices).toHaveLength(1); // battery changed
    rig.clock += 61_000;
    rig.scan(GW_IN_A, [{ battery: 79 }]);
    expect(rig.engine.flush().devices).toHaveLength(1); // a minute later
    expect(rig.of('device').map((e) => e.battery)).toEqual([80, 79, 79]);
  });
});
