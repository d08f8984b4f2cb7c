/**
 * Allocation-free field checks shared by the decoders. Each returns the normalised value or
 * a sentinel; decoders turn sentinels into a RejectReason.
 */

export const WRONG = Symbol('wrong-type');
export const RANGE = Symbol('out-of-range');

/** Optional finite number in [min, max]; null/undefined → null. */
export function num(v: unknown, min: number, max: number): number | null | typeof WRONG | typeof RANGE {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || v !== v || v === Infinity || v === -Infinity) return WRONG;
  if (v < min || v > max) return RANGE;
  return v;
}

/** Optional integer in [min, max]. */
export function int(v: unknown, min: number, max: number): number | null | typeof WRONG | typeof RANGE {
  const n = num(v, min, max);
  if (typeof n === 'number' && Math.floor(n) !== n) return WRONG;
  return n;
}

/** Optional string of at most `max` characters. */
export function str(v: unknown, max: number): string | null | typeof WRONG | typeof RANGE {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return WRONG;
  if (v.length > max) return RANGE;
  return v;
}

// Epoch milliseconds between 2000-01-01 and 2100-01-01; gateways that send seconds are common.
const MIN_MS = 946684800000;
const MAX_MS = 4102444800000;

/**
 * Optional timestamp: epoch ms, epoch s (scaled) or ISO-8601 string → epoch ms.
 */
export function time(v: unknown): number | null | typeof WRONG | typeof RANGE {
  if (v === undefined || v === null) return null;
  let ms: number;
  if (typeof v === 'number') {
    if (v !== v || v === Infinity || v === -Infinity) return WRONG;
    ms = v < 1e11 ? v * 1000 : v;
  } else if (typeof v === 'string' && v.length <= 40) {
    ms = Date.parse(v);
    if (ms !== ms) return WRONG;
  } else return WRONG;
  if (ms < MIN_MS || ms > MAX_MS) return RANGE;
  return Math.round(ms);
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * MAC address → 12 upper-case hex digits. Accepts "AC233FA1B2C3", "ac:23:3f:a1:b2:c3" and
 * "AC-23-…". Returns the input itself when it is already canonical (the usual case), so the
 * hot path allocates nothing.
 */
export function mac(v: unknown): string | typeof WRONG {
  if (typeof v !== 'string') return WRONG;
  const len = v.length;
  if (len === 12) {
    let canonical = true;
    for (let i = 0; i < 12; i++) {
      const c = v.charCodeAt(i);
      if (hexVal(c) < 0) return WRONG;
      if (c >= 97) canonical = false;
    }
    return canonical ? v : v.toUpperCase();
  }
  if (len === 17) {
    const sep = v.charCodeAt(2);
    if (sep !== 58 && sep !== 45) return WRONG;
    let out = '';
    for (let i = 0; i < 17; i++) {
      const c = v.charCodeAt(i);
      if (i % 3 === 2) {
        if (c !== sep) return WRONG;
      } else if (hexVal(c) < 0) return WRONG;
      else out += v[i];
    }
    return out.toUpperCase();
  }
  return WRONG;
}

/** iBeacon proximity UUID: 32 hex digits, optionally dashed (36) → upper-case dashed form kept as sent if already so. */
export function uuid(v: unknown): string | null | typeof WRONG {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || (v.length !== 32 && v.length !== 36)) return WRONG;
  let upper = true;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 45) {
      if (v.length !== 36 || (i !== 8 && i !== 13 && i !== 18 && i !== 23)) return WRONG;
      continue;
    }
    if (hexVal(c) < 0) return WRONG;
    if (c >= 97) upper = false;
  }
  if (v.length === 32) {
    const u = v.toUpperCase();
    return `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;
  }
  return upper ? v : v.toUpperCase();
}

/** Parses a JSON payload with a byte limit. */
export function parseJson(payload: Buffer | string, maxBytes: number): unknown | typeof WRONG | typeof RANGE {
  if (payload.length > maxBytes) return RANGE;
  try {
    return JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return WRONG;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
