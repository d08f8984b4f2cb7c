/**
 * A document's source (metadata `source`: a receipt made from a ship order): the source row in
 * the caller's scope (10002 otherwise) and in an allowed status — the declared `source.from`,
 * or, for a later step of the document, another list or status group of the source (a receipt
 * closes while its order has arrived) — else 10004 naming the source by its title, its status
 * and the wanted ones. The creating check and every step's check are this one function.
 */
import { resourceLabelKey, statusGroup, type ResourceDef } from '@rti/metadata';
import type { Transaction } from 'sequelize';
import { ApiError, ErrorCode } from '../http/api-error';
import type { RequestContext } from '../http/types';
import { tKey } from '../i18n/translator';
import { ScopedRepository, type ResourceHost } from './repository';
import type { Row } from './serialize';

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);

export interface SourceOptions {
  /** allowed statuses of the source: a status group's name or values; default the declared `source.from` */
  from?: string | Array<string | number>;
  /** lock the source row (MariaDB/MySQL: FOR UPDATE) inside the transaction */
  lock?: boolean;
  /** false: read it without the status check (the create form's defaults) */
  check?: boolean;
}

/** The source row (API shape, labels attached) of a document of `res` pointing at `id`. */
export async function readSource(
  host: ResourceHost,
  res: ResourceDef,
  id: unknown,
  ctx: RequestContext,
  transaction: Transaction | undefined,
  opts: SourceOptions = {},
): Promise<Row> {
  const src = res.source;
  if (!src) throw new Error(`${res.name} declares no source`);
  const sourceRes = host.metadata.resources[src.resource];
  const repo = new ScopedRepository(host, sourceRes, ctx);
  if (opts.lock && transaction && host.db.dialect === 'mysql') {
    await host.db.models[sourceRes.name].findAll({ where: repo.where({ id: Number(id) }), attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });
  }
  const [row] = await repo.serialize([await repo.find(id, transaction)], transaction);
  if (opts.check === false) return row;
  const statusField = src.statusField ?? sourceRes.statusField ?? 'status';
  const allowed = typeof opts.from === 'string' ? statusGroup(sourceRes, opts.from) : (opts.from ?? (src.from as Array<string | number>));
  if (allowed.some((v) => same(v, row[statusField]))) return row;
  const f = sourceRes.fields.find((x) => x.name === statusField)!;
  const label = (v: unknown) => {
    const e = (host.metadata.enums[f.enum ?? ''] ?? []).find((x) => same(x.value, v));
    return e ? tKey(e.label) : String(v);
  };
  throw new ApiError(ErrorCode.statusForbidden, 'server.flows.sourceStatus', {
    source: tKey(resourceLabelKey(sourceRes)),
    title: String(row[sourceRes.titleField] ?? `#${row.id}`),
    current: label(row[statusField]),
    wanted: allowed.length === 1 ? label(allowed[0]) : allowed.map(label),
    resource: tKey(resourceLabelKey(res)),
  });
}
