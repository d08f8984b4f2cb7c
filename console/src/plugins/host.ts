import type { ConsolePlugin } from '../plugin-api';

// Each plugin's console entry is its own chunk, fetched after login.
const entries = import.meta.glob<ConsolePlugin>('../../../plugins/*/console/index.{ts,tsx}', { import: 'default' });

let loaded: Promise<ConsolePlugin[]> | undefined;

export function loadPlugins(): Promise<ConsolePlugin[]> {
  loaded ??= Promise.all(Object.values(entries).map((load) => load())).then((list) =>
    list.filter((p): p is ConsolePlugin => Boolean(p && p.id)).sort((a, b) => a.id.localeCompare(b.id)),
  );
  return loaded;
}
