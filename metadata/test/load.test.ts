import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';

describe('repository metadata', () => {
  it('loads without faults', () => {
    const meta = loadMetadata();
    expect(Object.keys(meta.resources)).toContain('device-beacon');
    expect(meta.menu.groups[0].key).toBe('home');
    expect(meta.enums.deviceStatus.map((v) => v.value)).toEqual([0, 10, 20, 30]);
  });
});
