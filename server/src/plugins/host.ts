/**
 * Finds plugins/<id>/server/index.ts, imports each (default export from definePlugin) and
 * runs its server(ctx). A plugin that fails to load stops the start with its id in the error:
 * a half-loaded plugin would serve a half-working product.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition, PluginServerContext } from '../plugin-api';

export interface DiscoveredPlugin {
  id: string;
  entry: string;
}

export function discoverPlugins(dir: string): DiscoveredPlugin[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .map((id) => ({ id, entry: join(dir, id, 'server', 'index.ts') }))
    .filter((p) => existsSync(p.entry));
}

export async function loadPlugins(
  found: DiscoveredPlugin[],
  contextFor: (id: string) => PluginServerContext,
): Promise<PluginDefinition[]> {
  const loaded: PluginDefinition[] = [];
  for (const p of found) {
    let def: PluginDefinition | undefined;
    try {
      const mod = (await import(pathToFileURL(p.entry).href)) as { default?: PluginDefinition };
      def = mod.default;
    } catch (err) {
      throw new Error(`plugin "${p.id}" failed to load from ${p.entry}: ${(err as Error).message}`, { cause: err });
    }
    if (!def || typeof def !== 'object' || typeof def.id !== 'string') throw new Error(`plugin "${p.id}": ${p.entry} must export default definePlugin({ id, server })`);
    if (def.id !== p.id) throw new Error(`plugin "${p.id}": its id "${def.id}" must equal the folder name`);
    try {
      await def.server?.(contextFor(def.id));
    } catch (err) {
      throw new Error(`plugin "${p.id}" failed to start: ${(err as Error).message}`, { cause: err });
    }
    loaded.push(def);
  }
  return loaded;
}
