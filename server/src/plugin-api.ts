/**
 * The typed server-side plugin API. A plugin is plugins/<id>/server/index.ts exporting
 * `definePlugin({ id, server(ctx) { … } })` as default; it gets the same pipeline, guard,
 * tenancy and i18n as the core and never re-implements them.
 */
import type { Metadata } from '@rti/metadata';
import type { Sequelize, Transaction, WhereOptions } from 'sequelize';
import type { Request, RequestHandler, Response } from 'express';
import type { CallInvoker } from './http/dispatcher';
import type { BoundRepository as BoundRepo } from './resources/bound-repository';
import type { ServerConfig } from './config';
import type { ObjectStorage } from './files/storage';
import type { Database, Migration } from './db';
import type { CallDef, Language, RequestContext } from './http/types';
import type { DeclaredCallDef, InputDecl, PagingDecl } from './http/declared-input';
import type { TFunction } from './i18n/translator';
import type { ImportValidator } from './import/validators';
import type { JobFn, JobOptions } from './plugins/jobs';
import type { HookAction, HookFn } from './resources/hooks';
import type { ScopedRepository } from './resources/repository';
import type { TransitionFn } from './resources/transitions';
import type { LinesFn } from './resources/documents';
import type { ScanResult } from './resources/flows';
import type { PublicLinkService } from './resources/public-links';
import type { StepCause } from './resources/transitions';

/** Runs a declared step inside the caller's transaction (see TransitionEvent.run); `cause` tells its hooks who ran it. */
export type RunStep = (
  resource: string,
  step: string,
  ids: number[],
  input?: Record<string, unknown>,
  cause?: StepCause,
) => Promise<Array<Record<string, any>>>;
import type { ReportWorkbook } from './reports/registry';
import type { ReportDef, TaskType } from './reports/types';
import type { Rollup, RollupDef } from './reports/rollups';
import type { Zone } from './reports/time';
import type { DeclaredReference } from './resources/references';
import type { AuthStrategy } from './access/auth-strategies';
import type { MailService } from './mail/types';
import type { ConsoleRenderer } from './render/console-png';
import type { PluginSchema } from './plugins/schema';

export type { CallDef, CallInput, CallerScope, RequestContext, Language } from './http/types';
export type { CallInvoker, InvokeOptions } from './http/dispatcher';
/** the permission code a call checks (null: any signed-in caller) */
export { callPermission } from './http/registry';
/** the translation of a language tag or Accept-Language list into a supported language */
export { resolveLanguage } from './i18n/translator';
export type { DeclaredCallDef, DeclaredCallInput, InputDecl, InputField, InputFieldType, InputOf, InputValue, PagingDecl } from './http/declared-input';
export { STREAMED } from './http/types';
export { ApiError, ErrorCode } from './http/api-error';
/** a plugin's own tables' transactions: InnoDB's deadlock victims (1213) and lock-wait timeouts run again, as the platform's do */
export { retryingTransaction } from './db/retry';
export { objectKey, StorageUnavailable, type ObjectStorage } from './files/storage';
export { storageRefusal } from './files/file-calls';
export type { HookAction, HookEvent, HookFn } from './resources/hooks';
export type { JobFn, JobOptions, JobRun } from './plugins/jobs';
export type { ImportValidator, ImportRowEvent, ImportRowValidator, ImportChunkEvent, ImportChunkHandler } from './import/validators';
export type { ScopedRepository, ListResult, NumericRange, ReadOptions, ScopedFindOptions, WriteOptions } from './resources/repository';
export type { TransitionEvent, TransitionFn, StepCause } from './resources/transitions';
export type { ScanResult } from './resources/flows';
export type { PublicLinkService, PublicReader } from './resources/public-links';
export type { Rollup, RollupAnswer, RollupDef, RollupRead } from './reports/rollups';
/** a public page's lookups per client address and minute unless its publicLink says otherwise */
export { PUBLIC_RATE } from './resources/public-links';
export type { LinesEvent, LinesFn } from './resources/documents';
export type { BoundRepository } from './resources/bound-repository';
// a document's source row in an allowed status (BoundRepository.source): a step's hook reads it instead of checking statuses by hand
export type { SourceOptions } from './resources/source';
export type { DeclaredReference } from './resources/references';
export { invalid, type ValidationRule } from './http/invalid';
export type { Migration, MigrationContext } from './db';
export { tKey } from './i18n/translator';
/** renders a resource's `textFrom` texts of rows in a language, as every read does (live events) */
export { renderTexts } from './resources/serialize';
/** a resource's declared filter (metadata `filters`) as a where clause: `declaredFilter(ctx.metadata, 'carrier', 'inStock')` */
export { declaredFilter } from './resources/filters';
// typed readers of hand-written calls' parameters, bounded like the generated calls (docs/SERVER.md "Input limits")
export { readId, readIds, readInt, readOneOf, readPaging, readText, type Paging, type ParamOptions } from './http/params';
// report definitions (docs/PLUGINS.md "Reports"): the shared time range, zones, row sources
export type {
  ReportDef,
  ReportAction,
  ReportColumn,
  ReportSheet,
  ReportParameter,
  ReportQuery,
  ReportSchedule,
  RowWindow,
  RowPage,
  ScheduledRun,
  TaskOutcome,
  TaskType,
  MailFile,
  TimeRangeParameter,
  TimeRange,
} from './reports/types';
export type { ReportWorkbook, ReportDescription } from './reports/registry';
export type { CellValue } from './resources/export';
export { timeRange } from './reports/parameters';
export {
  DAY_MS,
  dayOf,
  dayStart,
  formatTime,
  isZone,
  lastFullDays,
  parseOpenTimeRange,
  parseTimeRange,
  zoneOffset,
  type TimeRangeOptions,
  type Zone,
} from './reports/time';
export { repositoryPage, repositoryScan, type RepositoryQuery } from './reports/sources';
export type { AuthStrategy, StrategyIdentity } from './access/auth-strategies';
export type { MailService, OutgoingMail, SentMail } from './mail/types';
export type { ConsoleRenderer, RenderAnswer, RenderFailure, RenderPage, RenderRequest } from './render/console-png';
export type { PluginSchema, SchemaObject } from './plugins/schema';

/**
 * What plugins offer each other, by service id. A providing plugin declares the id in
 * `provides`, calls `ctx.provide(id, api)` in server(), and publishes the API's type from its
 * package (e.g. `@rti/plugin-telemetry/api`) with a module augmentation:
 *
 *   declare module '@rti/server/plugin-api' { interface PluginServices { telemetry: TelemetryApi } }
 *
 * A consumer declares the provider in `dependsOn` and gets the typed API with `ctx.use(id)`.
 */
export interface PluginServices {
  /** the platform's mail service (mail/types.ts), provided by the scheduler plugin */
  mail: MailService;
}
export type ServiceId = keyof PluginServices & string;

export interface PluginServerContext {
  /** the plugin's id */
  id: string;
  /** publishes a service this plugin declares in `provides` (once, during server()) */
  provide<K extends ServiceId>(id: K, api: PluginServices[K]): void;
  /**
   * The service of a plugin this one declares in `dependsOn` (loaded first, so its services
   * are there). Throws when the provider is not a declared dependency or gave no service.
   */
  use<K extends ServiceId>(id: K): PluginServices[K];
  /** the service of an `optionalDependsOn` plugin, undefined when that plugin is not loaded */
  tryUse<K extends ServiceId>(id: K): PluginServices[K] | undefined;
  auth: {
    /** another way than a session to authenticate the Token header (this server only) */
    strategy(strategy: AuthStrategy): void;
  };
  /**
   * Another HTTP surface over the same calls (the REST API): `route` mounts a handler outside
   * /api (before the console); `invoke` runs a registered call through the dispatcher's guard,
   * permission code, input checks, handler and audit, with the body given; `readJson` reads a
   * body with the dispatcher's parser (BODY_LIMIT: 413/10011, malformed: 400/10012); `calls`
   * lists every registered call.
   */
  http: {
    route(prefix: string, handler: RequestHandler): void;
    invoke: CallInvoker;
    readJson(req: Request, res: Response): Promise<Record<string, unknown>>;
    calls(): readonly CallDef[];
  };
  /**
   * Adds a call to the one registry: same dispatcher, guard and envelope as generated calls.
   * Its permission code defaults to apiCode(path) and appears in the permission catalogue.
   * `input` declares the body's fields like metadata fields and `paging` its page and limit:
   * they are validated before the handler runs, which gets them typed as `input`
   * (docs/PLUGINS.md "Declared call inputs").
   */
  addCall<const D extends InputDecl = {}, const P extends PagingDecl | undefined = undefined>(def: DeclaredCallDef<D, P>): void;
  reports: {
    /**
     * Declares a report: parameters, columns, a row source. Adds its list and export calls
     * (permission codes from their paths), its console description and, with `schedule`, a
     * scheduler task type mailing the same workbook.
     */
    define<P = Record<string, any>, R = any>(def: ReportDef<P, R>): void;
    /** a scheduler task type that is not one report's mail */
    defineTask(task: TaskType): void;
    /** a task type contributed by any plugin (the scheduler runs them) */
    task(id: string): TaskType | undefined;
    taskTypes(): TaskType[];
    /** a report's workbook in memory, as its export writes it */
    workbook(name: string, body: Record<string, unknown>, ctx: RequestContext, opts?: { zone?: Zone }): Promise<ReportWorkbook>;
  };
  hooks: {
    before(action: HookAction, resource: string | '*', fn: HookFn): () => void;
    after(action: HookAction, resource: string | '*', fn: HookFn): () => void;
  };
  transitions: {
    /**
     * A side effect of a workflow step (metadata `transitions`, or `statusUpdate` for
     * `rules.statusUpdate`). Runs after the status change, in the same transaction, with a
     * transaction-bound scoped repository (`event.repo(resource)`): a throw rolls the status
     * change and everything written back. Live events and mails go in `event.afterCommit`.
     */
    on(resource: string, step: string, fn: TransitionFn): () => void;
  };
  /**
   * Runs fn in one transaction with the caller's scoped repositories bound to it, as a step's
   * hooks get them (`repo(resource)`): a throw rolls back everything fn wrote. For hand-written
   * calls that move several resources at once. A run the database rolls back to break a lock
   * cycle (MariaDB deadlock, lock wait time-out) is run again, so fn may run more than once:
   * effects outside the database go in `transaction.afterCommit`.
   */
  transaction<T>(ctx: RequestContext, fn: (repo: (resource: string) => BoundRepo, transaction: Transaction, run: RunStep) => Promise<T>): Promise<T>;
  documents: {
    /**
     * A domain rule over a document's lines (header resource with `children`): sees the lines a
     * write adds, changes and removes — all of them for `<prefix>/save`, one for single-line
     * calls — before they are written. Throw an ApiError to refuse.
     */
    onLines(resource: string, fn: LinesFn): () => void;
    /**
     * Scans keys or containers onto a document's lines, as `<line prefix>/scan` does (children
     * `scan`): for SPEC's own names of the same act (`batchcreatebycarrier`, …).
     */
    scan(lineResource: string, body: Record<string, unknown>, ctx: RequestContext): Promise<ScanResult>;
    /**
     * What a document's lines may still take (children `batch.candidates`), as
     * `<line prefix>/batch/candidates` answers it: for SPEC's own name of the same picker.
     */
    candidates(
      lineResource: string,
      q: { headerId: number; search?: string; narrow?: Record<string, unknown>; offset: number; limit: number },
      ctx: RequestContext,
    ): Promise<{ list: Array<Record<string, unknown>>; total: number }>;
  };
  /**
   * Public one-record links of resources declaring `publicLink`: the plugin gives what the page
   * shows (`reader`), the platform keeps tokens, throttle and calls; `tokenFor` for printed codes.
   */
  publicLinks: PublicLinkService;
  /**
   * Rows of the plugin's own tables that point at resource rows: deleting a row they still
   * use is refused, naming them (the metadata's own references need no declaration).
   */
  references: {
    declare(ref: DeclaredReference): () => void;
  };
  imports: {
    /**
     * Adds a domain check to a resource's import (or '*'). A function runs per row in the row's
     * transaction before it is written; returning a reason code of the resource's catalogue
     * refuses the row. A chunk handler `{ beforeCreateMany, afterCreateMany }` sees up to
     * 1,000 rows at once (one query per chunk instead of per row; reason code per row) and
     * lets the engine write the chunk with one insert — the fast path for large files.
     */
    validator(resource: string, fn: ImportValidator): () => void;
  };
  jobs: {
    /**
     * runs fn every intervalMs after start; returns a function that stops the job. With
     * `{ once: true }` one server instance of the cluster runs it per period (a lease row in
     * the database, claimed by a conditional UPDATE); without it every instance runs it.
     */
    every(name: string, intervalMs: number, fn: JobFn, opts?: JobOptions): () => void;
  };
  rollups: {
    /**
     * Sums of a history resource's rows per keys, kept ahead of the read per day and month of the
     * organisation in a store resource of the plugin (reports/rollups.ts): a year read in
     * month rows instead of history rows.
     */
    define(def: RollupDef): Rollup;
  };
  /** the scoped repository of a resource for a caller (the only path to resource rows) */
  repo(resource: string, ctx: RequestContext): ScopedRepository;
  /** a context acting inside one organisation without a user (jobs, ingest) */
  systemContext(orgId: number, language?: Language): RequestContext;
  /**
   * The organisation's time zone (its `timeZone`, else the server's TIME_ZONE): a job or report
   * cutting days ("yesterday", a snapshot's day, a month's statement) cuts them here.
   */
  zoneOf(orgId: number | null): Promise<string>;
  /**
   * The organisations that have rows of a resource matching `where` — the one platform-wide
   * read a job needs to know where to act; it answers ids only, and the rows are then read
   * per organisation through `repo(resource, systemContext(orgId))`.
   */
  organisationsWith(resource: string, where?: WhereOptions): Promise<number[]>;
  t: TFunction;
  /**
   * The Sequelize instance, for the plugin's own tables and migrations only, and only for a
   * plugin declaring `ownTables` (without it, reading `db` throws, naming the plugin): resource
   * rows and aggregates over them (counts, sums, grouped counts, computed columns) go through
   * repo(), which applies the caller's scope and owns the dialects (its SQL fragments: quoted,
   * epochDays, daysSince, timeRange, caseOf, aggregateWhen, calendarKey; docs/PLUGINS.md "Scope").
   */
  db: Sequelize;
  /** the server's database (own tables only, as `db`; only with `ownTables`) */
  database: Database;
  /**
   * Triggers and indexes a plugin declares over core tables (a maintained count), installed and
   * replaced by the platform; table and column names for their DDL (plugins/schema.ts).
   */
  schema: PluginSchema;
  /** registers a hand-written migration for the plugin's own tables (run before start) */
  addMigration(m: Migration): void;
  /** runs once after migrations, before the server listens */
  onReady(fn: () => Promise<void> | void): void;
  /** runs when the server closes, after it stops answering and before the database closes */
  onClose(fn: () => Promise<void> | void): void;
  metadata: Metadata;
  config: ServerConfig;
  /** where files are stored for every instance to read (the data folder or S3; keys from objectKey) */
  storage: ObjectStorage;
  /** console pages drawn to PNG (headless chromium, a render session of the given user; render/console-png.ts) */
  render: ConsoleRenderer;
  log(message: string, err?: unknown): void;
}

export interface PluginDefinition {
  /** equals the plugin's folder name */
  id: string;
  /** plugins that must be loaded (they start first); a missing one stops the start */
  dependsOn?: readonly string[];
  /** plugins started first when present; their services through ctx.tryUse */
  optionalDependsOn?: readonly string[];
  /** service ids this plugin publishes with ctx.provide (see PluginServices) */
  provides?: readonly ServiceId[];
  /** off in every organisation until an administrator switches it on (a customer's report; docs/ACCESS.md) */
  perOrganisation?: boolean;
  /**
   * Why the plugin needs the raw database handle (ctx.db, ctx.database): tables of its own
   * (runs, tokens, queues, states) or a platform-wide figure by design. Without it the handle
   * is absent and reading it throws; every other plugin reads through ctx.repo() and ctx.schema.
   */
  ownTables?: string;
  server?(ctx: PluginServerContext): Promise<void> | void;
}

export function definePlugin<T extends PluginDefinition>(def: T): T {
  return def;
}
