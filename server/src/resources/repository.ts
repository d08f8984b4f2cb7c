/**
 * The scoped repository: the only data path to resource rows, for generated calls and
 * plugins alike. Every read carries scopeWhere(ctx); every write validates, stamps the
 * organisation, checks refs/uniqueness/status rules and runs hooks in one transaction.
 */
import type { FieldDef, Metadata, ResourceDef, StatusRule } from '@rti/metadata';
import { Op, UniqueConstraintError, type FindOptions, type Model, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../db';
import { indexPlan } from '../db/models';
import { orgFieldOf, snakeCase } from '../db/naming';
import { ApiError, ErrorCode } from '../http/api-error';
import type { RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { fieldError, fieldParam, notFound, typeError } from './errors';
import type { HookRegistry } from './hooks';
import { hashPassword } from './password';
import { MAX_LIMIT, parseQuery, type ListQuery } from './query';
import { ReferenceRegistry, settleReferences } from './references';
import { scopeWhere } from './scope';
import { attachLabels, plainRow, renderTexts, type Row } from './serialize';
import { isId } from './coerce';
import { checkCompareRules, requiredError, validateWrite } from './validate';

export interface ResourceHost {
  db: Database;
  metadata: Metadata;
  hooks: HookRegistry;
  /** references plugins declare on top of the metadata's (resources/references.ts) */
  references?: ReferenceRegistry;
  /** renders `textFrom` texts in the caller's language (serialize.ts renderTexts) */
  t?: TFunction;
}

const NO_DECLARED_REFERENCES = new ReferenceRegistry();
/** Cascades deeper than this are a metadata loop, not lines of lines. */
const MAX_CASCADE_DEPTH = 8;

/** Rows returned by `all` at most (docs/API.md). */
export const ALL_CAP = 5000;
const ID_FIELD: FieldDef = { name: 'id', type: 'ref' };

export interface ListResult {
  list: Row[];
  total: number;
}

function parseId(v: unknown): number {
  if (v === undefined || v === null || v === '') throw requiredError(ID_FIELD);
  // a safe integer an id column holds: 1e30 or 2^53 would otherwise reach the driver
  if (!isId(v)) throw typeError(ID_FIELD, 'id');
  return v;
}

const sameValue = (a: unknown, b: unknown) => String(a) === String(b);

export class ScopedRepository {
  constructor(
    private readonly host: ResourceHost,
    readonly resource: ResourceDef,
    readonly ctx: RequestContext,
  ) {}

  get model() {
    return this.host.db.models[this.resource.name];
  }

  private get enums() {
    return this.host.metadata.enums;
  }

  private field(name: string): FieldDef | undefined {
    return this.resource.fields.find((f) => f.name === name);
  }

  /** The caller's scope ANDed with extra conditions. */
  where(...extra: WhereOptions[]): WhereOptions {
    return { [Op.and]: [scopeWhere(this.resource, this.ctx), ...extra] };
  }

  /** Model instances in scope (plugins: any Sequelize options; the scope is always added). */
  findAll(options: FindOptions = {}): Promise<Model[]> {
    return this.model.findAll({ ...options, where: options.where ? this.where(options.where) : this.where() });
  }

  count(where?: WhereOptions, transaction?: Transaction): Promise<number> {
    return this.model.count({ where: where ? this.where(where) : this.where(), transaction });
  }

  /** Plain rows with labels, in the API shape. */
  async serialize(instances: Array<Model | Row>, transaction?: Transaction): Promise<Row[]> {
    const rows = instances.map((i) => plainRow(this.resource, i));
    await attachLabels(this.host.db, this.host.metadata, this.resource, rows, this.ctx, transaction);
    if (this.host.t) renderTexts(this.resource, rows, this.ctx.language, this.host.t);
    return rows;
  }

  parse(body: Record<string, unknown>): ListQuery {
    return parseQuery(this.host.db.sequelize, this.resource, this.enums, body);
  }

  /** One indexed query, one count, one batched label lookup. */
  async list(body: Record<string, unknown>): Promise<ListResult> {
    const q = this.parse(body);
    const where = this.where(...q.where);
    const [rows, total] = await Promise.all([
      this.model.findAll({ where, order: q.order, limit: q.limit, offset: (q.page - 1) * q.limit }),
      this.model.count({ where }),
    ]);
    return { list: await this.serialize(rows), total };
  }

  async all(body: Record<string, unknown>): Promise<Row[]> {
    const q = this.parse({ ...body, page: undefined, limit: undefined });
    const rows = await this.model.findAll({ where: this.where(...q.where), order: q.order, limit: ALL_CAP });
    return this.serialize(rows);
  }

  /**
   * Rows of a list query in chunks (export): memory stays bounded by the chunk size. Sorted by
   * id alone (the default), chunks continue after the last id (keyset), so each chunk is one
   * index range however deep the export goes; other sorts page by offset.
   */
  async *chunks(body: Record<string, unknown>, size = 500): AsyncGenerator<Row[]> {
    const q = this.parse({ ...body, page: undefined, limit: undefined });
    const order = q.order as Array<[string, 'ASC' | 'DESC']>;
    const byId = order.length === 1 && order[0][0] === 'id';
    let lastId: number | null = null;
    for (let offset = 0; ; offset += size) {
      const after: WhereOptions[] = byId && lastId !== null ? [{ id: { [order[0][1] === 'ASC' ? Op.gt : Op.lt]: lastId } }] : [];
      const rows: Model[] = await this.model.findAll({ where: this.where(...q.where, ...after), order: q.order, limit: size, offset: byId ? 0 : offset });
      if (rows.length) {
        lastId = Number(rows[rows.length - 1].get('id'));
        yield await this.serialize(rows);
      }
      if (rows.length < size) return;
    }
  }

  /** The instance with this id in scope, or 10002 (also for other organisations' rows). */
  async find(id: unknown, transaction?: Transaction): Promise<Model> {
    const row = await this.model.findOne({ where: this.where({ id: parseId(id) }), transaction });
    if (!row) throw notFound();
    return row;
  }

  async get(body: Record<string, unknown>): Promise<Row> {
    const [row] = await this.serialize([await this.find(body.id)]);
    return row;
  }

  /**
   * With `transaction`, the write runs in a savepoint of it (bulk callers such as imports:
   * one row fails alone, the others commit with the outer transaction).
   */
  async create(body: Record<string, unknown>, opts: { transaction?: Transaction } = {}): Promise<Row> {
    const orgField = orgFieldOf(this.resource);
    const values = validateWrite(this.resource, this.enums, body, { mode: 'create', skip: new Set(orgField ? [orgField] : []) });
    checkCompareRules(this.resource, values);
    await this.hashSecrets(values);
    return this.write(async (transaction) => {
      await this.checkWarehouse(values);
      await this.checkRefs(values, transaction);
      // The organisation always comes from the context, never from the client.
      if (orgField && orgField !== 'id') values[orgField] = this.ctx.orgId;
      const userId = this.ctx.user?.id || null;
      values.createdBy = userId;
      values.updatedBy = userId;
      await this.checkUnique(values, null, transaction);
      await this.host.hooks.run('before', { action: 'create', resource: this.resource, ctx: this.ctx, transaction, data: values });
      const created = await this.model.create(values, { transaction });
      // Read back what the database kept (decimal scale, time precision).
      await created.reload({ transaction });
      const [row] = await this.serialize([created], transaction);
      await this.host.hooks.run('after', { action: 'create', resource: this.resource, ctx: this.ctx, transaction, row });
      return row;
    }, values, opts.transaction);
  }

  /** With `transaction`, the write runs in a savepoint of it (documents, transition hooks). */
  async update(body: Record<string, unknown>, opts: { transaction?: Transaction } = {}): Promise<Row> {
    const id = parseId(body.id);
    const orgField = orgFieldOf(this.resource);
    const values = validateWrite(this.resource, this.enums, body, { mode: 'update', skip: new Set(orgField ? [orgField] : []) });
    await this.hashSecrets(values);
    return this.write(async (transaction) => {
      const instance = await this.find(id, transaction);
      this.checkStatusRules(instance, this.resource.rules?.editForbidden);
      return this.applyUpdate(instance, values, transaction);
    }, values, opts.transaction);
  }

  async delete(body: Record<string, unknown>): Promise<{ deleted: number }> {
    const ids = body.ids !== undefined ? body.ids : [body.id];
    if (!Array.isArray(ids) || !ids.length) throw requiredError(ID_FIELD);
    const unique = [...new Set(ids.map(parseId))];
    if (unique.length > MAX_LIMIT) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_LIMIT }, 400);
    return this.write(async (transaction) => {
      const rows = await this.model.findAll({ where: this.where({ id: { [Op.in]: unique } }), transaction });
      // All or nothing: one id out of scope refuses the whole call, without saying which exist.
      if (rows.length !== unique.length) throw notFound();
      return { deleted: await this.destroyRows(rows, transaction) };
    });
  }

  /**
   * Deletes found rows in the caller's transaction: status rules and `before` hooks of every row
   * first (their own refusals name the case best), then the references (cascade, clear, refuse
   * while anything still points at a row), then the rows and their `after` hooks. A refusal
   * anywhere rolls the whole call back: a batch is never half deleted.
   */
  private async destroyRows(rows: Model[], transaction: Transaction, depth = 0): Promise<number> {
    const serialized: Row[] = [];
    for (const instance of rows) {
      this.checkStatusRules(instance, this.resource.rules?.deleteForbidden);
      const [row] = await this.serialize([instance], transaction);
      await this.host.hooks.run('before', { action: 'delete', resource: this.resource, ctx: this.ctx, transaction, row });
      serialized.push(row);
    }
    await settleReferences({
      db: this.host.db,
      metadata: this.host.metadata,
      registry: this.host.references ?? NO_DECLARED_REFERENCES,
      resource: this.resource,
      rows: serialized,
      ctx: this.ctx,
      transaction,
      cascade: async (child, ids) => {
        if (depth >= MAX_CASCADE_DEPTH) throw new Error(`delete cascade deeper than ${MAX_CASCADE_DEPTH} from ${this.resource.name}`);
        // a header's lines go whichever warehouse they name: the organisation is the scope
        const lines = new ScopedRepository(this.host, child, { ...this.ctx, warehouseIds: null });
        const found = await lines.model.findAll({ where: lines.where({ id: { [Op.in]: ids } }), transaction });
        await lines.destroyRows(found, transaction, depth + 1);
      },
    });
    for (let i = 0; i < rows.length; i++) {
      await rows[i].destroy({ transaction });
      await this.host.hooks.run('after', { action: 'delete', resource: this.resource, ctx: this.ctx, transaction, row: serialized[i] });
    }
    return rows.length;
  }

  private async applyUpdate(instance: Model, values: Record<string, unknown>, transaction: Transaction): Promise<Row> {
    const [previous] = await this.serialize([instance], transaction);
    const merged = { ...(instance.get({ plain: true }) as Row), ...values };
    checkCompareRules(this.resource, merged);
    await this.checkWarehouse(values);
    const changedRefs = Object.fromEntries(Object.entries(values).filter(([k, v]) => !sameJson(instance.get(k), v)));
    await this.checkRefs(changedRefs, transaction);
    await this.checkUnique(changedRefs, Number(instance.get('id')), transaction);
    values.updatedBy = this.ctx.user?.id || null;
    await this.host.hooks.run('before', { action: 'update', resource: this.resource, ctx: this.ctx, transaction, data: values, previous });
    instance.set(values);
    await instance.save({ transaction });
    await instance.reload({ transaction });
    const [row] = await this.serialize([instance], transaction);
    await this.host.hooks.run('after', { action: 'update', resource: this.resource, ctx: this.ctx, transaction, row, previous });
    return row;
  }

  /** Runs a write in a transaction; a unique index violation (a race) still reads as 10003. */
  private async write<T>(fn: (t: Transaction) => Promise<T>, values: Record<string, unknown> = {}, parent?: Transaction): Promise<T> {
    try {
      return parent ? await this.host.db.sequelize.transaction({ transaction: parent }, fn) : await this.host.db.sequelize.transaction(fn);
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw this.duplicateError(err, values);
      throw err;
    }
  }

  /**
   * Names the field of a violated unique index. SQLite reports the columns, MySQL the index
   * name (in `fields` or the message): both are matched against this resource's index plan.
   */
  private duplicateError(err: UniqueConstraintError, values: Record<string, unknown>): ApiError {
    const fields = err.fields as unknown;
    const reported = new Set<string>(Array.isArray(fields) ? fields.map(String) : Object.keys((fields as object) ?? {}));
    const message = String((err.parent as Error | undefined)?.message ?? err.message);
    const plans = indexPlan(this.resource).filter((p) => p.unique);
    const f = this.resource.fields.find((x) => {
      if (!x.unique) return false;
      const column = snakeCase(x.name);
      const plan = plans.find((p) => p.columns[p.columns.length - 1] === column);
      return reported.has(column) || reported.has(x.name) || (plan && (reported.has(plan.name) || message.includes(plan.name)));
    });
    if (!f) return new ApiError(ErrorCode.duplicate, 'server.errors.duplicate');
    const v = values[f.name];
    return new ApiError(ErrorCode.duplicate, 'server.errors.10003', { field: fieldParam(f), value: v instanceof Date ? v.toISOString() : (v ?? '') });
  }

  private async hashSecrets(values: Record<string, unknown>): Promise<void> {
    for (const f of this.resource.fields) {
      if (f.type === 'password' && typeof values[f.name] === 'string') values[f.name] = await hashPassword(values[f.name] as string);
    }
  }

  private checkStatusRules(instance: Model, rules: StatusRule[] | undefined): void {
    for (const rule of rules ?? []) {
      const current = instance.get(rule.field);
      if (rule.values.some((v) => sameValue(v, current))) throw new ApiError(ErrorCode.statusForbidden, rule.message);
    }
  }

  /** Restricted callers may only put rows in their own warehouses. */
  private async checkWarehouse(values: Record<string, unknown>): Promise<void> {
    const wf = this.resource.warehouseField;
    if (!wf || wf === 'id' || this.ctx.warehouseIds === null || !(wf in values) || values[wf] === null) return;
    const ids = Array.isArray(values[wf]) ? (values[wf] as number[]) : [values[wf] as number];
    if (ids.some((id) => !this.ctx.warehouseIds!.includes(id))) throw fieldError(this.field(wf) ?? { name: wf }, 'warehouse');
  }

  /** Every referenced id must exist in the caller's scope of the target resource. */
  private async checkRefs(values: Record<string, unknown>, transaction: Transaction): Promise<void> {
    for (const f of this.resource.fields) {
      if ((f.type !== 'ref' && f.type !== 'refs') || !f.ref || values[f.name] === null || values[f.name] === undefined) continue;
      const target = this.host.metadata.resources[f.ref.resource];
      if (!target) continue;
      const ids = [...new Set((Array.isArray(values[f.name]) ? values[f.name] : [values[f.name]]) as number[])];
      if (!ids.length) continue;
      const found = await this.host.db.models[target.name].count({
        where: { [Op.and]: [{ id: { [Op.in]: ids } }, scopeWhere(target, this.ctx)] },
        transaction,
      });
      if (found !== ids.length) throw fieldError(f, 'refMissing');
    }
  }

  /** Clear 10003 before the insert; the unique index stays the real guarantee. */
  private async checkUnique(values: Record<string, unknown>, selfId: number | null, transaction: Transaction): Promise<void> {
    const orgField = orgFieldOf(this.resource);
    for (const f of this.resource.fields) {
      const v = values[f.name];
      if (!f.unique || v === null || v === undefined) continue;
      const and: WhereOptions[] = [{ [f.name]: v }];
      if (f.unique === 'org' && orgField && orgField !== 'id') and.push({ [orgField]: this.ctx.orgId });
      if (selfId !== null) and.push({ id: { [Op.ne]: selfId } });
      if (await this.model.count({ where: { [Op.and]: and }, transaction })) {
        throw new ApiError(ErrorCode.duplicate, 'server.errors.10003', { field: fieldParam(f), value: v instanceof Date ? v.toISOString() : v });
      }
    }
  }
}

const sameJson = (a: unknown, b: unknown): boolean => {
  if (a instanceof Date || b instanceof Date) return new Date(a as Date).getTime() === new Date(b as Date).getTime();
  return JSON.stringify(a) === JSON.stringify(b);
};

/** Repository factory handed to calls and plugins. */
export function repositoryFactory(host: ResourceHost) {
  return (resourceName: string, ctx: RequestContext): ScopedRepository => {
    const res = host.metadata.resources[resourceName];
    if (!res) throw new Error(`unknown resource "${resourceName}"`);
    return new ScopedRepository(host, res, ctx);
  };
}
