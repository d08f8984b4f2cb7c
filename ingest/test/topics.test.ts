import { describe, expect, it } from 'vitest';
import { parseTopic } from '../src/decoders';

describe('topic layout', () => {
  it('parses the documented topics and canonicalises the gateway mac', () => {
    expect(parseTopic('rti/ACME/gw/ac:23:3f:c0:a1:b2/scan')).toEqual({ orgCode: 'ACME', kind: 'scan', device: 'AC233FC0A1B2', deviceType: 'gw' });
    expect(parseTopic('rti/ACME/gw/AC233FC0A1B2/heartbeat')?.kind).toBe('heartbeat');
    expect(parseTopic('rti/ACME/gw/AC233FC0A1B2/state')?.kind).toBe('state');
    expect(parseTopic('rti/ACME/gps/GT-000123/report')).toEqual({ orgCode: 'ACME', kind: 'report', device: 'GT-000123', deviceType: 'gps' });
  });

  it.each([
    'rti/ACME/gw/AC233FC0A1B2',
    'rti/ACME/gw/NOTAMAC/scan',
    'rti/ACME/gps/GT 1/report',
    'other/ACME/gw/AC233FC0A1B2/scan',
    'rti/ACME/gw/AC233FC0A1B2/scan/extra',
    'rti/ACME/gps/GT1/scan',
    'rti//gw/AC233FC0A1B2/scan',
  ])('refuses %s', (topic) => {
    expect(parseTopic(topic)).toBeNull();
  });
});
