/**
 * Counting through a scoped repository: GROUP BY one column (or a day expression) with the
 * caller's scope always ANDed in by the repository, so no aggregation can see another
 * organisation's rows.
 */
import type { WhereOptions } from 'sequelize';
import type { ScopedRepository } from '@rti/server/plugin-api';

export const countBy = (repo: ScopedRepository, field: string, where?: WhereOptions): Promise<Map<number | string | null, number>> =>
  repo.countBy(field, where);

/** the last n UTC days, oldest first, ending today */
export function lastDays(n: number, now = Date.now()): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(new Date(now - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}
