/**
 * One import, in the background: the sheet is read with exceljs' streaming reader (memory
 * stays flat whatever the row count), rows are checked in chunks (ref labels and existing
 * keys looked up once per chunk), then written in one transaction per chunk with a savepoint
 * per row — a row is saved whole through the scoped repository (validation, hooks, tenancy)
 * or rolled back alone and reported with its SPEC §8 reason.
 *
 * Fast paths: when the engine's own checks already cover what the repository would check
 * (no per-row import validators, no secrets, no warehouse restriction, a unique key), a chunk
 * is written without per-row savepoints and redundant lookups — with one multi-row insert
 * when no before-create hook exists for the resource or a plugin's chunk handler judges the
 * chunk's rows together (validators.ts), else row after row (so a hook sees the rows before
 * it). Per-row hooks run as in the repository, chunk handlers once per chunk; the inserted
 * rows' ids come from the insert itself (no read-back, no Model instances: insert.ts). Rows a chunk handler refuses are
 * reported with its code; any other failure rolls the whole chunk back and it is redone row
 * by row with savepoints, so the saved-whole-or-reported rule holds.
 *
 * Each part (consecutive rows: the refused ones and up to a part's size of good ones) saves its
 * accounting — the job's counts, its refused rows, the cursor at its last row — in the
 * transaction that writes its rows, under the run's claim on the job. A run resumed after the
 * cursor (another instance's, or this one's after a restart) re-reads the rows before it only
 * for the file's keys, so no row is written twice and none is judged differently.
 */
import ExcelJS from 'exceljs';
import type { FieldDef, ImportProblem, Metadata, ResourceDef } from '@rti/metadata';
import { Op, type Model, type ModelStatic, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../db';
import { orgFieldOf } from '../db/naming';
import { ApiError } from '../http/api-error';
import type { Language, RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { msg } from '../files/messages';
import type { HookRegistry } from '../resources/hooks';
import type { ScopedRepository } from '../resources/repository';
import { plainRow, type Row } from '../resources/serialize';
import { scopeWhere } from '../resources/scope';
import { checkCompareRules, isSecret, validateValue, validateWrite } from '../resources/validate';
import { importPlan } from './columns';
import { insertRows } from './insert';
import { mustFill } from './template';
import { cellText, fieldReader, headerMatcher, readCell, type CellValue, type FieldReader } from './cells';
import { openWorkbook, WORKBOOK_LIMITS } from './workbook';
import { IMPORT_FINISHED, MAX_STORED_ERRORS, type StoredCell, type StoredImportError, type StoredMessage } from './import-jobs';
import { problemOf, reasonFor, RowProblem } from './reasons';
import type { ImportValidators } from './validators';

export const CHUNK_ROWS = 1000;
/** Rows per write transaction when create hooks run per row. */
const HOOKED_BATCH = 50;
const PROBLEM_ORDER: ImportProblem[] = ['required', 'invalid', 'notFound', 'duplicate', 'exists'];
export interface RunnerDeps {
  db: Database;
  metadata: Metadata;
  t: TFunction;
  repo(resource: string, ctx: RequestContext): ScopedRepository;
  validators: ImportValidators;
  hooks: HookRegistry;
  jobs: ModelStatic<Model>;
  /** the refused rows of running jobs (import_job_error), saved with their part */
  errors?: ModelStatic<Model>;
  log(message: string, err?: unknown): void;
  /** true once the server is shutting down: the run stops after the part it is writing (ImportStopped) */
  shouldStop?(): boolean;
  /** the organisation's IANA time zone (wall-clock cells are read in it); UTC when absent */
  timeZone?(orgId: number | null): Promise<string> | string;
}

export interface ImportTask {
  jobId: number;
  resource: ResourceDef;
  ctx: RequestContext;
  path: string;
  /** read and check every row (lookups included) without writing or keeping job status */
  dryRun?: boolean;
  /** this run's claim on the job: every write of the job checks it */
  claim?: string | null;
  /** a job resumed after an earlier run's last saved part */
  resume?: ImportResume;
  /** what the uploader chose in the mapping step (kept with the job for a resume) */
  options?: ImportOptions;
}

/** The mapping step's choices (docs/SERVER.md "Imports: CSV and column mapping"). */
export interface ImportOptions {
  /** file column header → field: replaces matching headers to field names and labels */
  mapping?: Record<string, string>;
  /** a row whose key (the import's one key field) exists updates that row instead of being refused */
  updateExisting?: boolean;
}

/** Where an earlier run of the job stopped: its cursor, counts and saved refused rows. */
export interface ImportResume {
  /** the last sheet row whose outcome is saved; the run goes on after it */
  cursor: number;
  counts: ImportCounts;
  errors: StoredImportError[];
}

export interface ImportCounts {
  processed: number;
  success: number;
  failed: number;
}

/** A whole-file failure: its text in the upload's language, and what it says (rendered on read). */
class FileProblem extends Error {
  constructor(
    lang: Language,
    readonly text: StoredMessage,
  ) {
    super(msg(lang, text.key.replace(/^server\.files\./, '') as Parameters<typeof msg>[1], text.params ?? {}));
  }
}
const fileProblem = (lang: Language, key: string, params?: Record<string, unknown>) =>
  new FileProblem(lang, { key: `server.files.${key}`, ...(params ? { params } : {}) });

interface SheetRow {
  row: number;
  cells: Record<string, CellValue>;
  /** API values (refs resolved to ids once looked up) */
  values: Record<string, unknown>;
  problems: Array<{ index: number; p: RowProblem }>;
  /** updateExisting: the id of the row of the organisation holding this row's key */
  existingId?: number;
}

/** How a transaction ended ('commit' / 'rollback'), waiting while it still runs; null = never began. */
async function settled(t: Transaction | null): Promise<string | null> {
  if (!t) return null;
  const state = () => (t as unknown as { finished?: string }).finished;
  for (let waited = 0; !state() && waited < 600_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  return state() ?? null;
}

/**
 * One import's shared state: the plan of the resource's import, the caller, the counts so far,
 * and the ref labels looked up for the current chunk (written rows are answered from them).
 * The phases below (progress, row checks, chunk writers, sheet reading) each take it.
 */
interface ImportRun {
  deps: RunnerDeps;
  task: ImportTask;
  res: ResourceDef;
  ctx: RequestContext;
  lang: Language;
  plan: ReturnType<typeof importPlan>;
  fields: FieldDef[];
  /** the key's one field, or null for a key of several fields */
  singleKey: string | null;
  /** A problem of a lookup's target row counts at its last column; of a composite key, at its first. */
  columnIndex: Map<string, number>;
  repo: ScopedRepository;
  orgField: string | null | undefined;
  counts: ImportCounts;
  /** field → cell reader, built once the workbook says which date system it uses */
  readers: Map<string, FieldReader>;
  /** id → label per ref column, as looked up for the current chunk (labels of written rows). */
  labelCache: Map<string, Map<number, unknown>>;
}

function startRun(deps: RunnerDeps, task: ImportTask): ImportRun {
  const { resource: res, ctx } = task;
  const def = res.import!;
  const plan = importPlan(res, deps.metadata);
  const columnIndex = new Map<string, number>(def.columns.map((c, i) => [c, i]));
  for (const l of plan.lookups) columnIndex.set(l.field, Math.max(...Object.keys(l.by).map((c) => columnIndex.get(c) ?? -1)));
  return {
    deps,
    task,
    res,
    ctx,
    lang: ctx.language,
    plan,
    fields: plan.fields,
    singleKey: plan.key.length === 1 ? plan.key[0] : null,
    columnIndex,
    repo: deps.repo(res.name, ctx),
    orgField: orgFieldOf(res),
    counts: { ...(task.resume?.counts ?? { processed: 0, success: 0, failed: 0 }) },
    readers: new Map(),
    labelCache: new Map(),
  };
}

/** Thrown when the server stops: the run ends after the last part it saved, and the job stays for a resume. */
export class ImportStopped extends Error {
  constructor() {
    super('import stopped with the server');
  }
}

/** Thrown when another instance took the job over (this one was taken for dead): nothing of the part is kept. */
export class ImportTakenOver extends Error {
  constructor(jobId: number) {
    super(`import job ${jobId} was taken over by another instance`);
  }
}

/**
 * Consecutive rows of a chunk handled together: the refused ones reported and the ready ones
 * written in one transaction, which also saves the counts, the refused rows and the cursor
 * (the part's last sheet row). A resume starts after the cursor: every row up to it is saved
 * or reported, none after it.
 */
interface Part {
  ready: SheetRow[];
  refused: Array<{ r: SheetRow; p: RowProblem }>;
  rows: number;
  lastRow: number;
  /** its ready rows update the rows their keys found (updateExisting) */
  update?: boolean;
}

/** What a part adds to the job, saved in the part's transaction and kept once it commits. */
interface Staged {
  processed: number;
  success: number;
  failed: number;
  errors: StoredImportError[];
  cursor: number;
}

/**
 * Refused rows with their reasons, and the job's counts, refused rows and cursor saved with
 * each part in the part's own transaction, under the run's claim on the job: a run whose job
 * was taken over by another instance fails its write (ImportTakenOver) and keeps nothing.
 */
function progressOf(run: ImportRun) {
  const { deps, task, res, plan, fields, lang, counts } = run;
  /** refused rows saved so far (a resumed run starts with the ones saved before) */
  const errors: StoredImportError[] = [...(task.resume?.errors ?? [])];

  /** The offending value of a column as the file held it; a lookup's by its columns together. */
  const valueOf =
    (r: SheetRow) =>
    (column: string): string | null => {
      if (column in r.cells) return cellText(r.cells[column]);
      const l = plan.lookups.find((x) => x.field === column);
      const parts = l
        ? Object.keys(l.by)
            .map((c) => cellText(r.cells[c] ?? null))
            .filter((v): v is string => v !== null)
        : [];
      return parts.length ? parts.join(' / ') : null;
    };

  const errorOf = (r: SheetRow, p: RowProblem): StoredImportError => {
    const e = reasonFor(deps.metadata, res, p, r.row, lang, deps.t, fields, valueOf(r));
    // the row as read, for the result workbook (fix and import it again)
    e.cells = Object.fromEntries(fields.map((f) => [f.name, storedCell(r.cells[f.name] ?? null)]));
    return e;
  };

  /** The part's counts and refused rows: its checks' refusals, then its writes' (`outcome`, by ready row). */
  const stage = (part: Part, outcome: Array<RowProblem | null>): Staged => {
    // in file order: the checks' refusals and the writes' are found apart, the user reads them by row
    const refused = [...part.refused, ...part.ready.flatMap((r, i) => (outcome[i] ? [{ r, p: outcome[i]! }] : []))].sort((a, b) => a.r.row - b.r.row);
    const room = Math.max(0, MAX_STORED_ERRORS - errors.length);
    return {
      processed: part.rows,
      failed: refused.length,
      success: part.ready.length - (refused.length - part.refused.length),
      errors: refused.slice(0, room).map(({ r, p }) => errorOf(r, p)),
      cursor: part.lastRow,
    };
  };

  const claimed = () => ({ id: task.jobId, claim: task.claim ?? null });

  /** Saves a staged part in `transaction` (the one that wrote its rows). */
  const save = async (staged: Staged, transaction: Transaction) => {
    if (task.dryRun) return;
    const patch = {
      processedVolume: counts.processed + staged.processed,
      successVolume: counts.success + staged.success,
      failedVolume: counts.failed + staged.failed,
      cursorRow: staged.cursor,
    };
    const [n] = await deps.jobs.update(patch, { where: claimed(), transaction });
    if (n !== 1) throw new ImportTakenOver(task.jobId);
    if (staged.errors.length && deps.errors)
      await deps.errors.bulkCreate(
        staged.errors.map((e) => ({ jobId: task.jobId, error: JSON.stringify(e) })),
        { transaction },
      );
  };

  /** The part committed: its counts and refused rows are the run's. */
  const keep = (staged: Staged) => {
    counts.processed += staged.processed;
    counts.success += staged.success;
    counts.failed += staged.failed;
    errors.push(...staged.errors);
  };

  /** The job finished: counts, every refused row (gathered into the job) and the message, under the run's claim. */
  const finish = async (message: FileProblem | null) => {
    if (task.dryRun) return;
    const patch = {
      processedVolume: counts.processed,
      successVolume: counts.success,
      failedVolume: counts.failed,
      status: IMPORT_FINISHED,
      message: message?.message ?? null,
      messageText: message ? JSON.stringify(message.text) : null,
      importErrors: JSON.stringify(errors),
    };
    // In a managed transaction: queued behind other writers rather than busy-waiting (SQLite).
    await deps.db.sequelize.transaction(async (transaction) => {
      const [n] = await deps.jobs.update(patch, { where: claimed(), transaction });
      if (n !== 1) throw new ImportTakenOver(task.jobId);
      await deps.errors?.destroy({ where: { jobId: task.jobId }, transaction });
    });
  };

  return { stage, save, keep, finish };
}

/** Records a problem of a row at its column's place (the first problem by column is reported). */
function addRowProblem(run: ImportRun, r: SheetRow, column: string | null, problem: ImportProblem | null, cause?: ApiError) {
  const index = column === null ? run.fields.length : (run.columnIndex.get(column) ?? -1);
  r.problems.push({ index: index < 0 ? run.fields.length : index, p: new RowProblem(column, problem, cause) });
}

/** The checks of a chunk's rows before anything is written: cells, refs, lookups, unique and composite keys, rules. */
function rowChecks(run: ImportRun) {
  const { deps, res, ctx, plan, fields, singleKey, columnIndex, orgField, labelCache } = run;
  const addProblem = (r: SheetRow, column: string | null, problem: ImportProblem | null, cause?: ApiError) => addRowProblem(run, r, column, problem, cause);
  const uniqueFields = fields.filter((f) => !plan.lookupColumns.has(f.name) && (f.unique || f.name === singleKey));
  const seen = new Map<string, Set<string>>(uniqueFields.map((f) => [f.name, new Set()]));

  /** Cells → typed API values; required, type, enum, format, length and range problems. */
  const parse = (r: SheetRow) => {
    for (const f of fields) {
      const cell = r.cells[f.name] ?? null;
      if (cell === null) {
        if (mustFill(res, f)) addProblem(r, f.name, 'required');
        continue;
      }
      const v = run.readers.get(f.name)!.read(cell);
      if (v === undefined) {
        addProblem(r, f.name, 'invalid');
        continue;
      }
      if (f.type === 'ref' || f.type === 'refs') {
        r.values[f.name] = v;
        continue;
      }
      try {
        validateValue(f, v, deps.metadata.enums);
        r.values[f.name] = v;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        addProblem(r, f.name, 'invalid', err);
      }
    }
  };

  /** Ref labels → ids, one query per ref column and chunk, in the caller's scope of the target. */
  const resolveRefs = async (rows: SheetRow[]) => {
    for (const f of fields) {
      if ((f.type !== 'ref' && f.type !== 'refs') || !f.ref) continue;
      const target = deps.metadata.resources[f.ref.resource];
      if (!target) continue;
      const labelsOf = (v: unknown): string[] =>
        f.type === 'refs'
          ? String(v)
              .split(/[,，、;]/)
              .map((s) => s.trim())
              .filter(Boolean)
          : [String(v)];
      const wanted = new Set<string>();
      for (const r of rows) if (r.values[f.name] !== undefined) for (const l of labelsOf(r.values[f.name])) wanted.add(l);
      if (!wanted.size) continue;
      const ids = new Map<string, number>();
      const filter = (f.ref.filter ?? {}) as WhereOptions;
      const found = await deps.db.models[target.name].findAll({
        attributes: ['id', f.ref.label],
        where: { [Op.and]: [scopeWhere(target, ctx), filter, { [f.ref.label]: { [Op.in]: [...wanted] } }] },
        raw: true,
      });
      const known = labelCache.get(f.name) ?? new Map<number, unknown>();
      labelCache.set(f.name, known);
      for (const row of found as unknown as Array<Record<string, unknown>>) {
        const label = String(row[f.ref.label]);
        if (!ids.has(label)) ids.set(label, Number(row.id));
        known.set(Number(row.id), row[f.ref.label]);
      }
      for (const r of rows) {
        if (r.values[f.name] === undefined) continue;
        const resolved = labelsOf(r.values[f.name]).map((l) => ids.get(l));
        if (resolved.some((x) => x === undefined)) {
          delete r.values[f.name];
          addProblem(r, f.name, 'notFound');
        } else r.values[f.name] = f.type === 'refs' ? resolved : resolved[0];
      }
    }
  };

  /**
   * The key and unique columns: repeated earlier in the file, or already in the system.
   * `replay`: rows a resumed job already handled, read again only to know the file's keys so far.
   */
  const updating = Boolean(run.task.options?.updateExisting && singleKey !== null);
  // the key first: a row it finds is an update, and the row's own other unique values are no clash
  const uniqueOrder = updating ? [...uniqueFields].sort((a, b) => Number(b.name === singleKey) - Number(a.name === singleKey)) : uniqueFields;
  const checkUnique = async (rows: SheetRow[], replay = false) => {
    for (const f of uniqueOrder) {
      const inFile = seen.get(f.name)!;
      const fresh: string[] = [];
      for (const r of rows) {
        const v = r.values[f.name];
        if (v === undefined || v === null) continue;
        const k = String(v);
        if (inFile.has(k)) addProblem(r, f.name, 'duplicate');
        else {
          inFile.add(k);
          fresh.push(k);
        }
      }
      if (!fresh.length || replay) continue;
      const and: WhereOptions[] = [{ [f.name]: { [Op.in]: fresh } }];
      // Uniqueness is per organisation (or platform-wide): the caller's warehouses do not narrow it.
      if (f.unique !== 'global' && orgField && orgField !== 'id') and.push({ [orgField]: ctx.orgId });
      if (updating) {
        const own = orgField && orgField !== 'id' ? orgField : null;
        const existing = (await deps.db.models[res.name].findAll({
          attributes: ['id', f.name, ...(own ? [own] : [])],
          where: { [Op.and]: and },
          raw: true,
        })) as unknown as Array<Record<string, unknown>>;
        const holder = new Map(existing.map((x) => [String(x[f.name]), x]));
        for (const r of rows) {
          const v = r.values[f.name];
          if (v === undefined || v === null || r.problems.some((x) => x.p.column === f.name)) continue;
          const h = holder.get(String(v));
          if (!h) continue;
          // another organisation's row (a platform-wide key) is never updated: it exists
          const mine = !own || Number(h[own]) === ctx.orgId;
          if (f.name === singleKey && mine) r.existingId = Number(h.id);
          else if (Number(h.id) !== r.existingId) addProblem(r, f.name, 'exists');
        }
        continue;
      }
      const existing = await deps.db.models[res.name].findAll({ attributes: [f.name], where: { [Op.and]: and }, raw: true });
      const taken = new Set((existing as unknown as Array<Record<string, unknown>>).map((x) => String(x[f.name])));
      for (const r of rows)
        if (r.values[f.name] !== undefined && taken.has(String(r.values[f.name])) && !r.problems.some((x) => x.p.column === f.name))
          addProblem(r, f.name, 'exists');
    }
  };

  /** Lookup columns (resolved like fields) → the id of the one target row they pick. */
  const resolveLookups = async (rows: SheetRow[]) => {
    for (const l of plan.lookups) {
      const target = deps.metadata.resources[l.target];
      const columns = Object.keys(l.by);
      const complete = rows.filter((r) => columns.every((c) => r.values[c] !== undefined && r.values[c] !== null));
      const comboOf = (get: (c: string) => unknown) => JSON.stringify(columns.map((c) => String(get(c))));
      const found = new Map<string, number>();
      if (complete.length) {
        const and: WhereOptions[] = columns.map((c) => ({ [l.by[c]]: { [Op.in]: [...new Set(complete.map((r) => r.values[c]))] } }));
        const candidates = await deps.db.models[target.name].findAll({
          attributes: ['id', ...columns.map((c) => l.by[c])],
          where: { [Op.and]: [scopeWhere(target, ctx), ...and] },
          order: [['id', 'ASC']],
          raw: true,
        });
        for (const t of candidates as unknown as Array<Record<string, unknown>>) {
          const combo = comboOf((c) => t[l.by[c]]);
          if (!found.has(combo)) found.set(combo, Number(t.id));
        }
      }
      for (const r of complete) {
        const id = found.get(comboOf((c) => r.values[c]));
        if (id === undefined) addProblem(r, l.field, 'notFound');
        else r.values[l.field] = id;
      }
    }
    // Lookup columns only pick rows: they are not written.
    for (const r of rows) for (const c of plan.lookupColumns) delete r.values[c];
  };

  /** A key of several fields: the combination repeated earlier in the file, or already in the system. */
  const compositeSeen = new Set<string>();
  const checkCompositeKey = async (rows: SheetRow[], replay = false) => {
    if (singleKey !== null) return;
    const at = plan.key.find((k) => columnIndex.has(k)) ?? plan.key[0];
    const comboOf = (get: (k: string) => unknown) => JSON.stringify(plan.key.map((k) => String(get(k))));
    const fresh: SheetRow[] = [];
    for (const r of rows) {
      if (plan.key.some((k) => r.values[k] === undefined || r.values[k] === null)) continue;
      const combo = comboOf((k) => r.values[k]);
      if (compositeSeen.has(combo)) addProblem(r, at, 'duplicate');
      else {
        compositeSeen.add(combo);
        fresh.push(r);
      }
    }
    if (!fresh.length || replay) return;
    const and: WhereOptions[] = plan.key.map((k) => ({ [k]: { [Op.in]: [...new Set(fresh.map((r) => r.values[k]))] } }));
    if (orgField && orgField !== 'id') and.push({ [orgField]: ctx.orgId });
    const existing = await deps.db.models[res.name].findAll({ attributes: plan.key, where: { [Op.and]: and }, raw: true });
    const taken = new Set((existing as unknown as Array<Record<string, unknown>>).map((x) => comboOf((k) => x[k])));
    for (const r of fresh) if (taken.has(comboOf((k) => r.values[k]))) addProblem(r, at, 'exists');
  };

  const checkRules = (r: SheetRow) => {
    try {
      checkCompareRules(res, r.values);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const p = problemOf(res, err);
      addProblem(r, p.column, p.problem, err);
    }
  };

  const firstProblem = (r: SheetRow): RowProblem | null => {
    if (!r.problems.length) return null;
    return [...r.problems].sort(
      (a, b) => a.index - b.index || PROBLEM_ORDER.indexOf(a.p.problem ?? 'invalid') - PROBLEM_ORDER.indexOf(b.p.problem ?? 'invalid'),
    )[0].p;
  };

  return { parse, resolveRefs, resolveLookups, checkUnique, checkCompositeKey, checkRules, firstProblem };
}

/** The rows of a written chunk in the API shape (for after-create hooks). */
function rowShapes(run: ImportRun) {
  const { res, repo, labelCache } = run;
  const refFields = res.fields.filter((f) => f.type === 'ref' || f.type === 'refs');
  /** The row in the API shape when the chunk's lookups hold all its labels, else null. */
  const rowFromCache = (instance: Model | Row): Row | null => {
    const row = plainRow(res, instance);
    for (const f of refFields) {
      const ids = row[f.name] === null || row[f.name] === undefined ? [] : Array.isArray(row[f.name]) ? (row[f.name] as number[]) : [row[f.name] as number];
      const known = labelCache.get(f.name);
      if (ids.some((id) => !known?.has(id))) return null;
      if (f.type === 'ref') row[`${f.name}Label`] = ids.length ? known!.get(ids[0]) : null;
      else row[`${f.name}Labels`] = ids.map((id) => known!.get(id));
    }
    return row;
  };
  /** The row in the API shape; labels from the chunk's lookups when they cover it. */
  const rowOf = async (instance: Model | Row, transaction: Transaction): Promise<Row> =>
    rowFromCache(instance) ?? (await repo.serialize([instance], transaction))[0];

  return { rowFromCache, rowOf };
}

/**
 * Saves a part's outcome (counts, refused rows, cursor) inside the transaction that wrote its rows;
 * `outcome` holds a problem per ready row (null = written).
 */
type SavePart = (transaction: Transaction, outcome: Array<RowProblem | null>) => Promise<void>;

/**
 * Writing a part's checked rows: the fast path (one transaction, bulk insert) or row by row with
 * savepoints; each saves the part's outcome in the transaction that wrote it.
 */
function chunkWriters(run: ImportRun) {
  const { deps, task, res, ctx, singleKey, repo, orgField } = run;
  const def = res.import!;
  const { rowFromCache, rowOf } = rowShapes(run);
  const writeRow = async (r: SheetRow, transaction: Transaction): Promise<RowProblem | null> => {
    const code = await deps.validators.check({ resource: res, ctx, transaction, row: r.row, values: r.values, repo });
    if (code !== null) return new RowProblem(null, null, undefined, code);
    try {
      await repo.create(r.values, { transaction });
      return null;
    } catch (err) {
      if (err instanceof ApiError) return problemOf(res, err);
      if (err instanceof RowProblem) return err;
      throw err;
    }
  };

  const keyField = singleKey === null ? undefined : res.fields.find((f) => f.name === singleKey);
  const fastPath =
    !deps.validators.has(res.name) &&
    // The engine has checked the key: unique field(s), or a combination checked above.
    (Boolean(keyField?.unique) || singleKey === null) &&
    !res.fields.some((f) => isSecret(f) && def.columns.includes(f.name)) &&
    (ctx.warehouseIds === null || !res.warehouseField);

  const chunkHandlers = deps.validators.chunkHandlers(res.name);
  const hasBefore = deps.hooks.has('before', 'create', res.name);
  const hasAfter = deps.hooks.has('after', 'create', res.name) || deps.hooks.has('after', 'create', '*') || chunkHandlers.some((h) => h.afterCreateMany);
  /**
   * One multi-row insert per part when no per-row before hook needs the rows before it
   * written one by one: none exists, or the resource has a chunk handler, which judges the
   * rows of the part against each other (and the per-row before hooks count rows pending in
   * the same transaction, as the licence limit does).
   */
  const bulkInsert = !hasBefore || chunkHandlers.some((h) => h.beforeCreateMany);

  /**
   * The part in one transaction with the engine's checks and the hooks; the rows a chunk
   * handler refuses come back with their reason. null when anything else refuses: nothing of
   * the part is kept then, and it is redone row by row.
   */
  const writeChunkFast = async (ready: SheetRow[], savePart: SavePart): Promise<Array<RowProblem | null> | null> => {
    const model = deps.db.models[res.name];
    const skip = new Set(orgField ? [orgField] : []);
    const userId = ctx.user?.id || null;
    const outcome: Array<RowProblem | null> = ready.map(() => null);
    let chunkTransaction: Transaction | null = null;
    try {
      await deps.db.sequelize.transaction(async (transaction) => {
        chunkTransaction = transaction;
        await writeRows(transaction);
        await savePart(transaction, outcome);
      });
      return outcome;
    } catch (err) {
      if (err instanceof ImportTakenOver) throw err;
      // The call can fail while the transaction itself goes on (a queue time-out) or after its
      // COMMIT (releasing the connection): what counts is how the transaction ended.
      if ((await settled(chunkTransaction)) === 'commit') {
        deps.log(`[import] ${res.name} job ${task.jobId}: error after commit`, err);
        return outcome;
      }
      return null;
    }

    async function writeRows(transaction: Transaction): Promise<void> {
      let rows = ready.map((r, i) => {
        const values = validateWrite(res, deps.metadata.enums, r.values, { mode: 'create', skip });
        checkCompareRules(res, values);
        if (orgField && orgField !== 'id') values[orgField] = ctx.orgId;
        values.createdBy = userId;
        values.updatedBy = userId;
        return { i, row: r.row, values };
      });
      for (const h of chunkHandlers) {
        if (!h.beforeCreateMany) continue;
        const codes = (await h.beforeCreateMany({ resource: res, ctx, transaction, rows })) ?? [];
        rows = rows.filter((r, k) => {
          const code = codes[k];
          if (typeof code === 'number') outcome[r.i] = new RowProblem(null, null, undefined, code);
          else if (code && typeof code === 'object') outcome[r.i] = new RowProblem(code.column, null, undefined, code.code);
          else return true;
          return false;
        });
      }
      if (!rows.length) return;
      const after = async (written: Row[], of: typeof rows) => {
        for (const row of written) await deps.hooks.run('after', { action: 'create', resource: res, ctx, transaction, row });
        const event = { resource: res, ctx, transaction, rows: of.map((r, k) => ({ row: r.row, values: written[k] })) };
        for (const h of chunkHandlers) await h.afterCreateMany?.(event);
      };
      if (!bulkInsert) {
        // A before hook may judge a row by the rows already written (a device bound twice).
        for (const r of rows) {
          await deps.hooks.run('before', { action: 'create', resource: res, ctx, transaction, data: r.values });
          const created = await model.create(r.values, { transaction });
          await after([await rowOf(created, transaction)], [r]);
        }
        return;
      }
      for (const { values } of rows) await deps.hooks.run('before', { action: 'create', resource: res, ctx, transaction, data: values });
      const inserted = await insertRows(
        model,
        rows.map((r) => r.values),
        transaction,
      );
      if (!hasAfter) return;
      let created: Array<Model | Row> | null = inserted;
      if (!created) {
        // No ids from the insert: the rows are read back by key.
        if (!keyField) throw new Error('rows not read back');
        const keys = rows.map((r) => r.values[keyField.name]);
        const where: WhereOptions[] = [{ [keyField.name]: { [Op.in]: keys } }];
        if (keyField.unique !== 'global' && orgField && orgField !== 'id') where.push({ [orgField]: ctx.orgId });
        const found = await model.findAll({ where: { [Op.and]: where }, transaction });
        if (found.length !== rows.length) throw new Error('rows not read back');
        const byKey = new Map(found.map((m) => [String(m.get(keyField.name)), m]));
        created = keys.map((k) => byKey.get(String(k))!);
      }
      // Rows whose labels the chunk's lookups lack (a ref a hook filled) are serialised together.
      const written: Row[] = [];
      const missing: number[] = [];
      for (let k = 0; k < created.length; k++) {
        const row = rowFromCache(created[k]);
        if (!row) missing.push(k);
        written.push(row as Row);
      }
      if (missing.length)
        (
          await repo.serialize(
            missing.map((k) => created![k]),
            transaction,
          )
        ).forEach((row, j) => (written[missing[j]] = row));
      await after(written, rows);
    }
  };

  /** Each row in its own savepoint: a refused row is rolled back alone and reported. */
  const writeRowByRow = async (ready: SheetRow[], savePart: SavePart): Promise<void> => {
    const outcome: Array<RowProblem | null> = [];
    let chunkTransaction: Transaction | null = null;
    try {
      await deps.db.sequelize.transaction(async (transaction) => {
        chunkTransaction = transaction;
        outcome.length = 0;
        for (const r of ready) outcome.push(await writeRow(r, transaction));
        await savePart(transaction, outcome);
      });
    } catch (err) {
      if (err instanceof ImportTakenOver) throw err;
      if ((await settled(chunkTransaction)) === 'commit') deps.log(`[import] ${res.name} job ${task.jobId}: error after commit`, err);
      else {
        // The transaction itself failed: none of its rows were kept; they are reported in a transaction of their own.
        deps.log(`[import] ${res.name} job ${task.jobId}: rows rolled back`, err);
        const failure = new ApiError(10000, 'server.files.rowFailed', { message: (err as Error).message ?? String(err) });
        const failed = ready.map(() => new RowProblem(null, null, failure));
        await deps.db.sequelize.transaction((transaction) => savePart(transaction, failed));
      }
    }
  };

  /**
   * updateExisting: each row updates the row its key found, through the repository (scope,
   * validation, hooks, operation log), in its own savepoint: a refused row is rolled back alone.
   */
  const writeUpdates = async (ready: SheetRow[], savePart: SavePart): Promise<void> => {
    const outcome: Array<RowProblem | null> = [];
    await deps.db.sequelize.transaction(async (transaction) => {
      outcome.length = 0;
      for (const r of ready) {
        try {
          await repo.update({ ...r.values, id: r.existingId }, { transaction });
          outcome.push(null);
        } catch (err) {
          if (err instanceof ApiError) outcome.push(problemOf(res, err));
          else if (err instanceof RowProblem) outcome.push(err);
          else throw err;
        }
      }
      await savePart(transaction, outcome);
    });
  };

  // Rows written by hooks one after another hold the (SQLite) write lock longer: smaller
  // transactions let other writers in between.
  const size = bulkInsert && (chunkHandlers.length || !deps.hooks.has('after', 'create', res.name)) ? CHUNK_ROWS : HOOKED_BATCH;
  return { fastPath, size, writeChunkFast, writeRowByRow, writeUpdates };
}

/**
 * Reads the first sheet with the streaming reader: the header row names the columns, then the
 * rows go to `onChunk` CHUNK_ROWS at a time. Throws a FileProblem for a file it cannot take
 * (no header, too many rows or columns).
 */
async function readSheet(run: ImportRun, zone: string, onChunk: (rows: SheetRow[]) => Promise<void>): Promise<void> {
  const { deps, task, fields, lang } = run;
  const limits = WORKBOOK_LIMITS;
  let source: Awaited<ReturnType<typeof openWorkbook>> | null = null;
  try {
    const mapping = task.options?.mapping;
    const match = mapping ? (header: CellValue) => (header === null ? null : (mapping[cellText(header) ?? ''] ?? null)) : headerMatcher(fields, deps.t);
    let columnAt: Array<string | null> | null = null;
    let chunk: SheetRow[] = [];
    let rowsRead = 0;
    const tooLarge = () => fileProblem(lang, 'xlsxRows', { rows: limits.maxRows, columns: limits.maxColumns });
    // Only the parts read, in reading order (workbook.ts): styles first, so date formats are known.
    source = await openWorkbook(task.path, limits);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      const date1904 = Boolean((reader as unknown as { properties?: { model?: { date1904?: boolean } } }).properties?.model?.date1904);
      run.readers = new Map(fields.map((f) => [f.name, fieldReader(f, deps.metadata.enums, deps.t, { zone, date1904 })]));
      for await (const row of sheet) {
        const cells: CellValue[] = [];
        let filled = false;
        row.eachCell((cell, col) => {
          if (col > limits.maxColumns) throw tooLarge();
          const v = readCell(cell, date1904);
          cells[col] = v;
          if (v !== null) filled = true;
        });
        if (!filled) continue;
        if (!columnAt) {
          columnAt = Array.from(cells, (c) => match(c ?? null));
          if (!columnAt.some(Boolean)) throw fileProblem(lang, 'noHeader');
          continue;
        }
        if (++rowsRead > limits.maxRows) throw tooLarge();
        const r: SheetRow = { row: row.number, cells: {}, values: {}, problems: [] };
        columnAt.forEach((name, i) => {
          if (name) r.cells[name] = cells[i] ?? null;
        });
        chunk.push(r);
        if (chunk.length >= CHUNK_ROWS) {
          await onChunk(chunk);
          chunk = [];
        }
      }
      break; // the first sheet only
    }
    if (!columnAt) throw fileProblem(lang, 'noHeader');
    if (chunk.length) await onChunk(chunk);
  } finally {
    source?.destroy();
  }
}

export async function runImport(deps: RunnerDeps, task: ImportTask): Promise<ImportCounts & { message: string | null }> {
  const zone = (await deps.timeZone?.(task.ctx.orgId)) ?? 'UTC';
  const run = startRun(deps, task);
  const { res, lang, labelCache } = run;
  const progress = progressOf(run);
  const checks = rowChecks(run);
  const writers = chunkWriters(run);
  /** rows up to this one were handled by an earlier run of the job */
  const cursor = task.resume?.cursor ?? 0;

  /** The part's rows written (or none) and its outcome saved in the same transaction; kept once committed. */
  const writePart = async (part: Part) => {
    let staged: Staged | null = null;
    const savePart: SavePart = async (transaction, outcome) => {
      staged = progress.stage(part, outcome);
      await progress.save(staged, transaction);
    };
    if (!part.ready.length) await deps.db.sequelize.transaction((transaction) => savePart(transaction, []));
    else if (part.update) await writers.writeUpdates(part.ready, savePart);
    else if (!writers.fastPath || !(await writers.writeChunkFast(part.ready, savePart))) await writers.writeRowByRow(part.ready, savePart);
    if (staged) progress.keep(staged);
  };

  const processChunk = async (rows: SheetRow[]) => {
    if (deps.shouldStop?.()) throw new ImportStopped();
    // A chunk a resumed job already handled is read again only for the file's keys so far.
    const replay = rows[rows.length - 1].row <= cursor;
    labelCache.clear();
    for (const r of rows) checks.parse(r);
    await checks.resolveRefs(rows);
    await checks.resolveLookups(rows);
    await checks.checkUnique(rows, replay);
    await checks.checkCompositeKey(rows, replay);
    if (replay) return;
    // Parts of consecutive rows, each with up to `size` rows to write and the refused rows between them.
    const size = writers.size;
    const parts: Part[] = [];
    let part: Part = { ready: [], refused: [], rows: 0, lastRow: 0 };
    for (const r of rows) {
      if (r.row <= cursor) continue;
      if (!r.problems.length) checks.checkRules(r);
      const p = checks.firstProblem(r);
      if (p) part.refused.push({ r, p });
      else {
        // creates and updates are written by different writers: a part holds one kind, in file order
        const update = r.existingId !== undefined;
        if (part.ready.length && Boolean(part.update) !== update) {
          parts.push(part);
          part = { ready: [], refused: [], rows: 0, lastRow: 0 };
        }
        part.update = update;
        part.ready.push(r);
      }
      part.rows++;
      part.lastRow = r.row;
      if (part.ready.length >= size) {
        parts.push(part);
        part = { ready: [], refused: [], rows: 0, lastRow: 0 };
      }
    }
    if (part.rows) parts.push(part);
    for (const p of parts) {
      if (task.dryRun) {
        progress.keep(progress.stage(p, []));
        continue;
      }
      if (deps.shouldStop?.()) throw new ImportStopped();
      await writePart(p);
    }
  };

  let message: FileProblem | null = null;
  try {
    await readSheet(run, zone, processChunk);
  } catch (err) {
    if (err instanceof ImportStopped || err instanceof ImportTakenOver) throw err;
    if (err instanceof FileProblem) message = err;
    else {
      deps.log(`[import] ${res.name} job ${task.jobId} failed`, err);
      message = fileProblem(lang, 'unreadable');
    }
  }
  await progress.finish(message);
  return { ...run.counts, message: message?.message ?? null };
}

/** A cell as stored for the result workbook: dates as the wall-clock text the import reads back. */
function storedCell(v: CellValue): StoredCell {
  return v instanceof Date ? cellText(v) : v;
}
