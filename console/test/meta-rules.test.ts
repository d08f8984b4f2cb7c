import dayjs from 'dayjs';
import type { FormInstance, FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import Schema from '@rc-component/async-validator';
import { compareHolds, compareRules, confirmRules, fieldRules } from '../src/meta/lib/rules';
import { t, thing } from './meta-fixture';

const field = (name: string) => thing.fields.find((f) => f.name === name)!;

/** Runs rules through antd's own validator (as Form.Item does); returns failing messages. */
async function check(rules: FormRule[], v: unknown, values: Record<string, unknown> = {}): Promise<string[]> {
  const form = { getFieldValue: (n: string) => values[n] } as unknown as FormInstance;
  const errors: string[] = [];
  for (const r of rules) {
    const rule = typeof r === 'function' ? r(form) : r;
    const { validator, ...rest } = rule as Record<string, unknown> & { validator?: (r: unknown, v: unknown) => Promise<void> };
    const descriptor = validator
      ? {
          ...rest,
          validator: (_r: unknown, value: unknown, cb: (e?: string) => void) =>
            validator(_r, value).then(
              () => cb(),
              (e: Error) => cb(e.message),
            ),
        }
      : rest;
    try {
      await new Schema({ v: descriptor as never }).validate({ v });
    } catch (e) {
      const list = (e as { errors?: Array<{ message: string }> }).errors ?? [];
      errors.push(...list.map((x) => x.message));
    }
  }
  return errors;
}

describe('field rules', () => {
  it('accepts filled non-text values (numbers, ids, dates, arrays) as present', async () => {
    expect(await check(fieldRules(field('modelId'), 'Model', 'create', t), 3)).toEqual([]);
    expect(await check(fieldRules(field('modelId'), 'Model', 'create', t), 'uuid-1')).toEqual([]);
    expect(await check(fieldRules({ name: 'd', type: 'datetime', required: true }, 'D', 'create', t), dayjs())).toEqual([]);
    expect(await check(fieldRules({ name: 'k', type: 'enums', enum: 'level', required: true }, 'K', 'create', t), [])).toEqual(['validation.select(name=K)']);
    expect(await check(fieldRules({ name: 'k', type: 'enums', enum: 'level', required: true }, 'K', 'create', t), [10])).toEqual([]);
    expect(await check(fieldRules({ name: 'n', type: 'int', required: true }, 'N', 'create', t), 0)).toEqual([]);
  });
  it('asks to input text and to select picked values', async () => {
    expect(await check(fieldRules(field('sn'), 'SN', 'create', t), '  ')).toEqual(['validation.required(name=SN)']);
    expect(await check(fieldRules(field('modelId'), 'Model', 'create', t), undefined)).toEqual(['validation.select(name=Model)']);
  });
  it('checks lengths and values with the SPEC templates', async () => {
    expect(await check(fieldRules(field('sn'), 'SN', 'create', t), 'x'.repeat(65))).toEqual(['validation.lengthMax(name=SN,max=64)']);
    expect(await check(fieldRules(field('weight'), 'W', 'create', t), 1001)).toEqual(['validation.valueBetween(name=W,min=0,max=1000)']);
    expect(await check(fieldRules(field('count'), 'C', 'create', t), 0)).toEqual(['validation.valueMin(name=C,min=1)']);
    expect(await check(fieldRules(field('count'), 'C', 'create', t), 3)).toEqual([]);
  });
  it('applies named patterns with their messages', async () => {
    // (issue 10: a named pattern's message says the format; it was validation.format before)
    expect(await check(fieldRules(field('mac'), 'MAC', 'create', t), 'zz')).toEqual(['validation.mac(name=MAC)']);
    const code = { name: 'sn', type: 'string', pattern: 'code', maxLength: 64 } as const;
    expect(await check(fieldRules(code, 'SN', 'create', t), 'A B')).toEqual(['validation.codeMax(name=SN,max=64)']);
    expect(await check(fieldRules({ ...code, maxLength: undefined }, 'SN', 'create', t), '-A')).toEqual(['validation.code(name=SN)']);
    expect(await check(fieldRules({ name: 'x', type: 'string', pattern: '^[0-9]+$' }, 'X', 'create', t), 'a')).toEqual(['validation.format(name=X)']);
    expect(await check(fieldRules(field('mac'), 'MAC', 'create', t), 'AA:BB:CC:DD:EE:FF')).toEqual([]);
    expect(await check(fieldRules(field('secret'), 'PW', 'create', t), 'abcdefgh')).toEqual(['validation.password(name=PW)']);
    expect(await check(fieldRules(field('secret'), 'PW', 'create', t), 'abc12345!')).toEqual([]);
    expect(await check(fieldRules(field('mqttPassword'), 'MQ', 'create', t), 'abcdefg1')).toEqual(['validation.mqttPassword(name=MQ)']);
    expect(await check(fieldRules({ name: 'c', type: 'color' }, 'Colour', 'create', t), '#FAB91')).toEqual(['validation.color(name=Colour)']);
  });
  it('lets a required secret stay empty on edit (keeps the old value)', async () => {
    expect(await check(fieldRules(field('secret'), 'PW', 'edit', t), undefined)).toEqual([]);
    expect(await check(fieldRules(field('secret'), 'PW', 'create', t), undefined)).toEqual(['validation.required(name=PW)']);
  });
  it('rejects malformed JSON', async () => {
    expect(await check(fieldRules(field('settings'), 'S', 'create', t), '{a')).toEqual(['validation.format(name=S)']);
    expect(await check(fieldRules(field('settings'), 'S', 'create', t), '{"a":1}')).toEqual([]);
  });
  it('requires a matching confirmation only when a password was typed', async () => {
    const rules = confirmRules('secret', 'Confirm', t);
    expect(await check(rules, undefined, {})).toEqual([]);
    expect(await check(rules, 'abc', { secret: 'abd' })).toEqual(['validation.passwordMismatch']);
    expect(await check(rules, 'abc', { secret: 'abc' })).toEqual([]);
  });
});

describe('compare rules', () => {
  it('holds for earlier dates, smaller numbers and different places; empty sides pass', () => {
    expect(compareHolds('earlier', dayjs('2024-01-01'), dayjs('2024-01-02'))).toBe(true);
    expect(compareHolds('earlier', dayjs('2024-01-02'), dayjs('2024-01-01'))).toBe(false);
    expect(compareHolds('earlier', '2024-01-01T00:00:00Z', 1704153600000)).toBe(true);
    expect(compareHolds('smaller', 5, 3)).toBe(false);
    expect(compareHolds('smaller', '2', 10)).toBe(true);
    expect(compareHolds('different', 1, 1)).toBe(false);
    expect(compareHolds('different', 1, undefined)).toBe(true);
  });
  it('puts the rule on the right-hand field with the left as dependency', async () => {
    const out = compareRules(thing.rules, (f) => f.toUpperCase(), t);
    expect(Object.keys(out)).toEqual(['endTime']);
    expect(out.endTime.dependencies).toEqual(['startTime']);
    const errors = await check(out.endTime.rules, dayjs('2024-01-01'), { startTime: dayjs('2024-02-01') });
    expect(errors).toEqual(['validation.earlier(earlier=STARTTIME,later=ENDTIME)']);
  });
});
