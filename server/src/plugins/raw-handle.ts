/**
 * The raw database handle (ctx.db, ctx.database) only for plugins that declare own tables
 * (`definePlugin({ ownTables: '<why>' })`): a plugin without the declaration reaches resource
 * rows, counts, sums and computed columns through ctx.repo() only, whose every statement carries
 * the caller's organisation and warehouses (docs/PLUGINS.md "Scope"). Touching the handle
 * without the declaration throws, naming the plugin, wherever it happens (at start or in a call).
 */
import type { PluginDefinition, PluginServerContext } from '../plugin-api';

export function rawHandleRefusal(pluginId: string, name: 'db' | 'database'): Error {
  return new Error(
    `plugin "${pluginId}" has no raw database handle (ctx.${name}): resource rows, counts, sums and computed columns go through ctx.repo() ` +
      `(its SQL fragments own the dialect), triggers and indexes over core tables through ctx.schema; a plugin with tables of its own ` +
      `declares definePlugin({ ownTables: '<why>' }) (docs/PLUGINS.md "Scope")`,
  );
}

/** whether a definition declares own tables (a non-empty reason) */
export function declaresOwnTables(def: Pick<PluginDefinition, 'ownTables'>): boolean {
  return typeof def.ownTables === 'string' && def.ownTables.trim().length > 0;
}

/** the context a plugin gets: without the declaration, `db` and `database` throw when read */
export function guardRawHandle<C extends PluginServerContext>(def: PluginDefinition, ctx: C): C {
  if (declaresOwnTables(def)) return ctx;
  for (const name of ['db', 'database'] as const)
    Object.defineProperty(ctx, name, {
      get() {
        throw rawHandleRefusal(def.id, name);
      },
      // not enumerable: a spread of the context does not trip it
      enumerable: false,
      configurable: true,
    });
  return ctx;
}
