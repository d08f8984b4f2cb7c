/**
 * Row sources for reports over resource rows: a page (list call) and a keyset scan (export,
 * mail) through the caller's scoped repository, so tenancy and warehouse scope hold and deep
 * exports never OFFSET past earlier rows.
 */
import { Op, type Model, type WhereOptions } from 'sequelize';
import { afterCondition } from '../resources/export-pages';
import type { ScopedRepository } from '../resources/repository';
import type { Row } from '../resources/serialize';
import type { RowWindow } from './types';

export interface RepositoryQuery {
  where?: WhereOptions;
  /** must end with a unique column (id) so the keyset is exact; id is appended when missing */
  order: Array<[string, 'ASC' | 'DESC']>;
  /** rows as the API answers them (labels of refs) instead of plain columns */
  serialize?: boolean;
}

const withId = (order: RepositoryQuery['order']): RepositoryQuery['order'] =>
  order.some(([f]) => f === 'id') ? order : [...order, ['id', order.at(-1)?.[1] ?? 'ASC']];

async function present(repo: ScopedRepository, rows: Model[], serialize: boolean | undefined): Promise<Row[]> {
  return serialize ? repo.serialize(rows) : rows.map((r) => r.get({ plain: true }) as Row);
}

/** One page of rows and the total, for a report's list call. */
export async function repositoryPage(repo: ScopedRepository, q: RepositoryQuery, window: RowWindow): Promise<{ list: Row[]; total: number }> {
  const order = withId(q.order);
  const [rows, total] = await Promise.all([repo.findAll({ where: q.where, order, limit: window.limit, offset: window.offset }), repo.count(q.where)]);
  return { list: await present(repo, rows, q.serialize), total };
}

/** Every row in keyset batches of `size`, for a report's export. */
export async function* repositoryScan(repo: ScopedRepository, q: RepositoryQuery, size = 200): AsyncGenerator<Row[]> {
  const order = withId(q.order);
  let last: Record<string, unknown> | null = null;
  for (;;) {
    const where: WhereOptions[] = [];
    if (q.where) where.push(q.where);
    if (last) where.push(afterCondition(order, last));
    const rows = await repo.findAll({ where: where.length ? { [Op.and]: where } : undefined, order, limit: size });
    if (!rows.length) return;
    const tail = rows[rows.length - 1];
    last = Object.fromEntries(order.map(([f]) => [f, tail.get(f)]));
    yield await present(repo, rows, q.serialize);
    if (rows.length < size) return;
  }
}
