/**
 * antd form rules from a FieldDef, with the SPEC §5 message templates (metadata locales,
 * `validation.*`). Pure: the caller passes its translate function.
 */
import dayjs from 'dayjs';
import type { FormRule } from 'antd';
import { patternMessageKey, patternRegExp, type FieldDef, type ResourceRules } from '@rti/metadata/browser';
import { isSelectType, type FormMode } from './fields';
import { isEmpty, type Translate } from './format';

/** Message keys, in one place so they track the metadata locale files. */
export const V = {
  required: 'validation.required',
  select: 'validation.select',
  format: 'validation.format',
  lengthMax: 'validation.lengthMax',
  lengthMin: 'validation.lengthMin',
  lengthBetween: 'validation.lengthBetween',
  valueMax: 'validation.valueMax',
  valueMin: 'validation.valueMin',
  valueBetween: 'validation.valueBetween',
  earlier: 'validation.earlier',
  smaller: 'validation.smaller',
  different: 'validation.different',
  passwordMismatch: 'validation.passwordMismatch',
  json: 'validation.format',
} as const;

const TEXT_TYPES = new Set(['string', 'text', 'password', 'color']);
const NUMBER_TYPES = new Set(['int', 'decimal']);

/** Whether an empty value is acceptable on this screen (secrets keep the old value on edit). */
export const keepsOldWhenEmpty = (f: FieldDef, mode: FormMode): boolean => mode === 'edit' && (Boolean(f.writeOnly) || f.type === 'password');

export function fieldRules(f: FieldDef, name: string, mode: FormMode, t: Translate): FormRule[] {
  const rules: FormRule[] = [];
  if (f.readOnly) return rules;
  if (f.required && !keepsOldWhenEmpty(f, mode)) {
    const message = t(isSelectType(f.type) ? V.select : V.required, { name });
    // antd's validator also type-checks `required` (default "string"); ids, enum values,
    // dates and arrays are checked for emptiness only
    if (TEXT_TYPES.has(f.type)) rules.push({ required: true, whitespace: true, message });
    else if (NUMBER_TYPES.has(f.type)) rules.push({ required: true, type: 'number', message });
    else
      rules.push({
        required: true,
        message,
        validator: async (_r, v: unknown) => {
          if (isEmpty(v)) throw new Error(message);
        },
      });
  }
  if (TEXT_TYPES.has(f.type)) {
    const { minLength: min, maxLength: max } = f;
    if (min !== undefined && max !== undefined) rules.push({ type: 'string', min, max, message: t(V.lengthBetween, { name, min, max }) });
    else if (max !== undefined) rules.push({ type: 'string', max, message: t(V.lengthMax, { name, max }) });
    else if (min !== undefined) rules.push({ type: 'string', min, message: t(V.lengthMin, { name, min }) });
  }
  if (NUMBER_TYPES.has(f.type)) {
    const { min, max } = f;
    if (min !== undefined && max !== undefined) rules.push({ type: 'number', min, max, message: t(V.valueBetween, { name, min, max }) });
    else if (max !== undefined) rules.push({ type: 'number', max, message: t(V.valueMax, { name, max }) });
    else if (min !== undefined) rules.push({ type: 'number', min, message: t(V.valueMin, { name, min }) });
  }
  const pattern = f.pattern ?? (f.type === 'color' ? 'color' : undefined);
  if (pattern) {
    // the message says the format (and a code's maximum length), as the server's refusal does
    rules.push({
      pattern: patternRegExp(pattern),
      message: t(patternMessageKey(pattern, f.maxLength), { name, ...(f.maxLength !== undefined ? { max: f.maxLength } : {}) }),
    });
  }
  if (f.type === 'json') {
    rules.push({
      validator: async (_r, v: unknown) => {
        if (typeof v === 'string' && v.trim()) {
          try {
            JSON.parse(v);
          } catch {
            throw new Error(t(V.json, { name }));
          }
        }
      },
    });
  }
  return rules;
}

/** Rules of a password confirmation item: required when a password was typed, must match. */
export function confirmRules(passwordField: string, name: string, t: Translate): FormRule[] {
  return [
    ({ getFieldValue }) => ({
      validator: async (_r, v: unknown) => {
        const pw: unknown = getFieldValue(passwordField);
        if (isEmpty(pw) && isEmpty(v)) return;
        if (isEmpty(v)) throw new Error(t(V.required, { name }));
        if (v !== pw) throw new Error(t(V.passwordMismatch));
      },
    }),
  ];
}

type CompareKind = NonNullable<ResourceRules['compare']>[number]['kind'];

const toNumber = (v: unknown): number =>
  dayjs.isDayjs(v) ? v.valueOf() : typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : dayjs(v as string).valueOf();

/** Whether a compare rule holds; empty sides are for `required` to judge. */
export function compareHolds(kind: CompareKind, left: unknown, right: unknown): boolean {
  if (isEmpty(left) || isEmpty(right)) return true;
  if (kind === 'different') {
    const l = Array.isArray(left) ? left.join(',') : String(left);
    const r = Array.isArray(right) ? right.join(',') : String(right);
    return l !== r;
  }
  return toNumber(left) < toNumber(right);
}

/**
 * Cross-field rules on the right-hand field of each compare rule of `rules`; `labelOf` gives
 * a field's translated label. Returns rules keyed by the field they sit on, plus the fields
 * each depends on (so editing the left side revalidates the right).
 */
export function compareRules(
  rules: ResourceRules | undefined,
  labelOf: (field: string) => string,
  t: Translate,
): Record<string, { rules: FormRule[]; dependencies: string[] }> {
  const out: Record<string, { rules: FormRule[]; dependencies: string[] }> = {};
  for (const c of rules?.compare ?? []) {
    const entry = (out[c.right] ??= { rules: [], dependencies: [] });
    entry.dependencies.push(c.left);
    const l = labelOf(c.left);
    const r = labelOf(c.right);
    const message =
      c.kind === 'earlier'
        ? t(V.earlier, { earlier: l, later: r })
        : c.kind === 'smaller'
          ? t(V.smaller, { smaller: l, bigger: r })
          : t(V.different, { place1: l, place2: r });
    entry.rules.push(({ getFieldValue }) => ({
      validator: async (_r, v: unknown) => {
        if (!compareHolds(c.kind, getFieldValue(c.left), v)) throw new Error(message);
      },
    }));
  }
  return out;
}
