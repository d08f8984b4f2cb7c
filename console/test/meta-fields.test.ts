import { describe, expect, it } from 'vitest';
import { defaultColumnVisible, fieldOfMessage, fieldSpan, formFields, groupFields, listFields, searchFields, showFields } from '../src/meta/lib/fields';
import { thing } from './meta-fixture';

const names = (fs: { name: string }[]) => fs.map((f) => f.name);

describe('field selection', () => {
  it('lists every non-secret, non-hidden field that is not list:false', () => {
    expect(names(listFields(thing))).toEqual([
      'sn',
      'mac',
      'status',
      'kinds',
      'modelId',
      'startTime',
      'endTime',
      'day',
      'weight',
      'count',
      'enabled',
      'remark',
      'settings',
      'note',
      'position',
    ]);
  });
  it('hides bulky and list.visible:false columns by default, unless list:true', () => {
    const byName = Object.fromEntries(thing.fields.map((f) => [f.name, f]));
    expect(defaultColumnVisible(byName.sn)).toBe(true);
    expect(defaultColumnVisible(byName.remark)).toBe(false);
    expect(defaultColumnVisible(byName.note)).toBe(false);
    expect(defaultColumnVisible(byName.settings)).toBe(true);
    expect(defaultColumnVisible(byName.secret)).toBe(false);
  });
  it('searches declared search fields only', () => {
    expect(names(searchFields(thing))).toEqual(['sn', 'mac', 'status', 'modelId', 'startTime', 'day']);
  });
  it('leaves read-only, hidden, form:false and other-mode fields out of forms', () => {
    const create = names(formFields(thing, 'create'));
    const edit = names(formFields(thing, 'edit'));
    expect(create).toContain('note');
    expect(edit).not.toContain('note');
    for (const list of [create, edit]) {
      expect(list).not.toContain('status');
      expect(list).not.toContain('internal');
      expect(list).not.toContain('position');
      expect(list).toContain('secret');
    }
  });
  it('shows read-only fields on edit only when the form hint is explicit', () => {
    const res = { ...thing, fields: thing.fields.map((f) => (f.name === 'status' ? { ...f, form: { span: 8 } } : f)) };
    expect(names(formFields(res, 'edit'))).toContain('status');
    expect(names(formFields(res, 'create'))).not.toContain('status');
  });
  it('never shows secrets on the detail screen', () => {
    const shown = names(showFields(thing));
    expect(shown).not.toContain('secret');
    expect(shown).not.toContain('mqttPassword');
    expect(shown).not.toContain('internal');
    expect(shown).toContain('position');
  });
  it('groups fields by form.group, ungrouped in the basic group first, and picks spans', () => {
    const groups = groupFields(formFields(thing, 'create'));
    expect(groups.map((g) => g.key)).toEqual(['basic', 'device']);
    expect(names(groups[1].fields)).toEqual(['modelId']);
    const byName = Object.fromEntries(thing.fields.map((f) => [f.name, f]));
    expect(fieldSpan(byName.note)).toBe(24);
    expect(fieldSpan(byName.remark)).toBe(24);
    expect(fieldSpan(byName.sn)).toBe(12);
  });
});

describe('server messages', () => {
  const labels: Record<string, string> = { startTime: 'Start time', endTime: 'End time', sn: 'SN', day: 'Start' };
  const labelOf = (f: { name: string }) => labels[f.name] ?? f.name;
  it('finds the field a validation message names, preferring the longest label', () => {
    expect(fieldOfMessage(thing.fields, labelOf, 'Start time must be earlier than End time')?.name).toBe('startTime');
    expect(fieldOfMessage(thing.fields, labelOf, 'SN "A1" already exists')?.name).toBe('sn');
    expect(fieldOfMessage(thing.fields, labelOf, 'Something went wrong')).toBeUndefined();
  });
});
