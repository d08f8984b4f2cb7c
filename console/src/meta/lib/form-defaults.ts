/**
 * Form defaults from a call (metadata `form.defaultsFrom`, docs/METADATA.md "Form defaults"):
 * what the create form sends, which answered defaults it takes and the picker choices the
 * answer gives. Pure, so the rules are tested without a screen.
 */
import type { FieldDef, FormDefaultsDef } from '@rti/metadata/browser';
import { fromFormValue, toFormValue } from './form-values';
import { isEmpty, type Translate } from './format';

/** What the call answers: `defaults` per field, plus the lists `choices` name. */
export interface DefaultsAnswer {
  defaults?: Record<string, unknown>;
  [list: string]: unknown;
}

export interface Choice {
  value: string | number;
  label: string;
}

/**
 * The request body: the `on` fields the user set, as the API takes them. A value a default put
 * there is the call's own choice and is left for it to make again (a receiver guessed from the
 * old shipper must not pin the next answer).
 */
export function defaultsRequest(
  def: FormDefaultsDef,
  fields: FieldDef[],
  values: Record<string, unknown>,
  touched: (name: string) => boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of def.on) {
    const f = fields.find((x) => x.name === name);
    if (!f || !touched(name)) continue;
    const v = fromFormValue(f, values[name], 'create');
    if (v !== undefined && v !== null) body[name] = v;
  }
  return body;
}

/**
 * Form values to set from the answered defaults: only fields of the form the user has not
 * touched. A null default clears a field only when an earlier answer filled it (a route that
 * no longer applies takes its eta with it), never a value the form started with. `filled` is
 * updated: the fields the call's answers hold now.
 */
export function defaultsToApply(
  fields: FieldDef[],
  defaults: Record<string, unknown> | undefined,
  touched: (name: string) => boolean,
  filled: Set<string>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(defaults ?? {})) {
    const f = fields.find((x) => x.name === name);
    if (!f || f.readOnly || touched(name)) continue;
    if (isEmpty(value)) {
      if (!filled.has(name)) continue;
      // null, not undefined: a merge of form values could skip an undefined one
      set[name] = toFormValue(f, null) ?? null;
      filled.delete(name);
      continue;
    }
    const v = toFormValue(f, value);
    if (v === undefined) continue;
    set[name] = v;
    filled.add(name);
  }
  return set;
}

/**
 * Labels of the ref values the answer defaults (`labels: { warehouseIdLabel: 'Osaka DC' }`, as
 * rows carry them), per field: `{ warehouseId: { '7': 'Osaka DC' } }`, so a defaulted picker
 * shows the name before it has searched.
 */
export function defaultLabels(fields: FieldDef[], answer: DefaultsAnswer | undefined): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  const labels = (answer?.labels ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(answer?.defaults ?? {})) {
    const f = fields.find((x) => x.name === name);
    const label = labels[`${name}Label`];
    if (f?.type === 'ref' && !isEmpty(value) && !isEmpty(label)) out[name] = { [String(value)]: String(label) };
  }
  return out;
}

/**
 * Options of the fields `choices` names, from the answer's lists (rows with an `id`), labelled
 * by the declared i18n key interpolated with the row, else by the ref's label field.
 */
export function choicesOf(def: FormDefaultsDef, fields: FieldDef[], answer: DefaultsAnswer, t: Translate): Record<string, Choice[]> {
  const out: Record<string, Choice[]> = {};
  for (const [name, c] of Object.entries(def.choices ?? {})) {
    const f = fields.find((x) => x.name === name);
    const rows = answer[c.from];
    if (!f || !Array.isArray(rows)) continue;
    out[name] = (rows as Array<Record<string, unknown>>)
      .filter((r) => r && !isEmpty(r.id))
      .map((r) => ({
        value: r.id as string | number,
        label: c.label ? t(c.label, r) : String(r[f.ref?.label ?? 'name'] ?? r.name ?? r.id),
      }));
  }
  return out;
}
