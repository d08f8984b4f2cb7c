/**
 * Import jobs in the database, so status survives the process: `import/status` reads them.
 * Each job is owned by the instance running it (`instance_id`, and `claim`, a token that
 * changes with every owner), which beats its heartbeat while the job is queued or running.
 * The job's file is kept in the object store (`file_key`) and its cursor (`cursor_row`, the
 * last sheet row done), counts and refused rows (`import_job_error`) are written in the same
 * transaction as the rows they account for: a live instance takes over the job of a dead one
 * (its heartbeat stopped) and resumes it after the cursor, without writing a row twice
 * (docs/SERVER.md "Running on several machines").
 */
import { randomBytes } from 'node:crypto';
import { DataTypes, Op, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { Migration } from '../db';

/** enums.json `importStatus` */
export const IMPORT_PROCESSING = 10;
export const IMPORT_FINISHED = 20;
/** Reasons kept per job; failedVolume still counts every failed row. */
export const MAX_STORED_ERRORS = 5000;

/** One refused row as `import/status` answers it, in the reader's language. */
export interface ImportError {
  row: number;
  /** SPEC §8 reason code; null when the reason is a generic validation message */
  code: number | null;
  /** why, naming the offending value when the row had one */
  reason: string;
  /** the column it is about, by its label */
  column?: string;
  /** the offending value as the file held it */
  value?: string;
}

/** A cell of a refused row as stored for the result workbook. */
export type StoredCell = string | number | boolean | null;

/** One refused row as the job keeps it: what the reason says, so it renders in any language. */
export interface StoredImportError {
  row: number;
  code: number | null;
  /** the reason in the upload's language (all that rows stored before keys existed hold) */
  reason: string;
  /** what the reason says: an i18n key and its values */
  text?: { key: string; params?: Record<string, unknown> };
  /** the column (field name) it is about */
  column?: string;
  value?: string;
  /** the row's cells by column (the result workbook) */
  cells?: Record<string, StoredCell>;
}

export interface ImportStatus {
  importId: number;
  resource: string;
  fileName: string;
  status: number;
  processedVolume: number;
  /** rows the file holds (counted at upload; blank rows included), null for jobs from before */
  totalVolume: number | null;
  successVolume: number;
  failedVolume: number;
  /** every refused row once finished; while processing, none (the counts say how far it is) */
  importErrors: ImportError[];
  /** set when the whole file failed (unreadable, interrupted) */
  message: string | null;
}

export const IMPORT_TABLE = 'import_job';
/** the stored message of a job a restart interrupted */
export const INTERRUPTED: StoredMessage = { key: 'server.files.interrupted' };

export const importJobsMigration: Migration = {
  name: '2026-11-22-import-jobs',
  async up({ queryInterface, sequelize, DataTypes: T }) {
    const longText = sequelize.getDialect() === 'mysql' ? T.TEXT('long') : T.TEXT;
    await queryInterface.createTable(IMPORT_TABLE, {
      id: { type: T.INTEGER, primaryKey: true, autoIncrement: true },
      org_id: { type: T.INTEGER, allowNull: true },
      user_id: { type: T.INTEGER, allowNull: true },
      resource: { type: T.STRING(100), allowNull: false },
      file_name: { type: T.STRING(255), allowNull: false },
      language: { type: T.STRING(10), allowNull: false },
      status: { type: T.INTEGER, allowNull: false },
      processed_volume: { type: T.INTEGER, allowNull: false, defaultValue: 0 },
      success_volume: { type: T.INTEGER, allowNull: false, defaultValue: 0 },
      failed_volume: { type: T.INTEGER, allowNull: false, defaultValue: 0 },
      import_errors: { type: longText, allowNull: true },
      message: { type: T.TEXT, allowNull: true },
      created_at: { type: T.DATE(3), allowNull: false },
      updated_at: { type: T.DATE(3), allowNull: false },
    });
    await queryInterface.addIndex(IMPORT_TABLE, ['status'], { name: 'ix_import_job_status' });
  },
};

/** Jobs say how many rows their file holds, and why a whole file failed as a key (rendered on read). */
export const importProgressMigration: Migration = {
  name: '2026-11-24-import-job-progress',
  async up({ queryInterface, DataTypes: T }) {
    const columns = await queryInterface.describeTable(IMPORT_TABLE);
    if (!columns.total_volume) await queryInterface.addColumn(IMPORT_TABLE, 'total_volume', { type: T.INTEGER, allowNull: true });
    if (!columns.message_text) await queryInterface.addColumn(IMPORT_TABLE, 'message_text', { type: T.TEXT, allowNull: true });
  },
};

/** Jobs name the instance that runs them and when it last said it is alive (issue 22). */
export const importOwnerMigration: Migration = {
  name: '2026-11-26-import-job-owner',
  async up({ queryInterface, DataTypes: T }) {
    const columns = await queryInterface.describeTable(IMPORT_TABLE);
    if (!columns.instance_id) await queryInterface.addColumn(IMPORT_TABLE, 'instance_id', { type: T.STRING(100), allowNull: true });
    if (!columns.heartbeat_at) await queryInterface.addColumn(IMPORT_TABLE, 'heartbeat_at', { type: T.DATE(3), allowNull: true });
  },
};

export const IMPORT_ERROR_TABLE = 'import_job_error';

/**
 * Jobs resume on another instance (issue 22): the file's key in the object store, the owner's
 * claim token (a takeover changes it; every write of a run checks it), the last sheet row
 * whose outcome is saved, and the uploader's context the rows are written in. Refused rows are
 * appended to `import_job_error` with the part they belong to, and gathered into the job's
 * `import_errors` when it finishes.
 */
export const importResumeMigration: Migration = {
  name: '2026-11-27-import-job-resume',
  async up({ queryInterface, sequelize, DataTypes: T }) {
    const columns = await queryInterface.describeTable(IMPORT_TABLE);
    // a refused row keeps its cells: beyond TEXT's 64 KB on MySQL when cells are long
    const longText = sequelize.getDialect() === 'mysql' ? T.TEXT('long') : T.TEXT;
    if (!columns.file_key) await queryInterface.addColumn(IMPORT_TABLE, 'file_key', { type: T.STRING(255), allowNull: true });
    if (!columns.claim) await queryInterface.addColumn(IMPORT_TABLE, 'claim', { type: T.STRING(64), allowNull: true });
    if (!columns.cursor_row) await queryInterface.addColumn(IMPORT_TABLE, 'cursor_row', { type: T.INTEGER, allowNull: false, defaultValue: 0 });
    if (!columns.context) await queryInterface.addColumn(IMPORT_TABLE, 'context', { type: T.TEXT, allowNull: true });
    await queryInterface.createTable(IMPORT_ERROR_TABLE, {
      id: { type: T.INTEGER, primaryKey: true, autoIncrement: true },
      job_id: { type: T.INTEGER, allowNull: false },
      error: { type: longText, allowNull: false },
    });
    await queryInterface.addIndex(IMPORT_ERROR_TABLE, ['job_id', 'id'], { name: 'ix_import_job_error_job' });
    // the heartbeat's UPDATE … WHERE instance_id: InnoDB locks only the owner's rows, not every row it scans
    await queryInterface.addIndex(IMPORT_TABLE, ['instance_id', 'status'], { name: 'ix_import_job_owner' });
  },
};

export function defineImportError(sequelize: Sequelize): ModelStatic<Model> {
  return sequelize.define(
    'importJobError',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      jobId: { type: DataTypes.INTEGER, allowNull: false },
      error: { type: sequelize.getDialect() === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT, allowNull: false },
    },
    { tableName: IMPORT_ERROR_TABLE, underscored: true, timestamps: false, freezeTableName: true },
  );
}

/** The refused rows a running job has saved so far, in the order they were reported. */
export async function savedErrors(errors: ModelStatic<Model>, jobId: number): Promise<StoredImportError[]> {
  const rows = await errors.findAll({ attributes: ['error'], where: { jobId }, order: [['id', 'ASC']], raw: true });
  return (rows as unknown as Array<{ error: string }>).map((r) => JSON.parse(r.error) as StoredImportError);
}

/** The uploader's context a job's rows are written in (stored on the job for a resume). */
export interface StoredContext {
  language: string;
  user: { id: number; username: string; realName?: string | null; sysOrgUser: boolean } | null;
  orgId: number | null;
  orgIds: number[];
  warehouseIds: number[] | null;
}

export function defineImportJob(sequelize: Sequelize): ModelStatic<Model> {
  return sequelize.define(
    'importJob',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      orgId: { type: DataTypes.INTEGER },
      userId: { type: DataTypes.INTEGER },
      resource: { type: DataTypes.STRING(100), allowNull: false },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      language: { type: DataTypes.STRING(10), allowNull: false },
      status: { type: DataTypes.INTEGER, allowNull: false },
      processedVolume: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      totalVolume: { type: DataTypes.INTEGER },
      successVolume: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      failedVolume: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      importErrors: { type: sequelize.getDialect() === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT },
      message: { type: DataTypes.TEXT },
      messageText: { type: DataTypes.TEXT },
      instanceId: { type: DataTypes.STRING(100) },
      heartbeatAt: { type: DataTypes.DATE(3) },
      fileKey: { type: DataTypes.STRING(255) },
      claim: { type: DataTypes.STRING(64) },
      cursorRow: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      context: { type: DataTypes.TEXT },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      updatedAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { tableName: IMPORT_TABLE, underscored: true, timestamps: true, freezeTableName: true },
  );
}

/** The refused rows a job keeps (stored form). */
export function storedErrors(job: Model): StoredImportError[] {
  try {
    const parsed = JSON.parse(String(job.get('importErrors') ?? '[]'));
    return Array.isArray(parsed) ? (parsed as StoredImportError[]) : [];
  } catch {
    return [];
  }
}

/** Why a whole file failed, stored as a key and values: the text in the reader's language. */
export interface StoredMessage {
  key: string;
  params?: Record<string, unknown>;
}

export function storedMessage(job: Model): StoredMessage | null {
  try {
    const m = JSON.parse(String(job.get('messageText') ?? 'null'));
    return m && typeof m.key === 'string' ? (m as StoredMessage) : null;
  } catch {
    return null;
  }
}

/**
 * The job as `import/status` answers it; `render` turns stored reasons (and a stored message)
 * into the reader's language. A job still processing answers its counts without reasons:
 * its errors column is not even read (polled every second, it may hold thousands).
 */
export function toStatus(job: Model, render: { error(e: StoredImportError): ImportError; message(m: StoredMessage): string }): ImportStatus {
  const g = (k: string) => job.get(k);
  const status = Number(g('status'));
  const message = storedMessage(job);
  const total = g('totalVolume');
  return {
    importId: Number(g('id')),
    resource: String(g('resource')),
    fileName: String(g('fileName')),
    status,
    processedVolume: Number(g('processedVolume')),
    totalVolume: total === null || total === undefined ? null : Number(total),
    successVolume: Number(g('successVolume')),
    failedVolume: Number(g('failedVolume')),
    importErrors: status === IMPORT_PROCESSING ? [] : storedErrors(job).map((e) => render.error(e)),
    message: message ? render.message(message) : ((g('message') as string | null) ?? null),
  };
}

/** Which processing jobs are a dead instance's. */
export interface DeadJobs {
  /** this instance: its own jobs (at start they are a previous life's); null = none */
  instanceId: string | null;
  /** a job whose heartbeat is older than this belongs to a dead instance (a released job's is the epoch) */
  staleBefore: Date;
  /** jobs with no owner (taken before owners existed) too: at start only, as before */
  unowned?: boolean;
}

/** Jobs of dead instances still marked processing (without their refused rows). */
export function deadJobs(model: ModelStatic<Model>, dead: DeadJobs): Promise<Model[]> {
  const where = {
    status: { [Op.eq]: IMPORT_PROCESSING },
    [Op.or]: [
      ...(dead.instanceId ? [{ instanceId: dead.instanceId }] : []),
      ...(dead.unowned ? [{ instanceId: null }] : []),
      { heartbeatAt: { [Op.lt]: dead.staleBefore } },
    ],
  };
  return model.findAll({ attributes: { exclude: ['importErrors'] }, where, order: [['id', 'ASC']] });
}

/**
 * Takes a dead instance's job for `instanceId`: one conditional UPDATE on the claim token as it
 * was read (and, for another instance's job, a heartbeat still stale), so of several instances
 * exactly one wins, and a run of the previous owner that wakes up finds its claim gone. The
 * new claim token, or null when another instance was first (or the owner beat its heart since).
 */
export async function claimJob(model: ModelStatic<Model>, job: Model, instanceId: string, staleBefore: Date | null): Promise<string | null> {
  const claim = randomBytes(16).toString('hex');
  const where: Record<string, unknown> = { id: job.get('id') as number, status: IMPORT_PROCESSING, claim: (job.get('claim') as string | null) ?? null };
  if (staleBefore) where.heartbeatAt = { [Op.lt]: staleBefore };
  const [n] = await model.sequelize!.transaction((transaction) =>
    model.update({ instanceId, claim, heartbeatAt: new Date() }, { where, transaction, silent: true }),
  );
  return n === 1 ? claim : null;
}

/**
 * Ends a job as finished with the interruption noted — only if still processing under the claim
 * it was read with (its owner may have finished it, or another instance taken it, since).
 */
export async function closeJob(model: ModelStatic<Model>, job: Model, message: (language: string) => string): Promise<boolean> {
  const where = { id: job.get('id') as number, status: IMPORT_PROCESSING, claim: (job.get('claim') as string | null) ?? null };
  const [n] = await model.sequelize!.transaction((transaction) =>
    model.update({ status: IMPORT_FINISHED, message: message(String(job.get('language'))), messageText: JSON.stringify(INTERRUPTED) }, { where, transaction }),
  );
  return n === 1;
}

/** The owner says it is alive: every job it holds (running or queued) gets a fresh heartbeat. */
export async function beatHeart(model: ModelStatic<Model>, instanceId: string, now = new Date()): Promise<number> {
  const [n] = await model.sequelize!.transaction((transaction) =>
    model.update({ heartbeatAt: now }, { where: { instanceId, status: IMPORT_PROCESSING }, transaction, silent: true }),
  );
  return n;
}

/** A stopping instance gives its jobs up: their heartbeat is the epoch, so a live instance takes them at its next beat. */
export async function releaseJobs(model: ModelStatic<Model>, instanceId: string): Promise<number> {
  const [n] = await model.sequelize!.transaction((transaction) =>
    model.update({ heartbeatAt: new Date(0) }, { where: { instanceId, status: IMPORT_PROCESSING }, transaction, silent: true }),
  );
  return n;
}
