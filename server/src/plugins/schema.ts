/**
 * Database objects a plugin declares and the platform installs (ctx.schema): triggers and
 * indexes that keep a plugin's maintained figures over core tables (counts per warehouse and
 * code kept by triggers on the carrier table), so the plugin needs no raw database handle.
 *
 * The plugin hands over its statements per dialect (`CREATE TRIGGER <name> …`, `CREATE [UNIQUE]
 * INDEX IF NOT EXISTS <name> …`); every object's name starts with the plugin's id (`inventory_…`).
 * `ensure(set, objects)` creates the indexes that are missing and keeps the set's triggers
 * exactly as declared: a set whose triggers differ by name (a name carries its definition's
 * version) is dropped and created again, and the answer says so (the plugin then recounts what
 * the triggers keep). `installed(set)` answers whether a set is in place on this server, for
 * any plugin reading what it maintains. Table and column names come quoted from `table()`:
 * DDL only, no row is read or written through them.
 */
import type { Database } from '../db';

export type SchemaObject = { kind: 'trigger' | 'index'; sql: string };

export interface PluginSchema {
  /** the server's dialect, for the dialect-variant statements of ensure() */
  readonly dialect: 'sqlite' | 'mysql';
  /** a resource's table and its fields' columns, quoted for the dialect: names for DDL only */
  table(resource: string): { name: string; column(field: string): string };
  /**
   * Installs the declared set (triggers and indexes named `<plugin id>_…`, the set's triggers
   * named `<set>_…`): missing indexes are created; the triggers are replaced when the present
   * ones are not exactly the declared names. Answers whether the triggers were (re)created.
   */
  ensure(set: string, objects: readonly SchemaObject[]): Promise<boolean>;
  /** removes the set's triggers (the indexes stay: they only speed reads up) */
  drop(set: string): Promise<void>;
  /** whether ensure() installed the set on this server (read by any plugin: a reader of maintained figures) */
  installed(set: string): boolean;
}

/** per database: the sets installed (tests run several servers in one process) */
const INSTALLED = new WeakMap<Database, Set<string>>();

const NAME = /^[a-z][a-z0-9_]*$/;

export function pluginSchema(pluginId: string, db: Database): PluginSchema {
  const prefix = `${pluginId.replace(/-/g, '_')}_`;
  const sequelize = db.sequelize;
  const q = (id: string) => sequelize.getQueryInterface().quoteIdentifier(id);
  const sqlite = sequelize.getDialect() === 'sqlite';
  const installed = () => {
    let s = INSTALLED.get(db);
    if (!s) INSTALLED.set(db, (s = new Set()));
    return s;
  };
  const checkSet = (set: string) => {
    if (!NAME.test(set) || !set.startsWith(prefix))
      throw new Error(`plugin "${pluginId}": schema set "${set}" must be named ${prefix}… (lower case, digits, _)`);
  };
  const nameOf = (o: SchemaObject): string => {
    const m = o.kind === 'trigger' ? /^\s*CREATE TRIGGER (\w+)\s/i.exec(o.sql) : /^\s*CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+) ON /i.exec(o.sql);
    if (!m)
      throw new Error(
        `plugin "${pluginId}": a declared ${o.kind} must start "CREATE ${o.kind === 'trigger' ? 'TRIGGER <name>' : '[UNIQUE] INDEX IF NOT EXISTS <name> ON'}"`,
      );
    if (!m[1].startsWith(prefix)) throw new Error(`plugin "${pluginId}": ${o.kind} "${m[1]}" must be named ${prefix}…`);
    return m[1];
  };
  async function triggersOf(set: string): Promise<string[]> {
    // `_` is a LIKE wildcard: the prefix is compared exactly in code
    const [rows] = (await sequelize.query(
      sqlite
        ? `SELECT name AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE :like`
        : `SELECT TRIGGER_NAME AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE :like`,
      { replacements: { like: `${set}%` } },
    )) as [Array<{ n: string }>, unknown];
    return rows.map((r) => String(r.n)).filter((n) => n.startsWith(`${set}_`));
  }
  return {
    dialect: sqlite ? 'sqlite' : 'mysql',
    table(resource) {
      const m = db.models[resource];
      if (!m) throw new Error(`plugin "${pluginId}": no resource "${resource}" for a schema object`);
      const attrs = m.getAttributes();
      return {
        name: q(String(m.getTableName())),
        column: (field) => {
          const a = attrs[field];
          if (!a) throw new Error(`plugin "${pluginId}": ${resource} has no field "${field}"`);
          return q(a.field ?? field);
        },
      };
    },
    async ensure(set, objects) {
      checkSet(set);
      const indexes = objects.filter((o) => o.kind === 'index');
      const triggers = objects.filter((o) => o.kind === 'trigger');
      for (const o of indexes) nameOf(o);
      const want = triggers.map((o) => {
        const n = nameOf(o);
        if (!n.startsWith(`${set}_`)) throw new Error(`plugin "${pluginId}": trigger "${n}" of set "${set}" must be named ${set}_…`);
        return n;
      });
      for (const o of indexes) await sequelize.query(o.sql);
      const have = await triggersOf(set);
      let created = false;
      if (!(want.every((n) => have.includes(n)) && have.length === want.length)) {
        // a partial or older set: replace all of them
        for (const n of have) await sequelize.query(`DROP TRIGGER IF EXISTS ${n}`);
        for (const o of triggers) await sequelize.query(o.sql);
        created = true;
      }
      installed().add(set);
      return created;
    },
    async drop(set) {
      checkSet(set);
      installed().delete(set);
      for (const n of await triggersOf(set)) await sequelize.query(`DROP TRIGGER IF EXISTS ${n}`);
    },
    installed: (set) => installed().has(set),
  };
}
