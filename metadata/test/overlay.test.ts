import { describe, expect, it } from 'vitest';
import { applyOverlay, checkOverlay, overlayLabelKey, type ResourceDef } from '../src';

const base: ResourceDef = {
  name: 'thing',
  module: 'system',
  route: '/system/thing',
  fields: [
    { name: 'code', type: 'string', required: true, maxLength: 10, pattern: 'code' },
    { name: 'note', type: 'string', maxLength: 5, label: 'fields.remark', form: { help: 'help.note' } },
    { name: 'kind', type: 'enum', enum: 'k' },
    { name: 'size', type: 'int', min: 1, max: 9, list: { width: 80 } },
    { name: 'secret', type: 'password' },
    { name: 'internal', type: 'string', list: false },
  ],
} as ResourceDef;
const enums = {
  k: [
    { value: 1, label: 'a' },
    { value: 2, label: 'b' },
  ],
};
const tr = (lang: string, key: string) => `${lang}:${key}`;

describe('checkOverlay', () => {
  it('accepts what an administrator may change', () => {
    expect(
      checkOverlay(
        base,
        {
          resource: 'thing',
          columns: ['size', 'code'],
          fields: {
            note: { required: true, default: 'ab', label: { 'ja-JP': '備考' } },
            kind: { default: 2 },
            size: { listWidth: 120, listVisible: false, show: false },
          },
        },
        enums,
      ),
    ).toEqual([]);
  });

  it('names each fault by JSON pointer', () => {
    const problems = checkOverlay(
      base,
      {
        columns: ['code', 'code', 'nope'],
        fields: {
          code: { required: false },
          note: { default: 'too long', colour: 1 },
          kind: { default: 3 },
          size: { default: 10, listWidth: 1 },
          secret: { show: false },
          internal: { listVisible: true },
          x: {},
        },
      },
      enums,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '/columns/1', problem: 'duplicateColumn' },
        { path: '/columns/2', problem: 'unknownField' },
        { path: '/fields/code/required', problem: 'notAllowed' },
        { path: '/fields/note/default', problem: 'badDefault' },
        { path: '/fields/note/colour', problem: 'notAllowed' },
        { path: '/fields/kind/default', problem: 'badDefault' },
        { path: '/fields/size/default', problem: 'badDefault' },
        { path: '/fields/size/listWidth', problem: 'badWidth' },
        { path: '/fields/secret', problem: 'unknownField' },
        { path: '/fields/internal/listVisible', problem: 'notAllowed' },
        { path: '/fields/x', problem: 'unknownField' },
      ]),
    );
  });
});

describe('applyOverlay', () => {
  it('merges into a copy, keys the texts per resource and fills missing languages from the base label', () => {
    const { resource, texts } = applyOverlay(
      base,
      { resource: 'thing', columns: ['size'], fields: { note: { label: { 'en-US': 'Memo' }, help: { 'zh-CN': '备注' }, required: true } } },
      tr,
    );
    const note = resource.fields.find((f) => f.name === 'note')!;
    expect(note).toMatchObject({ required: true, label: overlayLabelKey('thing', 'note') });
    expect(texts['en-US'][note.label!]).toBe('Memo');
    expect(texts['ja-JP'][note.label!]).toBe('ja-JP:fields.remark');
    expect(texts['en-US'][(note.form as { help: string }).help]).toBe('en-US:help.note');
    expect(resource.fields.find((f) => f.name === 'size')!.list).toEqual({ width: 80, order: 0 });
    expect(base.fields[1]).not.toHaveProperty('required');
  });
});
