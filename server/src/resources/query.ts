/**
 * List body → SQL conditions, order and paging. Only declared search kinds filter and only
 * sortable/searchable fields sort, so every list stays on an indexed path.
 */
import type { EnumsFile, FieldDef, ResourceDef } from '@rti/metadata';
import { Op, type Order, type Sequelize, type WhereOptions } from 'sequelize';
import { ApiError, ErrorCode } from '../http/api-error';
import { isJsonField } from '../db/columns';
import { snakeCase } from '../db/naming';
import { coerceScalar, toDateOnly, toDateTime } from './coerce';
import { fieldError, typeError } from './errors';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 10;
/** pages beyond this are refused (1,000 pages of 1,000 rows reach a billion rows) */
export const MAX_PAGE = 1_000_000;
/** characters of a text filter, unless the field's maxLength allows more */
export const FILTER_MAX_LENGTH = 256;
/** values of one `in` filter */
export const FILTER_MAX_VALUES = MAX_LIMIT;

export interface ListQuery {
  where: WhereOptions[];
  order: Order;
  page: number;
  limit: number;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const sortKey = (field: string) => `sortBy${capitalize(field)}`;

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** LIKE with an explicit escape character that both SQLite and MySQL understand. */
function likeCondition(sequelize: Sequelize, column: string, pattern: string): WhereOptions {
  const quoted = sequelize.getQueryInterface().quoteIdentifier(column);
  return sequelize.literal(`${quoted} LIKE ${sequelize.escape(pattern)} ESCAPE '!'`) as unknown as WhereOptions;
}
const escapeLike = (s: string) => s.replace(/[!%_]/g, (c) => '!' + c);

/** JSON-array columns: "contains v" as a LIKE on the serialized list. */
function jsonContains(sequelize: Sequelize, column: string, v: unknown): WhereOptions {
  const token = escapeLike(JSON.stringify(v));
  return {
    [Op.or]: [`[${token}]`, `[${token},%`, `%,${token},%`, `%,${token}]`].map((p) => likeCondition(sequelize, column, p)),
  } as WhereOptions;
}

function rangeBound(f: FieldDef, v: unknown, enums: EnumsFile): unknown {
  checkFilterText(f, v);
  if (f.type === 'datetime') return toDateTime(f, v);
  if (f.type === 'date') return toDateOnly(f, v);
  return coerceScalar(f, v, enums);
}

/** A text filter longer than anything the column can hold (or 256) is refused, not scanned for. */
function checkFilterText(f: FieldDef, v: unknown): void {
  const max = Math.max(FILTER_MAX_LENGTH, f.maxLength ?? 0);
  if (typeof v === 'string' && v.length > max) throw fieldError(f, 'filterLength', { max });
}

function filterCondition(sequelize: Sequelize, f: FieldDef, raw: unknown, enums: EnumsFile): WhereOptions | null {
  const column = snakeCase(f.name);
  switch (f.search) {
    case 'like': {
      if (typeof raw !== 'string' && !(typeof raw === 'number' && Number.isFinite(raw))) throw typeError(f, 'string');
      checkFilterText(f, raw);
      return likeCondition(sequelize, column, `%${escapeLike(String(raw).trim())}%`);
    }
    case 'prefix': {
      // 'abc%' reads one range of the field's case-insensitive index (models.ts indexPlan)
      if (typeof raw !== 'string' && !(typeof raw === 'number' && Number.isFinite(raw))) throw typeError(f, 'string');
      checkFilterText(f, raw);
      const text = String(raw).trim();
      return text ? likeCondition(sequelize, column, `${escapeLike(text)}%`) : null;
    }
    case 'range': {
      if (!Array.isArray(raw) || raw.length > 2) throw typeError(f, 'range');
      const [from, to] = raw;
      const cond: Record<symbol, unknown> = {};
      if (!isBlank(from)) cond[Op.gte] = rangeBound(f, from, enums);
      if (!isBlank(to)) cond[Op.lte] = rangeBound(f, to, enums);
      return Object.getOwnPropertySymbols(cond).length ? ({ [f.name]: cond } as WhereOptions) : null;
    }
    case 'in': {
      const list = Array.isArray(raw) ? raw : [raw];
      if (list.length > FILTER_MAX_VALUES) throw fieldError(f, 'filterValues', { max: FILTER_MAX_VALUES });
      list.forEach((v) => checkFilterText(f, v));
      const values = list.filter((v) => !isBlank(v)).map((v) => coerceScalar(f, v, enums));
      if (!values.length) return null;
      if (isJsonField(f)) return { [Op.or]: values.map((v) => jsonContains(sequelize, column, v)) } as WhereOptions;
      return { [f.name]: { [Op.in]: values } } as WhereOptions;
    }
    case 'eq': {
      if (Array.isArray(raw) || (typeof raw === 'object' && raw !== null)) throw typeError(f, f.type === 'ref' ? 'id' : 'string');
      checkFilterText(f, raw);
      const v = coerceScalar(f, raw, enums);
      if (isJsonField(f)) return jsonContains(sequelize, column, v);
      return { [f.name]: v } as WhereOptions;
    }
    default:
      return null;
  }
}

function positiveInt(v: unknown, fallback: number, key: 'page' | 'limit', max: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    throw new ApiError(ErrorCode.validation, `server.validation.${key}`, { max }, 400);
  }
  return n;
}

export const isSortable = (f: FieldDef): boolean => Boolean(f.search || (typeof f.list === 'object' && f.list.sortable));

/** Filters and sort flags of a list/all/export body. */
export function parseQuery(sequelize: Sequelize, res: ResourceDef, enums: EnumsFile, body: Record<string, unknown>): ListQuery {
  const where: WhereOptions[] = [];
  for (const f of res.fields) {
    if (!f.search || f.writeOnly || f.type === 'password') continue;
    const raw = body[f.name];
    if (isBlank(raw)) continue;
    const cond = filterCondition(sequelize, f, raw, enums);
    if (cond) where.push(cond);
  }

  // sortBy<Field> in the order the client sent them; id last keeps paging stable. Unknown
  // sortBy keys are ignored like unknown filter keys (docs/API.md).
  const order: Array<[string, 'ASC' | 'DESC']> = [];
  const sortable = new Map(res.fields.filter(isSortable).map((f) => [sortKey(f.name), f]));
  sortable.set(sortKey('id'), { name: 'id', type: 'int' });
  for (const [key, v] of Object.entries(body)) {
    const f = sortable.get(key);
    if (!f || v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw fieldError(f, 'sort', {}, 400);
    order.push([f.name, v ? 'ASC' : 'DESC']);
  }
  if (!order.length && res.defaultSort) {
    const desc = res.defaultSort.startsWith('-');
    const name = res.defaultSort.replace(/^[-+]/, '');
    if (name === 'id' || res.fields.some((f) => f.name === name)) order.push([name, desc ? 'DESC' : 'ASC']);
  }
  if (!order.some(([name]) => name === 'id')) order.push(['id', order.length ? 'ASC' : 'DESC']);

  return {
    where,
    order,
    page: positiveInt(body.page, 1, 'page', MAX_PAGE),
    limit: positiveInt(body.limit, DEFAULT_LIMIT, 'limit', MAX_LIMIT),
  };
}
