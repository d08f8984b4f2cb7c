/**
 * Excel cells → API values. Spreadsheets carry labels, not ids: enum cells may hold the value
 * or its label in any language, bool cells yes/no words, ref cells the target's label field
 * (resolved in batches by the runner). Everything else goes through the normal validation.
 */
import { fieldLabelKey, type EnumsFile, type FieldDef } from '@rti/metadata';
import type { TFunction } from '../i18n/translator';
import { LANGUAGES } from '../i18n/translator';

export type CellValue = string | number | boolean | Date | null;

/** exceljs cell values (rich text, hyperlinks, formulas, errors) → a plain value. */
export function plainCell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const s = v.trim();
    return s === '' ? null : s;
  }
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return plainCell(o.richText.map((r) => r.text).join(''));
    if ('result' in o) return plainCell(o.result);
    if ('text' in o) return plainCell(o.text);
    if ('error' in o) return null;
  }
  return plainCell(String(v));
}

export const normalize = (s: string): string => s.trim().replace(/\s*\*$/, '').replace(/\s+/g, ' ').toLowerCase();

/** Header text → field name, accepting the field name or its label in any language. */
export function headerMatcher(fields: FieldDef[], t: TFunction): (header: CellValue) => string | null {
  const map = new Map<string, string>();
  for (const f of fields) {
    map.set(normalize(f.name), f.name);
    for (const lang of LANGUAGES) map.set(normalize(t(lang, fieldLabelKey(f))), f.name);
  }
  return (header) => (header === null ? null : (map.get(normalize(String(header))) ?? null));
}

/** Cell text for string columns: numbers without float noise or exponents. */
function asText(v: CellValue): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  return String(v);
}

const pad = (n: number) => String(n).padStart(2, '0');
const LOCAL_DATETIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** Dates typed as text read as UTC (the API's time zone), like the export writes them. */
function asDateTime(v: CellValue): unknown {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') {
    const m = LOCAL_DATETIME.exec(v);
    if (m) return `${m[1]}-${pad(+m[2])}-${pad(+m[3])}T${pad(+(m[4] ?? 0))}:${m[5] ?? '00'}:${m[6] ?? '00'}.000Z`;
  }
  return v;
}

export interface FieldReader {
  /** the API value, or undefined when the cell cannot be one (an unknown enum label …) */
  read(v: CellValue): unknown;
}

export function fieldReader(f: FieldDef, enums: EnumsFile, t: TFunction): FieldReader {
  switch (f.type) {
    case 'enum':
    case 'enums': {
      const byText = new Map<string, unknown>();
      for (const e of enums[f.enum ?? ''] ?? []) {
        byText.set(normalize(String(e.value)), e.value);
        for (const lang of LANGUAGES) byText.set(normalize(t(lang, e.label)), e.value);
      }
      const one = (x: string) => byText.get(normalize(x));
      if (f.type === 'enum') return { read: (v) => one(asText(v as CellValue)) };
      return {
        read: (v) => {
          const parts = asText(v).split(/[,，、;]/).map((s) => s.trim()).filter(Boolean);
          const values = parts.map(one);
          return values.some((x) => x === undefined) ? undefined : values;
        },
      };
    }
    case 'bool': {
      const yes = new Set(['true', '1', 'y', 'yes', ...LANGUAGES.map((l) => normalize(t(l, 'server.values.yes')))]);
      const no = new Set(['false', '0', 'n', 'no', ...LANGUAGES.map((l) => normalize(t(l, 'server.values.no')))]);
      return {
        read: (v) => {
          if (typeof v === 'boolean') return v;
          const s = normalize(asText(v));
          return yes.has(s) ? true : no.has(s) ? false : undefined;
        },
      };
    }
    case 'int':
    case 'decimal':
      return { read: (v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v) };
    case 'datetime':
      return { read: asDateTime };
    case 'date':
      return { read: (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'string' ? String(asDateTime(v)).slice(0, 10) : v) };
    case 'ref':
    case 'refs':
      // Resolved by label in the runner.
      return { read: (v) => asText(v) };
    default:
      return { read: (v) => asText(v) };
  }
}
