/**
 * One date-time format everywhere (issue 10, SPEC §9): the helper's formats, and no screen
 * formatting times itself (its own display pattern, or the browser's locale format, which
 * differs by language and browser).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp, formatDateTime } from '../src/lib/date-format';
import { formatDate } from '../src/meta/lib/format';

const root = join(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.|\.e2e\./.test(name)) out.push(p);
  }
  return out;
}

describe('date-time format', () => {
  it('formats in the SPEC §9 patterns, in the browser zone', () => {
    const t = new Date(2026, 10, 24, 6, 5, 9).getTime();
    expect(formatDateTime(t)).toBe('2026-11-24 06:05:09');
    expect(formatDateTime(new Date(t).toISOString(), 'minute')).toBe('2026-11-24 06:05');
    expect(formatDateTime(t, 'date')).toBe('2026-11-24');
    expect(formatDateTime(t, 'time')).toBe('06:05:09');
    expect(formatDateTime(null, 'datetime', '-')).toBe('-');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a time')).toBe('not a time');
    expect(fileStamp(t)).toBe('20261124-060509');
    // the generated screens' formatter is the same one
    expect(formatDate(t, true)).toBe('2026-11-24 06:05:09');
    expect(formatDate('2026-11-24', false)).toBe('2026-11-24');
  });

  it('no console or plugin screen formats times itself', () => {
    const files = [
      ...sources(join(root, 'console/src')),
      ...readdirSync(join(root, 'plugins')).flatMap((p) => {
        try {
          return sources(join(root, 'plugins', p, 'console'));
        } catch {
          return [];
        }
      }),
    ];
    const offenders: string[] = [];
    for (const f of files) {
      // the helper itself; and date values sent to the API (YYYY-MM-DD is the API's date format, not a display)
      if (f.endsWith('lib/date-format.ts') || f.endsWith('meta/lib/filters.ts') || f.endsWith('meta/lib/form-values.ts')) continue;
      const text = readFileSync(f, 'utf8');
      text.split('\n').forEach((line, i) => {
        // a display pattern (with separators; file-name stamps have none) or the locale's own format
        if (/\.format\(\s*['"`][^'"`]*(YYYY-|MM-DD|HH:mm)/.test(line) || /\.toLocale(Date|Time)?String\(\s*\)/.test(line))
          offenders.push(`${relative(root, f)}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
