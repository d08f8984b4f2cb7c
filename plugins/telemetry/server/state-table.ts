/**
 * The engine's memory between restarts: one JSON row per device/carrier state, upserted for
 * the subjects that changed since the last flush (never per reading).
 */
import type { Migration } from '@rti/server/plugin-api';
import type { Sequelize, Transaction } from 'sequelize';
import type { StateDump } from '@rti/ingest/state/state-engine';

export const STATE_TABLE = 'telemetry_state';

export const stateMigration: Migration = {
  name: 'telemetry-state-table',
  async up({ queryInterface, DataTypes }) {
    await queryInterface.createTable(STATE_TABLE, {
      subject: { type: DataTypes.STRING(64), primaryKey: true },
      org_id: { type: DataTypes.INTEGER, allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.BIGINT, allowNull: false },
    });
    await queryInterface.addIndex(STATE_TABLE, ['org_id']);
  },
};

export async function saveStates(db: Sequelize, dump: StateDump, transaction: Transaction): Promise<void> {
  const now = Date.now();
  const rows = [
    ...dump.devices.map((s) => ({ subject: `${s.kind}/${s.id}`, org_id: s.orgId, data: JSON.stringify(s), updated_at: now })),
    ...dump.carriers.map((s) => ({ subject: `carrier/${s.id}`, org_id: s.orgId, data: JSON.stringify(s), updated_at: now })),
  ];
  if (!rows.length) return;
  const qi = db.getQueryInterface();
  for (let i = 0; i < rows.length; i += 500) {
    await qi.bulkInsert(STATE_TABLE, rows.slice(i, i + 500), {
      transaction,
      updateOnDuplicate: ['org_id', 'data', 'updated_at'],
      upsertKeys: ['subject'],
    } as never);
  }
}

export async function loadStates(db: Sequelize): Promise<StateDump> {
  const [rows] = (await db.query(`SELECT subject, data FROM ${STATE_TABLE}`)) as [Array<{ subject: string; data: string }>, unknown];
  const dump: StateDump = { devices: [], carriers: [] };
  for (const r of rows) {
    try {
      const s = JSON.parse(r.data);
      if (r.subject.startsWith('carrier/')) dump.carriers.push(s);
      else dump.devices.push(s);
    } catch {
      // a damaged row only loses that subject's memory; it is rebuilt from the next readings
    }
  }
  return dump;
}
