import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLocales } from '@rti/metadata';
import type { Language } from '../http/types';
import { ACCESS_TEXTS } from '../access/messages';
import { FILE_TEXTS } from '../files/messages';
import { OVERLAY_TEXTS } from '../overlays/messages';
import { createTranslator, LANGUAGES, type Translator } from './translator';

export * from './translator';

type Catalogue = Partial<Record<Language, Record<string, unknown>>>;

/** The server's own messages (errors, validation, success) in every language. */
export function serverMessages(): Record<Language, Record<string, unknown>> {
  const read = (lang: Language) => JSON.parse(readFileSync(new URL(`./messages/${lang}.json`, import.meta.url), 'utf8'));
  return { 'en-US': read('en-US'), 'zh-CN': read('zh-CN'), 'ja-JP': read('ja-JP') };
}

/**
 * Each plugin's server-side texts (mail bodies, report sheets, skip reasons):
 * plugins/<id>/server/messages/<lang>.json, every key under the plugin's id, so a plugin can
 * neither shadow core texts nor another plugin's. A file that breaks the rule stops the start
 * with the plugin named, like a plugin that fails to load.
 */
export function pluginMessages(pluginsDir: string): Catalogue[] {
  if (!existsSync(pluginsDir)) return [];
  const out: Catalogue[] = [];
  for (const id of readdirSync(pluginsDir).sort()) {
    const dir = join(pluginsDir, id, 'server', 'messages');
    if (!existsSync(dir)) continue;
    const cat: Catalogue = {};
    for (const lang of LANGUAGES) {
      const file = join(dir, `${lang}.json`);
      if (!existsSync(file)) continue;
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new Error(`plugin "${id}": server/messages/${lang}.json is not valid JSON: ${(err as Error).message}`, { cause: err });
      }
      const keys = doc && typeof doc === 'object' && !Array.isArray(doc) ? Object.keys(doc) : null;
      if (!keys || keys.some((k) => k !== id)) throw new Error(`plugin "${id}": server/messages/${lang}.json must hold its texts under one key, "${id}"`);
      cat[lang] = doc as Record<string, unknown>;
    }
    out.push(cat);
  }
  return out;
}

/** Metadata locales first, then the plugins' texts, the areas' tables and the server messages over them (all under `server.*`). */
export function loadTranslator(metadataDir?: string, pluginsDir?: string): Translator {
  return createTranslator(
    loadLocales(metadataDir),
    ...(pluginsDir ? pluginMessages(pluginsDir) : []),
    ACCESS_TEXTS.catalogue,
    FILE_TEXTS.catalogue,
    OVERLAY_TEXTS.catalogue,
    serverMessages(),
  );
}
