import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata';
import { move, overlayOf, rowsOf } from '../console/overlay-rows';

const base = {
  name: 'thing',
  module: 'system',
  route: '/system/thing',
  fields: [
    { name: 'code', type: 'string', required: true },
    { name: 'note', type: 'string', list: { visible: false, width: 100 } },
    { name: 'kind', type: 'enum', enum: 'k', default: 1 },
    { name: 'secret', type: 'password' },
  ],
} as ResourceDef;

describe('screen settings rows', () => {
  it('an untouched editor saves an empty overlay', () => {
    expect(overlayOf(base, rowsOf(base, null))).toEqual({ resource: 'thing' });
    expect(rowsOf(base, null).map((r) => r.name)).toEqual(['code', 'note', 'kind']);
  });

  it('round-trips a stored overlay and keeps only the differences', () => {
    const stored = {
      resource: 'thing',
      columns: ['kind', 'code', 'note'],
      fields: { note: { label: { 'en-US': 'Memo' }, required: true, listVisible: true }, kind: { default: 2 } },
    };
    const rows = rowsOf(base, stored);
    expect(rows.map((r) => r.name)).toEqual(['kind', 'code', 'note']);
    expect(rows.find((r) => r.name === 'code')!.baseRequired).toBe(true);
    expect(overlayOf(base, rows)).toEqual(stored);
  });

  it('moving rows back to field order drops the column order; blank labels are dropped', () => {
    let rows = rowsOf(base, { resource: 'thing', columns: ['note', 'code'] });
    rows = move(rows, 'code', -1);
    rows[0]!.label = { 'zh-CN': '  ' };
    expect(overlayOf(base, rows)).toEqual({ resource: 'thing' });
    expect(move(rows, 'code', -1)).toBe(rows);
  });
});
