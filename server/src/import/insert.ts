/**
 * A multi-row INSERT without Model instances: Sequelize's bulkCreate builds a full instance
 * per row (change tracking, validation plumbing) only to read its values back out, a good
 * part of an import's CPU. Here each row goes through the attribute setters the model
 * declares (JSON columns) and the column mapping, and the rows come back as plain objects
 * with the ids the database numbered them with (both dialects number a multi-row insert from
 * its first id; Sequelize reports them per row).
 */
import type { Model, ModelStatic, Transaction } from 'sequelize';

type Setter = (this: { setDataValue(key: string, value: unknown): void }, value: unknown) => void;
interface Attribute {
  field?: string;
  set?: Setter;
  type?: { key?: string; _length?: unknown; options?: { length?: unknown } };
}

/**
 * DATETIME values as Sequelize writes them with the UTC time zone both databases use here
 * (db/database.ts), without a moment object per value: SQLite "YYYY-MM-DD HH:mm:ss.SSS +00:00",
 * MySQL "YYYY-MM-DD HH:mm:ss[.SSS]" (milliseconds for DATETIME(3)). null when the column keeps
 * Sequelize's own formatting (another time zone, not a DATETIME).
 */
function utcDateFormat(dialect: string, timezone: unknown, attr: Attribute): ((v: unknown) => unknown) | null {
  if (timezone !== '+00:00' || attr.type?.key !== 'DATE' || (dialect !== 'sqlite' && dialect !== 'mysql')) return null;
  const millis = dialect === 'sqlite' || Boolean(attr.type._length ?? attr.type.options?.length);
  return (v) => {
    if (v === null || v === undefined) return v;
    const d = v instanceof Date ? v : new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new Error(`not a date: ${String(v)}`);
    const iso = d.toISOString();
    const text = `${iso.slice(0, 10)} ${iso.slice(11, millis ? 23 : 19)}`;
    return dialect === 'sqlite' ? `${text} +00:00` : text;
  };
}

export async function insertRows(model: ModelStatic<Model>, rows: Array<Record<string, unknown>>, transaction: Transaction): Promise<Array<Record<string, unknown>> | null> {
  if (!rows.length) return [];
  const attributes = model.getAttributes() as Record<string, Attribute>;
  const sequelize = model.sequelize!;
  const dates = new Map(
    Object.entries(attributes).map(([name, attr]) => [
      name,
      utcDateFormat(sequelize.getDialect(), (sequelize as unknown as { options: { timezone?: string } }).options.timezone, attr),
    ]),
  );
  const now = new Date();
  const stamped: Array<Record<string, unknown>> = rows.map((r) => ({ ...r, createdAt: r.createdAt ?? now, updatedAt: r.updatedAt ?? now }));
  const records = stamped.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [name, attr] of Object.entries(attributes)) {
      if (!(name in row) || row[name] === undefined) continue;
      const field = attr.field ?? name;
      const date = dates.get(name);
      if (date) out[field] = date(row[name]);
      else if (attr.set) attr.set.call({ setDataValue: (_key, value) => (out[field] = value) }, row[name]);
      else out[field] = row[name];
    }
    return out;
  });
  // Pre-formatted DATETIME columns are plain strings to the query generator.
  const byField = Object.fromEntries(Object.entries(attributes).filter(([name]) => !dates.get(name)).map(([name, attr]) => [attr.field ?? name, attr]));
  const queryInterface = sequelize.getQueryInterface();
  const result = (await queryInterface.bulkInsert(model.getTableName() as string, records, { transaction, model } as never, byField as never)) as unknown;
  const idField = attributes.id?.field ?? 'id';
  if (!Array.isArray(result) || result.length !== rows.length) return null;
  const ids = result.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>)[idField] : undefined));
  if (ids.some((id) => typeof id !== 'number')) return null;
  return stamped.map((row, i) => ({ ...row, id: ids[i] }));
}
