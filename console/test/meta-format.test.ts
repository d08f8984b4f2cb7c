import { describe, expect, it } from 'vitest';
import { asArray, findEnumValue, formatDate, formatFieldText } from '../src/meta/lib/format';
import { enums, t, thing } from './meta-fixture';

const field = (name: string) => thing.fields.find((f) => f.name === name)!;

describe('value formatting', () => {
  it('formats dates and datetimes per SPEC §9', () => {
    const local = new Date(2024, 0, 2, 3, 4, 5).getTime();
    expect(formatDate(local, true)).toBe('2024-01-02 03:04:05');
    expect(formatDate('2024-01-02', false)).toBe('2024-01-02');
    expect(formatDate(null, true)).toBe('');
  });
  it('matches enum values across number and string', () => {
    expect(findEnumValue(enums, 'level', '20')?.label).toBe('enums.level.high');
    expect(findEnumValue(enums, 'level', 30)).toBeUndefined();
  });
  it('reads arrays from arrays, JSON strings and scalars', () => {
    expect(asArray('[1,2]')).toEqual([1, 2]);
    expect(asArray(3)).toEqual([3]);
    expect(asArray(null)).toEqual([]);
  });
  it('renders each field kind as text, with units', () => {
    const row = { sn: 'A1', status: 10, kinds: [10, 20], modelId: 7, modelIdLabel: 'M-7', weight: 2, enabled: 0, position: [121.5, 31.2] };
    expect(formatFieldText(field('sn'), row, enums, t)).toBe('A1');
    expect(formatFieldText(field('status'), row, enums, t)).toBe('enums.level.low');
    expect(formatFieldText(field('kinds'), row, enums, t)).toBe('enums.level.low, enums.level.high');
    expect(formatFieldText(field('modelId'), row, enums, t)).toBe('M-7');
    expect(formatFieldText(field('weight'), row, enums, t)).toBe('2.0 units.kg');
    expect(formatFieldText(field('enabled'), row, enums, t)).toBe('meta.no');
    expect(formatFieldText(field('position'), row, enums, t)).toBe('121.5, 31.2');
    expect(formatFieldText(field('remark'), row, enums, t)).toBe('');
  });
});
