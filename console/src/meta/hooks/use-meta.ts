/** The one place the generated screens reach the shell's metadata and identity. */
import { useMemo } from 'react';
import { useGetIdentity } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { useMetadata } from '../../providers/metadata-context';
import type { Translate } from '../lib/format';
import { DEFAULT_GROUP } from '../lib/fields';

export { useMetadata };

export function useEnums() {
  return useMetadata().enums;
}

/** Translate function typed for the pure helpers, plus label lookups. */
export function useMetaT() {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const tr = ((key: string, opts?: Record<string, unknown>) => t(key, opts as never) as unknown as string) as Translate;
    const fieldLabel = (f: Pick<FieldDef, 'name' | 'label'>) => tr(fieldLabelKey(f));
    const groupTitle = (key: string) => tr(`formGroups.${key}`, { defaultValue: key === DEFAULT_GROUP ? tr('meta.basicInfo') : key });
    return { t: tr, fieldLabel, groupTitle, lng: i18n.language };
    // a language change gives a new t
  }, [t, i18n.language]);
}

export function useUserId(): string | number | undefined {
  const { data } = useGetIdentity<{ id?: string | number }>();
  return data?.id;
}

/** Label of one field of a resource by name (compare-rule messages). */
export function fieldByName(res: ResourceDef, name: string): FieldDef | undefined {
  return res.fields.find((f) => f.name === name);
}
