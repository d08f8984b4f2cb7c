/**
 * Counting through a scoped repository: GROUP BY one column (or a day expression) with the
 * caller's scope always ANDed in by the repository, so no aggregation can see another
 * organisation's rows.
 */
import { col, fn, type WhereOptions } from 'sequelize';
import type { Sequelize } from 'sequelize';
import type { ScopedRepository } from '@rti/server/plugin-api';

export const countBy = (repo: ScopedRepository, field: string, where?: WhereOptions): Promise<Map<number | string | null, number>> => repo.countBy(field, where);

/** the UTC day (YYYY-MM-DD) of a datetime column, in the dialect at hand */
export function dayOf(db: Sequelize, column: string) {
  // SQLite keeps datetimes as 'YYYY-MM-DD HH:MM:SS.SSS +00:00' text; MySQL DATETIME in UTC
  return db.getDialect() === 'sqlite' ? fn('substr', col(column), 1, 10) : fn('DATE_FORMAT', col(column), '%Y-%m-%d');
}

export async function countByDay(db: Sequelize, repo: ScopedRepository, attribute: string, where: WhereOptions): Promise<Map<string, number>> {
  // the table's column name (attributes are camelCase, columns snake_case)
  const column = repo.column(attribute);
  const rows = await repo.rows(where, { attributes: [[dayOf(db, column), 'day'], [fn('COUNT', col('id')), 'n']], group: ['day'] });
  return new Map(rows.map((r) => [String(r.day), Number(r.n)]));
}

/** the last n UTC days, oldest first, ending today */
export function lastDays(n: number, now = Date.now()): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(new Date(now - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}
