/**
 * Cluster-wide "once" for interval jobs (`ctx.jobs.every(name, ms, fn, { once: true })`): one row
 * per job in `sys_job_lease` holding when the job is next due. Every instance ticks on its own
 * timer; a tick runs the job only when one conditional `UPDATE … SET due_at = now + period WHERE
 * name = ? AND due_at <= now` changes the row, so of several instances on one database exactly
 * one runs it per period (the first tick past the due time). The same shape as the scheduler's
 * lock (plugins/scheduler): no SELECT … FOR UPDATE, which SQLite lacks.
 */
import { DataTypes, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { registerMigration } from '../db/migrations';

export const JOB_LEASE_TABLE = 'sys_job_lease';

interface LeaseRow {
  name: string;
  /** epoch ms: the next tick at or after this runs the job */
  dueAt: number;
  /** instance that ran it last (diagnostics) */
  holder: string | null;
  /** epoch ms of that run's claim */
  claimedAt: number | null;
}

const columns = {
  name: { type: DataTypes.STRING(200), primaryKey: true, allowNull: false },
  dueAt: { type: DataTypes.BIGINT, allowNull: false, field: 'due_at' },
  holder: { type: DataTypes.STRING(100), allowNull: true },
  claimedAt: { type: DataTypes.BIGINT, allowNull: true, field: 'claimed_at' },
};

registerMigration({
  name: '2026-11-26-job-lease',
  async up({ queryInterface: qi }) {
    await qi.createTable(JOB_LEASE_TABLE, {
      name: columns.name,
      due_at: { type: DataTypes.BIGINT, allowNull: false },
      holder: columns.holder,
      claimed_at: { type: DataTypes.BIGINT, allowNull: true },
    });
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(JOB_LEASE_TABLE);
  },
});

type LeaseModel = ModelStatic<Model<LeaseRow, LeaseRow>>;

/**
 * The period a claim reserves is a little shorter than the job's interval (a tenth, at most 1 s),
 * so the instance that ran it last finds it due again on its next tick despite timer jitter, while
 * an instance whose timer fires in between does not.
 */
export const leaseSlack = (periodMs: number): number => Math.min(Math.floor(periodMs / 10), 1000);

export function jobLease(sequelize: Sequelize, instanceId: string): (name: string, periodMs: number) => Promise<boolean> {
  const model =
    (sequelize.models[JOB_LEASE_TABLE] as LeaseModel | undefined) ??
    sequelize.define<Model<LeaseRow, LeaseRow>>(JOB_LEASE_TABLE, columns, { tableName: JOB_LEASE_TABLE, timestamps: false });
  return async (name, periodMs) => {
    const now = Date.now();
    const dueAt = now + periodMs - leaseSlack(periodMs);
    const [changed] = await model.update({ dueAt, holder: instanceId, claimedAt: now }, { where: { name, dueAt: { [Op.lte]: now } } });
    if (changed === 1) return true;
    if (await model.count({ where: { name } })) return false;
    try {
      await model.create({ name, dueAt, holder: instanceId, claimedAt: now });
      return true;
    } catch (err) {
      // another instance created it first: it runs this period
      if (err instanceof UniqueConstraintError) return false;
      throw err;
    }
  };
}
