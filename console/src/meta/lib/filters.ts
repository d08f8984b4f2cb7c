/** Search-form values ⇄ Refine filters and sorters (API.md filter kinds). */
import dayjs, { type Dayjs } from 'dayjs';
import type { CrudFilter, CrudSort, LogicalFilter } from '@refinedev/core';
import type { FieldDef, ResourceDef, SearchKind } from '@rti/metadata/browser';
import { isEmpty } from './format';

/** The data provider sends any operator as `field: value`; these only document intent. */
const OPERATOR: Record<SearchKind, LogicalFilter['operator']> = { eq: 'eq', like: 'contains', prefix: 'startswith', in: 'in', range: 'between' };

const isDayjs = (v: unknown): v is Dayjs => dayjs.isDayjs(v);

/** One end of a range: dates as YYYY-MM-DD (whole days), datetimes as epoch ms. */
function rangeEnd(field: FieldDef, v: unknown, end: 'start' | 'end'): unknown {
  if (isEmpty(v)) return null;
  if (isDayjs(v)) {
    if (field.type === 'date') return v.format('YYYY-MM-DD');
    // the search form picks days; a datetime range covers them whole (SPEC §9 day helpers)
    return (end === 'start' ? v.startOf('day') : v.endOf('day')).valueOf();
  }
  return v;
}

/** Filter value of one search field, or undefined when the field is left empty. */
export function searchValue(field: FieldDef, v: unknown): unknown {
  if (isEmpty(v)) return undefined;
  switch (field.search) {
    case 'like':
    case 'prefix':
      return typeof v === 'string' ? v.trim() || undefined : v;
    case 'in':
      return Array.isArray(v) ? v : [v];
    case 'range': {
      const [from, to] = Array.isArray(v) ? v : [v, undefined];
      const pair = [rangeEnd(field, from, 'start'), rangeEnd(field, to, 'end')];
      return pair.every((x) => x === null) ? undefined : pair;
    }
    default:
      return isDayjs(v) ? rangeEnd(field, v, 'start') : typeof v === 'string' ? v.trim() || undefined : v;
  }
}

/**
 * Filters for every search field; empty ones carry `undefined` so Refine's merge drops a
 * previous value (Reset clears the table's filters too).
 */
export function searchToFilters(fields: FieldDef[], values: Record<string, unknown>): CrudFilter[] {
  return fields.filter((f) => f.search).map((f) => ({ field: f.name, operator: OPERATOR[f.search as SearchKind], value: searchValue(f, values[f.name]) }));
}

/** Search-form values from active filters (restores the form from a synced URL). */
export function filtersToSearch(fields: FieldDef[], filters: ReadonlyArray<CrudFilter>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const filter = filters.find((x) => 'field' in x && x.field === f.name);
    if (!filter || isEmpty(filter.value)) continue;
    const v = filter.value as unknown;
    if (f.search === 'range' && (f.type === 'date' || f.type === 'datetime') && Array.isArray(v)) {
      out[f.name] = v.map((x) => (isEmpty(x) ? null : dayjs(x as string | number)));
    } else {
      out[f.name] = v;
    }
  }
  return out;
}

/** `defaultSort` ("-id", "sn") → initial sorters. */
export function defaultSorters(res: ResourceDef): CrudSort[] {
  const s = res.defaultSort?.trim();
  if (!s) return [];
  return s.startsWith('-') ? [{ field: s.slice(1), order: 'desc' }] : [{ field: s.replace(/^\+/, ''), order: 'asc' }];
}

/** Body of the export call: the list's filters and sorts, in the data provider's wire shape. */
export function exportBody(filters: ReadonlyArray<CrudFilter>, sorters: ReadonlyArray<CrudSort>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of filters) if ('field' in f && !isEmpty(f.value)) body[f.field] = f.value;
  for (const s of sorters) body[`sortBy${s.field.charAt(0).toUpperCase()}${s.field.slice(1)}`] = s.order === 'asc';
  return body;
}
