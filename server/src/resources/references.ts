/**
 * Referential integrity on delete, one rule for every resource (docs/METADATA.md "References").
 * Who points at a row is derived, never listed by hand:
 *   - every `ref` / `refs` field of every resource, with its `ref.onDelete`
 *     (restrict by default; cascade, clear or keep when the metadata says so);
 *   - the organisation's ownership: the organisation column of every org-scoped resource
 *     points at the organisation resource (`orgField: "id"`), always restrict;
 *   - references plugins declare for tables outside the metadata (ReferenceRegistry).
 * Deleting rows runs, inside the delete's transaction: cascades (through the repository, so
 * their own hooks and references apply), clears, then one grouped COUNT per restricting field
 * (`field IN (ids)`, indexed with the organisation column in front); any use left refuses the
 * whole delete with 10004 naming the rows and what uses them, counted per kind.
 */
import type { FieldDef, Metadata, ResourceDef, RefOnDelete } from '@rti/metadata';
import { fieldLabelKey } from '@rti/metadata';
import { fn, col, Op, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../db';
import { orgFieldOf } from '../db/naming';
import { ApiError, ErrorCode } from '../http/api-error';
import type { RequestContext } from '../http/types';
import { tKey, type TranslatableParam } from '../i18n/translator';
import type { Row } from './serialize';

/** One kind of row that may point at rows of `target`. */
export interface Reference {
  /** resource holding the pointer */
  from: ResourceDef;
  /** column (field name) holding the id(s) */
  field: string;
  /** JSON array of ids (refs) rather than one id */
  many: boolean;
  onDelete: RefOnDelete;
  /** i18n key of the field, named when one resource points through several fields */
  fieldLabel?: string;
}

/**
 * A reference from data outside the metadata (a plugin's own table): counts the rows pointing
 * at each id among `ids`. Always restricting: a plugin that wants its rows to go with the
 * target deletes them in a `before delete` hook instead.
 */
export interface DeclaredReference {
  /** metadata resource whose rows are pointed at */
  target: string;
  /** i18n key naming what points at them (e.g. "scheduler.references.runs") */
  label: string;
  count(ids: number[], transaction: Transaction, ctx: RequestContext): Promise<Map<number, number>>;
}

export class ReferenceRegistry {
  private readonly declared: DeclaredReference[] = [];

  declare(ref: DeclaredReference): () => void {
    this.declared.push(ref);
    return () => {
      const i = this.declared.indexOf(ref);
      if (i >= 0) this.declared.splice(i, 1);
    };
  }

  to(target: string): DeclaredReference[] {
    return this.declared.filter((d) => d.target === target);
  }
}

const cache = new WeakMap<Metadata, Map<string, Reference[]>>();

/** Every metadata reference to `target` (cached per metadata object; overlays replace it). */
export function referencesTo(meta: Metadata, target: string): Reference[] {
  let byTarget = cache.get(meta);
  if (!byTarget) {
    byTarget = new Map();
    for (const from of Object.values(meta.resources)) {
      for (const f of from.fields) {
        if ((f.type !== 'ref' && f.type !== 'refs') || !f.ref || !meta.resources[f.ref.resource]) continue;
        push(byTarget, f.ref.resource, { from, field: f.name, many: f.type === 'refs', onDelete: onDeleteOf(meta, from, f), fieldLabel: fieldLabelKey(f) });
      }
    }
    // ownership: the organisation column of org-scoped rows points at the organisation resource
    const orgResource = Object.values(meta.resources).find((r) => r.orgField === 'id');
    if (orgResource) {
      for (const from of Object.values(meta.resources)) {
        const field = orgFieldOf(from);
        if (!field || field === 'id' || from.fields.some((f) => f.name === field && f.ref)) continue;
        push(byTarget, orgResource.name, { from, field, many: false, onDelete: 'restrict' });
      }
    }
    cache.set(meta, byTarget);
  }
  return byTarget.get(target) ?? [];
}

function push(m: Map<string, Reference[]>, target: string, ref: Reference): void {
  const list = m.get(target) ?? [];
  list.push(ref);
  m.set(target, list);
}

/** `ref.onDelete`, else cascade when the target lists the field as its lines (`children` with `cascade: true`). */
function onDeleteOf(meta: Metadata, from: ResourceDef, f: FieldDef): RefOnDelete {
  if (f.ref?.onDelete) return f.ref.onDelete;
  const target = meta.resources[f.ref!.resource];
  const line = target?.children?.find((c) => c.resource === from.name && c.foreignKey === f.name) as { cascade?: boolean } | undefined;
  return line?.cascade === true ? 'cascade' : 'restrict';
}

/** What settle() needs from the repository that deletes. */
export interface SettleInput {
  db: Database;
  metadata: Metadata;
  registry: ReferenceRegistry;
  resource: ResourceDef;
  /** the rows being deleted, serialised (id and title field) */
  rows: Row[];
  ctx: RequestContext;
  transaction: Transaction;
  /** deletes rows of another resource the same way (cascades): by id, whole organisation */
  cascade(resource: ResourceDef, ids: number[]): Promise<void>;
}

/** Rows named in a refusal at most; the counts still cover every row. */
const NAMED = 3;

export async function settleReferences(input: SettleInput): Promise<void> {
  const { resource, rows, transaction } = input;
  const ids = rows.map((r) => Number(r.id));
  if (!ids.length) return;
  const refs = referencesTo(input.metadata, resource.name);

  for (const ref of refs.filter((r) => r.onDelete === 'cascade')) {
    const found = await pointing(input, ref, ids);
    if (found.length)
      await input.cascade(
        ref.from,
        found.map((r) => r.id),
      );
  }
  for (const ref of refs.filter((r) => r.onDelete === 'clear')) await clear(input, ref, ids);

  const uses: Array<{ ref: Reference | DeclaredReference; count: number }> = [];
  const usedIds = new Set<number>();
  for (const ref of refs.filter((r) => r.onDelete === 'restrict')) {
    const counts = await countPointing(input, ref, ids);
    let n = 0;
    for (const [id, c] of counts) {
      n += c;
      usedIds.add(id);
    }
    if (n) uses.push({ ref, count: n });
  }
  for (const ref of input.registry.to(resource.name)) {
    const counts = await ref.count(ids, transaction, input.ctx);
    let n = 0;
    for (const [id, c] of counts) {
      if (!c || !ids.includes(id)) continue;
      n += c;
      usedIds.add(id);
    }
    if (n) uses.push({ ref, count: n });
  }
  if (!uses.length) return;

  const named = rows.filter((r) => usedIds.has(Number(r.id))).map((r) => String(r[resource.titleField] ?? `#${r.id}`));
  const title = named.slice(0, NAMED).join(', ') + (named.length > NAMED ? ' …' : '');
  // one resource pointing through several fields names each field (a carrier's warehouse and its inbound warehouse)
  const perResource = new Map<string, number>();
  for (const u of uses) if ('from' in u.ref) perResource.set(u.ref.from.name, (perResource.get(u.ref.from.name) ?? 0) + 1);
  const items: TranslatableParam[] = uses.map((u) => {
    if (!('from' in u.ref)) return { $t: 'server.references.item', params: { count: u.count, what: tKey(u.ref.label) } };
    const what = tKey(u.ref.from.label ?? `resources.${u.ref.from.name}`);
    if ((perResource.get(u.ref.from.name) ?? 0) > 1 && u.ref.fieldLabel) {
      return { $t: 'server.references.itemField', params: { count: u.count, what, field: tKey(u.ref.fieldLabel) } };
    }
    return { $t: 'server.references.item', params: { count: u.count, what } };
  });
  throw new ApiError(ErrorCode.statusForbidden, 'server.references.inUse', {
    resource: tKey(resource.label ?? `resources.${resource.name}`),
    title,
    uses: items,
  });
}

/**
 * The narrowest condition that still finds every pointer: rows of an org-scoped resource point
 * only at rows of their own organisation (writes check refs in scope), so the organisation
 * column leads and the (organisation, field) index serves the count.
 */
function whereOf(input: SettleInput, ref: Reference, ids: number[]): WhereOptions[] {
  const and: WhereOptions[] = [];
  const fromOrg = orgFieldOf(ref.from);
  const targetOrg = orgFieldOf(input.resource);
  const ownership = targetOrg === 'id' && ref.field === fromOrg;
  if (!ownership && !ref.many && fromOrg && fromOrg !== 'id' && targetOrg && targetOrg !== 'id' && input.ctx.orgId !== null)
    and.push({ [fromOrg]: input.ctx.orgId });
  // rows of the same resource deleted in the same call do not hold the others back
  if (ref.from.name === input.resource.name) and.push({ id: { [Op.notIn]: ids } });
  if (!ref.many) and.push({ [ref.field]: { [Op.in]: ids } });
  else and.push({ [Op.or]: ids.map((id) => ({ [ref.field]: { [Op.like]: `%${id}%` } })) });
  return and;
}

/** Ids held in a JSON array column (text or parsed). */
function idsIn(v: unknown): number[] {
  let arr = v;
  if (typeof v === 'string') {
    try {
      arr = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(arr) ? arr.map(Number).filter(Number.isInteger) : [];
}

/** Rows pointing at any of `ids`: id and the pointer column (refs confirmed in JS after the LIKE prefilter). */
async function pointing(input: SettleInput, ref: Reference, ids: number[]): Promise<Array<{ id: number; value: unknown }>> {
  const model = input.db.models[ref.from.name];
  const rows = (await model.findAll({
    attributes: ['id', ref.field],
    where: { [Op.and]: whereOf(input, ref, ids) },
    transaction: input.transaction,
    raw: true,
  })) as unknown as Array<Record<string, unknown>>;
  const wanted = new Set(ids);
  return rows.filter((r) => (ref.many ? idsIn(r[ref.field]).some((id) => wanted.has(id)) : true)).map((r) => ({ id: Number(r.id), value: r[ref.field] }));
}

/** Pointers per target id: one grouped COUNT for a single-id column, one read for a JSON array. */
async function countPointing(input: SettleInput, ref: Reference, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (ref.many) {
    const wanted = new Set(ids);
    for (const r of await pointing(input, ref, ids)) for (const id of idsIn(r.value)) if (wanted.has(id)) out.set(id, (out.get(id) ?? 0) + 1);
    return out;
  }
  const model = input.db.models[ref.from.name];
  const attr = model.getAttributes()[ref.field];
  const column = (attr?.field as string | undefined) ?? ref.field;
  const rows = (await model.findAll({
    attributes: [
      [col(column), 'target'],
      [fn('COUNT', col('id')), 'n'],
    ],
    where: { [Op.and]: whereOf(input, ref, ids) },
    group: [col(column)],
    transaction: input.transaction,
    raw: true,
  })) as unknown as Array<{ target: unknown; n: unknown }>;
  for (const r of rows) out.set(Number(r.target), Number(r.n));
  return out;
}

async function clear(input: SettleInput, ref: Reference, ids: number[]): Promise<void> {
  const model = input.db.models[ref.from.name];
  if (!ref.many) {
    await model.update({ [ref.field]: null }, { where: { [Op.and]: whereOf(input, ref, ids) }, transaction: input.transaction, hooks: false });
    return;
  }
  const gone = new Set(ids);
  for (const r of await pointing(input, ref, ids)) {
    // through the instance, so the column's JSON setter writes the array
    const instance = await model.findByPk(r.id, { transaction: input.transaction });
    instance?.set(
      ref.field,
      idsIn(r.value).filter((id) => !gone.has(id)),
    );
    await instance?.save({ transaction: input.transaction, hooks: false });
  }
}
