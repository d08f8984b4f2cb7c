import { describe, expect, it } from 'vitest';
import { decodeGatewayHeartbeat, type DecodeContext, type DecodedFrame } from '../src/decoders';

const ctx: DecodeContext = { org: 3, source: 'AC233FC0A1B2', receivedAt: 1763780001000, maxBytes: 4096, maxReadings: 1 };

describe('gateway heartbeat decoder', () => {
  it('decodes a captured heartbeat as connected', () => {
    const r = decodeGatewayHeartbeat(
      '{"gatewayMac":"ac:23:3f:c0:a1:b2","time":1763780000000,"uptime":86400,"firmware":"2.1.7","ip":"10.1.2.3","scanned":118,"temperature":36.5}',
      ctx,
      'heartbeat',
    ) as DecodedFrame;
    expect(r.series).toBe('gateway');
    expect(r.rows).toEqual([
      { org: 3, mac: 'AC233FC0A1B2', time: 1763780000000, connection: 10, uptime: 86400, scanned: 118, temperature: 36.5, firmware: '2.1.7', ip: '10.1.2.3' },
    ]);
  });

  it('decodes a last-will state message as disconnected at receive time', () => {
    const r = decodeGatewayHeartbeat('{"connection":20}', ctx, 'state') as DecodedFrame;
    expect(r.rows[0]).toMatchObject({ connection: 20, time: 1763780001000, mac: 'AC233FC0A1B2' });
  });

  it.each([
    ['{}', 'state', 'missing-field'],
    ['{"connection":15}', 'state', 'out-of-range'],
    ['{"connection":"10"}', 'heartbeat', 'wrong-type'],
    ['{"uptime":-1}', 'heartbeat', 'out-of-range'],
    ['{"firmware":123}', 'heartbeat', 'wrong-type'],
    ['{"gatewayMac":"AC233FC0A1B3"}', 'heartbeat', 'topic-mismatch'],
    ['[1,2]', 'heartbeat', 'wrong-type'],
    ['{"uptime":', 'heartbeat', 'malformed-json'],
    [`{"firmware":"${'x'.repeat(5000)}"}`, 'heartbeat', 'oversized'],
  ] as const)('refuses %s on %s as %s', (payload, kind, reason) => {
    expect(decodeGatewayHeartbeat(payload, ctx, kind)).toMatchObject({ reject: reason });
  });
});
