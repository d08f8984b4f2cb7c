import { Select, type SelectProps } from 'antd';
import { useEffect, useMemo, useRef, useState, type FC } from 'react';
import { useSelect } from '@refinedev/antd';
import { useCan, type CrudFilter } from '@refinedev/core';
import { resourceApiPath, resourceLabelKey, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { mayUse } from '../../lib/guard';
import { useOptionalShell } from '../../providers/shell-context';
import { asArray, isEmpty } from '../lib/format';
import { useMetadata, useMetaT } from '../hooks/use-meta';
import { labelInSentence } from '../lib/record-name';
import { registerFieldWidget, type FieldWidgetProps, type RefOwner } from './field-widgets';

export type { RefOwner } from './field-widgets';

/** SPEC §9 picker page size. */
const PICKER_PAGE_SIZE = 20;

/**
 * The field of the picked resource that points back at the owner's resource, read-only (kept
 * by the server: a beacon's carrierId follows the carrier's beaconId). A row whose back
 * reference names another record is held by it: the server would refuse it, so the picker
 * shows it marked and disabled, naming the holder.
 */
export function backReference(target: ResourceDef | undefined, owner: string): FieldDef | undefined {
  return target?.fields.find((f) => f.type === 'ref' && f.readOnly && f.ref?.resource === owner);
}

/** Text folded for matching: case, accents and full-width forms ignored (as the database's collation does). */
const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Whether an option's label contains the typed text, before the server has answered it. */
export function labelMatches(label: unknown, typed: string): boolean {
  return fold(String(label ?? '')).includes(fold(typed.trim()));
}

export interface RefSelectProps extends Omit<SelectProps, 'options' | 'mode'> {
  field: FieldDef;
  owner?: RefOwner;
  multiple?: boolean;
  /** labels of the current value(s), from the row's `<field>Label(s)`; avoids a lookup per id */
  knownLabels?: Record<string, string>;
  /** the options, given by the form (metadata form.defaultsFrom choices): no list call, filtered as typed */
  choices?: Array<{ value: string | number; label: string }>;
}

/** Searchable select over a ref target's list call; typing searches its label field. */
export const RefSelect: FC<RefSelectProps> = ({ field, multiple, knownLabels, value, owner, choices, ...rest }) => {
  const ref = field.ref;
  const { t, lng } = useMetaT();
  const { resources } = useMetadata();
  const back = owner && ref ? backReference(resources[ref.resource], owner.resource) : undefined;
  // a user who may not list the target keeps the field's value shown but cannot choose (the list call would be refused)
  const listable = useCanList(ref?.resource, !choices);
  const target = ref ? resources[ref.resource] : undefined;
  const unlisted =
    listable === false ? t('meta.refNotListed', { name: labelInSentence(t(target ? resourceLabelKey(target) : String(ref?.resource)), lng) }) : undefined;
  // options load on first focus: a search form or a form full of refs costs no calls until used
  const [active, setActive] = useState(false);
  // The search goes to the server after a 300 ms pause; until its answer arrives the list holds
  // the previous answer. Those rows are narrowed to the typed text meanwhile, so the list does not
  // show rows that don't match and then jump (a dropdown opened upwards moved from under the
  // pointer, and Enter picked the stale first row). The server's own answer is shown as it is.
  const requested = useRef('');
  const [answered, setAnswered] = useState('');
  const permanent = useMemo<CrudFilter[]>(() => Object.entries(ref?.filter ?? {}).map(([f, v]) => ({ field: f, operator: 'eq', value: v })), [ref]);
  const { selectProps, query } = useSelect({
    resource: ref?.resource ?? '',
    optionLabel: (ref?.label ?? 'id') as never,
    optionValue: 'id' as never,
    filters: permanent,
    pagination: { currentPage: 1, pageSize: PICKER_PAGE_SIZE, mode: 'server' },
    onSearch: (text) => {
      requested.current = text;
      return [{ field: ref?.label ?? 'id', operator: 'contains', value: text || undefined }];
    },
    debounce: 300,
    errorNotification: false,
    queryOptions: { enabled: Boolean(ref) && active && !choices && listable === true },
  });

  // new options are the answer to the search last sent
  useEffect(() => setAnswered(requested.current), [selectProps.options]);

  // rows held by another record: "B-0001 (bound to carrier C-7)", not selectable
  const held = useMemo(() => {
    const out = new Map<string, string>();
    if (!back || !owner) return out;
    const ownerDef = resources[owner.resource];
    const ownerName = labelInSentence(t(ownerDef ? resourceLabelKey(ownerDef) : owner.resource), lng);
    for (const row of (query.data?.data ?? []) as Array<Record<string, unknown>>) {
      const holder = row[back.name];
      if (isEmpty(holder) || String(holder) === String(owner.id ?? '')) continue;
      const holderTitle = String(row[`${back.name}Label`] ?? `#${String(holder)}`);
      out.set(String(row.id), t('meta.refHeld', { label: String(row[ref?.label ?? 'id'] ?? row.id), owner: ownerName, title: holderTitle }));
    }
    return out;
  }, [back, owner, resources, query.data, ref, t, lng]);

  // keep the chosen values labelled even when they are not on the first page of options
  const options = useMemo(() => {
    const opts = [...((choices ?? selectProps.options ?? []) as Array<{ label: unknown; value: unknown }>)];
    const have = new Set(opts.map((o) => String(o.value)));
    for (const id of asArray(value)) {
      if (isEmpty(id) || have.has(String(id))) continue;
      opts.push({ value: id, label: knownLabels?.[String(id)] ?? String(id) });
    }
    return opts.map((o) => {
      const taken = held.get(String(o.value));
      return taken
        ? { value: o.value as string | number, label: taken, disabled: true, title: taken }
        : { value: o.value as string | number, label: String(o.label ?? o.value) };
    });
  }, [choices, selectProps.options, value, knownLabels, held]);

  return (
    <Select
      {...selectProps}
      {...rest}
      {...(unlisted ? { disabled: true, title: unlisted, placeholder: unlisted } : {})}
      value={value}
      options={options}
      onFocus={(e) => {
        setActive(true);
        rest.onFocus?.(e);
      }}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch
      filterOption={(input, option) => (!choices && input === answered) || labelMatches(option?.label, input)}
      style={{ width: '100%', ...rest.style }}
    />
  );
};

/** Whether the user may call the ref target's list: undefined until known; true when no list is needed. */
export function useCanList(resource: string | undefined, needed = true): boolean | undefined {
  const { data } = useCan({ resource: resource ?? '', action: 'list', queryOptions: { enabled: Boolean(resource) && needed } });
  // a page may bring the list call without the list screen (a report page's pickers: docs/ACCESS.md)
  const def = useMetadata().resources[resource ?? ''];
  // only a signed-in shell knows the codes (without one, the list screen's answer decides)
  const shell = useOptionalShell();
  const callable = Boolean(shell && def && mayUse({ call: resourceApiPath(def, 'list') }, shell.routes, shell.access));
  if (!resource || !needed || (def && callable)) return true;
  return data?.can;
}

/** `{ id: label }` for a ref/refs field of a row, from its label siblings. */
export function knownRefLabels(field: FieldDef, row: Record<string, unknown> | undefined): Record<string, string> {
  if (!row) return {};
  if (field.type === 'ref') {
    const id = row[field.name];
    const label = row[`${field.name}Label`];
    return isEmpty(id) || isEmpty(label) ? {} : { [String(id)]: String(label) };
  }
  const ids = asArray(row[field.name]);
  const labels = asArray(row[`${field.name}Labels`]);
  return Object.fromEntries(ids.map((id, i) => [String(id), String(labels[i] ?? id)]));
}

/**
 * `ref` fields (and `refs` fields until ./refs-input registers its picker) in every form and
 * search form: the searchable select. Registered here, where the select is, so FieldInput does
 * not import the pickers (./field-widgets).
 */
const RefWidget: FC<FieldWidgetProps> = ({ field, context, value, onChange, disabled, id, placeholder, knownLabels, owner, choices }) => (
  <RefSelect
    id={id}
    disabled={disabled}
    placeholder={placeholder}
    field={field}
    multiple={field.type === 'refs' || (context === 'search' && field.search === 'in')}
    knownLabels={knownLabels}
    owner={context === 'form' && field.type === 'ref' ? owner : undefined}
    choices={context === 'form' && field.type === 'ref' ? choices : undefined}
    value={value as never}
    onChange={onChange}
  />
);
registerFieldWidget({ type: 'ref' }, RefWidget);
registerFieldWidget({ type: 'refs' }, RefWidget);
