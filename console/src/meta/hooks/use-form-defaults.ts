import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import type { FieldDef, ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import type { FormMode } from '../lib/fields';
import { choicesOf, defaultLabels, defaultsRequest, defaultsToApply, type Choice, type DefaultsAnswer } from '../lib/form-defaults';
import { useMetaT } from './use-meta';

export interface FormDefaults {
  /** picker options per ref field, from the call's answer (undefined until it answered) */
  choices?: Record<string, Choice[]>;
  /** labels of the defaulted ref values, per field (`{ warehouseId: { '7': 'Osaka DC' } }`) */
  labels?: Record<string, Record<string, string>>;
  /** lines the chosen source gives the new document on save (a source's prefill answers `lines`) */
  sourceLines?: number;
  /** the form's onValuesChange: a user change of an `on` field asks again */
  onValuesChange: (changed: Record<string, unknown>) => void;
}

/**
 * The create form's defaults call (metadata `form.defaultsFrom`): asked when the form opens and
 * whenever the user changes one of its `on` fields; its defaults fill what the user has not
 * touched, its lists become picker choices. Only the newest answer counts. A failed call
 * leaves the form as metadata alone makes it (the failure is in the error log).
 */
export function useFormDefaults(resource: ResourceDef, fields: FieldDef[], form: FormInstance, mode: FormMode): FormDefaults {
  const def = mode === 'create' ? resource.form?.defaultsFrom : undefined;
  const { t } = useMetaT();
  const [choices, setChoices] = useState<Record<string, Choice[]>>();
  const [labels, setLabels] = useState<Record<string, Record<string, string>>>();
  const [sourceLines, setSourceLines] = useState<number>();
  const asked = useRef(0);
  // fields the answers filled: a later null default may clear only these
  const filled = useRef(new Set<string>());
  // fields the user changed (onValuesChange hears only the user; antd counts setFieldsValue as a touch)
  const changed = useRef(new Set<string>());
  const alive = useRef(true);

  const ask = useCallback(async () => {
    if (!def) return;
    const n = ++asked.current;
    const touched = (name: string) => changed.current.has(name);
    const body = defaultsRequest(def, fields, form.getFieldsValue(true) as Record<string, unknown>, touched);
    let answer: DefaultsAnswer;
    try {
      answer = await request<DefaultsAnswer>(def.call, body);
    } catch {
      return;
    }
    // an older answer arriving late must not undo a newer one
    if (!alive.current || n !== asked.current) return;
    const set = defaultsToApply(fields, answer?.defaults, touched, filled.current);
    // filled as untouched and without a stale "required" mark
    if (Object.keys(set).length) form.setFields(Object.entries(set).map(([name, value]) => ({ name, value, touched: false, errors: [] })));
    setChoices(choicesOf(def, fields, answer ?? {}, t));
    setSourceLines(typeof answer?.lines === 'number' ? answer.lines : undefined);
    const known = defaultLabels(fields, answer);
    if (Object.keys(known).length) setLabels((old) => ({ ...old, ...Object.fromEntries(Object.entries(known).map(([k, v]) => [k, { ...old?.[k], ...v }])) }));
  }, [def, fields, form, t]);

  useEffect(() => {
    alive.current = true;
    void ask();
    return () => {
      alive.current = false;
    };
    // once per form (ask is stable while form and fields are); later asks come from the user's changes
  }, [ask]);

  const onValuesChange = useCallback(
    (values: Record<string, unknown>) => {
      if (!def) return;
      for (const k of Object.keys(values)) changed.current.add(k);
      if (Object.keys(values).some((k) => def.on.includes(k))) void ask();
    },
    [def, ask],
  );
  return { choices, labels, sourceLines, onValuesChange };
}
