/**
 * The editor's rows (one per editable field, in column order) from a base resource and its
 * stored overlay, and back to the smallest overlay that says only what differs from the base.
 */
import type { FieldDef, FieldOverlay, OverlayLanguage, OverlayTexts, ResourceDef, ResourceOverlay } from '@rti/metadata/browser';

export interface FieldRow {
  name: string;
  field: FieldDef;
  label: OverlayTexts;
  required: boolean;
  /** the base rule already requires it: the overlay cannot relax it */
  baseRequired: boolean;
  default: unknown;
  listVisible: boolean;
  /** false = not a list column at all */
  listable: boolean;
  listWidth?: number;
  show: boolean;
}

const editable = (f: FieldDef) => !f.hidden && f.type !== 'password';
const baseVisible = (f: FieldDef) => f.list !== false && (typeof f.list !== 'object' || f.list.visible !== false);
const baseShow = (f: FieldDef) => f.show ?? !f.writeOnly;

export function rowsOf(base: ResourceDef, overlay: ResourceOverlay | null): FieldRow[] {
  const rows = base.fields.filter(editable).map((f): FieldRow => {
    const o: FieldOverlay = overlay?.fields?.[f.name] ?? {};
    return {
      name: f.name,
      field: f,
      label: { ...(o.label ?? {}) },
      required: Boolean(f.required || o.required),
      baseRequired: Boolean(f.required),
      default: o.default ?? f.default,
      listVisible: o.listVisible ?? baseVisible(f),
      listable: f.list !== false,
      listWidth: o.listWidth ?? (typeof f.list === 'object' ? f.list.width : undefined),
      show: o.show ?? baseShow(f),
    };
  });
  const order = new Map((overlay?.columns ?? []).map((c, i) => [c, i]));
  return rows
    .map((r, i) => ({ r, rank: order.get(r.name) ?? Number.MAX_SAFE_INTEGER, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.r);
}

const cleanTexts = (t: OverlayTexts): OverlayTexts | undefined => {
  const out = Object.fromEntries(
    Object.entries(t)
      .filter(([, v]) => typeof v === 'string' && v.trim() !== '')
      .map(([k, v]) => [k, v!.trim()]),
  ) as Partial<Record<OverlayLanguage, string>>;
  return Object.keys(out).length ? out : undefined;
};

/** Only what differs from the base; column order only when it differs from field order. */
export function overlayOf(base: ResourceDef, rows: FieldRow[]): ResourceOverlay {
  const fields: Record<string, FieldOverlay> = {};
  for (const r of rows) {
    const f = r.field;
    const o: FieldOverlay = {};
    const label = cleanTexts(r.label);
    if (label) o.label = label;
    if (r.required && !f.required) o.required = true;
    if (r.default !== undefined && r.default !== null && r.default !== '' && r.default !== f.default) o.default = r.default;
    if (r.listable && r.listVisible !== baseVisible(f)) o.listVisible = r.listVisible;
    const baseWidth = typeof f.list === 'object' ? f.list.width : undefined;
    if (r.listable && r.listWidth !== undefined && r.listWidth !== baseWidth) o.listWidth = r.listWidth;
    if (r.show !== baseShow(f)) o.show = r.show;
    if (Object.keys(o).length) fields[r.name] = o;
  }
  const baseOrder = base.fields.filter(editable).map((f) => f.name);
  const order = rows.map((r) => r.name);
  const moved = order.some((n, i) => n !== baseOrder[i]);
  return {
    resource: base.name,
    ...(moved ? { columns: order.filter((n) => rows.find((r) => r.name === n)?.listable) } : {}),
    ...(Object.keys(fields).length ? { fields } : {}),
  };
}

/** Moves one row up (-1) or down (+1). */
export function move(rows: FieldRow[], name: string, by: -1 | 1): FieldRow[] {
  const i = rows.findIndex((r) => r.name === name);
  const j = i + by;
  if (i < 0 || j < 0 || j >= rows.length) return rows;
  const next = rows.slice();
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
