import { describe, expect, it } from 'vitest';
import { CARRIER_LOG, DIRECTION, GPS_CODE, TRANSPORT } from '../src/state/effects';
import { GPS_SN, MIN, Rig, snapshot } from './state-helpers/rig';

const at = (lng: number, lat = 50, extra: Record<string, unknown> = {}) => ({ dataType: 10, longitude: lng, latitude: lat, ...extra });

describe('GPS threshold rules', () => {
  it('temperature above/below the thresholds opens 036/037 once and clears in range', () => {
    const rig = new Rig();
    rig.gps([{ dataType: 30, temperature1: 5 }]);
    rig.gps([{ dataType: 30, temperature1: 9.5 }]);
    rig.gps([{ dataType: 30, temperature1: 10, temperature2: 4 }]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.highTemperature]);
    rig.gps([{ dataType: 30, temperature1: 5 }]);
    expect(rig.cleared('gps').map((a) => a.code)).toEqual([GPS_CODE.highTemperature]);
    rig.gps([{ dataType: 30, temperature3: 1 }]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.highTemperature, GPS_CODE.lowTemperature]);
  });

  it('humidity 038/039 and shake 046', () => {
    const rig = new Rig();
    rig.gps([
      { dataType: 30, humidity1: 95 },
      { dataType: 30, humidity2: 5 },
    ]);
    rig.gps([
      { dataType: 10, longitude: 1, latitude: 1, acceleration: -2.5 },
      { dataType: 10, longitude: 1, latitude: 1, acceleration: 3 },
    ]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.highHumidity, GPS_CODE.lowHumidity, GPS_CODE.shake]);
  });

  it('altitude change above 200 m between fixes raises 047', () => {
    const rig = new Rig();
    rig.gps([at(1, 1, { altitude: 100 })]);
    rig.gps([at(1, 1, { altitude: 290 })]);
    expect(rig.alerts('gps')).toHaveLength(0);
    rig.clock += MIN;
    rig.gps([at(1, 1, { altitude: 520 })]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.altitudeChange]);
  });

  it('vendor event reports become alerts under their own code, quiet while repeated', () => {
    const rig = new Rig();
    rig.gps([{ dataType: 20, eventCode: '018', eventValue: 1 }]);
    rig.gps([{ dataType: 20, eventCode: '018' }]);
    rig.gps([{ dataType: 20, eventCode: 19 }]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual(['018', '019']);
  });
});

describe('geofence rule', () => {
  it('raises Y on entering and N on leaving a fence, and moves the bound carrier through GPS in/out', () => {
    // warehouse 1 at lng 11, lat 50, radius 500 m
    const rig = new Rig();
    rig.gps([at(11)]);
    expect(rig.alerts('gps')).toHaveLength(0); // the first fix only sets the state
    rig.clock += MIN;
    rig.gps([at(11.1)]); // ~7 km away: left warehouse 1
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.fenceLeave]);
    const out = rig.of('inout');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ direction: DIRECTION.outbound, warehouseId: 1, carrierId: 100 });
    rig.clock += 30 * MIN;
    rig.gps([at(12.001)]); // warehouse 2
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.fenceLeave, GPS_CODE.fenceEnter]);
    expect(rig.of('inout').map((e) => [e.direction, e.warehouseId])).toEqual([
      [20, 1],
      [10, 2],
    ]);
    const statuses = rig
      .of('log')
      .filter((l) => l.kind === 'carrier' && l.event === CARRIER_LOG.transportStatusChange)
      .map((l) => Number(l.newValue));
    expect(statuses).toEqual([TRANSPORT.inTransit, TRANSPORT.inWarehouse]);
  });

  it('honours the warehouse GPS outbound flag and the device fence list', () => {
    const snap = snapshot();
    snap.warehouses[0].gpsOutbound = false;
    const rig = new Rig(snap);
    rig.gps([at(11)]);
    rig.gps([at(11.1)]);
    expect(rig.of('inout')).toHaveLength(0);

    const own = snapshot();
    own.devices.find((d) => d.key === GPS_SN)!.fences = [{ name: 'Yard', longitude: 0, latitude: 0, radius: 1000, warehouseId: null }];
    const rig2 = new Rig(own);
    rig2.gps([at(11)]);
    rig2.gps([at(0.001, 0.001)]);
    expect(rig2.alerts('gps').map((a) => [a.code, a.message])).toEqual([[GPS_CODE.fenceEnter, 'entered fence Yard']]);
    // what it says, as a message id and values the server renders in each reader's language
    expect(rig2.alerts('gps').map((a) => a.text)).toEqual([{ id: 'fenceEnter', params: { fence: 'Yard' } }]);
  });

  it('fence rows of the organisation raise Y/N and a fence-log effect', () => {
    const snap = snapshot({ fences: [{ id: 9, orgId: 7, name: 'Port', longitude: 20, latitude: 50, radius: 1000, warehouseId: null }] });
    const rig = new Rig(snap);
    rig.gps([at(19.9)]);
    rig.gps([at(20.001)]);
    rig.gps([at(20.2)]);
    expect(rig.alerts('gps').map((a) => a.code)).toEqual([GPS_CODE.fenceEnter, GPS_CODE.fenceLeave]);
    expect(rig.of('fence').map((f) => [f.fenceId, f.action, f.deviceSn])).toEqual([
      [9, 10, GPS_SN],
      [9, 20, GPS_SN],
    ]);
  });
});
