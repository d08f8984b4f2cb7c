import { describe, expect, it } from 'vitest';
import { BEACON_REASON, DEVICE_LOG, GATEWAY_REASON, GPS_CODE } from '../src/state/effects';
import { GW_IN_A, MIN, Rig } from './state-helpers/rig';

describe('device presence rules', () => {
  it('brings a device online on its first reading and offline after the model offlineCheckTime', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{}]);
    const online = rig.of('log').filter((l) => l.kind === 'beacon' && l.event === DEVICE_LOG.statusChange);
    expect(online.map((l) => l.newValue)).toEqual(['10']);
    rig.advance(29 * MIN);
    expect(rig.of('log').filter((l) => l.kind === 'beacon' && l.event === DEVICE_LOG.statusChange)).toHaveLength(1);
    rig.advance(2 * MIN); // model 1: 30 minutes
    const changes = rig.of('log').filter((l) => l.kind === 'beacon' && l.event === DEVICE_LOG.statusChange);
    expect(changes.map((l) => l.newValue)).toEqual(['10', '20']);
    rig.scan(GW_IN_A, [{}]);
    expect(
      rig
        .of('log')
        .filter((l) => l.kind === 'beacon' && l.event === DEVICE_LOG.statusChange)
        .map((l) => l.newValue),
    ).toEqual(['10', '20', '10']);
  });

  it('opens "data missing" once after more than 60 minutes of silence and clears it on the next reading', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{}]);
    rig.advance(60 * MIN);
    expect(rig.alerts('beacon')).toHaveLength(0);
    rig.advance(1 * MIN);
    rig.advance(30 * MIN);
    rig.advance(30 * MIN);
    const missing = rig.alerts('beacon').filter((a) => a.reason === BEACON_REASON.clientOffline);
    expect(missing).toHaveLength(1);
    rig.scan(GW_IN_A, [{}]);
    expect(rig.cleared('beacon').filter((a) => a.reason === BEACON_REASON.clientOffline)).toHaveLength(1);
  });

  it('GPS silence raises code 084', () => {
    const rig = new Rig();
    rig.gps([{ dataType: 10, longitude: 30, latitude: 30 }]);
    rig.advance(61 * MIN);
    expect(rig.alerts('gps').map((a) => a.code)).toContain(GPS_CODE.dataMissing);
  });
});

describe('battery rule', () => {
  it('opens once below the model threshold, not per reading, and clears above threshold + 5', () => {
    const rig = new Rig();
    rig.scan(GW_IN_A, [{ battery: 50 }]);
    expect(rig.alerts('beacon')).toHaveLength(0);
    for (const b of [19, 18, 17, 21, 19]) {
      rig.clock += MIN;
      rig.scan(GW_IN_A, [{ battery: b }]);
    }
    const low = rig.alerts('beacon').filter((a) => a.reason === BEACON_REASON.battery);
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ sn: 'B-11', subjectId: 11, orgId: 7 });
    expect(rig.of('log').filter((l) => l.kind === 'beacon' && l.event === DEVICE_LOG.abnormal)).toHaveLength(1);
    rig.clock += MIN;
    rig.scan(GW_IN_A, [{ battery: 26 }]);
    expect(rig.cleared('beacon').filter((a) => a.reason === BEACON_REASON.battery)).toHaveLength(1);
    rig.clock += MIN;
    rig.scan(GW_IN_A, [{ battery: 10 }]);
    expect(rig.alerts('beacon').filter((a) => a.reason === BEACON_REASON.battery)).toHaveLength(2);
  });

  it('GPS battery uses code 048; a model without threshold never alerts', () => {
    const rig = new Rig();
    rig.gps([{ dataType: 10, longitude: 30, latitude: 30, battery: 5 }]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.lowBattery]);
    rig.heartbeat(GW_IN_A, {});
    expect(rig.alerts('slave-gateway')).toHaveLength(0);
  });
});

describe('gateway connection rule', () => {
  it('opens reason 20 once on disconnection and records reason 10 on reconnection', () => {
    const rig = new Rig();
    rig.heartbeat(GW_IN_A);
    rig.heartbeat(GW_IN_A, { connection: 20 }, 'state');
    rig.heartbeat(GW_IN_A, { connection: 20 }, 'state');
    const gw = rig.alerts('slave-gateway');
    expect(gw.map((a) => a.reason)).toEqual([GATEWAY_REASON.offline]);
    rig.clock += MIN;
    rig.heartbeat(GW_IN_A, { uptime: 5 });
    expect(rig.alerts('slave-gateway').map((a) => a.reason)).toEqual([GATEWAY_REASON.offline, GATEWAY_REASON.connection]);
    expect(rig.cleared('slave-gateway').map((a) => a.reason)).toEqual([GATEWAY_REASON.offline, GATEWAY_REASON.connection]);
  });

  it('a silent gateway goes offline after its model offlineCheckTime with one alert (master gateways too)', () => {
    const rig = new Rig();
    rig.heartbeat('AC233FC0M001');
    rig.advance(11 * MIN);
    rig.advance(11 * MIN);
    expect(rig.alerts('master-gateway').map((a) => a.reason)).toEqual([GATEWAY_REASON.offline]);
    rig.heartbeat('AC233FC0M001');
    expect(rig.cleared('master-gateway').map((a) => a.reason)).toContain(GATEWAY_REASON.offline);
  });
});
