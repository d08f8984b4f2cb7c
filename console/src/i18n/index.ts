import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { API_BASE, DEFAULT_LOCALE, LOCALES, type Locale } from '../constants';
import { session } from '../lib/session';
import { mergeDicts, type Dict } from './merge';
import consoleEnUS from '../locales/en-US.json';
import { loadAntdLocale } from './antd-locale';

/*
 * Translations = the metadata's labels (resources, fields, enums, menu, units, rules, validation:
 * metadata/locales and plugins' metadata/locales), read from the server at run time so a label
 * needs no console build + the console's UI strings (src/locales, src/meta/locales) + plugin
 * console strings. The console's en-US ships with the shell; zh-CN and ja-JP load on demand.
 * No browser-language detection (SPEC §1).
 */
type Loader = () => Promise<unknown>;
const screensEager = import.meta.glob('../meta/locales/en-US.json', { eager: true, import: 'default' });
// Plugin strings are used only after login, by plugin code that loads then: their en-US set is
// fetched with the plugins (loadPluginTexts), not shipped in the first page's entry.
const pluginEnUS = import.meta.glob('../../../plugins/*/console/locales/en-US.json', { import: 'default' }) as Record<string, Loader>;
// en-US ships with the shell (above and the static import); the lazy sets leave it out.
const consoleLazy = import.meta.glob(['../locales/*.json', '../meta/locales/*.json', '!**/en-US.json'], { import: 'default' }) as Record<string, Loader>;
const pluginLazy = import.meta.glob(['../../../plugins/*/console/locales/*.json', '!**/en-US.json'], { import: 'default' }) as Record<string, Loader>;

const byLocale = (loaders: Record<string, Loader>, lng: string): Loader[] =>
  Object.entries(loaders)
    .filter(([path]) => path.endsWith(`/${lng}.json`))
    .map(([, load]) => load);

/** Where the metadata's labels come from: the server's `/metadata/labels` (tests read the files). */
type LabelSource = (lng: Locale) => Promise<Dict>;

const serverLabels: LabelSource = async (lng) => {
  try {
    // public and revalidated by ETag: mostly a 304 after the first load
    const res = await fetch(`${API_BASE}/metadata/labels?lng=${encodeURIComponent(lng)}`, { headers: { Language: lng } });
    const body = (await res.json()) as { code?: number; data?: Dict };
    return body.code === 0 && body.data ? body.data : {};
  } catch {
    // without labels screens show keys; the session calls that follow report the server down
    return {};
  }
};
let labelSource: LabelSource = serverLabels;

/** Replaces where labels come from (tests, which run without a server). */
export function setLabelSource(source: LabelSource): void {
  labelSource = source;
}

const labelsFor = (lng: Locale): Promise<Dict> => labelSource(lng);

async function loadBundle(lng: Locale): Promise<Dict> {
  if (lng === 'en-US') {
    return mergeDicts(await labelsFor(lng), consoleEnUS as Dict, ...(Object.values(screensEager) as Dict[]));
  }
  const parts = await Promise.all([labelsFor(lng), ...[...byLocale(consoleLazy, lng), ...byLocale(pluginLazy, lng)].map((l) => l() as Promise<Dict>)]);
  return mergeDicts(...parts);
}

const LOCALE_KEY = 'admin-locale';

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

/** The user's stored choice, else the last choice on this browser, else en-US. */
export function storedLocale(): Locale {
  const uid = session.userId();
  const own = uid ? localStorage.getItem(`${LOCALE_KEY}:${uid}`) : null;
  const last = localStorage.getItem(LOCALE_KEY);
  if (isLocale(own)) return own;
  if (isLocale(last)) return last;
  return DEFAULT_LOCALE;
}

export function storeLocale(lng: Locale): void {
  localStorage.setItem(LOCALE_KEY, lng);
  const uid = session.userId();
  if (uid) localStorage.setItem(`${LOCALE_KEY}:${uid}`, lng);
}

let pluginTexts: Dict | undefined;

/**
 * The plugins' en-US strings (also the fallback of every other language), loaded beside the
 * plugins' own code; added once i18next is initialised (the first signed-in render waits for both).
 */
export async function loadPluginTexts(): Promise<void> {
  pluginTexts = mergeDicts(...((await Promise.all(Object.values(pluginEnUS).map((l) => l()))) as Dict[]));
  if (i18n.isInitialized) i18n.addResourceBundle(DEFAULT_LOCALE, 'translation', pluginTexts, true, true);
}

/** Texts served with the metadata (administrators' overlay labels), flat key → text per language. */
let runtimeTexts: Partial<Record<string, Record<string, string>>> = {};

/** Adds the server's run-time texts to every bundle already loaded (later ones get them on load). */
export function setRuntimeTexts(texts: Partial<Record<string, Record<string, string>>> | undefined): void {
  runtimeTexts = texts ?? {};
  for (const lng of LOCALES) {
    // a language not loaded yet must stay "missing" so ensureLocale still fetches its bundle
    // (the session calls may answer before i18next is initialised: initI18n adds them then)
    if (i18n.isInitialized && i18n.hasResourceBundle(lng, 'translation') && runtimeTexts[lng]) i18n.addResources(lng, 'translation', runtimeTexts[lng]);
  }
}

export async function ensureLocale(lng: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'translation')) {
    const [bundle] = await Promise.all([loadBundle(lng), loadAntdLocale(lng)]);
    i18n.addResourceBundle(lng, 'translation', bundle, true, true);
    if (runtimeTexts[lng]) i18n.addResources(lng, 'translation', runtimeTexts[lng]);
  }
}

/** The language initI18n is switching to: i18next starts in en-US until its bundle is loaded. */
let starting: Locale | null = null;

export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLocale();
  starting = lng;
  await i18n.use(initReactI18next).init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources: { [DEFAULT_LOCALE]: { translation: await loadBundle(DEFAULT_LOCALE) } },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  if (pluginTexts) i18n.addResourceBundle(DEFAULT_LOCALE, 'translation', pluginTexts, true, true);
  if (runtimeTexts[DEFAULT_LOCALE]) i18n.addResources(DEFAULT_LOCALE, 'translation', runtimeTexts[DEFAULT_LOCALE]);
  if (lng !== DEFAULT_LOCALE) {
    await ensureLocale(lng);
    await i18n.changeLanguage(lng);
  }
  document.documentElement.lang = lng;
  starting = null;
  return i18n;
}

/** The UI language; before i18next is initialised (early session calls), the stored choice. */
export function currentLocale(): Locale {
  if (!i18n.isInitialized) return storedLocale();
  // calls made while the stored language's bundle loads (the live stream opened at start) already
  // speak it: the server renders their texts once, in the language the connection asked for
  if (starting) return starting;
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

export { i18n };
