/** Pure logic of the shipping console: the monitor's position and times. */
import { describe, expect, it } from 'vitest';
import { boundsOf, fixText, hoursLeft, LATE, LATE_COLOR, markerStatus, orderPosition, progress, type MapOrder } from '../console/monitor-logic';
import { ShipOrderStatusEnum } from '@rti/metadata/browser';
import { loadMetadata } from '@rti/metadata';

const H = 3_600_000;
const base = (o: Partial<MapOrder> = {}): MapOrder => ({
  id: 1,
  orderNo: 'SO1',
  status: 2,
  late: false,
  atd: new Date(0).toISOString(),
  dueAt: new Date(10 * H).toISOString(),
  from: { id: 1, name: 'Shanghai', longitude: 120, latitude: 30 },
  to: { id: 2, name: 'Osaka', longitude: 130, latitude: 40 },
  ...o,
});

describe('monitor logic', () => {
  it('progress is the share of transport time spent, clamped', () => {
    expect(progress(base(), 5 * H)).toBe(0.5);
    expect(progress(base(), 20 * H)).toBe(1);
    expect(progress(base(), -H)).toBe(0);
    expect(progress(base({ dueAt: null }), H)).toBeNull();
    expect(progress(base({ dueAt: new Date(0).toISOString() }), H)).toBeNull();
  });

  it('hours left are negative when overdue', () => {
    expect(hoursLeft(new Date(10 * H).toISOString(), 7.5 * H)).toBe(2.5);
    expect(hoursLeft(new Date(10 * H).toISOString(), 13 * H)).toBe(-3);
    expect(hoursLeft(null, 0)).toBeNull();
  });

  it('a reported position wins; else the route point matching the time spent (estimated)', () => {
    expect(orderPosition(base({ position: { longitude: 125.5, latitude: 33 } }), 5 * H)).toEqual({ lng: 125.5, lat: 33, estimated: false });
    expect(orderPosition(base(), 5 * H)).toEqual({ lng: 125, lat: 35, estimated: true });
    // not departed yet on the clock: at the shipper; no receiver coordinates: at the shipper
    expect(orderPosition(base({ atd: null }), 5 * H)).toEqual({ lng: 120, lat: 30, estimated: true });
    expect(orderPosition(base({ to: { id: 2, name: 'Osaka', longitude: null, latitude: null } }), 5 * H)).toEqual({ lng: 120, lat: 30, estimated: true });
    expect(orderPosition(base({ from: null }), 5 * H)).toBeNull();
  });

  it('a server fix is drawn where it is and named by its device; none: estimated', () => {
    const gate = {
      longitude: 130,
      latitude: 40,
      time: new Date(2 * H).toISOString(),
      source: 'gateway' as const,
      sn: 'GATE-B',
      warehouse: { id: 2, name: 'Osaka' },
    };
    expect(orderPosition(base({ position: gate }), 5 * H)).toEqual({ lng: 130, lat: 40, estimated: false });
    expect(fixText(gate)).toEqual({ key: 'shipping.monitor.fixGateway', params: { sn: 'GATE-B', warehouse: 'Osaka' } });
    expect(fixText({ longitude: 1, latitude: 2, source: 'truck', sn: 'GT-1' })).toEqual({ key: 'shipping.monitor.fixTruck', params: { sn: 'GT-1' } });
    expect(fixText({ longitude: 1, latitude: 2, source: 'tracker', sn: null })).toEqual({ key: 'shipping.monitor.fixTracker', params: { sn: '-' } });
    expect(fixText(null)).toBeNull();
    expect(orderPosition(base({ position: null }), 5 * H)).toMatchObject({ estimated: true });
  });

  it('late orders get the late marker; bounds cover every point', () => {
    expect(markerStatus(base({ late: true }))).toBe(LATE);
    // late is not delivered's red (SPEC §4 display colours) nor any other status colour
    const colours = loadMetadata().enums.shipOrderStatus.map((e) => e.color);
    expect(loadMetadata().enums.shipOrderStatus.find((e) => e.value === ShipOrderStatusEnum.delivered)?.color).toBe('error');
    expect(colours).not.toContain(LATE_COLOR);
    expect(markerStatus(base({ status: 3 }))).toBe(3);
    expect(
      boundsOf([
        [120, 30],
        [130, 40],
        [125, 20],
      ]),
    ).toEqual([120, 20, 130, 40]);
    expect(boundsOf([])).toBeNull();
  });
});
