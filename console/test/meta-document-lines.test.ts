/** The one-page document editor's logic: duplicates, roll-up preview, freeze, save body. */
import { describe, expect, it } from 'vitest';
import type { ChildrenDef, FieldDef } from '@rti/metadata/browser';
import { duplicateLines, emptyLine, linesBody, linesEditable, rollUpPreview, toEditorLines } from '../src/meta/lib/document-lines';

const fields: FieldDef[] = [
  { name: 'carrierId', type: 'ref', ref: { resource: 'carrier', label: 'sn' }, required: true },
  { name: 'qty', type: 'int', default: 1, min: 1 },
  { name: 'remark', type: 'text' },
];
const def: ChildrenDef = {
  resource: 'carrier-bind-detail',
  foreignKey: 'carrierBindId',
  uniqueKeys: ['carrierId'],
  inline: true,
  editableWhen: { field: 'status', values: [10] },
  rollUps: [
    { field: 'totalAmount', kind: 'sum', of: 'qty' },
    { field: 'lineCount', kind: 'count' },
  ],
};

describe('document lines', () => {
  it('a new line takes the defaults; stored lines keep their id and labels', () => {
    expect(emptyLine(fields).values).toEqual({ qty: 1 });
    const [l] = toEditorLines(fields, [{ id: 7, carrierId: 3, carrierIdLabel: 'C-3', qty: 2, remark: null, carrierBindId: 1 }]);
    expect(l).toMatchObject({ id: 7, values: { carrierId: 3, carrierIdLabel: 'C-3', qty: 2 } });
  });

  it('names lines repeating an earlier unique key, ignoring empty keys', () => {
    const lines = [{ carrierId: 1 }, { carrierId: 2 }, { carrierId: 1 }, {}, {}, { carrierId: '2' }].map((values, i) => ({ key: String(i), values }));
    expect([...duplicateLines(lines, def.uniqueKeys)]).toEqual([
      [2, 0],
      [5, 1],
    ]);
    expect(duplicateLines(lines, undefined).size).toBe(0);
  });

  it('previews sums and counts the server will compute', () => {
    const lines = [{ qty: 2 }, { qty: 3 }, { qty: undefined }].map((values, i) => ({ key: String(i), values }));
    expect(rollUpPreview(def, lines)).toEqual({ totalAmount: 5, lineCount: 3 });
  });

  it('lines are editable only in the declared header statuses (a new document is)', () => {
    expect(linesEditable(def, undefined)).toBe(true);
    expect(linesEditable(def, { status: 10 })).toBe(true);
    expect(linesEditable(def, { status: '20' })).toBe(false);
    expect(linesEditable({ ...def, editableWhen: undefined }, { status: 20 })).toBe(true);
  });

  it('the save body: stored lines keep their id and clear emptied values; new lines send what is set', () => {
    const body = linesBody(fields, [
      { key: 'a', id: 7, values: { carrierId: 3, qty: 2, remark: '' } },
      { key: 'b', values: { carrierId: 4, qty: 1, remark: '  hi ' } },
    ]);
    expect(body).toEqual([
      { id: 7, carrierId: 3, qty: 2, remark: null },
      { carrierId: 4, qty: 1, remark: 'hi' },
    ]);
  });
});
