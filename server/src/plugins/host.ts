/**
 * Finds plugins/<id>/server/index.ts, imports each (default export from definePlugin), orders
 * them by their declared dependencies and runs each server(ctx). A plugin that fails to load,
 * a dependency that is missing or a cycle stops the start with the plugins named: a
 * half-loaded plugin would serve a half-working product.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition, PluginServerContext, PluginServices } from '../plugin-api';
import { guardRawHandle } from './raw-handle';

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

async function importPlugin(p: DiscoveredPlugin): Promise<PluginDefinition> {
  let def: PluginDefinition | undefined;
  try {
    const mod = (await import(pathToFileURL(p.entry).href)) as { default?: PluginDefinition };
    def = mod.default;
  } catch (err) {
    throw new Error(`plugin "${p.id}" failed to load from ${p.entry}: ${(err as Error).message}`, { cause: err });
  }
  if (!def || typeof def !== 'object' || typeof def.id !== 'string')
    throw new Error(`plugin "${p.id}": ${p.entry} must export default definePlugin({ id, server })`);
  if (def.id !== p.id) throw new Error(`plugin "${p.id}": its id "${def.id}" must equal the folder name`);
  if (def.ownTables !== undefined && (typeof def.ownTables !== 'string' || !def.ownTables.trim()))
    throw new Error(`plugin "${p.id}": ownTables is the reason the plugin needs the raw database handle (a non-empty text)`);
  return def;
}

/**
 * Dependencies first; otherwise by id, so the order never depends on the file system.
 * `dependsOn` must be present (else the start stops, naming both plugins); `optionalDependsOn`
 * only orders when present. A cycle stops the start with its path (a → b → a).
 */
export function orderPlugins(defs: readonly PluginDefinition[]): PluginDefinition[] {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const missing: string[] = [];
  for (const d of defs) {
    for (const dep of d.dependsOn ?? []) if (!byId.has(dep)) missing.push(`"${d.id}" depends on "${dep}"`);
  }
  if (missing.length) throw new Error(`plugin dependencies missing (not installed or not loaded): ${missing.join('; ')}`);
  const edges = (d: PluginDefinition) => [...new Set([...(d.dependsOn ?? []), ...(d.optionalDependsOn ?? []).filter((o) => byId.has(o))])].sort();
  const out: PluginDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (d: PluginDefinition, path: string[]) => {
    const s = state.get(d.id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...path.slice(path.indexOf(d.id)), d.id];
      throw new Error(`plugin dependency cycle: ${cycle.map((id) => `"${id}"`).join(' → ')}`);
    }
    state.set(d.id, 'visiting');
    for (const dep of edges(d)) visit(byId.get(dep)!, [...path, d.id]);
    state.set(d.id, 'done');
    out.push(d);
  };
  for (const d of [...defs].sort((a, b) => a.id.localeCompare(b.id))) visit(d, []);
  return out;
}

/**
 * The services plugins provide to each other (`provides` + ctx.provide, read with ctx.use).
 * A service is reachable only from its own plugin and from plugins that declare its provider
 * in dependsOn/optionalDependsOn: an undeclared use is a bug that load order would hide.
 */
export class ServiceRegistry {
  private readonly services = new Map<string, unknown>();
  private readonly providerOf = new Map<string, string>();

  constructor(defs: readonly PluginDefinition[]) {
    for (const d of defs) {
      for (const id of d.provides ?? []) {
        const other = this.providerOf.get(id);
        if (other) throw new Error(`plugins "${other}" and "${d.id}" both provide the service "${id}"`);
        this.providerOf.set(id, d.id);
      }
    }
  }

  provide(plugin: string, id: string, api: unknown): void {
    if (this.providerOf.get(id) !== plugin) throw new Error(`plugin "${plugin}" provides "${id}" without declaring it in provides`);
    if (this.services.has(id)) throw new Error(`plugin "${plugin}" provides "${id}" twice`);
    this.services.set(id, api);
  }

  /** undefined when the providing plugin is not loaded (an optional dependency) */
  find(consumer: PluginDefinition | null, id: string): unknown {
    const provider = this.providerOf.get(id);
    // no loaded plugin provides it: an optional dependency that is absent
    if (!provider) return undefined;
    if (consumer && provider !== consumer.id && !(consumer.dependsOn ?? []).includes(provider) && !(consumer.optionalDependsOn ?? []).includes(provider)) {
      throw new Error(
        `plugin "${consumer.id}" uses the service "${id}" of plugin "${provider}" without declaring "${provider}" in dependsOn or optionalDependsOn`,
      );
    }
    return this.services.get(id);
  }

  /** every declared service was provided by the end of its plugin's server() */
  checkProvided(def: PluginDefinition): void {
    const absent = (def.provides ?? []).filter((id) => !this.services.has(id));
    if (absent.length) throw new Error(`plugin "${def.id}" declares provides ${absent.map((a) => `"${a}"`).join(', ')} but did not call ctx.provide() for it`);
  }

  get<K extends keyof PluginServices>(id: K): PluginServices[K] | undefined {
    return this.services.get(id as string) as PluginServices[K] | undefined;
  }
}

export async function loadPlugins(
  found: DiscoveredPlugin[],
  contextFor: (def: PluginDefinition, services: ServiceRegistry) => PluginServerContext,
  services?: (registry: ServiceRegistry) => void,
): Promise<PluginDefinition[]> {
  const defs: PluginDefinition[] = [];
  for (const p of found) defs.push(await importPlugin(p));
  const ordered = orderPlugins(defs);
  const registry = new ServiceRegistry(ordered);
  services?.(registry);
  for (const def of ordered) {
    try {
      // the raw handle (ctx.db, ctx.database) only for a plugin declaring ownTables (raw-handle.ts)
      await def.server?.(guardRawHandle(def, contextFor(def, registry)));
    } catch (err) {
      throw new Error(`plugin "${def.id}" failed to start: ${(err as Error).message}`, { cause: err });
    }
    registry.checkProvided(def);
  }
  return ordered;
}
