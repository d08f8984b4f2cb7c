import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formFields } from '../src/meta/lib/fields';
import { fromFormValues, toFormValues } from '../src/meta/lib/form-values';
import { uploadProblem } from '../src/meta/lib/upload';
import { thing } from './meta-fixture';

describe('form values', () => {
  const edit = formFields(thing, 'edit');
  const create = formFields(thing, 'create');
  it('prefills defaults on create and rows on edit, secrets always empty', () => {
    expect(toFormValues(create, undefined, 'create')).toMatchObject({ enabled: true });
    const v = toFormValues(
      edit,
      { sn: 'A', startTime: '2024-01-01T00:00:00Z', secret: 'x', mqttPassword: 'y', kinds: '[10]', settings: { a: 1 }, enabled: 1 },
      'edit',
    );
    expect(v.sn).toBe('A');
    expect(dayjs.isDayjs(v.startTime)).toBe(true);
    expect(v.secret).toBeUndefined();
    expect(v.mqttPassword).toBeUndefined();
    expect(v.kinds).toEqual([10]);
    expect(v.settings).toBe('{\n  "a": 1\n}');
    expect(v.enabled).toBe(true);
  });
  it('sends dates as text/ISO, parses JSON, drops empty secrets on edit, clears emptied fields', () => {
    const body = fromFormValues(
      edit,
      { sn: ' A ', day: dayjs('2024-05-06T12:00:00'), startTime: dayjs('2024-01-01T00:00:00Z'), settings: '{"a":1}', secret: '', remark: '', kinds: [] },
      'edit',
    );
    expect(body.sn).toBe('A');
    expect(body.day).toBe('2024-05-06');
    expect(body.startTime).toBe('2024-01-01T00:00:00.000Z');
    expect(body.settings).toEqual({ a: 1 });
    expect('secret' in body).toBe(false);
    expect(body.remark).toBeNull();
    expect(body.kinds).toEqual([]);
    expect('status' in body).toBe(false);
  });
  it('omits untouched fields on create and sends typed secrets', () => {
    const body = fromFormValues(create, { sn: 'A', secret: 'abc12345!' }, 'create');
    expect(body).toEqual({ sn: 'A', secret: 'abc12345!' });
  });
});

describe('upload limits', () => {
  it('accepts SPEC formats within the size limits', () => {
    expect(uploadProblem('image', { name: 'a.PNG', size: 5120 * 1024 })).toBeNull();
    // a wrong format and a file too large each have their own message (SPEC §5)
    expect(uploadProblem('image', { name: 'a.gif', size: 1 })).toMatchObject({ key: 'validation.imageFormat', reason: 'format' });
    expect(uploadProblem('image', { name: 'a.jpg', size: 5120 * 1024 + 1 })).toEqual({
      key: 'validation.imageSize',
      reason: 'size',
      params: { formats: 'jpg, jpeg, png', size: 5120 },
    });
    expect(uploadProblem('file', { name: 'a.xlsx', size: 10240 * 1024 })).toBeNull();
    expect(uploadProblem('file', { name: 'a.exe', size: 1 })?.params.formats).toBe('doc, ppt, xls, docx, pptx, xlsx, pdf');
  });
});
