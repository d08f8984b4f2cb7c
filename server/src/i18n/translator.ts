/**
 * One translator over the metadata locales (labels, enums, units, rule messages) plus the
 * server's own messages (errors, validation). Nested i18next-style JSON, `{{param}}`
 * interpolation, fallback en-US then the key itself, so a missing text never breaks a call.
 */
import type { Language } from '../http/types';

export const LANGUAGES: Language[] = ['en-US', 'zh-CN', 'ja-JP'];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/**
 * A parameter that is itself an i18n key (a field label), translated in the same language,
 * with its own parameters when given. An array parameter renders as its items joined by the
 * language's list separator (`server.listSeparator`).
 */
export interface TranslatableParam {
  $t: string;
  params?: TParams;
  /** shown when no catalogue has the key (a parameter name that is no metadata field) */
  fallback?: string;
}
export const tKey = (key: string, fallback?: string): TranslatableParam => (fallback === undefined ? { $t: key } : { $t: key, fallback });

export type TParams = Record<string, unknown>;
export type TFunction = (lang: Language, key: string, params?: TParams) => string;

export interface Translator {
  t: TFunction;
  has(lang: Language, key: string): boolean;
  /** replaces the run-time texts (metadata overlays' labels), looked up before the catalogues */
  setRuntimeTexts(texts: Partial<Record<Language, Record<string, string>>>): void;
}

type Nested = Record<string, unknown>;

function flatten(obj: Nested, prefix: string, out: Map<string, string>): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Nested, key, out);
    else if (typeof v === 'string') out.set(key, v);
  }
}

const isTKey = (v: unknown): v is TranslatableParam => typeof v === 'object' && v !== null && typeof (v as TranslatableParam).$t === 'string';

/** Later catalogues win over earlier ones for the same key. */
export function createTranslator(...catalogues: Array<Partial<Record<Language, Nested>>>): Translator {
  const maps = new Map<Language, Map<string, string>>();
  for (const lang of LANGUAGES) {
    const m = new Map<string, string>();
    for (const cat of catalogues) if (cat[lang]) flatten(cat[lang] as Nested, '', m);
    maps.set(lang, m);
  }
  let runtime = new Map<Language, Map<string, string>>();
  const lookup = (lang: Language, key: string): string | undefined =>
    runtime.get(lang)?.get(key) ?? maps.get(lang)?.get(key) ?? runtime.get(DEFAULT_LANGUAGE)?.get(key) ?? maps.get(DEFAULT_LANGUAGE)?.get(key);

  const render = (lang: Language, v: unknown, depth: number): string => {
    if (isTKey(v)) return v.params && depth < 4 ? t(lang, v.$t, v.params, depth + 1) : (lookup(lang, v.$t) ?? v.fallback ?? v.$t);
    if (Array.isArray(v)) return v.map((x) => render(lang, x, depth + 1)).join(lookup(lang, 'server.listSeparator') ?? ', ');
    return v === null || v === undefined ? '' : String(v);
  };
  const t = (lang: Language, key: string, params?: TParams, depth = 0): string => {
    const text = lookup(lang, key) ?? key;
    if (!params) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? render(lang, params[name], depth) : whole));
  };
  return {
    t,
    has: (lang, key) => lookup(lang, key) !== undefined,
    setRuntimeTexts(texts) {
      runtime = new Map(Object.entries(texts).map(([lang, m]) => [lang as Language, new Map(Object.entries(m))]));
    },
  };
}

/** A catalogue of nested texts per language, as the JSON files hold them. */
export type Catalogue = Partial<Record<Language, Nested>>;

export interface TextTable {
  /** the texts nested under the table's prefix, for the server's one translator */
  catalogue: Catalogue;
  /** a text of this table (key without the prefix); the bare key when no language has it */
  t(lang: Language, key: string, params?: TParams): string;
  has(key: string): boolean;
}

/**
 * Texts an area keeps beside its code (access, uploads, screen settings) in the one mechanism:
 * `{{param}}` placeholders, fallback en-US then the key. The same texts are also in the
 * server's translator under `prefix` (`ctx.t(lang, 'server.access.noPermission')`).
 */
export function textTable(prefix: string, tables: Partial<Record<Language, Record<string, string>>>): TextTable {
  const catalogue: Catalogue = {};
  for (const [lang, table] of Object.entries(tables) as Array<[Language, Record<string, string>]>) {
    const nested: Nested = {};
    let at = nested;
    const parts = prefix.split('.');
    parts.forEach((p, i) => (at = (at[p] = i === parts.length - 1 ? { ...table } : {}) as Nested));
    catalogue[lang] = nested;
  }
  const tr = createTranslator(catalogue);
  return {
    catalogue,
    t: (lang, key, params) => (tr.has(lang, `${prefix}.${key}`) ? tr.t(lang, `${prefix}.${key}`, params) : key),
    has: (key) => tr.has(DEFAULT_LANGUAGE, `${prefix}.${key}`),
  };
}

/** `Language` header → one of the supported languages (default en-US, no auto-detection). */
export function resolveLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const h = header.trim().toLowerCase();
  const exact = LANGUAGES.find((l) => l.toLowerCase() === h);
  if (exact) return exact;
  if (h.startsWith('zh')) return 'zh-CN';
  if (h.startsWith('ja')) return 'ja-JP';
  return DEFAULT_LANGUAGE;
}
