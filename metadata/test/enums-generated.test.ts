import { describe, expect, it } from 'vitest';
import { Enums, loadMetadata } from '../src';

describe('generated enum constants', () => {
  it("hold every value of enums.json and the plugins' enums.json under its label name", () => {
    const json = loadMetadata().enums as Record<string, Array<{ value: unknown; label: string }>>;
    expect(Object.keys(Enums).sort()).toEqual(Object.keys(json).sort());
    for (const [name, items] of Object.entries(json)) {
      const consts = (Enums as Record<string, Record<string, unknown>>)[name];
      expect(Object.values(consts)).toEqual(items.map((i) => i.value));
      for (const it of items) expect(consts[it.label.split('.').pop()!]).toBe(it.value);
    }
    expect(Enums.inoutDirection.inbound).toBe(10);
    expect(Enums.carrierBindStatus.new).toBe(10);
  });
});
