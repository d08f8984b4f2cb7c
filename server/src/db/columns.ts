/**
 * FieldDef → column. One mapping used by both the models and the schema migration step, so
 * the table always matches what the repository reads and writes.
 */
import { DataTypes, type ModelAttributeColumnOptions, type Model } from 'sequelize';
import type { EnumsFile, FieldDef, FieldType } from '@rti/metadata';

/** Types stored as JSON text (TEXT on SQLite, LONGTEXT on MySQL). */
export const JSON_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['enums', 'refs', 'image', 'file', 'json', 'lnglat', 'permissions']);

export const isJsonField = (f: FieldDef): boolean => JSON_TYPES.has(f.type);

/**
 * Longest VARCHAR; longer strings are stored as TEXT. 512 utf8mb4 characters keep an index key
 * under InnoDB's 3072 bytes and leave room for many such columns in its 65535-byte row.
 */
const MAX_VARCHAR = 512;

export function enumIsNumeric(f: FieldDef, enums: EnumsFile): boolean {
  const values = f.enum ? (enums[f.enum] ?? []) : [];
  return values.length > 0 && values.every((v) => typeof v.value === 'number');
}

function dataType(f: FieldDef, enums: EnumsFile, dialect: string) {
  switch (f.type) {
    case 'string':
      return (f.maxLength ?? 255) > MAX_VARCHAR ? DataTypes.TEXT : DataTypes.STRING(f.maxLength ?? 255);
    case 'text':
      return DataTypes.TEXT;
    case 'int':
    case 'ref':
      return DataTypes.INTEGER;
    case 'decimal':
      return DataTypes.DECIMAL(20, f.scale ?? 2);
    case 'bool':
      return DataTypes.BOOLEAN;
    case 'date':
      return DataTypes.DATEONLY;
    case 'datetime':
      return DataTypes.DATE(3);
    case 'enum':
      return enumIsNumeric(f, enums) ? DataTypes.INTEGER : DataTypes.STRING(64);
    case 'color':
      return DataTypes.STRING(16);
    case 'password':
      return DataTypes.STRING(255);
    default:
      // MySQL TEXT stops at 64 KB; SQLite TEXT has no size variants.
      return dialect === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT;
  }
}

/** Whether a column of this field can carry a B-tree index on every supported database. */
export function isIndexable(f: FieldDef): boolean {
  if (isJsonField(f) || f.type === 'text' || f.type === 'password') return false;
  return !(f.type === 'string' && (f.maxLength ?? 255) > MAX_VARCHAR);
}

export function fieldAttribute(f: FieldDef, enums: EnumsFile, column: string, dialect: string): ModelAttributeColumnOptions<Model> {
  const attr: ModelAttributeColumnOptions<Model> = { type: dataType(f, enums, dialect), allowNull: true, field: column };
  if (f.type === 'decimal') {
    // mysql2 returns DECIMAL as string; numbers are what the API promises.
    attr.get = function (this: Model) {
      const v = this.getDataValue(f.name) as unknown;
      return v === null || v === undefined ? v : Number(v);
    };
  }
  if (isJsonField(f)) {
    attr.get = function (this: Model) {
      const v = this.getDataValue(f.name) as unknown;
      if (typeof v !== 'string') return v ?? null;
      try {
        return JSON.parse(v);
      } catch {
        return null;
      }
    };
    attr.set = function (this: Model, v: unknown) {
      this.setDataValue(f.name, v === null || v === undefined ? null : JSON.stringify(v));
    };
  }
  return attr;
}
