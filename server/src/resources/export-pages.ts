/**
 * Pages of a list query for exports, by keyset: the list's order always ends with id, so the
 * last row of a page names exactly where the next page starts. Each page is one index range
 * (no OFFSET scanning past every earlier row), whatever the sort and however deep it goes.
 */
import { Op, type Model, type WhereOptions } from 'sequelize';
import { modelOf, type ScopedRepository } from './repository';
import type { Row } from './serialize';

/** Small pages: a page's rows die young (scavenged), instead of being promoted and piling up until a full GC. */
export const EXPORT_PAGE_ROWS = 200;

type Order = Array<[string, 'ASC' | 'DESC']>;

/**
 * Rows strictly after `last` in `order`. NULL sorts first ascending and last descending in
 * both SQLite and MySQL, so "after NULL" ascending is "not NULL", and descending nothing is.
 */
export function afterCondition(order: Order, last: Record<string, unknown>): WhereOptions {
  const branches: WhereOptions[] = [];
  for (let k = 0; k < order.length; k++) {
    const [field, dir] = order[k];
    const v = last[field];
    const equal = order.slice(0, k).map(([f]) => ({ [f]: last[f] === null || last[f] === undefined ? { [Op.is]: null } : { [Op.eq]: last[f] } }));
    let beyond: WhereOptions | null;
    if (v === null || v === undefined) beyond = dir === 'ASC' ? { [field]: { [Op.not]: null } } : null;
    else beyond = dir === 'ASC' ? { [field]: { [Op.gt]: v } } : { [Op.or]: [{ [field]: { [Op.lt]: v } }, { [field]: { [Op.is]: null } }] };
    if (beyond) branches.push({ [Op.and]: [...equal, beyond] });
  }
  return { [Op.or]: branches };
}

/** The list's rows (same filters, sort and scope) page after page, serialized with labels. */
export async function* exportPages(repo: ScopedRepository, body: Record<string, unknown>, size = EXPORT_PAGE_ROWS): AsyncGenerator<Row[]> {
  const q = repo.parse({ ...body, page: undefined, limit: undefined });
  const order = q.order as Order;
  const attributes = order.map(([f]) => f);
  let last: Record<string, unknown> | null = null;
  for (;;) {
    const after: WhereOptions[] = last ? [afterCondition(order, last)] : [];
    const rows: Model[] = await modelOf(repo).findAll({ where: repo.where(...q.where, ...after), order, limit: size });
    if (!rows.length) return;
    const tail = rows[rows.length - 1];
    last = Object.fromEntries(attributes.map((f) => [f, tail.get(f)]));
    yield await repo.serialize(rows);
    if (rows.length < size) return;
  }
}
