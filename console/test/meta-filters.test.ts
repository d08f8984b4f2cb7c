import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultSorters, exportBody, filtersToSearch, searchToFilters } from '../src/meta/lib/filters';
import { searchFields } from '../src/meta/lib/fields';
import { thing } from './meta-fixture';

const fields = searchFields(thing);
const value = (filters: ReturnType<typeof searchToFilters>, field: string) => filters.find((f) => 'field' in f && f.field === field)?.value;

describe('search filters', () => {
  it('builds one filter per search field, empty ones undefined', () => {
    const filters = searchToFilters(fields, { sn: '  A1 ', mac: '', status: 10 });
    expect(filters).toHaveLength(fields.length);
    expect(value(filters, 'sn')).toBe('A1');
    expect(value(filters, 'mac')).toBeUndefined();
    expect(value(filters, 'status')).toEqual([10]);
    expect(value(filters, 'modelId')).toBeUndefined();
  });
  it('sends a prefix search trimmed, as a starts-with filter', () => {
    const [filter] = searchToFilters([{ name: 'orderNo', type: 'string', search: 'prefix' }], { orderNo: ' SO2026 ' });
    expect(filter).toEqual({ field: 'orderNo', operator: 'startswith', value: 'SO2026' });
    expect(searchToFilters([{ name: 'orderNo', type: 'string', search: 'prefix' }], { orderNo: '   ' })[0]).toMatchObject({ value: undefined });
  });
  it('turns date ranges into whole days: dates as text, datetimes as epoch ms', () => {
    const from = dayjs('2024-03-01T10:00:00');
    const to = dayjs('2024-03-02T10:00:00');
    const filters = searchToFilters(fields, { day: [from, to], startTime: [from, null] });
    expect(value(filters, 'day')).toEqual(['2024-03-01', '2024-03-02']);
    expect(value(filters, 'startTime')).toEqual([from.startOf('day').valueOf(), null]);
    expect(value(searchToFilters(fields, { day: [null, null] }), 'day')).toBeUndefined();
  });
  it('restores form values from filters', () => {
    const restored = filtersToSearch(fields, [
      { field: 'sn', operator: 'contains', value: 'A' },
      { field: 'day', operator: 'between', value: ['2024-03-01', null] },
    ]);
    expect(restored.sn).toBe('A');
    expect(dayjs.isDayjs((restored.day as unknown[])[0])).toBe(true);
    expect((restored.day as unknown[])[1]).toBeNull();
  });
  it('reads defaultSort and shapes the export body like the list call', () => {
    expect(defaultSorters(thing)).toEqual([{ field: 'id', order: 'desc' }]);
    expect(
      exportBody(
        [
          { field: 'sn', operator: 'contains', value: 'A' },
          { field: 'mac', operator: 'eq', value: undefined },
        ],
        [{ field: 'sn', order: 'asc' }],
      ),
    ).toEqual({
      sn: 'A',
      sortBySn: true,
    });
  });
});
