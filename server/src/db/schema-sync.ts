/**
 * The generic metadata migration: creates missing tables, columns and indexes for every
 * resource. It only ever adds — dropping or narrowing a column loses data, so removals and
 * renames are left to hand-written migrations (see docs/SERVER.md).
 */
import { createHash } from 'node:crypto';
import type { Metadata } from '@rti/metadata';
import type { ModelAttributeColumnOptions, QueryInterface, Sequelize } from 'sequelize';
import { indexPlan, type ResourceModel } from './models';

interface TableSpec {
  table: string;
  columns: Record<string, ModelAttributeColumnOptions>;
  indexes: ReturnType<typeof indexPlan>;
}

function tableSpecs(models: Record<string, ResourceModel>, meta: Metadata): TableSpec[] {
  return Object.values(meta.resources).map((res) => {
    const model = models[res.name];
    const columns: Record<string, ModelAttributeColumnOptions> = {};
    for (const attr of Object.values(model.getAttributes())) {
      const a = attr as ModelAttributeColumnOptions & { field: string };
      columns[a.field] = {
        type: a.type,
        allowNull: a.allowNull !== false,
        ...(a.primaryKey ? { primaryKey: true } : {}),
        ...(a.autoIncrement ? { autoIncrement: true } : {}),
      };
    }
    return { table: model.getTableName() as string, columns, indexes: indexPlan(res) };
  });
}

/** Stable digest of the derived schema: the migration re-runs only when it changes. */
export function schemaDigest(models: Record<string, ResourceModel>, meta: Metadata): string {
  const plain = tableSpecs(models, meta).map((s) => ({
    table: s.table,
    columns: Object.entries(s.columns).map(([name, c]) => [name, String(c.type), c.allowNull, Boolean(c.primaryKey)]),
    indexes: s.indexes,
  }));
  return createHash('sha256').update(JSON.stringify(plain)).digest('hex').slice(0, 12);
}

export async function syncSchema(sequelize: Sequelize, models: Record<string, ResourceModel>, meta: Metadata, log: (msg: string) => void): Promise<void> {
  const qi: QueryInterface = sequelize.getQueryInterface();
  const added: string[] = [];
  const existing = new Set(((await qi.showAllTables()) as unknown[]).map((t) => (typeof t === 'string' ? t : (t as { tableName: string }).tableName)));
  for (const spec of tableSpecs(models, meta)) {
    if (!existing.has(spec.table)) {
      await qi.createTable(spec.table, spec.columns);
    } else {
      const described = await qi.describeTable(spec.table);
      for (const [column, def] of Object.entries(spec.columns)) {
        if (described[column]) continue;
        // Rows already exist: a new column cannot be NOT NULL without a value for them.
        await qi.addColumn(spec.table, column, { ...def, allowNull: true, primaryKey: false, autoIncrement: false });
      }
    }
    const indexNames = new Set(((await qi.showIndex(spec.table)) as Array<{ name: string }>).map((i) => i.name));
    for (const ix of spec.indexes) {
      if (indexNames.has(ix.name)) continue;
      try {
        const fields = ix.columns.map((c) => (ix.nocase?.includes(c) ? { name: c, collate: 'NOCASE' } : c));
        await qi.addIndex(spec.table, { fields, name: ix.name, unique: ix.unique });
        added.push(ix.name);
      } catch (err) {
        // Existing duplicates must not stop the start; the repository still pre-checks.
        if (!ix.unique) throw err;
        log(`[db] unique index ${ix.name} on ${spec.table}(${ix.columns.join(', ')}) not created: ${(err as Error).message}`);
      }
    }
  }
  await statisticsFor(sequelize, added);
}

/**
 * SQLite plans from sqlite_stat1 when the database has one (ANALYZE was run): an index added
 * later has no row there, and the planner then takes it for a near-unique one — a new
 * (org, name) index was chosen for `ORDER BY id` lists, sorting 100,000 rows for a page of 10.
 * ANALYZE of just the new indexes keeps the statistics whole; a database without statistics
 * is left without.
 */
async function statisticsFor(sequelize: Sequelize, indexes: string[]): Promise<void> {
  if (sequelize.getDialect() !== 'sqlite' || !indexes.length) return;
  const [stat] = (await sequelize.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'`))[0] as unknown[];
  if (!stat) return;
  const qi = sequelize.getQueryInterface();
  // whole, not sampled (analysis_limit): a sample of 1,000 entries put 1,001 rows under one
  // organisation of 5,000,000, the same misjudgement; reading one index is seconds at most
  for (const name of indexes) await sequelize.query(`ANALYZE ${qi.quoteIdentifier(name)}`);
}
