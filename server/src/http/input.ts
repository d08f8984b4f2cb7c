/**
 * One walk over every parsed JSON body before any handler sees it (generated and plugin
 * calls alike), so malformed text, hostile nesting and prototype keys are refused in one
 * place instead of failing somewhere deep in a query or a file writer. docs/SERVER.md
 * "Input limits" lists these bounds.
 */

export const INPUT_LIMITS = {
  /** objects/arrays inside the body: JSON bodies of every call are shallow (overlays ~5 levels) */
  maxDepth: 32,
  /** characters of one string value (MySQL TEXT holds 64 KB; 4-byte characters count as 2) */
  maxString: 65_536,
  /** characters of one object key */
  maxKey: 256,
} as const;

export type InputProblem =
  | { kind: 'depth'; path: string; max: number }
  | { kind: 'stringLength'; path: string; max: number }
  | { kind: 'keyLength'; path: string; max: number }
  | { kind: 'characters'; path: string }
  | { kind: 'reservedKey'; path: string };

/**
 * Refused everywhere: C0 controls other than tab, line feed and carriage return (NUL cuts
 * strings in drivers and C libraries; none is valid in the XML of an xlsx export), and the
 * bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069 (they make a text
 * display other than it reads: "Trojan Source"), and lone surrogates (not text: utf8mb4 and
 * the xlsx XML cannot store them). The marks U+200E/U+200F/U+061C stay allowed:
 * real right-to-left text needs them and they reorder nothing.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Keys that would reach Object.prototype through Object.assign, lodash-style merges or a[b][c] = v. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A string that is safe to store, compare and export: no forbidden controls, no lone surrogate (well-formed UTF-16). */
export const isCleanText = (s: string): boolean => !FORBIDDEN.test(s);

const child = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** The first problem of a parsed JSON body, or null. Never recurses deeper than maxDepth. */
export function checkInput(value: unknown, limits: typeof INPUT_LIMITS = INPUT_LIMITS): InputProblem | null {
  const visit = (v: unknown, path: string, depth: number): InputProblem | null => {
    if (typeof v === 'string') {
      if (v.length > limits.maxString) return { kind: 'stringLength', path, max: limits.maxString };
      return isCleanText(v) ? null : { kind: 'characters', path };
    }
    if (v === null || typeof v !== 'object') return null;
    if (depth >= limits.maxDepth) return { kind: 'depth', path, max: limits.maxDepth };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = visit(v[i], child(path, i), depth + 1);
        if (p) return p;
      }
      return null;
    }
    for (const key of Object.keys(v)) {
      const at = child(path, key.length > 64 ? `${key.slice(0, 64)}…` : key);
      if (RESERVED_KEYS.has(key)) return { kind: 'reservedKey', path: at };
      if (key.length > limits.maxKey) return { kind: 'keyLength', path: at, max: limits.maxKey };
      if (!isCleanText(key)) return { kind: 'characters', path: child(path, '?') };
      const p = visit((v as Record<string, unknown>)[key], at, depth + 1);
      if (p) return p;
    }
    return null;
  };
  return visit(value, '', 0);
}
