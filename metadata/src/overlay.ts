/**
 * Metadata overlays: what an administrator changes on a generated screen at run time
 * (labels and help texts per language, list column order/visibility/width, a stricter
 * required flag, default values, detail visibility), stored in the database and merged over
 * the base JSON in git, which stays the source of truth. Pure: the server checks, stores and
 * merges; the console renders what it is served.
 */
import { fieldLabelKey } from './labels';
import { patternRegExp } from './patterns';
import type { EnumsFile, FieldDef, ListHint, ResourceDef } from './types';

export const OVERLAY_LANGUAGES = ['en-US', 'zh-CN', 'ja-JP'] as const;
export type OverlayLanguage = (typeof OVERLAY_LANGUAGES)[number];
export type OverlayTexts = Partial<Record<OverlayLanguage, string>>;

export interface FieldOverlay {
  /** label text per language (languages left out keep the base label) */
  label?: OverlayTexts;
  /** form help / placeholder per language */
  help?: OverlayTexts;
  /** may only make an optional field required, never relax a base rule */
  required?: boolean;
  default?: unknown;
  /** list column shown by default */
  listVisible?: boolean;
  listWidth?: number;
  /** shown on the detail screen */
  show?: boolean;
}

export interface ResourceOverlay {
  resource: string;
  /** list column order (field names; fields left out follow in base order) */
  columns?: string[];
  fields?: Record<string, FieldOverlay>;
}

export interface OverlayProblem {
  /** JSON pointer into the overlay, e.g. /fields/sn/label/en-US */
  path: string;
  /** i18n key under `overlay.problems` */
  problem: 'unknownField' | 'notAllowed' | 'textTooLong' | 'badDefault' | 'badWidth' | 'badType' | 'duplicateColumn';
}

const TEXT_MAX = 100;
const FIELD_KEYS = new Set(['label', 'help', 'required', 'default', 'listVisible', 'listWidth', 'show']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a default value fits the field's own rules. */
function defaultFits(f: FieldDef, v: unknown, enums: EnumsFile): boolean {
  if (v === null) return true;
  switch (f.type) {
    case 'string':
    case 'text':
    case 'color': {
      if (typeof v !== 'string' || (f.maxLength !== undefined && v.length > f.maxLength)) return false;
      const re = f.pattern ? patternRegExp(f.pattern) : undefined;
      return !re || re.test(v);
    }
    case 'enum':
      return (enums[f.enum ?? ''] ?? []).some((e) => e.value === v);
    case 'int':
    case 'decimal':
      if (typeof v !== 'number' || !Number.isFinite(v) || (f.type === 'int' && !Number.isInteger(v))) return false;
      return (f.min === undefined || v >= f.min) && (f.max === undefined || v <= f.max);
    case 'bool':
      return typeof v === 'boolean';
    default:
      return false; // refs, files, passwords, JSON: no sensible shared default
  }
}

function checkTexts(v: unknown, path: string, out: OverlayProblem[]): void {
  if (!isObject(v)) return void out.push({ path, problem: 'badType' });
  for (const [lang, text] of Object.entries(v)) {
    if (!(OVERLAY_LANGUAGES as readonly string[]).includes(lang) || typeof text !== 'string') out.push({ path: `${path}/${lang}`, problem: 'badType' });
    else if (text.trim().length === 0 || text.length > TEXT_MAX) out.push({ path: `${path}/${lang}`, problem: 'textTooLong' });
  }
}

/** Faults of an overlay against its base resource; empty = acceptable. */
export function checkOverlay(base: ResourceDef, overlay: unknown, enums: EnumsFile = {}): OverlayProblem[] {
  const out: OverlayProblem[] = [];
  if (!isObject(overlay)) return [{ path: '', problem: 'badType' }];
  const byName = new Map(base.fields.map((f) => [f.name, f]));
  const editable = (f: FieldDef | undefined) => f && !f.hidden && f.type !== 'password';
  if (overlay.columns !== undefined) {
    if (!Array.isArray(overlay.columns)) out.push({ path: '/columns', problem: 'badType' });
    else {
      const seen = new Set<string>();
      overlay.columns.forEach((c, i) => {
        if (typeof c !== 'string' || !editable(byName.get(c))) out.push({ path: `/columns/${i}`, problem: 'unknownField' });
        else if (seen.has(c)) out.push({ path: `/columns/${i}`, problem: 'duplicateColumn' });
        else seen.add(c);
      });
    }
  }
  if (overlay.fields !== undefined && !isObject(overlay.fields)) out.push({ path: '/fields', problem: 'badType' });
  for (const [name, fo] of Object.entries(isObject(overlay.fields) ? overlay.fields : {})) {
    const p = `/fields/${name}`;
    const f = byName.get(name);
    if (!editable(f)) {
      out.push({ path: p, problem: 'unknownField' });
      continue;
    }
    if (!isObject(fo)) {
      out.push({ path: p, problem: 'badType' });
      continue;
    }
    for (const k of Object.keys(fo)) if (!FIELD_KEYS.has(k)) out.push({ path: `${p}/${k}`, problem: 'notAllowed' });
    if (fo.label !== undefined) checkTexts(fo.label, `${p}/label`, out);
    if (fo.help !== undefined) checkTexts(fo.help, `${p}/help`, out);
    if (fo.required !== undefined) {
      // relaxing a base rule would let rows the database or other rules rely on through
      if (typeof fo.required !== 'boolean') out.push({ path: `${p}/required`, problem: 'badType' });
      else if ((f!.required && !fo.required) || (fo.required && (f!.readOnly || f!.form === false))) out.push({ path: `${p}/required`, problem: 'notAllowed' });
    }
    if (fo.default !== undefined && (f!.readOnly || !defaultFits(f!, fo.default, enums))) out.push({ path: `${p}/default`, problem: 'badDefault' });
    for (const k of ['listVisible', 'show'] as const)
      if (fo[k] !== undefined && typeof fo[k] !== 'boolean') out.push({ path: `${p}/${k}`, problem: 'badType' });
    if (fo.listVisible !== undefined && f!.list === false) out.push({ path: `${p}/listVisible`, problem: 'notAllowed' });
    if (fo.listWidth !== undefined && (typeof fo.listWidth !== 'number' || !Number.isInteger(fo.listWidth) || fo.listWidth < 40 || fo.listWidth > 800)) {
      out.push({ path: `${p}/listWidth`, problem: 'badWidth' });
    }
  }
  return out;
}

/** i18n keys the merged resource uses for overlay texts. */
export const overlayLabelKey = (resource: string, field: string) => `overlay.${resource}.${field}.label`;
export const overlayHelpKey = (resource: string, field: string) => `overlay.${resource}.${field}.help`;

/** Texts to add to each language's catalogue: key → text (a base translation fills languages left out). */
export type OverlayCatalogue = Record<OverlayLanguage, Record<string, string>>;

/**
 * The base resource with the overlay applied (a new object; the base is not touched) and the
 * texts its new label/help keys need. `translate` gives the base text of a key in a language.
 */
export function applyOverlay(
  base: ResourceDef,
  overlay: ResourceOverlay | undefined,
  translate: (lang: OverlayLanguage, key: string) => string,
): { resource: ResourceDef; texts: OverlayCatalogue } {
  const texts: OverlayCatalogue = { 'en-US': {}, 'zh-CN': {}, 'ja-JP': {} };
  if (!overlay) return { resource: base, texts };
  const order = new Map((overlay.columns ?? []).map((c, i) => [c, i]));
  const fields = base.fields.map((f) => {
    const fo = overlay.fields?.[f.name];
    const position = order.get(f.name);
    if (!fo && position === undefined) return f;
    const next: FieldDef = { ...f };
    const withText = (kind: 'label' | 'help', values: OverlayTexts | undefined, baseKey: string | undefined) => {
      if (!values || Object.keys(values).length === 0) return undefined;
      const key = kind === 'label' ? overlayLabelKey(base.name, f.name) : overlayHelpKey(base.name, f.name);
      for (const lang of OVERLAY_LANGUAGES)
        texts[lang][key] = values[lang] ?? (baseKey ? translate(lang, baseKey) : (values['en-US'] ?? Object.values(values)[0]!));
      return key;
    };
    const label = withText('label', fo?.label, fieldLabelKey(f));
    if (label) next.label = label;
    const formHint = typeof f.form === 'object' ? f.form : {};
    const help = withText('help', fo?.help, formHint.help);
    if (help && f.form !== false) next.form = { ...formHint, help };
    if (fo?.required) next.required = true;
    if (fo?.default !== undefined) next.default = fo.default;
    if (fo?.show !== undefined) next.show = fo.show;
    if (f.list !== false && (fo?.listVisible !== undefined || fo?.listWidth !== undefined || position !== undefined)) {
      const hint: ListHint = typeof f.list === 'object' ? { ...f.list } : {};
      if (fo?.listVisible !== undefined) hint.visible = fo.listVisible;
      if (fo?.listWidth !== undefined) hint.width = fo.listWidth;
      if (position !== undefined) hint.order = position;
      next.list = hint;
    }
    return next;
  });
  return { resource: { ...base, fields }, texts };
}
