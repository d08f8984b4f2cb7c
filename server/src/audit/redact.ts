/** Request parameters as they may be kept in a log: secrets masked, size bounded. */

const SECRET_KEY = /pass(word)?|pwd|token|ticket|secret|captcha|authorization|credential|api[-_]?key/i;
export const MASK = '***';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '…';
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined && v !== '' ? MASK : redact(v, depth + 1);
    return out;
  }
  return value;
}

/** JSON of the redacted value, cut to `max` characters. */
export function redactedJson(value: unknown, max: number): string {
  const s = JSON.stringify(redact(value ?? {})) ?? '';
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

export const clip = (s: string | null | undefined, max: number): string | null =>
  s === null || s === undefined ? null : s.length > max ? s.slice(0, max - 1) + '…' : s;
