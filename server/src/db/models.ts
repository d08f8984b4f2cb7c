/**
 * Sequelize models derived from metadata: one per resource, plus the index plan the schema
 * step creates. Nothing here names a domain object.
 */
import { DataTypes, type Model, type ModelAttributes, type ModelStatic, type Sequelize } from 'sequelize';
import type { FieldDef, Metadata, ResourceDef } from '@rti/metadata';
import { fieldAttribute, isIndexable } from './columns';
import { indexName, orgFieldOf, snakeCase, tableName } from './naming';

export type ResourceModel = ModelStatic<Model>;

export interface IndexPlan {
  name: string;
  /** column names */
  columns: string[];
  unique: boolean;
  /**
   * Columns compared case-insensitively in the index (prefix search): SQLite serves
   * `col LIKE 'abc%'` (case-insensitive) from an index only in NOCASE; MySQL/MariaDB's
   * _ci collations already compare so and take no per-index collation.
   */
  nocase?: string[];
}

/** Implicit attributes every row may carry besides its declared fields. */
export const AUDIT_FIELDS = ['createdBy', 'updatedBy'] as const;

function attributes(res: ResourceDef, meta: Metadata, dialect: string): ModelAttributes<Model> {
  const attrs: ModelAttributes<Model> = {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, field: 'id' },
  };
  for (const f of res.fields) {
    if (f.name === 'id') continue;
    attrs[f.name] = fieldAttribute(f, meta.enums, snakeCase(f.name), dialect);
  }
  const orgField = orgFieldOf(res);
  if (orgField && orgField !== 'id' && !attrs[orgField]) {
    attrs[orgField] = { type: DataTypes.INTEGER, allowNull: false, field: snakeCase(orgField) };
  }
  for (const a of AUDIT_FIELDS) if (!attrs[a]) attrs[a] = { type: DataTypes.INTEGER, allowNull: true, field: snakeCase(a) };
  // Millisecond timestamps on MySQL too (plain DATETIME would drop them).
  attrs.createdAt = { type: DataTypes.DATE(3), allowNull: false, field: 'created_at' };
  attrs.updatedAt = { type: DataTypes.DATE(3), allowNull: false, field: 'updated_at' };
  return attrs;
}

/** Fields worth an index: unique, searchable, sortable, references, the warehouse field. */
function wantsIndex(res: ResourceDef, f: FieldDef): boolean {
  if (!isIndexable(f)) return false;
  const sortable = typeof f.list === 'object' && f.list.sortable;
  return Boolean(f.index || f.unique || f.search || sortable || f.type === 'ref' || [res.warehouseField].flat().includes(f.name));
}

/**
 * Org-scoped lists always filter on the organisation, so their indexes lead with it:
 * (org, field) serves both "filter by field" and "sort by field" inside one organisation.
 */
export function indexPlan(res: ResourceDef): IndexPlan[] {
  const table = tableName(res);
  const orgField = orgFieldOf(res);
  const orgCol = orgField && orgField !== 'id' ? snakeCase(orgField) : null;
  const plans: IndexPlan[] = [];
  const add = (columns: string[], unique: boolean, nocase?: string[]) => {
    const key = (p: { columns: string[]; unique: boolean; nocase?: string[] }) => `${p.columns.join()}|${p.unique}|${p.nocase?.join() ?? ''}`;
    if (plans.some((p) => key(p) === key({ columns, unique, nocase }))) return;
    plans.push(
      nocase ? { name: indexName(table, [...columns, 'ci'], unique), columns, unique, nocase } : { name: indexName(table, columns, unique), columns, unique },
    );
  };
  if (orgCol) add([orgCol, 'id'], false);
  for (const f of res.fields) {
    if (!wantsIndex(res, f) || f.name === orgField) continue;
    const col = snakeCase(f.name);
    const scoped = orgCol ? [orgCol, col] : [col];
    if (f.unique) add(f.unique === 'org' && orgCol ? [orgCol, col] : [col], true);
    // a prefix search reads its case-insensitive index (instead of, not besides, the plain one)
    else if (f.search !== 'prefix') add(scoped, false);
    if (f.search === 'prefix') add(scoped, false, [col]);
  }
  // Declared composites (filter + sort pairs) let a list count and page from the index alone.
  for (const cols of res.indexes ?? []) {
    const columns = cols.map((c) => (c === 'id' ? 'id' : snakeCase(c)));
    add(orgCol ? [orgCol, ...columns] : columns, false);
  }
  return plans;
}

export function defineModels(sequelize: Sequelize, meta: Metadata): Record<string, ResourceModel> {
  const models: Record<string, ResourceModel> = {};
  for (const res of Object.values(meta.resources)) {
    models[res.name] = sequelize.define(res.name, attributes(res, meta, sequelize.getDialect()), {
      tableName: tableName(res),
      underscored: true,
      timestamps: true,
      freezeTableName: true,
    });
  }
  return models;
}
