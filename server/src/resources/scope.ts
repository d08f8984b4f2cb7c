/**
 * Tenancy in one place: the conditions every query of a resource carries for a caller.
 * Org-scoped rows: orgField = current organisation. The organisation resource itself
 * (orgField "id"): the caller's organisations. Warehouse-restricted callers: their warehouses —
 * through any of the resource's warehouse fields (a transfer between two warehouses is seen
 * by a user of either). A document's lines without a warehouse of their own are in scope when
 * their header is (`deriveHeaderScopes`): a line is never more visible than its document.
 */
import type { Metadata, ResourceDef } from '@rti/metadata';
import { literal, Op, type WhereOptions } from 'sequelize';
import { orgFieldOf, snakeCase, tableName } from '../db/naming';
import type { RequestContext } from '../http/types';

/** how a line resource reaches the warehouses of its header */
interface HeaderScope {
  foreignKey: string;
  header: ResourceDef;
}
// keyed by the resource object: several servers (several metadata) may share one process
const headerScopes = new WeakMap<ResourceDef, HeaderScope>();

/** rows of a resource seen through the open documents whose lines point at them (children `grantsScope`) */
interface ScopeGrant {
  header: ResourceDef;
  lines: ResourceDef;
  foreignKey: string;
  field: string;
  statusField: string;
  statuses: Array<string | number>;
  /** only lines holding these values (a carrier still shipped, not yet received) */
  lineWhere: Record<string, Array<string | number>>;
}
const scopeGrants = new WeakMap<ResourceDef, ScopeGrant[]>();

/**
 * Lines (a header's `children`) that declare no warehouse field take their header's: derived
 * from the metadata once per server. A line resource with warehouse fields of its own keeps them.
 * Lines that grant scope (`grantsScope`) make the rows they point at visible to whoever sees
 * their header while it is in the declared statuses.
 */
export function deriveHeaderScopes(metadata: Metadata): void {
  for (const header of Object.values(metadata.resources)) {
    for (const child of header.children ?? []) {
      const g = child.grantsScope;
      const lines = metadata.resources[child.resource];
      const ref = lines?.fields.find((f) => f.name === g?.field)?.ref;
      const target = ref ? metadata.resources[ref.resource] : undefined;
      if (!g || !lines || !target || !warehouseFieldsOf(header).length) continue;
      const list = scopeGrants.get(target) ?? [];
      list.push({
        header,
        lines,
        foreignKey: child.foreignKey,
        field: g.field,
        statusField: header.statusField ?? 'status',
        statuses: g.while as Array<string | number>,
        lineWhere: g.lines ?? {},
      });
      scopeGrants.set(target, list);
    }
  }
  for (const header of Object.values(metadata.resources)) {
    if (!warehouseFieldsOf(header).length) continue;
    for (const child of header.children ?? []) {
      const lines = metadata.resources[child.resource];
      if (lines && !warehouseFieldsOf(lines).length) headerScopes.set(lines, { foreignKey: child.foreignKey, header });
    }
  }
}

/** whether a restricted caller's view of this resource depends on the warehouses (own or its header's) */
export function isWarehouseScoped(res: ResourceDef): boolean {
  return warehouseFieldsOf(res).length > 0 || headerScopes.has(res);
}

/**
 * `EXISTS (SELECT 1 FROM header AS h WHERE h.id = <line's key> AND org AND warehouses)`: a
 * correlated check per line, so the planner still drives the query by the line's own index (a
 * carrier serial, an order's key) instead of a list of every visible header — 2 ms instead of
 * 300 ms for a serial search over 5M lines. The line's key is left unqualified: it is not a
 * column of the header (checked; else the IN form), so it names the line, whatever alias the
 * statement gives the line table (SELECT aliases it, UPDATE and DELETE do not). Written out
 * rather than built by a model: ids are integers checked here, names metadata-derived, and
 * backquotes quote identifiers in both SQLite and MariaDB.
 */
function headerScopeWhere(scope: HeaderScope, ctx: RequestContext, warehouses: readonly number[]): WhereOptions {
  const ids = warehouses.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  if (!ids.length) return { [scope.foreignKey]: { [Op.in]: [] } };
  const q = (name: string) => `\`${name}\``;
  const col = (field: string) => `${q('h')}.${q(field === 'id' ? 'id' : snakeCase(field))}`;
  const orgField = orgFieldOf(scope.header);
  const conditions: string[] = [];
  if (orgField && orgField !== 'id') conditions.push(ctx.orgId === null ? '1 = 0' : `${col(orgField)} = ${Number(ctx.orgId)}`);
  const list = ids.join(', ');
  conditions.push(
    `(${warehouseFieldsOf(scope.header)
      .map((f) => `${col(f)} IN (${list})`)
      .join(' OR ')})`,
  );
  const key = snakeCase(scope.foreignKey);
  const table = q(tableName(scope.header));
  if (scope.header.fields.some((f) => snakeCase(f.name) === key)) {
    return { [scope.foreignKey]: { [Op.in]: literal(`(SELECT ${col('id')} FROM ${table} AS ${q('h')} WHERE ${conditions.join(' AND ')})`) } };
  }
  return literal(`EXISTS (SELECT 1 FROM ${table} AS ${q('h')} WHERE ${col('id')} = ${q(key)} AND ${conditions.join(' AND ')})`) as unknown as WhereOptions;
}

/**
 * `id IN (SELECT l.<field> FROM lines l JOIN header h … WHERE h in the caller's organisation and
 * warehouses and in the granting statuses)`: the rows on the caller's open documents. Not
 * correlated, so it is computed once per statement (the in-transit carriers of a few orders).
 */
function grantWhere(g: ScopeGrant, ctx: RequestContext, warehouses: readonly number[]): WhereOptions | null {
  const ids = warehouses.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  if (!ids.length || ctx.orgId === null) return null;
  const q = (name: string) => `\`${name}\``;
  const h = (field: string) => `${q('h')}.${q(snakeCase(field))}`;
  const literalOf = (v: string | number) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  const orgField = orgFieldOf(g.header);
  const conditions = [
    ...(orgField && orgField !== 'id' ? [`${h(orgField)} = ${Number(ctx.orgId)}`] : []),
    `${h(g.statusField)} IN (${g.statuses.map(literalOf).join(', ')})`,
    `(${warehouseFieldsOf(g.header)
      .map((f) => `${h(f)} IN (${ids.join(', ')})`)
      .join(' OR ')})`,
    ...Object.entries(g.lineWhere).map(([f, vs]) => `${q('l')}.${q(snakeCase(f))} IN (${vs.map(literalOf).join(', ')})`),
  ];
  const sql = `SELECT ${q('l')}.${q(snakeCase(g.field))} FROM ${q(tableName(g.lines))} AS ${q('l')} JOIN ${q(tableName(g.header))} AS ${q('h')} ON ${q('h')}.${q('id')} = ${q('l')}.${q(snakeCase(g.foreignKey))} WHERE ${conditions.join(' AND ')}`;
  return { id: { [Op.in]: literal(`(${sql})`) } };
}

/** rows a step's hooks see because the lines it moved granted them when it began (see linesGranting) */
const stepGrants = new WeakMap<RequestContext, Record<string, number[]>>();

/**
 * The context a line step's hooks act in: the rows its lines pointed at while they granted scope
 * (`grantsScope`: a carrier shipped on an order to the caller's warehouse) stay visible to the
 * step's effect although the step has just moved the lines out of the granting statuses — the
 * receiver's receive step moves the carrier it could see a moment ago. Nothing else widens.
 */
export function linesGranting(metadata: Metadata, lineRes: ResourceDef, previous: Array<Record<string, unknown>>, ctx: RequestContext): RequestContext {
  if (ctx.warehouseIds === null) return ctx;
  const grants: Record<string, number[]> = { ...stepGrants.get(ctx) };
  let any = false;
  for (const header of Object.values(metadata.resources)) {
    for (const child of header.children ?? []) {
      const g = child.grantsScope;
      const target = g && child.resource === lineRes.name ? lineRes.fields.find((f) => f.name === g.field)?.ref?.resource : undefined;
      if (!g || !target) continue;
      const granting = previous.filter((row) => Object.entries(g.lines ?? {}).every(([f, vs]) => vs.some((v) => String(v) === String(row[f]))));
      const ids = granting.map((row) => Number(row[g.field])).filter((n) => Number.isInteger(n) && n > 0);
      if (!ids.length) continue;
      grants[target] = [...(grants[target] ?? []), ...ids];
      any = true;
    }
  }
  if (!any) return ctx;
  const granted = { ...ctx };
  stepGrants.set(granted, grants);
  return granted;
}

/** The resource's warehouse fields (`warehouseField`: one name or several). */
export function warehouseFieldsOf(res: ResourceDef): string[] {
  const wf = res.warehouseField;
  return wf === undefined ? [] : Array.isArray(wf) ? wf : [wf];
}

export function scopeWhere(res: ResourceDef, ctx: RequestContext, opts: { warehouse?: boolean } = {}): WhereOptions {
  const and: WhereOptions[] = [];
  const orgField = orgFieldOf(res);
  if (orgField === 'id') and.push({ id: { [Op.in]: ctx.orgIds } });
  else if (orgField) and.push(ctx.orgId === null ? { id: { [Op.in]: [] } } : { [orgField]: ctx.orgId });
  const fields = warehouseFieldsOf(res);
  if (opts.warehouse !== false && fields.length && ctx.warehouseIds !== null) {
    const inWarehouses: WhereOptions[] = fields.map((f) => ({ [f]: { [Op.in]: ctx.warehouseIds } }));
    // rows on an open document of the caller's warehouses (a carrier in transit to them)
    for (const g of scopeGrants.get(res) ?? []) {
      const w = grantWhere(g, ctx, ctx.warehouseIds);
      if (w) inWarehouses.push(w);
    }
    const during = stepGrants.get(ctx)?.[res.name];
    if (during?.length) inWarehouses.push({ id: { [Op.in]: during } });
    and.push(inWarehouses.length === 1 ? inWarehouses[0] : { [Op.or]: inWarehouses });
  }
  const viaHeader = headerScopes.get(res);
  if (opts.warehouse !== false && viaHeader && ctx.warehouseIds !== null) and.push(headerScopeWhere(viaHeader, ctx, ctx.warehouseIds));
  return { [Op.and]: and };
}

/**
 * Whether a restricted caller may write these values: the warehouse fields they set (not null)
 * must include one of the caller's warehouses. Answers the field to name in the refusal, or
 * null. Values without warehouse fields, and unrestricted callers, always pass.
 */
export function warehouseRefusal(res: ResourceDef, ctx: RequestContext, values: Record<string, unknown>): string | null {
  const allowed = ctx.warehouseIds;
  if (allowed === null) return null;
  const set = warehouseFieldsOf(res).filter((f) => f !== 'id' && values[f] !== null && values[f] !== undefined);
  if (!set.length) return null;
  const inScope = (f: string) => (Array.isArray(values[f]) ? (values[f] as unknown[]) : [values[f]]).every((id) => allowed.includes(Number(id)));
  return set.some(inScope) ? null : set[0];
}

/**
 * The scope a reference of `res.field` must exist in: the target's, except that a row between
 * warehouses (several warehouse fields) may name any warehouse of the organisation in the
 * fields beyond the caller's own (a transfer to another warehouse); warehouseRefusal still
 * wants one of the row's warehouses to be the caller's.
 */
export function refScopeWhere(res: ResourceDef, field: string, target: ResourceDef, ctx: RequestContext): WhereOptions {
  const fields = warehouseFieldsOf(res);
  return scopeWhere(target, ctx, { warehouse: !(fields.length > 1 && fields.includes(field)) });
}

/**
 * `id NOT IN (SELECT l.<key> FROM lines l JOIN header h … WHERE h in the organisation and (in
 * `statuses` or h is `also`))`: rows on no document holding them (children `exclusive`, all
 * warehouses of the organisation: a carrier on another warehouse's open order is taken) nor on
 * the document `also` — what a picker offers. One uncorrelated subquery per statement.
 */
export function notHeldWhere(o: {
  header: ResourceDef;
  lines: ResourceDef;
  foreignKey: string;
  key: string;
  statuses: Array<string | number>;
  lineWhere: Record<string, Array<string | number>>;
  orgId: number;
  also?: number;
}): WhereOptions {
  const q = (name: string) => `\`${name}\``;
  const h = (field: string) => `${q('h')}.${q(field === 'id' ? 'id' : snakeCase(field))}`;
  const l = (field: string) => `${q('l')}.${q(snakeCase(field))}`;
  const literalOf = (v: string | number) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  const orgField = orgFieldOf(o.header);
  const held = [
    `${h(o.header.statusField ?? 'status')} IN (${o.statuses.map(literalOf).join(', ')})`,
    ...Object.entries(o.lineWhere).map(([f, vs]) => `${l(f)} IN (${vs.map(literalOf).join(', ')})`),
  ].join(' AND ');
  const conditions = [
    ...(orgField && orgField !== 'id' ? [`${h(orgField)} = ${Number(o.orgId)}`] : []),
    `${l(o.key)} IS NOT NULL`,
    o.also === undefined ? `(${held})` : `((${held}) OR ${h('id')} = ${Number(o.also)})`,
  ];
  const sql = `SELECT ${l(o.key)} FROM ${q(tableName(o.lines))} AS ${q('l')} JOIN ${q(tableName(o.header))} AS ${q('h')} ON ${h('id')} = ${l(o.foreignKey)} WHERE ${conditions.join(' AND ')}`;
  return { id: { [Op.notIn]: literal(`(${sql})`) } };
}
