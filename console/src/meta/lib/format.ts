/** Display formats (SPEC §9) for values coming back from the API. */
import type { EnumValue, EnumsFile, FieldDef } from '@rti/metadata/browser';
import { DATE_FORMAT, DATETIME_FORMAT, formatDateTime } from '../../lib/date-format';

// the console's one date-time format (lib/date-format.ts)
export { DATE_FORMAT, DATETIME_FORMAT };

export const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** ISO string, epoch ms or date-only string → local display text; '' when empty or invalid. */
export function formatDate(v: unknown, withTime: boolean): string {
  if (isEmpty(v)) return '';
  return formatDateTime(v as string | number, withTime ? 'datetime' : 'date');
}

export function formatNumber(v: unknown, scale?: number): string {
  if (isEmpty(v)) return '';
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return String(v);
  return scale === undefined ? String(n) : n.toFixed(scale);
}

/** The enumeration entry for a value; numbers and numeric strings match each other. */
export function findEnumValue(enums: EnumsFile, name: string | undefined, value: unknown): EnumValue | undefined {
  if (!name || isEmpty(value)) return undefined;
  return enums[name]?.find((e) => e.value === value || String(e.value) === String(value));
}

/** Values of an `enums`/`refs`/`permissions` field as an array, whatever the row holds. */
export function asArray(v: unknown): unknown[] {
  if (isEmpty(v)) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string' && v.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      /* not JSON: treat as one value */
    }
  }
  return [v];
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Plain-text form of a field's value in a row (titles, tooltips, tests). The table and
 * detail screens render richer nodes through FieldRenderer but agree with this text.
 */
export function formatFieldText(field: FieldDef, row: Record<string, unknown>, enums: EnumsFile, t: Translate): string {
  const v = row[field.name];
  let text: string;
  switch (field.type) {
    case 'datetime':
      text = formatDate(v, true);
      break;
    case 'date':
      text = formatDate(v, false);
      break;
    case 'int':
      text = formatNumber(v);
      break;
    case 'decimal':
      text = formatNumber(v, field.scale ?? 2);
      break;
    case 'bool':
      text = isEmpty(v) ? '' : t(v === true || v === 1 || v === '1' || v === 'true' ? 'meta.yes' : 'meta.no');
      break;
    case 'enum': {
      const e = findEnumValue(enums, field.enum, v);
      text = e ? t(e.label) : isEmpty(v) ? '' : String(v);
      break;
    }
    case 'enums':
      text = asArray(v)
        .map((x) => {
          const e = findEnumValue(enums, field.enum, x);
          return e ? t(e.label) : String(x);
        })
        .join(', ');
      break;
    case 'ref': {
      const label = row[`${field.name}Label`];
      text = isEmpty(label) ? (isEmpty(v) ? '' : String(v)) : String(label);
      break;
    }
    case 'refs': {
      const labels = asArray(row[`${field.name}Labels`]);
      text = (labels.length ? labels : asArray(v)).map(String).join(', ');
      break;
    }
    case 'lnglat': {
      const [lng, lat] = asArray(v);
      text = lng === undefined || lat === undefined ? '' : `${lng}, ${lat}`;
      break;
    }
    case 'json':
    case 'permissions':
      text = isEmpty(v) ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      break;
    default:
      text = isEmpty(v) ? '' : Array.isArray(v) ? v.join(', ') : String(v);
  }
  return text && field.unit ? `${text} ${t(`units.${field.unit}`)}` : text;
}
