import type { ConsolePlugin } from '../plugin-contract';
import { loadPluginTexts } from '../i18n';

// Each plugin's console entry is its own chunk, fetched after login.
const entries = import.meta.glob<ConsolePlugin>('../../../plugins/*/console/index.{ts,tsx}', { import: 'default' });

let loaded: Promise<ConsolePlugin[]> | undefined;

export function loadPlugins(): Promise<ConsolePlugin[]> {
  // their en-US strings come with them (kept out of the first page's entry)
  const texts = loadPluginTexts();
  loaded ??= Promise.all([...Object.values(entries).map((load) => load()), texts]).then((list) =>
    (list as unknown[]).filter((p): p is ConsolePlugin => Boolean(p && (p as ConsolePlugin).id)).sort((a, b) => a.id.localeCompare(b.id)),
  );
  return loaded;
}
