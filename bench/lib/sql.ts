/**
 * What the benches share to build fixtures and measure floors: quoted table and column names
 * of a resource (the raw SQL floor is written against the same tables the server uses), a
 * call that must succeed, and a statement counter around a piece of server work.
 */
import type { Sequelize } from 'sequelize';

export { callOk } from '../../server/test/support/fixtures';

type Models = Sequelize['models'];

/** quoted identifiers for raw SQL on the server's own tables */
export function sqlNames(sequelize: Sequelize, models: Models = sequelize.models) {
  const q = (id: string) => sequelize.getQueryInterface().quoteIdentifier(id);
  const col = (resource: string, attr: string) => q(models[resource].getAttributes()[attr].field!);
  return {
    q,
    table: (resource: string) => q(String(models[resource].getTableName())),
    col,
    cols: (resource: string, attrs: string[]) => attrs.map((a) => col(resource, a)).join(', '),
  };
}

/** runs fn and counts the SQL statements it sent (set-based work: a handful, not one per line) */
export async function countStatements<T>(sequelize: Sequelize, fn: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const logging = sequelize as unknown as { options: { logging: unknown } };
  let statements = 0;
  // BENCH_SQL=1 prints each statement's time (what a call spends beyond its raw-SQL floor)
  const verbose = process.env.BENCH_SQL === '1';
  const options = logging.options as { logging: unknown; benchmark?: boolean };
  if (verbose) options.benchmark = true;
  logging.options.logging = (sql: string, ms?: number) => {
    statements++;
    if (verbose) console.log(`  ${String(ms ?? '').padStart(5)} ms  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
  };
  try {
    return { value: await fn(), statements };
  } finally {
    logging.options.logging = false;
    options.benchmark = false;
  }
}

/** A resource's table and columns quoted for the dialect (bulk fixture SQL of the pool-scale benches). */
export const columnsOf = (server: { db: { sequelize: Sequelize } }, resource: string) => {
  const m = server.db.sequelize.models[resource];
  const q = (id: string) => server.db.sequelize.getQueryInterface().quoteIdentifier(id);
  const attrs = m.getAttributes() as Record<string, { field?: string }>;
  const c = (a: string) => {
    if (!attrs[a]) throw new Error(`${resource} has no attribute ${a}`);
    return q(attrs[a].field ?? a);
  };
  return { name: String(m.getTableName()), table: q(String(m.getTableName())), c, list: (as: string[]) => as.map(c).join(', ') };
};
