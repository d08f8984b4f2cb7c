import { describe, expect, it } from 'vitest';
import { columnSpecs, columnStorageKey, defaultVisibility, mergeVisibility, sortOrderOf } from '../src/meta/lib/columns';
import { thing } from './meta-fixture';

describe('columns', () => {
  const specs = columnSpecs(thing);
  it('carries list hints and default widths', () => {
    const sn = specs.find((s) => s.key === 'sn')!;
    expect(sn).toMatchObject({ sortable: true, width: 160, defaultVisible: true });
    expect(specs.find((s) => s.key === 'startTime')!.width).toBe(170);
    expect(specs.find((s) => s.key === 'mac')!.sortable).toBe(false);
  });
  it('stores visibility per user and table', () => {
    expect(columnStorageKey(5, 'thing')).toBe('admin-columns:5:thing');
  });
  it('merges stored choices over defaults and ignores unknown or corrupt entries', () => {
    const merged = mergeVisibility(specs, JSON.stringify({ sn: false, remark: true, gone: true, mac: 'x' }));
    expect(merged.sn).toBe(false);
    expect(merged.remark).toBe(true);
    expect(merged.mac).toBe(true);
    expect('gone' in merged).toBe(false);
    expect(mergeVisibility(specs, '{oops')).toEqual(defaultVisibility(specs));
  });
  it('maps Refine sorters to antd sort order', () => {
    expect(sortOrderOf([{ field: 'sn', order: 'desc' }], 'sn')).toBe('descend');
    expect(sortOrderOf([{ field: 'sn', order: 'asc' }], 'sn')).toBe('ascend');
    expect(sortOrderOf([], 'sn')).toBeNull();
  });
});
