/**
 * The scheduler's own texts (report sheets, mail bodies, skip reasons) over the server's
 * translator: a key this plugin does not define (enum labels, server errors) falls through.
 */
import { readFileSync } from 'node:fs';
import type { Language, PluginServerContext } from '@rti/server/plugin-api';
import { createTranslator } from '@rti/server/i18n/translator';

const read = (lang: Language) => JSON.parse(readFileSync(new URL(`./messages/${lang}.json`, import.meta.url), 'utf8'));

export function schedulerTranslator(ctx: PluginServerContext) {
  const own = createTranslator({ 'en-US': read('en-US'), 'zh-CN': read('zh-CN'), 'ja-JP': read('ja-JP') });
  return (lang: Language, key: string, params?: Record<string, unknown>): string => (own.has(lang, key) ? own.t(lang, key, params) : ctx.t(lang, key, params));
}
