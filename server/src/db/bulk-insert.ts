/**
 * Multi-row INSERTs without Model instances, the one way every set-based writer (scoped
 * repositories' insertMany, imports, the operation log) writes rows: Sequelize's bulkCreate
 * builds a full instance per row (change tracking, validation plumbing) only to read its values
 * back out, and its query generator formats every DATETIME through a moment object — together
 * most of the CPU of a 5,000-line step's in/out rows and logs. Here each row goes through the
 * attribute setters the model declares (JSON columns) and the column mapping, and DATETIME
 * values are formatted once per distinct instant (a step stamps thousands of rows with one time).
 */
import type { Model, ModelStatic, Transaction } from 'sequelize';

type Setter = (this: { setDataValue(key: string, value: unknown): void }, value: unknown) => void;
interface Attribute {
  field?: string;
  set?: Setter;
  type?: { key?: string; _length?: unknown; options?: { length?: unknown } };
}

/** Rows per INSERT: well under every driver's statement and parameter limits. */
export const INSERT_CHUNK = 1000;

/**
 * DATETIME values as Sequelize writes them with the UTC time zone both databases use here
 * (db/database.ts): SQLite "YYYY-MM-DD HH:mm:ss.SSS +00:00", MySQL "YYYY-MM-DD HH:mm:ss[.SSS]"
 * (milliseconds for DATETIME(3)). null when the column keeps Sequelize's own formatting
 * (another time zone, not a DATETIME).
 */
function utcDateFormat(dialect: string, timezone: unknown, attr: Attribute): ((v: unknown) => unknown) | null {
  if (timezone !== '+00:00' || attr.type?.key !== 'DATE' || (dialect !== 'sqlite' && dialect !== 'mysql')) return null;
  const millis = dialect === 'sqlite' || Boolean(attr.type._length ?? attr.type.options?.length);
  const seen = new Map<number, string>();
  return (v) => {
    if (v === null || v === undefined) return v;
    const d = v instanceof Date ? v : new Date(String(v));
    const ms = d.getTime();
    if (Number.isNaN(ms)) throw new Error(`not a date: ${String(v)}`);
    let text = seen.get(ms);
    if (text === undefined) {
      const iso = d.toISOString();
      text = `${iso.slice(0, 10)} ${iso.slice(11, millis ? 23 : 19)}`;
      if (dialect === 'sqlite') text += ' +00:00';
      if (seen.size < 10_000) seen.set(ms, text);
    }
    return text;
  };
}

/** The rows (attribute names) as column records, ready for the query interface, and its field map. */
function columnRecords(model: ModelStatic<Model>, rows: Array<Record<string, unknown>>) {
  const attributes = model.getAttributes() as Record<string, Attribute>;
  const sequelize = model.sequelize!;
  const timezone = (sequelize as unknown as { options: { timezone?: string } }).options.timezone;
  const columns = Object.entries(attributes).map(([name, attr]) => ({
    name,
    attr,
    field: attr.field ?? name,
    date: utcDateFormat(sequelize.getDialect(), timezone, attr),
  }));
  const records = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const { name, attr, field, date } of columns) {
      const v = row[name];
      if (v === undefined) continue;
      if (date) out[field] = date(v);
      else if (attr.set) attr.set.call({ setDataValue: (_key, value) => (out[field] = value) }, v);
      else out[field] = v;
    }
    return out;
  });
  // Pre-formatted DATETIME columns are plain strings to the query generator.
  const byField = Object.fromEntries(columns.filter((c) => !c.date).map((c) => [c.field, c.attr]));
  return { records, byField, idField: attributes.id?.field ?? 'id' };
}

/** INSERTs the rows in chunks; answers how many. */
export async function insertAll(model: ModelStatic<Model>, rows: Array<Record<string, unknown>>, transaction?: Transaction | null): Promise<number> {
  if (!rows.length) return 0;
  const { records, byField } = columnRecords(model, rows);
  const qi = model.sequelize!.getQueryInterface();
  for (let i = 0; i < records.length; i += INSERT_CHUNK) {
    await qi.bulkInsert(model.getTableName() as string, records.slice(i, i + INSERT_CHUNK), { transaction: transaction ?? undefined }, byField as never);
  }
  return records.length;
}

/**
 * One multi-row INSERT answering the rows as plain objects with the ids the database numbered
 * them with (both dialects number a multi-row insert from its first id; Sequelize reports them
 * per row), or null when the driver did not report them.
 */
export async function insertReturningIds(
  model: ModelStatic<Model>,
  rows: Array<Record<string, unknown>>,
  transaction: Transaction,
): Promise<Array<Record<string, unknown>> | null> {
  if (!rows.length) return [];
  const { records, byField, idField } = columnRecords(model, rows);
  const result = (await model
    .sequelize!.getQueryInterface()
    .bulkInsert(model.getTableName() as string, records, { transaction, model } as never, byField as never)) as unknown;
  if (!Array.isArray(result) || result.length !== rows.length) return null;
  const ids = result.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>)[idField] : undefined));
  if (ids.some((id) => typeof id !== 'number')) return null;
  return rows.map((row, i) => ({ ...row, id: ids[i] }));
}
