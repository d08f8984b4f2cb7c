import { readFileSync } from 'node:fs';
import { loadLocales } from '@rti/metadata';
import type { Language } from '../http/types';
import { createTranslator, type Translator } from './translator';

export * from './translator';

/** The server's own messages (errors, validation, success) in every language. */
export function serverMessages(): Record<Language, Record<string, unknown>> {
  const read = (lang: Language) => JSON.parse(readFileSync(new URL(`./messages/${lang}.json`, import.meta.url), 'utf8'));
  return { 'en-US': read('en-US'), 'zh-CN': read('zh-CN'), 'ja-JP': read('ja-JP') };
}

/** Metadata locales first, server messages over them (they live under `server.*`). */
export function loadTranslator(metadataDir?: string): Translator {
  return createTranslator(loadLocales(metadataDir), serverMessages());
}
