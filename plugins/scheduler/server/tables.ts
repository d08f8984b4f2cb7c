/**
 * The plugin's two tables: Agenda's jobs (one row per scheduled job, times as epoch ms so
 * SQLite and MySQL compare them the same way) and the run history of task-config rows.
 */
import type { Migration } from '@rti/server/plugin-api';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';

export const JOB_TABLE = 'scheduler_job';
export const RUN_TABLE = 'scheduler_run';

export const tablesMigration: Migration = {
  name: '2026-11-22-scheduler-tables',
  async up({ queryInterface, DataTypes: T }) {
    await queryInterface.createTable(JOB_TABLE, {
      id: { type: T.STRING(36), primaryKey: true },
      name: { type: T.STRING(100), allowNull: false },
      type: { type: T.STRING(10), allowNull: false, defaultValue: 'normal' },
      priority: { type: T.INTEGER, allowNull: false, defaultValue: 0 },
      next_run_at: { type: T.BIGINT, allowNull: true },
      locked_at: { type: T.BIGINT, allowNull: true },
      last_run_at: { type: T.BIGINT, allowNull: true },
      last_finished_at: { type: T.BIGINT, allowNull: true },
      failed_at: { type: T.BIGINT, allowNull: true },
      fail_count: { type: T.INTEGER, allowNull: true },
      fail_reason: { type: T.TEXT, allowNull: true },
      repeat_interval: { type: T.STRING(200), allowNull: true },
      repeat_timezone: { type: T.STRING(64), allowNull: true },
      repeat_at: { type: T.STRING(100), allowNull: true },
      start_date: { type: T.BIGINT, allowNull: true },
      end_date: { type: T.BIGINT, allowNull: true },
      skip_days: { type: T.STRING(50), allowNull: true },
      data: { type: T.TEXT, allowNull: true },
      // canonical JSON of the job's unique() query: one row per (name, unique_key)
      unique_key: { type: T.STRING(255), allowNull: true },
      disabled: { type: T.BOOLEAN, allowNull: false, defaultValue: false },
      progress: { type: T.FLOAT, allowNull: true },
      fork: { type: T.BOOLEAN, allowNull: false, defaultValue: false },
      last_modified_by: { type: T.STRING(100), allowNull: true },
      debounce_started_at: { type: T.BIGINT, allowNull: true },
    });
    await queryInterface.addIndex(JOB_TABLE, ['name', 'unique_key'], { unique: true, name: 'uq_scheduler_job_name_unique_key' });
    await queryInterface.addIndex(JOB_TABLE, ['name', 'next_run_at'], { name: 'ix_scheduler_job_name_next_run_at' });
    await queryInterface.createTable(RUN_TABLE, {
      id: { type: T.INTEGER, primaryKey: true, autoIncrement: true },
      org_id: { type: T.INTEGER, allowNull: false },
      task_id: { type: T.INTEGER, allowNull: false },
      task_name: { type: T.INTEGER, allowNull: true },
      via: { type: T.STRING(16), allowNull: false },
      instance: { type: T.STRING(100), allowNull: true },
      started_at: { type: T.BIGINT, allowNull: false },
      finished_at: { type: T.BIGINT, allowNull: true },
      status: { type: T.STRING(16), allowNull: false },
      error: { type: T.TEXT, allowNull: true },
      message_id: { type: T.STRING(255), allowNull: true },
      outbox_file: { type: T.STRING(500), allowNull: true },
      recipients: { type: T.TEXT, allowNull: true },
      attachment: { type: T.STRING(255), allowNull: true },
      row_count: { type: T.INTEGER, allowNull: true },
    });
    await queryInterface.addIndex(RUN_TABLE, ['org_id', 'task_id', 'started_at'], { name: 'ix_scheduler_run_org_task_started' });
  },
};

export type JobModel = ModelStatic<Model>;

const ms = DataTypes.BIGINT;

/** Models over the tables (the migration owns the schema; these only read and write). */
export function defineTables(sequelize: Sequelize): { jobs: JobModel; runs: JobModel } {
  const jobs =
    (sequelize.models.scheduler_job as JobModel | undefined) ??
    sequelize.define(
      'scheduler_job',
      {
        id: { type: DataTypes.STRING(36), primaryKey: true },
        name: DataTypes.STRING(100),
        type: DataTypes.STRING(10),
        priority: DataTypes.INTEGER,
        nextRunAt: { type: ms, field: 'next_run_at' },
        lockedAt: { type: ms, field: 'locked_at' },
        lastRunAt: { type: ms, field: 'last_run_at' },
        lastFinishedAt: { type: ms, field: 'last_finished_at' },
        failedAt: { type: ms, field: 'failed_at' },
        failCount: { type: DataTypes.INTEGER, field: 'fail_count' },
        failReason: { type: DataTypes.TEXT, field: 'fail_reason' },
        repeatInterval: { type: DataTypes.STRING(200), field: 'repeat_interval' },
        repeatTimezone: { type: DataTypes.STRING(64), field: 'repeat_timezone' },
        repeatAt: { type: DataTypes.STRING(100), field: 'repeat_at' },
        startDate: { type: ms, field: 'start_date' },
        endDate: { type: ms, field: 'end_date' },
        skipDays: { type: DataTypes.STRING(50), field: 'skip_days' },
        data: DataTypes.TEXT,
        uniqueKey: { type: DataTypes.STRING(255), field: 'unique_key' },
        disabled: DataTypes.BOOLEAN,
        progress: DataTypes.FLOAT,
        fork: DataTypes.BOOLEAN,
        lastModifiedBy: { type: DataTypes.STRING(100), field: 'last_modified_by' },
        debounceStartedAt: { type: ms, field: 'debounce_started_at' },
      },
      { tableName: JOB_TABLE, timestamps: false },
    );
  const runs =
    (sequelize.models.scheduler_run as JobModel | undefined) ??
    sequelize.define(
      'scheduler_run',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        orgId: { type: DataTypes.INTEGER, field: 'org_id' },
        taskId: { type: DataTypes.INTEGER, field: 'task_id' },
        taskName: { type: DataTypes.INTEGER, field: 'task_name' },
        via: DataTypes.STRING(16),
        instance: DataTypes.STRING(100),
        startedAt: { type: ms, field: 'started_at' },
        finishedAt: { type: ms, field: 'finished_at' },
        status: DataTypes.STRING(16),
        error: DataTypes.TEXT,
        messageId: { type: DataTypes.STRING(255), field: 'message_id' },
        outboxFile: { type: DataTypes.STRING(500), field: 'outbox_file' },
        recipients: DataTypes.TEXT,
        attachment: DataTypes.STRING(255),
        rowCount: { type: DataTypes.INTEGER, field: 'row_count' },
      },
      { tableName: RUN_TABLE, timestamps: false },
    );
  return { jobs, runs };
}
