/**
 * The screens' UI strings (`meta.*`). The shell merges ./<lng>.json into its bundles; this
 * adds whatever is still missing when the screens load, so a bundle that was built without
 * them never shows raw keys. Existing translations are never overwritten.
 */
import i18n from 'i18next';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';
import jaJP from './ja-JP.json';

const bundles: Record<string, object> = { 'en-US': enUS, 'zh-CN': zhCN, 'ja-JP': jaJP };

function fill(lng: string): void {
  const bundle = bundles[lng];
  // only languages the shell has loaded: adding one early would stop the shell loading it
  if (!bundle || !i18n.hasResourceBundle(lng, 'translation')) return;
  if (i18n.getResource(lng, 'translation', 'meta.search') === undefined) i18n.addResourceBundle(lng, 'translation', bundle, true, false);
}

export function registerMetaLocales(): void {
  for (const lng of Object.keys(bundles)) fill(lng);
  i18n.on('languageChanged', fill);
}
