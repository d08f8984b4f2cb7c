/**
 * InfluxDB line protocol, written by hand: the rows are already validated and typed by the
 * decoders, so escaping and number formatting are all that is needed (no per-point objects).
 */
import type { SeriesRow, SeriesSchema } from './series';

// Non-global twins for test(): a /g regex keeps lastIndex between calls.
const TAG_SPECIAL = /[,= \\]/;
const TAG_ESCAPE = /[,= \\]/g;
const FIELD_SPECIAL = /["\\]/;
const FIELD_STRING_ESCAPE = /["\\]/g;

export function escapeTag(v: string): string {
  return TAG_SPECIAL.test(v) ? v.replace(TAG_ESCAPE, (c) => `\\${c}`) : v;
}

function escapeFieldString(v: string): string {
  return FIELD_SPECIAL.test(v) ? v.replace(FIELD_STRING_ESCAPE, (c) => `\\${c}`) : v;
}

/** One line per row, precision ms. Rows without a single non-null field are skipped (returns false). */
export function appendLine(out: string[], schema: SeriesSchema, row: SeriesRow): boolean {
  let line = `${schema.name},org=${row.org},${schema.key}=${escapeTag(String(row[schema.key]))}`;
  const tags = schema.tags ?? [];
  for (const t of tags) {
    const v = row[t];
    if (v !== undefined && v !== null && v !== '') line += `,${t}=${escapeTag(String(v))}`;
  }
  let fields = '';
  for (const c of schema.columns) {
    if (tags.includes(c.name)) continue;
    const v = row[c.name];
    if (v === undefined || v === null) continue;
    const f = c.type === 'string' ? `"${escapeFieldString(String(v))}"` : c.type === 'int' ? `${Math.trunc(v as number)}i` : String(v);
    fields += fields ? `,${c.name}=${f}` : `${c.name}=${f}`;
  }
  if (!fields) return false;
  out.push(`${line} ${fields} ${row.time}`);
  return true;
}
