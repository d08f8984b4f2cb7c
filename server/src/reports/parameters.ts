/**
 * Report parameters from a call body: the time range through the one parser, fields through
 * the same coercion and checks as resource writes, so a bad parameter is refused (10001, in
 * the caller's language) before any row is read or any byte of an export is written.
 */
import type { EnumsFile, FieldDef } from '@rti/metadata';
import { requiredError, validateValue } from '../resources/validate';
import { parseOpenTimeRange, parseTimeRange } from './time';
import type { ReportParameter, TimeRangeParameter } from './types';

export const isTimeRange = (p: ReportParameter): p is TimeRangeParameter => p.type === 'timeRange';

/** A time-range parameter (default name "time"). */
export const timeRange = (opts: Partial<Omit<TimeRangeParameter, 'type'>> = {}): TimeRangeParameter => ({ name: 'time', ...opts, type: 'timeRange' });

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Forms and query strings send numbers as text: "12" is 12 for numeric parameters. */
function numeric(f: FieldDef, v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+(\.\d+)?$/.test(v.trim())) return v;
  return f.type === 'int' || f.type === 'decimal' || f.type === 'ref' ? Number(v) : v;
}

export function parseParameters(
  params: readonly ReportParameter[],
  body: Record<string, unknown>,
  enums: EnumsFile,
  now = Date.now(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    if (isTimeRange(p)) {
      out[p.name] = p.open
        ? parseOpenTimeRange(body, { name: p.name, label: p.label, maxDays: p.maxDays })
        : parseTimeRange(body, { name: p.name, label: p.label, defaultDays: p.defaultDays, maxDays: p.maxDays }, now);
      continue;
    }
    const raw = body[p.name];
    if (isBlank(raw)) {
      if (p.required && p.default === undefined) throw requiredError(p);
      if (p.default !== undefined) out[p.name] = p.default;
      continue;
    }
    out[p.name] = validateValue(p, Array.isArray(raw) ? raw.map((x) => numeric(p, x)) : numeric(p, raw), enums);
  }
  return out;
}

/** The parameters as the console's search form reads fields (the time range as a date range). */
export function searchFields(params: readonly ReportParameter[]): FieldDef[] {
  return params.flatMap<FieldDef>((p) => {
    if (isTimeRange(p)) return [{ name: p.name, type: 'datetime', label: p.label, search: 'range', required: !p.open }];
    if (p.hidden) return [];
    return [{ ...p, search: p.search ?? (p.type === 'string' ? 'like' : 'eq') }];
  });
}
