/**
 * The field-widget registry: which input a generated form, search form or document line shows for
 * a field. FieldInput (./field-input) draws the plain inputs of the metadata's field types itself
 * and asks this registry first, so
 *
 * - inputs that need more of the console (the reference pickers: a ref select searching its
 *   resource, a refs picker opening a whole list with its own search form) register themselves
 *   here from their own modules instead of being imported by FieldInput — FieldInput → picker →
 *   search form → FieldInput was an import cycle;
 * - a plugin adds its own widget for a field type or for one field (`registerFieldWidget` of
 *   `@rti/console/plugin-api`, docs/CONSOLE.md "Field widgets").
 *
 * This module imports no component: anything may import it.
 */
import type { ComponentType } from 'react';
import type { FieldDef } from '@rti/metadata/browser';
import type { FormMode } from '../lib/fields';

/** The record a form edits, as a reference picker needs it (options held by another record). */
export interface RefOwner {
  resource: string;
  id?: unknown;
}

/** What a field widget receives: a drop-in child of antd Form.Item (value/onChange) with the field it edits. */
export interface FieldWidgetProps {
  field: FieldDef;
  /** create or edit (a password kept when left empty on edit, …) */
  mode: FormMode;
  /** where the input sits: search forms want multi-selects and no secrets */
  context: 'form' | 'search';
  /** the resource whose form or search shows the field, when the caller knows it */
  resource?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
  disabled?: boolean;
  id?: string;
  /** labels of the current ref value(s) */
  knownLabels?: Record<string, string>;
  placeholder?: string;
  /** the record the form edits: a picker marks options held by another record of its resource */
  owner?: RefOwner;
  /** a ref picker's options given by the form (metadata form.defaultsFrom choices) */
  choices?: Array<{ value: string | number; label: string }>;
}

export type FieldWidget = ComponentType<FieldWidgetProps>;

/**
 * Which fields a widget serves: every field of a type (`{ type: 'color' }`), fields of that
 * name (`{ name: 'sn' }`), or one resource's field (`{ resource: 'carrier', name: 'sn' }`,
 * used where the screen knows its resource). `context` limits it to forms or to search forms.
 */
export interface FieldWidgetKey {
  type?: string;
  name?: string;
  resource?: string;
  context?: 'form' | 'search';
}

interface Entry {
  key: FieldWidgetKey;
  widget: FieldWidget;
}

const entries: Entry[] = [];

/**
 * Registers a widget; a later registration for the same key takes the place of the earlier one
 * (a plugin's widget over the built-in one). Returns a function that removes it again.
 */
export function registerFieldWidget(key: FieldWidgetKey, widget: FieldWidget): () => void {
  if (!key.type && !key.name) throw new Error('registerFieldWidget: name a field type or a field name');
  const same = (e: Entry) => e.key.type === key.type && e.key.name === key.name && e.key.resource === key.resource && e.key.context === key.context;
  const at = entries.findIndex(same);
  const entry = { key, widget };
  if (at >= 0) entries.splice(at, 1, entry);
  else entries.push(entry);
  return () => {
    const i = entries.indexOf(entry);
    if (i >= 0) entries.splice(i, 1);
  };
}

/** How closely a key fits: a resource's field over a field name over a type; a context-bound key over one for both. */
function rank(key: FieldWidgetKey, field: FieldDef, context: 'form' | 'search', resource: string | undefined): number {
  if (key.context && key.context !== context) return -1;
  if (key.type && key.type !== field.type) return -1;
  if (key.name && key.name !== field.name) return -1;
  if (key.resource && key.resource !== resource) return -1;
  return (key.resource ? 8 : 0) + (key.name ? 4 : 0) + (key.type ? 2 : 0) + (key.context ? 1 : 0);
}

/** The widget registered for a field in a context (the closest fit, the latest on a tie), if any. */
export function fieldWidget(field: FieldDef, context: 'form' | 'search', resource?: string): FieldWidget | undefined {
  let best: Entry | undefined;
  let bestRank = -1;
  for (const e of entries) {
    const r = rank(e.key, field, context, resource);
    if (r >= 0 && r >= bestRank) {
      best = e;
      bestRank = r;
    }
  }
  return best?.widget;
}
