/** Table column specs and the per-user column-visibility store (SPEC §9 browser settings). */
import type { FieldDef, ResourceDef } from '@rti/metadata/browser';
import { defaultColumnVisible, listFields, listHint } from './fields';

export interface ColumnSpec {
  field: FieldDef;
  key: string;
  width?: number;
  sortable: boolean;
  fixed?: 'left' | 'right';
  defaultVisible: boolean;
}

/** Default widths keep wide tables readable under `scroll.x` without per-field hints. */
const DEFAULT_WIDTH: Partial<Record<FieldDef['type'], number>> = {
  datetime: 170,
  date: 120,
  bool: 90,
  image: 90,
  color: 110,
};

export function columnSpecs(res: ResourceDef): ColumnSpec[] {
  // an explicit `list.order` (metadata or an administrator's overlay) goes first; the rest keep field order
  const ordered = listFields(res)
    .map((field, i) => ({ field, rank: listHint(field)?.order ?? Number.MAX_SAFE_INTEGER, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.field);
  return ordered.map((field) => {
    const hint = listHint(field) ?? {};
    return {
      field,
      key: field.name,
      width: hint.width ?? DEFAULT_WIDTH[field.type],
      sortable: Boolean(hint.sortable),
      fixed: hint.fixed,
      defaultVisible: defaultColumnVisible(field),
    };
  });
}

export type ColumnVisibility = Record<string, boolean>;

export const columnStorageKey = (userId: string | number | undefined, resource: string): string => `admin-columns:${userId ?? 'anonymous'}:${resource}`;

export function defaultVisibility(specs: ColumnSpec[]): ColumnVisibility {
  return Object.fromEntries(specs.map((s) => [s.key, s.defaultVisible]));
}

/**
 * Stored choices over defaults: columns added to the metadata since the user saved get their
 * default, columns removed from it are dropped, anything unreadable falls back to defaults.
 */
export function mergeVisibility(specs: ColumnSpec[], stored: string | null | undefined): ColumnVisibility {
  const result = defaultVisibility(specs);
  if (!stored) return result;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
        if (k in result && typeof v === 'boolean') result[k] = v;
      }
    }
  } catch {
    /* corrupt entry: defaults */
  }
  return result;
}

/** Antd sorter order for a field from Refine sorters. */
export function sortOrderOf(sorters: ReadonlyArray<{ field: string; order: 'asc' | 'desc' }>, field: string): 'ascend' | 'descend' | null {
  const s = sorters.find((x) => x.field === field);
  return s ? (s.order === 'asc' ? 'ascend' : 'descend') : null;
}
