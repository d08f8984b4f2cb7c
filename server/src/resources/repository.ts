/**
 * The scoped repository: the only data path to resource rows, for generated calls and
 * plugins alike. Every read carries scopeWhere(ctx); every write validates, stamps the
 * organisation, checks refs/uniqueness/status rules and runs hooks in one transaction.
 */
import type { FieldDef, Metadata, ResourceDef, StatusRule } from '@rti/metadata';
import {
  Op,
  QueryTypes,
  UniqueConstraintError,
  Utils,
  col,
  fn,
  literal,
  where as sqlWhere,
  type FindAttributeOptions,
  type GroupOption,
  type LOCK,
  type Model,
  type ModelStatic,
  type Order,
  type Transaction,
  type WhereOptions,
} from 'sequelize';
import type { Database } from '../db';
import { insertAll } from '../db/bulk-insert';
import { indexPlan } from '../db/models';
import { orgFieldOf, snakeCase } from '../db/naming';
import { retryingTransaction } from '../db/retry';
import { ApiError, ErrorCode } from '../http/api-error';
import { DAY_MS } from '../reports/time';
import type { RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { fieldError, fieldParam, notFound, typeError } from './errors';
import type { HookRegistry } from './hooks';
import { hashPassword } from './password';
import { MAX_LIMIT, parseQuery, type ListQuery } from './query';
import { ReferenceRegistry, settleReferences } from './references';
import { refScopeWhere, scopeWhere, warehouseFieldsOf, warehouseRefusal } from './scope';
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
  /** the organisation's time zone (access/org-zones.ts): where dated document numbers cut their days */
  zoneOf?: (orgId: number | null) => Promise<string>;
}

const NO_DECLARED_REFERENCES = new ReferenceRegistry();
/** Cascades deeper than this are a metadata loop, not lines of lines. */
const MAX_CASCADE_DEPTH = 8;
/** Rows per INSERT of insertMany: well under every driver's statement and parameter limits. */
const INSERT_CHUNK = 1000;

/** Rows returned by `all` at most (docs/API.md). */
export const ALL_CAP = 5000;
const ID_FIELD: FieldDef = { name: 'id', type: 'ref' };

export interface ListResult {
  list: Row[];
  total: number;
  /** `total` is a lower bound: more rows match than were counted (COUNT_CAP) */
  totalCapped?: true;
}

/**
 * A list counts its matches up to this many (or to the page asked for, when deeper) and then
 * says "more than": an exact count of 5,000,000 lines reads all of them on every page turn
 * (0.2 s on SQLite, seconds on InnoDB), for a number nobody pages through.
 */
export const COUNT_CAP = 10_000;

function parseId(v: unknown): number {
  if (v === undefined || v === null || v === '') throw requiredError(ID_FIELD);
  // a safe integer an id column holds: 1e30 or 2^53 would otherwise reach the driver
  if (!isId(v)) throw typeError(ID_FIELD, 'id');
  return v;
}

const sameValue = (a: unknown, b: unknown) => String(a) === String(b);

/**
 * The key of a repository's Sequelize model. Not exported: plugins reach rows only through the
 * scoped methods below (docs/PLUGINS.md "Scope"); engine code asks modelOf().
 */
const MODEL = Symbol('model');

/** The raw model behind a repository: engine code only (plugin-api never re-exports it). */
export function modelOf(repo: ScopedRepository): ModelStatic<Model> {
  return repo[MODEL];
}

export type Lock = 'update' | 'share';

/** A column of the rows `insertFrom` writes (see there). */
export type InsertFromValue = { field: string; ifNull?: unknown } | { value: unknown } | { day: string; plusDays?: number; ifNull?: string };

/** a numeric range for `countRanges`: lower bound inclusive, upper bound exclusive, either may be open */
export interface NumericRange {
  gte?: number;
  lt?: number;
}

/**
 * What a scoped read may ask for besides its conditions. No `include`: a join would read
 * another resource's table without that resource's scope (ask its own repository instead).
 */
export interface ReadOptions {
  attributes?: FindAttributeOptions;
  order?: Order;
  limit?: number;
  offset?: number;
  group?: GroupOption;
  /** a condition on the groups (the scope stays in the WHERE: it never reaches rows out of scope) */
  having?: WhereOptions;
  transaction?: Transaction;
  /** with a transaction: read the latest committed rows and lock them (MySQL/MariaDB) */
  lock?: Lock;
}

export interface ScopedFindOptions extends ReadOptions {
  where?: WhereOptions;
  /** plain objects instead of model instances */
  raw?: boolean;
}

export interface WriteOptions {
  transaction?: Transaction;
}

const READ_OPTIONS = new Set(['where', 'raw', 'attributes', 'order', 'limit', 'offset', 'group', 'having', 'transaction', 'lock']);

export class ScopedRepository {
  constructor(
    private readonly host: ResourceHost,
    readonly resource: ResourceDef,
    readonly ctx: RequestContext,
  ) {}

  get [MODEL](): ModelStatic<Model> {
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

  /** Sequelize's find options for a scoped read; unknown options (include, …) are a programming error. */
  private findOptions(options: ScopedFindOptions) {
    for (const k of Object.keys(options))
      if (!READ_OPTIONS.has(k)) throw new Error(`${this.resource.name}: read option "${k}" is not scoped (joins read through the other resource's repository)`);
    const { lock, where, ...rest } = options;
    return { ...rest, where: where ? this.where(where) : this.where(), lock: this.lockOf(lock, options.transaction) };
  }

  /** Sequelize's lock option, on the dialects that take one (SQLite has one writer anyway). */
  private lockOf(lock: Lock | undefined, transaction: Transaction | undefined): LOCK | undefined {
    if (!lock || !transaction || this.host.db.dialect !== 'mysql') return undefined;
    return lock === 'update' ? transaction.LOCK.UPDATE : transaction.LOCK.SHARE;
  }

  /** Model instances in scope: conditions, columns, sort, paging and grouping; the scope is always added. */
  async findAll(options: ScopedFindOptions = {}): Promise<Model[]> {
    return this[MODEL].findAll(this.findOptions(options));
  }

  /** The first instance in scope matching `where` (with `order`), or null. */
  async findOne(where: WhereOptions = {}, options: ReadOptions = {}): Promise<Model | null> {
    return this[MODEL].findOne(this.findOptions({ ...options, where }));
  }

  /** Plain column values of the rows in scope (no labels, no model instances). */
  async rows(where: WhereOptions = {}, options: ReadOptions = {}): Promise<Row[]> {
    return (await this[MODEL].findAll(this.findOptions({ ...options, where, raw: true }))) as unknown as Row[];
  }

  /**
   * Plain rows straight from the driver: the scoped SELECT compiled once and run without
   * Sequelize's per-row result handling (~10 µs a row: most of a 100,000-row scan). Values as
   * the driver answers them (SQLite: datetimes as text, booleans as 0/1).
   */
  async driverRows(attributes: string[], where: WhereOptions = {}, order: Array<[string, 'ASC' | 'DESC']> = [['id', 'ASC']]): Promise<Row[]> {
    return this.driverSelect({ attributes: [...attributes], where, order });
  }

  /** the scoped SELECT compiled once and its rows answered by the driver as they come (see driverRows) */
  private async driverSelect(options: {
    attributes: FindAttributeOptions;
    where: WhereOptions;
    order?: Order;
    group?: GroupOption;
    transaction?: Transaction;
  }): Promise<Row[]> {
    const model = this[MODEL];
    const sequelize = this.host.db.sequelize;
    type Generator = { selectQuery(table: unknown, options: unknown, model: unknown): string };
    const qg = (sequelize.getQueryInterface() as unknown as { queryGenerator: Generator }).queryGenerator;
    const mapNames = (Utils as unknown as { mapOptionFieldNames(o: object, m: unknown): object }).mapOptionFieldNames;
    const { transaction, ...rest } = options;
    const mapped = mapNames({ ...rest, where: this.where(rest.where) }, model);
    const sql = qg.selectQuery(model.getTableName(), { ...mapped, model }, model);
    return sequelize.query(sql, { type: QueryTypes.SELECT, raw: true, transaction }) as Promise<Row[]>;
  }

  count(where?: WhereOptions, transaction?: Transaction): Promise<number> {
    return this[MODEL].count({ where: where ? this.where(where) : this.where(), transaction });
  }

  /** SUM of a numeric field over the rows in scope (0 when none). */
  async sum(field: string, where: WhereOptions = {}, options: WriteOptions = {}): Promise<number> {
    const v = await this[MODEL].sum(field, { where: this.where(where), transaction: options.transaction });
    return Number(v ?? 0) || 0;
  }

  /** Rows in scope per value of a field (GROUP BY): value → count. */
  async countBy(field: string, where: WhereOptions = {}, options: WriteOptions = {}): Promise<Map<number | string | null, number>> {
    const found = await this.rows(where, { attributes: [field, [fn('COUNT', col('id')), 'n']], group: [field], transaction: options.transaction });
    return new Map(found.map((r) => [(r[field] ?? null) as number | string | null, Number(r.n)]));
  }

  /**
   * Rows in scope per UTC day of a datetime field (GROUP BY the day): 'YYYY-MM-DD' → count. The
   * repository owns the dialect's day expression (SQLite keeps datetimes as text, MariaDB as DATETIME in UTC).
   */
  async countByDay(field: string, where: WhereOptions = {}, options: WriteOptions = {}): Promise<Map<string, number>> {
    if (!this[MODEL].getAttributes()[field]) throw new Error(`${this.resource.name}: no field "${field}" to count days of`);
    const day = this.calendarKey(field, 'day');
    const found = await this.rows(where, {
      attributes: [
        [day, 'day'],
        [fn('COUNT', col('id')), 'n'],
      ],
      group: ['day'],
      transaction: options.transaction,
    });
    return new Map(found.map((r) => [String(r.day), Number(r.n)]));
  }

  /**
   * Rows in scope per numeric range of a field, in one scan (a histogram): `[{ gte: 75 }, { gte: 25, lt: 75 }]`
   * answers one count per range, in order, plus the rows whose value is null. Ranges may overlap.
   * Plugins use it without building operator objects themselves.
   */
  async countRanges(
    field: string,
    ranges: ReadonlyArray<NumericRange>,
    where: WhereOptions = {},
    options: WriteOptions = {},
  ): Promise<{ counts: number[]; nulls: number }> {
    if (!this[MODEL].getAttributes()[field]) throw new Error(`${this.resource.name}: no field "${field}" to count ranges of`);
    const qi = this.host.db.sequelize.getQueryInterface();
    const c = qi.quoteIdentifier(this.column(field));
    const bound = (n: number | undefined, what: string) => {
      if (n !== undefined && !Number.isFinite(n)) throw new Error(`${this.resource.name}.${field}: range ${what} ${n}`);
      return n;
    };
    const cases = ranges.map((r, i) => {
      const parts = [
        bound(r.gte, 'gte') !== undefined ? `${c} >= ${Number(r.gte)}` : null,
        bound(r.lt, 'lt') !== undefined ? `${c} < ${Number(r.lt)}` : null,
      ].filter(Boolean);
      return [literal(`SUM(CASE WHEN ${parts.length ? parts.join(' AND ') : `${c} IS NOT NULL`} THEN 1 ELSE 0 END)`), `r${i}`] as [
        ReturnType<typeof literal>,
        string,
      ];
    });
    const [row] = await this.rows(where, {
      attributes: [...cases, [literal(`SUM(CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END)`), 'nulls']],
      transaction: options.transaction,
    });
    return { counts: ranges.map((_, i) => Number(row?.[`r${i}`] ?? 0)), nulls: Number(row?.nulls ?? 0) };
  }

  /**
   * Rows in scope grouped by fields, each group with its count (`n`) and, in the same scan, the
   * count of its rows matching each named condition: `countWhen(['warehouseId'], { broken: { status: 60 } })`
   * → `[{ warehouseId, n, broken }]`. Conditions are ordinary where options (compiled by the
   * dialect, values escaped), so several figures of one grouping cost one pass instead of one
   * query each.
   */
  async countWhen<K extends string>(
    by: string[],
    when: Record<K, WhereOptions>,
    where: WhereOptions = {},
    options: WriteOptions = {},
  ): Promise<Array<Row & { n: number } & Record<K, number>>> {
    const model = this[MODEL];
    type Generator = { getWhereConditions(where: unknown, table: string, model: unknown, options: object): string };
    const qg = (this.host.db.sequelize.getQueryInterface() as unknown as { queryGenerator: Generator }).queryGenerator;
    const mapWhere = (Utils as unknown as { mapWhereFieldNames(w: object, m: unknown): object }).mapWhereFieldNames;
    for (const f of by) if (!model.getAttributes()[f]) throw new Error(`${this.resource.name}: no field "${f}" to group by`);
    const counts = (Object.entries(when) as Array<[string, WhereOptions]>).map(([name, cond]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name === 'n' || by.includes(name)) throw new Error(`${this.resource.name}: count name "${name}"`);
      const sql = qg.getWhereConditions(mapWhere({ ...(cond as object) }, model), model.name, model, {});
      return [literal(`SUM(CASE WHEN ${sql || '1 = 1'} THEN 1 ELSE 0 END)`), name] as [ReturnType<typeof literal>, string];
    });
    // 25,000 groups of a dozen counts: straight from the driver (Sequelize's per-row handling was a fifth of the call)
    const found = await this.driverSelect({
      attributes: [...by, [fn('COUNT', col('id')), 'n'], ...counts],
      where,
      group: by.length ? by : undefined,
      transaction: options.transaction,
    });
    return found.map((r) => {
      const out: Row = { ...r, n: Number(r.n ?? 0) };
      for (const name of Object.keys(when)) out[name] = Number(r[name] ?? 0);
      return out as Row & { n: number } & Record<K, number>;
    });
  }

  /** The table column of a field (attributes are camelCase, columns snake_case), for SQL expressions. */
  column(field: string): string {
    return this[MODEL].getAttributes()[field]?.field ?? field;
  }

  // ---- SQL fragments the dialect owns -------------------------------------------------------
  // What a plugin needs to write a computed column, a conditional sum or a grouped figure in a
  // scoped read without the raw handle: the repository quotes, knows the dialect and checks the
  // field. The fragments go into `rows`/`updateWhere` options of this repository, whose scope
  // is ANDed as always (docs/PLUGINS.md "Scope").

  private get isSqlite(): boolean {
    return this.host.db.sequelize.getDialect() === 'sqlite';
  }

  private attribute(field: string, what: string): string {
    const a = this[MODEL].getAttributes()[field];
    if (!a) throw new Error(`${this.resource.name}: no field "${field}" for ${what}`);
    return a.field ?? field;
  }

  /** The field's column quoted for the dialect (`"carrier_id"`, `` `carrier_id` ``), for SQL expressions; unknown fields refused. */
  quoted(field: string): string {
    return this.host.db.sequelize.getQueryInterface().quoteIdentifier(this.attribute(field, 'a column'));
  }

  /** SQL of a datetime field as fractional days since 1970-01-01 UTC (sums, minima, differences in one grouped read). */
  epochDays(field: string): string {
    return this.epochDaysOf(this.quoted(field));
  }

  /**
   * SQL of a datetime expression (a quoted column, an aggregate of one: `MIN(…)`) as fractional
   * days since 1970-01-01 UTC. SQLite keeps datetimes as text (julianday), MariaDB as DATETIME in UTC.
   */
  epochDaysOf(sql: string): string {
    return this.isSqlite ? `(julianday(${sql}) - 2440587.5)` : `(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', ${sql}) / 86400000000.0)`;
  }

  /** SQL of the fractional days from a datetime field's value until `at` (null where the field is null). */
  daysSince(field: string, at: Date): string {
    const c = this.quoted(field);
    const ms = at.getTime();
    if (!Number.isFinite(ms)) throw new Error(`${this.resource.name}.${field}: days since an invalid date`);
    // SQLite text 'YYYY-MM-DD HH:MM:SS.SSS +00:00': the first 23 characters are the UTC time
    if (this.isSqlite) return `(${ms / DAY_MS + 2440587.5} - julianday(substr(${c}, 1, 23)))`;
    return `(TIMESTAMPDIFF(SECOND, ${c}, FROM_UNIXTIME(${Math.floor(ms / 1000)})) / 86400)`;
  }

  /**
   * The rows whose datetime field lies in [from, to] (epoch ms, both included), as a where that
   * an index on (…, field) serves on both dialects. A grouped read of a period is served best by
   * a covering index that leads with the grouping columns: SQLite, without range statistics,
   * takes a range bounded on both sides to the field's own index instead (a year of 4,000,000
   * rows: a table lookup each and a sort, 20 s against 3), so its end bound is written so that
   * no index takes it (`+column`, evaluated per row of the covering index). MariaDB gets the plain range.
   */
  timeRange(field: string, from: number, to: number): WhereOptions {
    const c = this.quoted(field);
    if (!this.isSqlite) return { [field]: { [Op.gte]: new Date(from), [Op.lte]: new Date(to) } };
    return { [Op.and]: [{ [field]: { [Op.gte]: new Date(from) } }, sqlWhere(literal(`+${c}`), Op.lte, new Date(to))] };
  }

  /**
   * `CASE <column> WHEN k THEN v … END` over integer pairs (a mapping computed in code: a
   * warehouse's partner, a device's new carrier), as an attribute of a grouped read or a value
   * of updateWhere; `NULL` for no pairs; non-integers refused.
   */
  caseOf(field: string, pairs: Iterable<readonly [number, number]>): ReturnType<typeof literal> {
    const c = this.quoted(field);
    const whens: string[] = [];
    for (const [k, v] of pairs) {
      if (!Number.isSafeInteger(Number(k)) || !Number.isSafeInteger(Number(v))) throw new Error(`${this.resource.name}.${field}: case ${k} → ${v}`);
      whens.push(`WHEN ${Number(k)} THEN ${Number(v)}`);
    }
    return literal(whens.length ? `CASE ${c} ${whens.join(' ')} END` : 'NULL');
  }

  /**
   * `AGG(CASE WHEN <column> = value THEN expr END)` — a figure of the rows with one value of a
   * field beside the others of a grouped read (a sum of arrivals, the first departure).
   * `expr` is SQL built from quoted()/epochDays(); `agg` COUNT counts the rows (`expr` 1).
   */
  aggregateWhen(agg: 'SUM' | 'MIN' | 'MAX', field: string, value: number, expr: string): ReturnType<typeof literal> {
    if (!Number.isFinite(Number(value))) throw new Error(`${this.resource.name}.${field}: when ${value}`);
    return literal(`${agg}(CASE WHEN ${this.quoted(field)} = ${Number(value)} THEN ${expr} END)`);
  }

  /** The UTC day ('YYYY-MM-DD') or month ('YYYY-MM') of a datetime field, as a grouping key of a read. */
  calendarKey(field: string, unit: 'day' | 'month'): ReturnType<typeof fn> {
    const column = col(this.attribute(field, `a ${unit}`));
    if (this.isSqlite) return fn('substr', column, 1, unit === 'day' ? 10 : 7);
    return fn('DATE_FORMAT', column, unit === 'day' ? '%Y-%m-%d' : '%Y-%m');
  }

  /**
   * SQL of `field` on the row before this one in its sequence — the latest row of the same
   * organisation with equal `partition` fields and `when` values, strictly earlier by `time` —
   * as a per-row column of groupedOver (a correlated subquery that an index on (organisation,
   * …partition, time) answers with one seek): what a row's figure needs from the row before it
   * (the arrival a departure ends, the previous departure).
   */
  previous(partition: string[], time: string, when: Record<string, number> = {}, field = time): string {
    const model = this[MODEL];
    const qi = this.host.db.sequelize.getQueryInterface();
    const outer = qi.quoteIdentifier(model.name);
    const c = (f: string) => qi.quoteIdentifier(this.attribute(f, 'previous'));
    const org = orgFieldOf(this.resource);
    const same = [...(org && org !== 'id' ? [org] : []), ...partition].map((f) => `p.${c(f)} = ${outer}.${c(f)}`);
    const values = Object.entries(when).map(([f, v]) => {
      if (!Number.isFinite(Number(v))) throw new Error(`${this.resource.name}.${f}: previous when ${v}`);
      return `p.${c(f)} = ${Number(v)}`;
    });
    const table = qi.quoteIdentifier(model.getTableName() as string);
    return `(SELECT p.${c(field)} FROM ${table} p WHERE ${[...same, ...values, `p.${c(time)} < ${outer}.${c(time)}`].join(' AND ')} ORDER BY p.${c(time)} DESC LIMIT 1)`;
  }

  /**
   * Grouped sums over per-row computed columns, in one statement: `SELECT group, sums FROM
   * (SELECT group fields, columns FROM rows in scope matching where) GROUP BY group`. The inner
   * rows are materialised (not merged into the outer query), so a per-row column (previous(),
   * epochDays()) is computed once per row however many sums read it. `columns` and `sums` are
   * SQL; sums name the columns and group fields bare.
   */
  async groupedOver(
    where: WhereOptions,
    columns: Record<string, string>,
    group: string[],
    sums: Record<string, string>,
    options: WriteOptions = {},
  ): Promise<Row[]> {
    const model = this[MODEL];
    const sequelize = this.host.db.sequelize;
    const qi = sequelize.getQueryInterface();
    const name = (n: string) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new Error(`${this.resource.name}: column name "${n}"`);
      return qi.quoteIdentifier(n);
    };
    for (const f of group) this.attribute(f, 'a group');
    for (const n of Object.keys(columns)) name(n);
    type Generator = { selectQuery(table: unknown, options: unknown, model: unknown): string };
    const qg = (qi as unknown as { queryGenerator: Generator }).queryGenerator;
    const mapNames = (Utils as unknown as { mapOptionFieldNames(o: object, m: unknown): object }).mapOptionFieldNames;
    const attributes = [...group, ...Object.entries(columns).map(([n, sql]) => [literal(sql), n] as [ReturnType<typeof literal>, string])];
    const inner = qg.selectQuery(model.getTableName(), { ...mapNames({ attributes, where: this.where(where) }, model), model }, model).replace(/;\s*$/, '');
    // OFFSET 0 (SQLite) and a LIMIT (MariaDB) keep the derived table from being merged into the grouping
    const materialised = this.isSqlite ? `${inner} LIMIT -1 OFFSET 0` : `${inner} LIMIT 18446744073709551615`;
    const keys = group.map(name);
    const select = [...keys, ...Object.entries(sums).map(([n, sql]) => `${sql} AS ${name(n)}`)].join(', ');
    const sql = `SELECT ${select} FROM (${materialised}) x${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''}`;
    return sequelize.query(sql, { type: QueryTypes.SELECT, raw: true, transaction: options.transaction }) as Promise<Row[]>;
  }

  /**
   * One UPDATE over the rows in scope, without per-row hooks or validation (code-built values:
   * the caller owns them); answers how many rows matched. The organisation of a row never
   * changes, and a restricted caller cannot move rows out of its warehouses.
   */
  async updateWhere(values: Record<string, unknown>, where: WhereOptions, options: WriteOptions = {}): Promise<number> {
    this.guardWrite(values);
    // a context without a user (jobs, org-wide views of a call) leaves the last author in place
    const author = this.ctx.user ? { updatedBy: this.ctx.user.id } : {};
    const [n] = await this[MODEL].update({ ...values, ...author }, { where: this.where(where), transaction: options.transaction });
    return n;
  }

  /** Adds numbers to fields of the rows in scope in one UPDATE (`col = col + n`); answers rows matched. */
  increment(by: Record<string, number>, where: WhereOptions, options: WriteOptions = {}): Promise<number> {
    const qi = this.host.db.sequelize.getQueryInterface();
    const values: Record<string, unknown> = {};
    for (const [field, n] of Object.entries(by)) {
      if (!Number.isFinite(n)) throw new Error(`${this.resource.name}.${field}: increment by ${n}`);
      if (!this.field(field)) throw new Error(`${this.resource.name}: no field "${field}" to increment`);
      values[field] = this.host.db.sequelize.literal(`${qi.quoteIdentifier(this.column(field))} + ${Number(n)}`);
    }
    return this.updateWhere(values, where, options);
  }

  /** One DELETE over the rows in scope: no per-row hooks and no reference checks (the caller owns the consequences). */
  deleteWhere(where: WhereOptions, options: WriteOptions = {}): Promise<number> {
    return this[MODEL].destroy({ where: this.where(where), transaction: options.transaction });
  }

  /**
   * Multi-row INSERTs of code-built rows (logs, in/out records), organisation and author
   * stamped from the context whatever the rows say; no validation or hooks (a client's input
   * goes through create). Without model instances (db/bulk-insert.ts).
   */
  async insertMany(rows: Array<Record<string, unknown>>, options: WriteOptions = {}): Promise<number> {
    if (!rows.length) return 0;
    const model = this[MODEL];
    const orgField = orgFieldOf(this.resource);
    const userId = this.ctx.user?.id ?? null;
    const now = new Date();
    const records = rows.map((r) => {
      this.guardWrite(r);
      const row: Record<string, unknown> = { createdAt: now, updatedAt: now, ...r, createdBy: userId, updatedBy: userId };
      if (orgField && orgField !== 'id') row[orgField] = this.ctx.orgId;
      return row;
    });
    return insertAll(model, records, options.transaction);
  }

  /**
   * One INSERT … SELECT: a row of this resource for each row of `source` in scope (the same
   * context: organisation, warehouses) matching `where`, without a round trip per row. Each
   * column is the source row's field (`{ field, ifNull? }`), a constant (`{ value }`) or the UTC
   * day of a source date/datetime field plus days (`{ day, plusDays?, ifNull? }`: ifNull is the
   * day taken when the field is null). Organisation, author and time stamps come from the
   * context, as insertMany's; no validation or hooks (code-built rows). Answers rows inserted.
   */
  async insertFrom(source: string, values: Record<string, InsertFromValue>, where: WhereOptions, options: WriteOptions = {}): Promise<number> {
    const from = this.host.metadata.resources[source];
    if (!from) throw new Error(`${this.resource.name}: insertFrom an unknown resource "${source}"`);
    const src = new ScopedRepository(this.host, from, this.ctx);
    const model = this[MODEL];
    const sourceModel = src[MODEL];
    const sequelize = this.host.db.sequelize;
    const qi = sequelize.getQueryInterface();
    type Generator = { selectQuery(table: unknown, options: unknown, model: unknown): string; escape(value: unknown, field?: unknown): string };
    const qg = (qi as unknown as { queryGenerator: Generator }).queryGenerator;
    const attrs = model.getAttributes() as Record<string, { field?: string; set?: (this: { setDataValue(k: string, v: unknown): void }, v: unknown) => void }>;
    const sourceColumn = (name: string) => {
      if (!sourceModel.getAttributes()[name]) throw new Error(`${this.resource.name}: insertFrom ${source} has no field "${name}"`);
      return qi.quoteIdentifier(src.column(name));
    };
    const constant = (name: string, v: unknown) => {
      let out = v;
      // a column's setter (JSON as text) applies to constants as it does to written rows
      if (attrs[name].set) attrs[name].set!.call({ setDataValue: (_k, x) => (out = x) }, v);
      return qg.escape(out, attrs[name]);
    };
    const isDay = (d: unknown) => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d);
    const constants: Record<string, unknown> = {};
    const columns: string[] = [];
    const selects: string[] = [];
    const sqlite = sequelize.getDialect() === 'sqlite';
    for (const [name, v] of Object.entries(values)) {
      if (!attrs[name] || ['id', 'createdBy', 'updatedBy', 'createdAt', 'updatedAt'].includes(name))
        throw new Error(`${this.resource.name}: insertFrom cannot write "${name}"`);
      let expr: string;
      if ('value' in v) {
        constants[name] = v.value;
        expr = constant(name, v.value);
      } else {
        // a restricted caller's warehouses are checked on values, not on columns of another table
        if (warehouseFieldsOf(this.resource).includes(name) && this.ctx.warehouseIds !== null)
          throw new Error(`${this.resource.name}.${name}: a restricted caller's warehouse comes from a value, not from ${source}`);
        if ('field' in v) {
          expr = sourceColumn(v.field);
          if (v.ifNull !== undefined && v.ifNull !== null) expr = `COALESCE(${expr}, ${constant(name, v.ifNull)})`;
        } else {
          if (v.ifNull !== undefined && !isDay(v.ifNull)) throw new Error(`${this.resource.name}.${name}: ifNull day "${String(v.ifNull)}"`);
          const plus = v.plusDays ?? 0;
          if (!Number.isInteger(plus)) throw new Error(`${this.resource.name}.${name}: plusDays ${plus}`);
          const c = sourceColumn(v.day);
          // SQLite keeps datetimes as UTC text (its first ten characters are the day); MariaDB as DATETIME in UTC
          let day = sqlite ? `substr(${c}, 1, 10)` : `DATE(${c})`;
          if (v.ifNull) day = `COALESCE(${day}, ${sequelize.escape(v.ifNull)})`;
          expr = !plus ? day : sqlite ? `date(${day}, '${plus >= 0 ? '+' : ''}${plus} days')` : `DATE_ADD(${day}, INTERVAL ${plus} DAY)`;
        }
      }
      columns.push(name);
      selects.push(expr);
    }
    this.guardWrite(constants);
    const orgField = orgFieldOf(this.resource);
    const userId = this.ctx.user?.id ?? null;
    const now = new Date();
    const stamps: Record<string, unknown> = { createdBy: userId, updatedBy: userId, createdAt: now, updatedAt: now };
    if (orgField && orgField !== 'id') stamps[orgField] = this.ctx.orgId;
    for (const [name, v] of Object.entries(stamps)) {
      if (!attrs[name]) continue;
      columns.push(name);
      selects.push(constant(name, v));
    }
    const mapNames = (Utils as unknown as { mapOptionFieldNames(o: object, m: unknown): object }).mapOptionFieldNames;
    const select = qg
      .selectQuery(
        sourceModel.getTableName(),
        { ...mapNames({ attributes: selects.map((e, i) => [literal(e), `c${i}`]), where: src.where(where) }, sourceModel), model: sourceModel },
        sourceModel,
      )
      .replace(/;\s*$/, '');
    const table = qi.quoteIdentifier(model.getTableName() as string);
    const sql = `INSERT INTO ${table} (${columns.map((n) => qi.quoteIdentifier(attrs[n].field ?? n)).join(', ')}) ${select}`;
    const [, affected] = (await sequelize.query(sql, { type: QueryTypes.INSERT, transaction: options.transaction })) as unknown as [unknown, unknown];
    return Number(affected) || 0;
  }

  /** Set-based writes never move a row to another organisation or out of the caller's warehouses. */
  private guardWrite(values: Record<string, unknown>): void {
    const orgField = orgFieldOf(this.resource);
    if (orgField && orgField !== 'id' && orgField in values && values[orgField] !== this.ctx.orgId) {
      throw new Error(`${this.resource.name}: a scoped write cannot set ${orgField} (it comes from the context)`);
    }
    const refused = warehouseRefusal(this.resource, this.ctx, values);
    if (refused) throw fieldError(this.field(refused) ?? { name: refused }, 'warehouse');
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

  /** One indexed query, one bounded count, one batched label lookup. */
  async list(body: Record<string, unknown>): Promise<ListResult> {
    const q = this.parse(body);
    const where = this.where(...q.where);
    const offset = (q.page - 1) * q.limit;
    const bound = Math.max(COUNT_CAP, offset + q.limit);
    const [rows, counted] = await Promise.all([this[MODEL].findAll({ where, order: q.order, limit: q.limit, offset }), this.countUpTo(where, bound + 1)]);
    const list = await this.serialize(rows);
    return counted > bound ? { list, total: bound, totalCapped: true } : { list, total: counted };
  }

  /** COUNT(*) of at most `limit` rows matching `where` (already scoped): it stops reading there. */
  private async countUpTo(where: WhereOptions, limit: number): Promise<number> {
    const model = this[MODEL];
    const sequelize = this.host.db.sequelize;
    type Generator = { selectQuery(table: unknown, options: unknown, model: unknown): string };
    const qg = (sequelize.getQueryInterface() as unknown as { queryGenerator: Generator }).queryGenerator;
    const mapNames = (Utils as unknown as { mapOptionFieldNames(o: object, m: unknown): object }).mapOptionFieldNames;
    const inner = qg.selectQuery(model.getTableName(), { ...mapNames({ attributes: ['id'], where, limit }, model), model }, model).replace(/;\s*$/, '');
    const [row] = await sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${inner}) AS counted`, { type: QueryTypes.SELECT });
    return Number(row?.n ?? 0);
  }

  async all(body: Record<string, unknown>): Promise<Row[]> {
    const q = this.parse({ ...body, page: undefined, limit: undefined });
    const rows = await this[MODEL].findAll({ where: this.where(...q.where), order: q.order, limit: ALL_CAP });
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
      const rows: Model[] = await this[MODEL].findAll({ where: this.where(...q.where, ...after), order: q.order, limit: size, offset: byId ? 0 : offset });
      if (rows.length) {
        lastId = Number(rows[rows.length - 1].get('id'));
        yield await this.serialize(rows);
      }
      if (rows.length < size) return;
    }
  }

  /** The instance with this id in scope, or 10002 (also for other organisations' rows). */
  async find(id: unknown, transaction?: Transaction): Promise<Model> {
    const row = await this[MODEL].findOne({ where: this.where({ id: parseId(id) }), transaction });
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
  async create(input: Record<string, unknown>, opts: { transaction?: Transaction } = {}): Promise<Row> {
    const body = await this.host.hooks.runFill(this.resource, input, this.ctx);
    const orgField = orgFieldOf(this.resource);
    const values = validateWrite(this.resource, this.enums, body, { mode: 'create', skip: new Set(orgField ? [orgField] : []) });
    checkCompareRules(this.resource, values);
    await this.hashSecrets(values);
    return this.write(
      async (transaction) => {
        await this.checkWarehouse(values);
        await this.checkRefs(values, transaction);
        // The organisation always comes from the context, never from the client.
        if (orgField && orgField !== 'id') values[orgField] = this.ctx.orgId;
        const userId = this.ctx.user?.id || null;
        values.createdBy = userId;
        values.updatedBy = userId;
        await this.checkUnique(values, null, transaction);
        await this.host.hooks.run('before', { action: 'create', resource: this.resource, ctx: this.ctx, transaction, data: values });
        const created = await this[MODEL].create(values, { transaction });
        // Read back what the database kept (decimal scale, time precision).
        await created.reload({ transaction });
        const [row] = await this.serialize([created], transaction);
        await this.host.hooks.run('after', { action: 'create', resource: this.resource, ctx: this.ctx, transaction, row });
        return row;
      },
      values,
      opts.transaction,
    );
  }

  /** With `transaction`, the write runs in a savepoint of it (documents, transition hooks). */
  async update(body: Record<string, unknown>, opts: { transaction?: Transaction } = {}): Promise<Row> {
    const id = parseId(body.id);
    const orgField = orgFieldOf(this.resource);
    const values = validateWrite(this.resource, this.enums, body, { mode: 'update', skip: new Set(orgField ? [orgField] : []) });
    await this.hashSecrets(values);
    return this.write(
      async (transaction) => {
        const instance = await this.find(id, transaction);
        this.checkStatusRules(instance, this.resource.rules?.editForbidden);
        return this.applyUpdate(instance, values, transaction);
      },
      values,
      opts.transaction,
    );
  }

  async delete(body: Record<string, unknown>): Promise<{ deleted: number }> {
    const ids = body.ids !== undefined ? body.ids : [body.id];
    if (!Array.isArray(ids) || !ids.length) throw requiredError(ID_FIELD);
    const unique = [...new Set(ids.map(parseId))];
    if (unique.length > MAX_LIMIT) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_LIMIT }, 400);
    return this.write(async (transaction) => {
      const rows = await this[MODEL].findAll({ where: this.where({ id: { [Op.in]: unique } }), transaction });
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
      cascade: (child, ids) => this.cascadeTo(child, ids, transaction, depth),
    });
    for (let i = 0; i < rows.length; i++) {
      await rows[i].destroy({ transaction });
      await this.host.hooks.run('after', { action: 'delete', resource: this.resource, ctx: this.ctx, transaction, row: serialized[i] });
    }
    return rows.length;
  }

  /**
   * Deletes the rows of `child` that point at rows being deleted here. Set-based (a read of ids,
   * the child's own references, one DELETE per thousand ids) when nothing would act on a single
   * row: no delete hook of the child's besides the line rules that stand aside for their
   * header's delete, no delete status rule, no operation log. Otherwise row by row, hooks and all.
   */
  private async cascadeTo(child: ResourceDef, ids: number[], transaction: Transaction, depth: number): Promise<void> {
    if (depth >= MAX_CASCADE_DEPTH) throw new Error(`delete cascade deeper than ${MAX_CASCADE_DEPTH} from ${this.resource.name}`);
    // a header's lines go whichever warehouse they name: the organisation is the scope
    const lines = new ScopedRepository(this.host, child, { ...this.ctx, warehouseIds: null });
    const where = lines.where({ id: { [Op.in]: ids } });
    const perRow =
      this.host.hooks.hearsCascadedDelete(child.name, this.resource.name) ||
      !!child.rules?.deleteForbidden?.length ||
      (child.logObject !== undefined && child.logObject !== null);
    if (perRow) {
      const found = await lines[MODEL].findAll({ where, transaction });
      await lines.destroyRows(found, transaction, depth + 1);
      return;
    }
    const model = lines[MODEL];
    const attributes = ['id', ...(child.titleField && child.titleField !== 'id' && model.getAttributes()[child.titleField] ? [child.titleField] : [])];
    const rows = (await model.findAll({ attributes, where, transaction, raw: true })) as unknown as Row[];
    if (!rows.length) return;
    await settleReferences({
      db: this.host.db,
      metadata: this.host.metadata,
      registry: this.host.references ?? NO_DECLARED_REFERENCES,
      resource: child,
      rows,
      ctx: lines.ctx,
      transaction,
      cascade: (grandchild, gids) => lines.cascadeTo(grandchild, gids, transaction, depth + 1),
    });
    const found = rows.map((r) => Number(r.id));
    for (let i = 0; i < found.length; i += INSERT_CHUNK) {
      await model.destroy({ where: lines.where({ id: { [Op.in]: found.slice(i, i + INSERT_CHUNK) } }), transaction });
    }
  }

  private async applyUpdate(instance: Model, values: Record<string, unknown>, transaction: Transaction): Promise<Row> {
    const [previous] = await this.serialize([instance], transaction);
    const merged = { ...(instance.get({ plain: true }) as Row), ...values };
    checkCompareRules(this.resource, merged);
    await this.checkWarehouse(values, merged);
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
      return parent ? await this.host.db.sequelize.transaction({ transaction: parent }, fn) : await retryingTransaction(this.host.db.sequelize, fn);
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
      // the row is named by its title: a message may say which document it refuses ({{title}})
      if (rule.values.some((v) => sameValue(v, current)))
        throw new ApiError(ErrorCode.statusForbidden, rule.message, {
          title: String(instance.get(this.resource.titleField) ?? `#${String(instance.get('id'))}`),
        });
    }
  }

  /**
   * Restricted callers may only put rows in their own warehouses: a written row must stay in
   * their scope (with several warehouse fields, one of them in their warehouses is enough).
   * `row` is the row after the write; checked only when the write names a warehouse field.
   */
  private async checkWarehouse(values: Record<string, unknown>, row: Record<string, unknown> = values): Promise<void> {
    if (!warehouseFieldsOf(this.resource).some((f) => f in values)) return;
    const refused = warehouseRefusal(this.resource, this.ctx, row);
    if (refused) throw fieldError(this.field(refused) ?? { name: refused }, 'warehouse');
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
        where: { [Op.and]: [{ id: { [Op.in]: ids } }, refScopeWhere(this.resource, f.name, target, this.ctx)] },
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
      if (await this[MODEL].count({ where: { [Op.and]: and }, transaction })) {
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

/**
 * The organisations having rows of a resource that match `where`: ids only, for jobs that
 * then act inside each organisation through its scoped repository. A resource without an
 * organisation column has none.
 */
export async function organisationsWith(db: Database, metadata: Metadata, resource: string, where: WhereOptions = {}): Promise<number[]> {
  const res = metadata.resources[resource];
  if (!res) throw new Error(`organisationsWith: no resource "${resource}"`);
  const orgField = orgFieldOf(res);
  if (!orgField || orgField === 'id') return [];
  const found = (await db.models[resource].findAll({ attributes: [orgField], where, group: [orgField], raw: true })) as unknown as Row[];
  return found
    .map((r) => Number(r[orgField]))
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b);
}
