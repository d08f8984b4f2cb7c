/**
 * Rows read without Model instances, typed as an instance would be: Sequelize builds a full
 * instance per row (change tracking, a setter call per attribute), which made reading a
 * 5,000-line step's lines cost several times the SELECT itself. Here the SELECT is raw and
 * each value is typed once by the attribute's kind: DATETIME to Date (SQLite answers text),
 * BOOLEAN to boolean (SQLite and MySQL answer 0/1), and the attribute's own getter (JSON and
 * DECIMAL columns). A view answers get(name), get({ plain: true }) and set(values) the way the
 * code reading instances uses them.
 */
import type { FindOptions, Model, ModelStatic } from 'sequelize';

export interface RowView {
  get(key: string): unknown;
  get(options: { plain: true }): Record<string, unknown>;
  set(values: Record<string, unknown>): void;
}

type Attribute = { type?: { key?: string }; get?: (this: { getDataValue(key: string): unknown }) => unknown };

class PlainRowView implements RowView {
  constructor(private readonly values: Record<string, unknown>) {}

  get(key: string): unknown;
  get(options: { plain: true }): Record<string, unknown>;
  get(key: string | { plain: true }): unknown {
    return typeof key === 'string' ? this.values[key] : this.values;
  }

  set(values: Record<string, unknown>): void {
    Object.assign(this.values, values);
  }
}

const typers = new WeakMap<ModelStatic<Model>, Array<[string, (v: unknown) => unknown]>>();

function typersOf(model: ModelStatic<Model>): Array<[string, (v: unknown) => unknown]> {
  let found = typers.get(model);
  if (found) return found;
  found = [];
  for (const [name, attr] of Object.entries(model.getAttributes() as Record<string, Attribute>)) {
    const getter = attr.get;
    if (getter) found.push([name, (v) => getter.call({ getDataValue: () => v })]);
    else if (attr.type?.key === 'DATE') found.push([name, (v) => (v === null || v === undefined || v instanceof Date ? v : new Date(String(v)))]);
    else if (attr.type?.key === 'BOOLEAN') found.push([name, (v) => (v === null || v === undefined ? v : Boolean(typeof v === 'string' ? Number(v) : v))]);
  }
  typers.set(model, found);
  return found;
}

/** findAll's rows as typed views (the options as findAll takes them; `raw` is implied). */
export async function findRowViews(model: ModelStatic<Model>, options: FindOptions): Promise<RowView[]> {
  const rows = (await model.findAll({ ...options, raw: true })) as unknown as Array<Record<string, unknown>>;
  const typed = typersOf(model);
  return rows.map((row) => {
    for (const [name, type] of typed) if (name in row) row[name] = type(row[name]);
    return new PlainRowView(row);
  });
}
