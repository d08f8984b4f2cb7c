import { describe, expect, it } from 'vitest';
import { decodeGpsReport, type DecodeContext, type DecodedFrame } from '../src/decoders';

const ctx = (over: Partial<DecodeContext> = {}): DecodeContext => ({
  org: 5,
  source: 'GT-000123',
  receivedAt: 1763780060000,
  maxBytes: 65536,
  maxReadings: 100,
  ...over,
});

// Captured-style tracker upload: a fix, an alarm (door open) and a probe reading.
const captured = {
  sn: 'GT-000123',
  reports: [
    {
      ts: 1763780000000,
      dataType: 10,
      longitude: 121.4737,
      latitude: 31.2304,
      altitude: 12.5,
      speed: 54.2,
      mileage: 10234.5,
      battery: 76,
      locationType: 1,
      location: 'Pudong, Shanghai',
    },
    { ts: 1763780005000, dataType: 20, eventCode: 18, eventValue: 1 },
    { ts: '2025-11-22T02:53:30Z', dataType: 30, temperature1: 4.5, temperature2: 5.1, humidity1: 61, pressure1: 101.3, acceleration: 0.12 },
  ],
};

describe('gps report decoder', () => {
  it('decodes the three data types of a captured upload', () => {
    const r = decodeGpsReport(JSON.stringify(captured), ctx()) as DecodedFrame;
    expect(r.series).toBe('gps');
    expect(r.rows).toHaveLength(3);
    expect(r.rows[0]).toMatchObject({
      org: 5,
      sn: 'GT-000123',
      time: 1763780000000,
      dataType: 10,
      longitude: 121.4737,
      latitude: 31.2304,
      altitude: 12.5,
      battery: 76,
    });
    expect(r.rows[1]).toMatchObject({ dataType: 20, eventCode: '018', eventValue: '1', time: 1763780005000 });
    expect(r.rows[2]).toMatchObject({ dataType: 30, temperature1: 4.5, humidity1: 61, time: Date.parse('2025-11-22T02:53:30Z') });
  });

  it('accepts a single report and defaults dataType to location', () => {
    const r = decodeGpsReport('{"longitude":8.55,"latitude":47.37}', ctx()) as DecodedFrame;
    expect(r.rows[0]).toMatchObject({ sn: 'GT-000123', dataType: 10, time: 1763780060000 });
  });

  it('takes the sn from each report on the HTTP push (no topic device)', () => {
    const r = decodeGpsReport('[{"sn":"A1","longitude":1,"latitude":2},{"sn":"B2","dataType":20,"eventCode":"Y"}]', ctx({ source: '' })) as DecodedFrame;
    expect(r.rows.map((x) => x.sn)).toEqual(['A1', 'B2']);
  });

  it('drops invalid reports alone, by reason', () => {
    const reports = [
      { longitude: 200, latitude: 0 }, // out of range
      { dataType: 10, latitude: 1 }, // location without longitude
      { dataType: 20 }, // event without code
      { dataType: 30 }, // sensor report without a sensor value
      { dataType: 40, longitude: 1, latitude: 1 }, // unknown data type
      { longitude: '1', latitude: 1 }, // wrong type
      { sn: 'OTHER', longitude: 1, latitude: 1 }, // another device on this topic
      { dataType: 20, eventCode: 'X'.repeat(40) },
      { longitude: 1, latitude: 1, runningTime: 1.5 },
      { longitude: 1, latitude: 1 },
    ];
    const r = decodeGpsReport(JSON.stringify({ reports }), ctx()) as DecodedFrame;
    expect(r.rows).toHaveLength(1);
    expect(r.dropped).toEqual({ 'out-of-range': 3, 'missing-field': 3, 'wrong-type': 2, 'topic-mismatch': 1 });
  });

  it('drops reports of unregistered trackers', () => {
    const r = decodeGpsReport(
      '[{"sn":"A1","longitude":1,"latitude":2},{"sn":"B2","longitude":1,"latitude":2}]',
      ctx({ source: '', known: (sn) => sn === 'A1' }),
    ) as DecodedFrame;
    expect(r.rows).toHaveLength(1);
    expect(r.dropped).toEqual({ 'unknown-device': 1 });
  });

  it.each([
    ['not json', 'malformed-json'],
    ['12', 'wrong-type'],
    ['{"sn":"GT-999","longitude":1,"latitude":1}', 'topic-mismatch'],
    ['{"sn":"bad sn with spaces"}', 'wrong-type'],
    ['{"reports":"x"}', 'wrong-type'],
  ])('refuses frame %s as %s', (payload, reason) => {
    expect(decodeGpsReport(payload, ctx())).toMatchObject({ reject: reason });
  });

  it('refuses oversized and over-long uploads', () => {
    const many = JSON.stringify(Array.from({ length: 101 }, () => ({ longitude: 1, latitude: 1 })));
    expect(decodeGpsReport(many, ctx())).toMatchObject({ reject: 'too-many-readings' });
    expect(decodeGpsReport(many, ctx({ maxBytes: 100 }))).toMatchObject({ reject: 'oversized' });
  });
});
