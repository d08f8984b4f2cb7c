/** The generic scan panel's pure logic (metadata children `scan`), over a fixture document. */
import { describe, expect, it } from 'vitest';
import type { ChildrenDef, EnumsFile, ResourceDef } from '@rti/metadata/browser';
import { headerOpen, newerRow, parseKeys, scanCounts, scanPath, scanSummary } from '../src/meta/lib/scan';

const enums: EnumsFile = {
  lineStatus: [
    { value: 10, label: 'enums.lineStatus.todo' },
    { value: 20, label: 'enums.lineStatus.done', color: 'success' },
    { value: 40, label: 'enums.lineStatus.extra', color: 'warning' },
  ],
};
const lines = {
  name: 'doc-line',
  fields: [
    { name: 'status', type: 'enum', enum: 'lineStatus' },
    { name: 'key', type: 'string' },
  ],
} as unknown as ResourceDef;
const child = {
  resource: 'doc-line',
  foreignKey: 'docId',
  rollUps: [
    { field: 'total', kind: 'count' },
    { field: 'todoCount', kind: 'count', where: { status: [10] } },
    { field: 'doneCount', kind: 'count', where: { status: [20] } },
    { field: 'settled', kind: 'count', where: { status: [20, 40] } },
    { field: 'qty', kind: 'sum', of: 'n', where: { status: [20] } },
  ],
  scan: { key: 'key', step: 'take', extra: 40 },
} as unknown as ChildrenDef;
const header = {
  name: 'doc',
  statusGroups: { open: [1, 2] },
  fields: [{ name: 'settled', type: 'int', label: 'fields.settledLines' }],
} as unknown as ResourceDef;

describe('scan panel logic', () => {
  it('shows the filtered count roll-ups: a single status by its label and colour, else the header field', () => {
    expect(scanCounts(header, child, lines, enums, { todoCount: 3, doneCount: '2', settled: null })).toEqual([
      { field: 'todoCount', labelKey: 'enums.lineStatus.todo', color: undefined, value: 3 },
      { field: 'doneCount', labelKey: 'enums.lineStatus.done', color: '#389e0d', value: 2 },
      { field: 'settled', labelKey: 'fields.settledLines', color: undefined, value: 0 },
    ]);
  });

  it('sums an answer: matched lines, keys joining as extra, refusals', () => {
    const answer = {
      accepted: [
        { key: 'A', id: 1, status: 20 },
        { key: 'B', id: 2, status: 20 },
        { key: 'X', id: 9, status: 40 },
      ],
      refused: [{ key: 'A', message: 'A: scanned twice' }],
    };
    expect(scanSummary(answer, 40)).toEqual({ done: 2, extra: 1, refused: 1 });
    expect(scanSummary(answer, undefined)).toEqual({ done: 3, extra: 0, refused: 1 });
  });

  it('takes scans while the header is in its open group (always without one)', () => {
    expect([1, 2, 3, undefined].map((status) => headerOpen(header, { status }))).toEqual([true, true, false, false]);
    expect(headerOpen({ ...header, statusGroups: undefined }, { status: 3 })).toBe(true);
    expect(headerOpen({ ...header, statusField: 'state' }, { state: 2, status: 3 })).toBe(true);
  });

  it('shows the fresher header: a scan answer until the page has read the row again', () => {
    const page = { id: 5, updatedAt: '2026-11-26T10:00:00.000Z', doneCount: 1 };
    const scanned = { id: 5, updatedAt: '2026-11-26T10:00:02.000Z', doneCount: 2 };
    expect(newerRow(page, scanned)).toBe(scanned);
    expect(newerRow({ ...page, updatedAt: scanned.updatedAt }, scanned).doneCount).toBe(1);
    expect(newerRow(page, undefined)).toBe(page);
    expect(newerRow(page, { ...scanned, id: 6 })).toBe(page);
  });

  it('reads keys one per line or separated, and names the line resource’s scan call', () => {
    expect(parseKeys(' A-1\nA-2, A-3；A-4  ')).toEqual(['A-1', 'A-2', 'A-3', 'A-4']);
    // repeats are kept for the server to refuse by name (a double scan is not merged silently)
    expect(parseKeys('C-1\r\nC-2\n\n C-3 ,C-4;C-5\tC-1，C-6')).toEqual(['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-1', 'C-6']);
    expect(parseKeys('  \n ')).toEqual([]);
    expect(scanPath(lines)).toBe('/doc-line/scan');
    expect(scanPath({ name: 'doc-line', apiPath: '/doc/lines' })).toBe('/doc/lines/scan');
  });
});

describe('line steps on ticked lines', () => {
  it('count the rows a step call answers, else what was asked', async () => {
    const { movedCount } = await import('../src/meta/components/line-steps');
    expect(movedCount([{ id: 1 }, { id: 2 }], 5)).toBe(2);
    expect(movedCount({ ok: true }, 4)).toBe(4);
    expect(movedCount(null, 3)).toBe(3);
  });
});
