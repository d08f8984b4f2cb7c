/**
 * Import jobs in the database, so status survives the process: `import/status` reads them,
 * and a start after a crash or restart closes every job still marked processing.
 */
import { DataTypes, Op, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { Migration } from '../db';

/** enums.json `importStatus` */
export const IMPORT_PROCESSING = 10;
export const IMPORT_FINISHED = 20;
/** Reasons kept per job; failedVolume still counts every failed row. */
export const MAX_STORED_ERRORS = 5000;

export interface ImportError {
  row: number;
  /** SPEC §8 reason code; null when the reason is a generic validation message */
  code: number | null;
  reason: string;
}

export interface ImportStatus {
  importId: number;
  resource: string;
  fileName: string;
  status: number;
  processedVolume: number;
  successVolume: number;
  failedVolume: number;
  importErrors: ImportError[];
  /** set when the whole file failed (unreadable, interrupted) */
  message: string | null;
}

export const IMPORT_TABLE = 'import_job';

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
      successVolume: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      failedVolume: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      importErrors: { type: sequelize.getDialect() === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT },
      message: { type: DataTypes.TEXT },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      updatedAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { tableName: IMPORT_TABLE, underscored: true, timestamps: true, freezeTableName: true },
  );
}

export function toStatus(job: Model): ImportStatus {
  const g = (k: string) => job.get(k);
  let errors: ImportError[] = [];
  try {
    errors = JSON.parse(String(g('importErrors') ?? '[]'));
  } catch {
    errors = [];
  }
  return {
    importId: Number(g('id')),
    resource: String(g('resource')),
    fileName: String(g('fileName')),
    status: Number(g('status')),
    processedVolume: Number(g('processedVolume')),
    successVolume: Number(g('successVolume')),
    failedVolume: Number(g('failedVolume')),
    importErrors: errors,
    message: (g('message') as string | null) ?? null,
  };
}

/** Jobs a previous process left in processing end as finished with the interruption noted. */
export async function closeInterrupted(model: ModelStatic<Model>, message: (language: string) => string): Promise<number> {
  const stuck = await model.findAll({ where: { status: { [Op.eq]: IMPORT_PROCESSING } } });
  for (const job of stuck) await job.update({ status: IMPORT_FINISHED, message: message(String(job.get('language'))) });
  return stuck.length;
}
