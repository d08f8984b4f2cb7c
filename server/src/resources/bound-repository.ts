/**
 * A scoped repository bound to one open transaction: what transition hooks and document
 * writers get. Every statement carries the caller's scope (organisation, warehouses) and the
 * transaction, so a hook cannot forget either; the set-based methods (updateWhere, insertMany,
 * deleteWhere, count, sum) move thousands of lines in a few statements instead of one per row.
 */
import type { ResourceDef } from '@rti/metadata';
import { Op, type CountOptions, type LOCK, type Model, type Transaction, type WhereOptions } from 'sequelize';
import { insertAll } from '../db/bulk-insert';
import { orgFieldOf } from '../db/naming';
import type { RequestContext } from '../http/types';
import { fieldError } from './errors';
import type { InsertFromValue, ResourceHost, ScopedRepository } from './repository';
import { scopeWhere, warehouseRefusal } from './scope';
import { readSource, type SourceOptions } from './source';
import type { Row } from './serialize';

export type Lock = 'update' | 'share';

export class BoundRepository {
  constructor(
    private readonly host: ResourceHost,
    readonly resource: ResourceDef,
    readonly ctx: RequestContext,
    readonly transaction: Transaction,
    private readonly scoped: ScopedRepository,
  ) {}

  private get model() {
    return this.host.db.models[this.resource.name];
  }

  /** The caller's scope ANDed with extra conditions. */
  where(...extra: WhereOptions[]): WhereOptions {
    return { [Op.and]: [scopeWhere(this.resource, this.ctx), ...extra] };
  }

  /**
   * Plain column values of the rows in scope (no labels): the cheap read for set-based work.
   * `lock` reads the latest committed rows and locks them (MySQL/MariaDB: FOR UPDATE / LOCK IN
   * SHARE MODE; SQLite has one writer anyway): what a check or total must see under concurrency.
   */
  async rows(
    where: WhereOptions = {},
    opts: { attributes?: string[]; order?: Array<[string, 'ASC' | 'DESC']>; limit?: number; lock?: Lock } = {},
  ): Promise<Row[]> {
    const found = await this.model.findAll({
      where: this.where(where),
      attributes: opts.attributes,
      order: opts.order,
      limit: opts.limit,
      transaction: this.transaction,
      raw: true,
      lock: this.lockOf(opts.lock),
    });
    return found as unknown as Row[];
  }

  /** The field's column quoted for the dialect (see ScopedRepository.quoted). */
  quoted(field: string): string {
    return this.scoped.quoted(field);
  }

  /** SQL of the fractional days from a datetime field's value until `at` (see ScopedRepository.daysSince). */
  daysSince(field: string, at: Date): string {
    return this.scoped.daysSince(field, at);
  }

  /** `CASE <column> WHEN k THEN v … END` over integer pairs, e.g. as an updateWhere value (see ScopedRepository.caseOf). */
  caseOf(field: string, pairs: Iterable<readonly [number, number]>): ReturnType<ScopedRepository['caseOf']> {
    return this.scoped.caseOf(field, pairs);
  }

  /** Sequelize's lock option, on the dialects that take one. */
  lockOf(lock: Lock | undefined): LOCK | undefined {
    if (!lock || this.host.db.dialect !== 'mysql') return undefined;
    return lock === 'update' ? this.transaction.LOCK.UPDATE : this.transaction.LOCK.SHARE;
  }

  /** Rows in the API shape (labels attached), e.g. to answer a call. */
  async list(where: WhereOptions = {}, order: Array<[string, 'ASC' | 'DESC']> = [['id', 'ASC']]): Promise<Row[]> {
    const found = await this.model.findAll({ where: this.where(where), order, transaction: this.transaction });
    return this.scoped.serialize(found, this.transaction);
  }

  /** One row in the API shape; 10002 when it is not in scope. */
  async get(id: unknown): Promise<Row> {
    const [row] = await this.scoped.serialize([await this.scoped.find(id, this.transaction)], this.transaction);
    return row;
  }

  count(where: WhereOptions = {}, lock?: Lock): Promise<number> {
    // count() passes `lock` on to its SELECT; its options type does not list it
    const options = { where: this.where(where), transaction: this.transaction, lock: this.lockOf(lock) } as CountOptions;
    return this.model.count(options);
  }

  async sum(field: string, where: WhereOptions = {}): Promise<number> {
    const v = await this.model.sum(field, { where: this.where(where), transaction: this.transaction });
    return Number(v ?? 0) || 0;
  }

  /**
   * One UPDATE over the rows in scope; answers how many rows it matched. The status field of a
   * resource with declared steps moves only through its steps (`event.run`): a raw write would
   * skip their checks, hooks, stamps and operation log.
   */
  async updateWhere(values: Record<string, unknown>, where: WhereOptions): Promise<number> {
    const stepField = (this.resource.transitions ?? []).find((t) => t.field in values)?.field;
    if (stepField) throw new Error(`${this.resource.name}.${stepField} moves only through its steps (event.run), not updateWhere`);
    const [n] = await this.model.update({ ...values, updatedBy: this.ctx.user?.id ?? null }, { where: this.where(where), transaction: this.transaction });
    return n;
  }

  /** One DELETE over the rows in scope (no per-row hooks: the caller owns the consequences). */
  deleteWhere(where: WhereOptions): Promise<number> {
    return this.model.destroy({ where: this.where(where), transaction: this.transaction });
  }

  /**
   * INSERTs of up to 1,000 rows each, organisation and author stamped from the context. For
   * rows the code builds (lines, logs, in/out records): values are taken as given, so callers
   * validate what came from a client (documents do, with the resource's field rules).
   */
  async insertMany(rows: Array<Record<string, unknown>>): Promise<number> {
    if (!rows.length) return 0;
    const orgField = orgFieldOf(this.resource);
    const userId = this.ctx.user?.id ?? null;
    const now = new Date();
    const values = rows.map((r) => {
      const refused = warehouseRefusal(this.resource, this.ctx, r);
      if (refused) throw fieldError(this.resource.fields.find((f) => f.name === refused) ?? { name: refused }, 'warehouse');
      const v: Record<string, unknown> = { ...r, createdBy: userId, updatedBy: userId, createdAt: now, updatedAt: now };
      if (orgField && orgField !== 'id') v[orgField] = this.ctx.orgId;
      return v;
    });
    return insertAll(this.model, values, this.transaction);
  }

  /**
   * One INSERT … SELECT from the rows of `source` in the caller's scope matching `where`
   * (ScopedRepository.insertFrom), in this transaction: thousands of code-built rows whose values
   * are the source's columns and constants, without reading them first.
   */
  insertFrom(source: string, values: Record<string, InsertFromValue>, where: WhereOptions): Promise<number> {
    return this.scoped.insertFrom(source, values, where, { transaction: this.transaction });
  }

  /** A validated create with the resource's hooks, inside this transaction (a savepoint). */
  create(body: Record<string, unknown>): Promise<Row> {
    return this.scoped.create(body, { transaction: this.transaction });
  }

  /**
   * The source document of a row of this resource (metadata `source`: a receipt's ship order),
   * locked for the transaction, in the caller's scope and in an allowed status — the declared
   * `source.from`, or `from` (a status group of the source or values) for a later step — else
   * 10002 / 10004 naming it. What a step's hook reads instead of checking the status itself.
   */
  source(row: Row, opts: Pick<SourceOptions, 'from'> = {}): Promise<Row> {
    const field = this.resource.source?.field;
    if (!field) throw new Error(`${this.resource.name} declares no source`);
    return readSource(this.host, this.resource, row[field], this.ctx, this.transaction, { ...opts, lock: true });
  }

  /** Model instances in scope, for code that needs them (rare: prefer rows()). */
  instances(where: WhereOptions = {}): Promise<Model[]> {
    return this.model.findAll({ where: this.where(where), transaction: this.transaction });
  }
}
