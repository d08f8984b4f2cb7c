import { resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { currentLocale } from '../../i18n';
import { titleOf } from '../../providers/record-titles';
import type { Translate } from './format';

/** The record's title (providers/record-titles.ts), or "#<id>" when it has none. */
export function recordName(def: Pick<ResourceDef, 'titleField' | 'fields'> | undefined, row: Record<string, unknown>): string {
  return titleOf(def, row) ?? `#${String(row.id ?? '')}`;
}

/**
 * A resource label inside an English sentence ("Delete carrier code DEMO-1?") starts small,
 * unless it starts with an acronym ("GPS device"); Chinese and Japanese have no letter case.
 */
export function labelInSentence(label: string, language: string): string {
  if (!language.startsWith('en') || label.length < 2) return label;
  return /^\p{Lu}\p{Ll}/u.test(label) ? label.charAt(0).toLocaleLowerCase(language) + label.slice(1) : label;
}

/** "Delete carrier DEMO-C000123?": the confirmation names the record by its title field. */
export function deleteQuestion(t: Translate, resource: ResourceDef, record: Record<string, unknown> | undefined): string {
  if (!record) return t('meta.deleteConfirmTitle');
  return t('meta.deleteRecordTitle', { name: labelInSentence(t(resourceLabelKey(resource)), currentLocale()), title: recordName(resource, record) });
}
