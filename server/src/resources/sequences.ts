/**
 * Document numbers (metadata `number`): one counter row per organisation, resource and
 * rendered prefix, incremented inside the creating document's transaction. The row lock
 * serialises concurrent creates of one organisation and prefix, and a rolled-back create
 * rolls its increment back, so numbers have no gaps and no repeats.
 */
import { numberScope, renderNumber, type DocumentNumberDef, type ResourceDef } from '@rti/metadata';
import { DataTypes, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db';
import { registerMigration } from '../db/migrations';

export const SEQUENCE_TABLE = 'sys_document_sequence';

registerMigration({
  name: '2026-12-01-document-sequences',
  async up({ queryInterface: qi }) {
    await qi.createTable(SEQUENCE_TABLE, {
      org_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      resource: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
      scope: { type: DataTypes.STRING(100), allowNull: false, primaryKey: true },
      value: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    });
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(SEQUENCE_TABLE);
  },
});

/** The next value of one counter, taken in `transaction`. */
export async function nextSequence(db: Database, key: { orgId: number; resource: string; scope: string }, transaction: Transaction): Promise<number> {
  const { sequelize } = db;
  const replacements = [key.orgId, key.resource, key.scope];
  const where = 'org_id = ? AND resource = ? AND scope = ?';
  if (db.dialect === 'sqlite') {
    // One writer at a time on SQLite: the upsert cannot race.
    await sequelize.query(
      `INSERT INTO ${SEQUENCE_TABLE} (org_id, resource, scope, value) VALUES (?, ?, ?, 1) ON CONFLICT (org_id, resource, scope) DO UPDATE SET value = value + 1`,
      { replacements, transaction },
    );
  } else {
    // InnoDB: INSERT … ON DUPLICATE KEY inside the transaction deadlocks once three creators
    // meet a missing row (shared locks upgraded together). So the row is created empty
    // outside the transaction (autocommit; our transaction holds no lock on that key, it has
    // only read it), and the increment below takes a plain record lock.
    const exists = await sequelize.query(`SELECT 1 AS x FROM ${SEQUENCE_TABLE} WHERE ${where}`, { replacements, transaction, type: QueryTypes.SELECT });
    if (!exists.length) await sequelize.query(`INSERT IGNORE INTO ${SEQUENCE_TABLE} (org_id, resource, scope, value) VALUES (?, ?, ?, 0)`, { replacements });
    await sequelize.query(`UPDATE ${SEQUENCE_TABLE} SET value = value + 1 WHERE ${where}`, { replacements, transaction });
  }
  const [row] = await sequelize.query<{ value: number }>(`SELECT value FROM ${SEQUENCE_TABLE} WHERE ${where}`, {
    replacements,
    transaction,
    type: QueryTypes.SELECT,
  });
  return Number(row.value);
}

/** The next document number of a resource for an organisation, e.g. BD20261201-0007. */
export async function nextDocumentNumber(
  db: Database,
  res: ResourceDef & { number: DocumentNumberDef },
  orgId: number,
  transaction: Transaction,
  at = new Date(),
  timeZone?: string,
): Promise<string> {
  const scope = numberScope(res.number.pattern, at, timeZone);
  const seq = await nextSequence(db, { orgId, resource: res.name, scope }, transaction);
  return renderNumber(res.number.pattern, scope, seq);
}
