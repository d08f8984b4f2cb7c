/**
 * An import's multi-row INSERT: the rows stamped with their creation time, written without
 * Model instances (db/bulk-insert.ts), and answered with the ids the database gave them.
 */
import type { Model, ModelStatic, Transaction } from 'sequelize';
import { insertReturningIds } from '../db/bulk-insert';

export async function insertRows(
  model: ModelStatic<Model>,
  rows: Array<Record<string, unknown>>,
  transaction: Transaction,
): Promise<Array<Record<string, unknown>> | null> {
  const now = new Date();
  return insertReturningIds(
    model,
    rows.map((r) => ({ ...r, createdAt: r.createdAt ?? now, updatedAt: r.updatedAt ?? now })),
    transaction,
  );
}
