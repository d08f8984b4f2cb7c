import dayjs from 'dayjs';
import type { FormInstance, FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { compareHolds, compareRules, confirmRules, fieldRules } from '../src/meta/lib/rules';
import { t, thing } from './meta-fixture';

const field = (name: string) => thing.fields.find((f) => f.name === name)!;

/** Runs a rule list like antd does for one value; returns the messages of failing rules. */
async function check(rules: FormRule[], v: unknown, values: Record<string, unknown> = {}): Promise<string[]> {
  const form = { getFieldValue: (n: string) => values[n] } as unknown as FormInstance;
  const errors: string[] = [];
  for (const r of rules) {
    const rule = typeof r === 'function' ? r(form) : r;
    const empty = v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);
    if (rule.required && (empty || (rule.whitespace && typeof v === 'string' && !v.trim()))) errors.push(String(rule.message));
    else if (empty && !rule.validator) continue;
    else if (rule.pattern && typeof v === 'string' && !rule.pattern.test(v)) errors.push(String(rule.message));
    else if (rule.type === 'string' && typeof v === 'string' && ((rule.max !== undefined && v.length > rule.max) || (rule.min !== undefined && v.length < rule.min))) errors.push(String(rule.message));
    else if (rule.type === 'number' && typeof v === 'number' && ((rule.max !== undefined && v > rule.max) || (rule.min !== undefined && v < rule.min))) errors.push(String(rule.message));
    else if (rule.validator) {
      try {
        await (rule.validator as (r: unknown, v: unknown) => Promise<void>)({}, v);
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
  }
  return errors;
}

describe('field rules', () => {
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
    expect(await check(fieldRules(field('mac'), 'MAC', 'create', t), 'zz')).toEqual(['validation.format(name=MAC)']);
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
