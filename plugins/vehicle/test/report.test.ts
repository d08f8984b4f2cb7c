/** GPS report aggregation and trips: distance from points, running/stopping, day split. */
import { describe, expect, it } from 'vitest';
import { dailyReport, totalOf, type GpsPoint } from '../shared/report';
import { tripsOf } from '../shared/trips';
import { detectStops } from '@rti/common';
import { motionOf } from '../shared/vehicle-status';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
// 0.01° of longitude at the equator ≈ 1.112 km
const KM_PER_CENTI_DEG = 1.11195;

const p = (t: number, lng: number | null, speed: number | null, extra: Partial<GpsPoint> = {}): GpsPoint => ({
  t,
  lng,
  lat: lng === null ? null : 0,
  speed,
  mileage: null,
  temp: null,
  dataType: 10,
  ...extra,
});

describe('dailyReport', () => {
  it('sums the distance between fixes and splits running from stopping by speed', () => {
    const pts: GpsPoint[] = [];
    // 10 minutes moving east 0.01° a minute at 60 km/h, then 20 minutes parked
    for (let i = 0; i <= 10; i++) pts.push(p(T0 + i * MIN, i * 0.01, 60));
    for (let i = 1; i <= 20; i++) pts.push(p(T0 + (10 + i) * MIN, 0.1, 0));
    const [d] = dailyReport(pts);
    expect(d.day).toBe('2026-11-20');
    expect(d.distanceKm).toBeCloseTo(10 * KM_PER_CENTI_DEG, 2);
    expect(d.runningMs).toBe(10 * MIN);
    expect(d.stoppingMs).toBe(20 * MIN);
    expect(d.silentMs).toBe(0);
    expect(d.maxSpeed).toBe(60);
    expect(d.points).toBe(31);
  });

  it('uses the hop speed when the device sends none, skips jumps and counts long gaps as silent', () => {
    const pts = [
      p(T0, 0, null),
      p(T0 + MIN, 0.01, null),
      p(T0 + 2 * MIN, 5, null) /* 550 km in a minute: bad fix */,
      p(T0 + 3 * MIN, 0.01, null),
      p(T0 + 3 * MIN + 2 * 3600_000, 0.02, null),
    ];
    const [d] = dailyReport(pts);
    expect(d.runningMs).toBe(MIN); // 1.1 km in a minute = 67 km/h
    expect(d.stoppingMs).toBe(2 * MIN); // from the first fix after the jump back, no move
    expect(d.silentMs).toBe(2 * 3600_000); // longer than the 30 min gap limit
    expect(d.distanceKm).toBeCloseTo(2 * KM_PER_CENTI_DEG, 2);
  });

  it('splits an interval crossing midnight of the caller time zone and keeps per-day figures', () => {
    // 23:50 → 00:10 Shanghai time (UTC+8), moving the whole time
    const start = Date.UTC(2026, 10, 20, 15, 50);
    const pts = [p(start, 0, 30, { temp: 4, mileage: 1000 }), p(start + 20 * MIN, 0.02, 30, { temp: 6, mileage: 1002.2, dataType: 20 })];
    const days = dailyReport(pts, { tzOffsetMin: 480 });
    expect(days.map((d) => d.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(days[0].runningMs).toBe(10 * MIN);
    expect(days[1].runningMs).toBe(10 * MIN);
    expect(days[0].distanceKm).toBeCloseTo(days[1].distanceKm, 3);
    expect(days[1].alarms).toBe(1);
    expect(days[0].tempMin).toBe(4);
    // odometer: one reading per day, no rise inside either day
    expect(days[0].mileageKm).toBe(0);
    const total = totalOf(days);
    expect(total.days).toBe(2);
    expect(total.runningMs).toBe(20 * MIN);
    expect(total.distanceKm).toBeCloseTo(2 * KM_PER_CENTI_DEG, 2);
    expect(total.tempMax).toBe(6);
    expect(total.alarms).toBe(1);
  });

  it('reads the odometer rise and temperature range', () => {
    const pts = [p(T0, 0, 0, { mileage: 500, temp: 3.5 }), p(T0 + MIN, 0, 0, { mileage: 512.25, temp: 7 }), p(T0 + 2 * MIN, null, null, { dataType: 20 })];
    const [d] = dailyReport(pts);
    expect(d.mileageKm).toBe(12.25);
    expect([d.tempMin, d.tempMax]).toEqual([3.5, 7]);
    expect(d.alarms).toBe(1);
    expect(d.stoppingMs).toBe(MIN);
  });

  it('answers nothing for no points', () => {
    expect(dailyReport([])).toEqual([]);
    expect(totalOf([]).days).toBe(0);
  });
});

describe('tripsOf', () => {
  it('cuts the track at its stops into trips with distance and top speed', () => {
    const t: number[] = [];
    const lng: number[] = [];
    const speed: number[] = [];
    const push = (i: number, x: number, v: number) => (t.push(T0 + i * MIN), lng.push(x), speed.push(v));
    let i = 0;
    for (let k = 0; k < 15; k++) push(i++, 0, 0); // parked 14 min
    for (let k = 1; k <= 10; k++) push(i++, k * 0.01, 50 + k); // drive
    for (let k = 0; k < 15; k++) push(i++, 0.1, 0); // parked
    for (let k = 1; k <= 5; k++) push(i++, 0.1 + k * 0.01, 40); // drive away
    const track = { t, lng, lat: t.map(() => 0), speed };
    const stops = detectStops(track);
    expect(stops).toHaveLength(2);
    const trips = tripsOf(track, stops);
    expect(trips).toHaveLength(2);
    expect(trips[0]).toMatchObject({ fromStop: 0, toStop: 1, maxSpeed: 60 });
    expect(trips[0].distanceKm).toBeCloseTo(10 * KM_PER_CENTI_DEG, 1);
    expect(trips[1]).toMatchObject({ fromStop: 1, toStop: -1, maxSpeed: 40 });
  });
});

describe('motionOf', () => {
  it('is offline when silent or offline, moving from 5 km/h', () => {
    const now = T0;
    expect(motionOf({ status: 10, lastSeen: now - MIN, speed: 30 }, now)).toBe('moving');
    expect(motionOf({ status: 10, lastSeen: now - MIN, speed: 2 }, now)).toBe('stopped');
    expect(motionOf({ status: 10, lastSeen: now - 3600_000, speed: 30 }, now)).toBe('offline');
    expect(motionOf({ status: 20, lastSeen: now, speed: 30 }, now)).toBe('offline');
  });
});
