/**
 * Header-and-lines documents (metadata `children` with inline/cascade/editableWhen/rollUps/
 * uniqueKeys, and `number`). Everything a module used to hand-write around its lines:
 *
 * - the document number, generated in the create's transaction when the field is left empty;
 * - cascade (done by the delete path's reference rule): lines leaving with their header are
 *   not frozen and not rolled up;
 * - freeze: lines change only while the header is in a declared status (10004 otherwise);
 * - unique keys among the lines of one document (10003), backed by a unique index;
 * - roll-ups (count, sum) kept in the header by every line write, never taken from a client;
 * - `<prefix>/save`: header and lines in one call and one transaction, set-based (a few
 *   statements for thousands of lines), answering the header and its lines' ids (ascending).
 *
 * Domain rules over lines register with `documents.onLines(header, fn)`: the hook sees the
 * lines a write adds, changes and removes. For the atomic save that is all of them at once,
 * for a single-line call (`…-detail/create`, `batch/add`) one line, so one rule serves both.
 */
import {
  documentSavePath,
  fieldLabelKey,
  inlineChildren,
  resourceLabelKey,
  rollUpFields,
  type ChildrenDef,
  type DocumentNumberDef,
  type FieldDef,
  type Metadata,
  type ResourceDef,
  type RollUpDef,
} from '@rti/metadata';
import { Op, UniqueConstraintError, type Transaction, type WhereOptions } from 'sequelize';
import { orgFieldOf } from '../db/naming';
import { retryingTransaction } from '../db/retry';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, RequestContext } from '../http/types';
import { tKey } from '../i18n/translator';
import type { BoundRepository } from './bound-repository';
import { fieldError, fieldParam, typeError } from './errors';
import type { ImportChunkHandler } from '../import/validators';
import type { HookEvent, HookFn, HookRegistry } from './hooks';
import { ScopedRepository, type ResourceHost } from './repository';
import { refScopeWhere, scopeWhere, warehouseRefusal } from './scope';
import { nextDocumentNumber } from './sequences';
import type { Row } from './serialize';
import { boundRepos } from './transitions';
import { checkCompareRules, validateWrite } from './validate';

/** Lines one save may hold (a 5,000-carrier ship order fits). */
export const MAX_LINES = 10000;

export interface LinesEvent {
  /** the header resource */
  resource: ResourceDef;
  /** the line resource and its declaration */
  child: ChildrenDef;
  ctx: RequestContext;
  transaction: Transaction;
  /** the header as it will be (current row overlaid by this write's header values) */
  header: Row;
  /** validated values of new lines (foreign key set) */
  added: Array<Record<string, unknown>>;
  /** lines that change: the stored row and the validated values written over it */
  changed: Array<{ previous: Row; values: Record<string, unknown> }>;
  /** stored lines that go */
  removed: Row[];
  repo(resource: string): BoundRepository;
}

export type LinesFn = (event: LinesEvent) => Promise<void> | void;

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a instanceof Date || b instanceof Date) return new Date(a as Date).getTime() === new Date(b as Date).getTime();
  if (typeof a === 'number' || typeof b === 'number') return a !== null && b !== null && a !== undefined && b !== undefined ? Number(a) === Number(b) : a === b;
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
};

/** Where each line resource hangs: its header and declaration. */
function parentsOf(meta: Metadata): Map<string, Array<{ parent: ResourceDef; child: ChildrenDef }>> {
  const out = new Map<string, Array<{ parent: ResourceDef; child: ChildrenDef }>>();
  for (const parent of Object.values(meta.resources)) {
    for (const child of parent.children ?? []) {
      const list = out.get(child.resource) ?? [];
      list.push({ parent, child });
      out.set(child.resource, list);
    }
  }
  return out;
}

export class DocumentEngine {
  private readonly lineHooks: Array<{ resource: string; fn: LinesFn }> = [];
  /** the core's own per-line hooks: the save does their work set-based, so they do not force its slow path */
  private readonly own = new Set<HookFn>();
  /** transactions of saves in progress: their line writes were checked and roll up once, at the end */
  private readonly saving = new WeakSet<Transaction>();
  /** transactions where a step moves many lines: roll-ups wait for rollUpHeaders, once per header */
  private readonly quiet = new WeakSet<Transaction>();
  /** headers being deleted, per transaction ("resource:id") */
  private readonly deleting = new WeakMap<Transaction, Set<string>>();

  constructor(private readonly host: ResourceHost) {}

  private get meta() {
    return this.host.metadata;
  }

  /** Registers a domain rule over a document's lines (before they are written). */
  onLines(resource: string, fn: LinesFn): () => void {
    const res = this.meta.resources[resource];
    if (!res?.children?.length) throw new Error(`documents.onLines: "${resource}" declares no lines (children)`);
    const entry = { resource, fn };
    this.lineHooks.push(entry);
    return () => {
      const i = this.lineHooks.indexOf(entry);
      if (i >= 0) this.lineHooks.splice(i, 1);
    };
  }

  private async runLineHooks(event: LinesEvent): Promise<void> {
    for (const h of this.lineHooks) if (h.resource === event.resource.name) await h.fn(event);
  }

  /** The core's hooks for every declared document: numbers, cascade, freeze, unique keys, roll-ups. */
  install(hooks: HookRegistry): void {
    const add = (phase: 'before' | 'after', action: 'create' | 'update' | 'delete', resource: string, fn: HookFn) => {
      this.own.add(fn);
      hooks.on(phase, action, resource, fn);
    };
    for (const res of Object.values(this.meta.resources)) {
      if (res.number) {
        const numbered = res as ResourceDef & { number: DocumentNumberDef };
        add('before', 'create', res.name, async (e) => {
          const data = e.data!;
          const v = data[numbered.number.field];
          if (v !== undefined && v !== null && v !== '') return;
          if (e.ctx.orgId === null) return;
          const field = numbered.number.field;
          const model = this.host.db.models[res.name];
          const orgField = orgFieldOf(res);
          // the day in a dated number is the organisation's day
          const zone = await this.host.zoneOf?.(e.ctx.orgId);
          const at = new Date();
          // A number typed in by hand earlier may sit on the sequence's path: step over it.
          for (let tries = 0; tries < 1000; tries++) {
            const candidate = await nextDocumentNumber(this.host.db, numbered, e.ctx.orgId, e.transaction, at, zone);
            const taken = await model.count({
              where: { [field]: candidate, ...(orgField && orgField !== 'id' ? { [orgField]: e.ctx.orgId } : {}) },
              transaction: e.transaction,
            });
            if (!taken) return void (data[field] = candidate);
          }
          throw new Error(`${res.name}: no free document number after 1000 tries`);
        });
      }
      // Cascade itself is the delete path's (references.ts: `cascade: true` lines go with their
      // header). Lines leaving with their header are neither frozen nor rolled up.
      if (res.children?.length) {
        add('before', 'delete', res.name, (e) => {
          let set = this.deleting.get(e.transaction);
          if (!set) this.deleting.set(e.transaction, (set = new Set()));
          set.add(`${res.name}:${e.row!.id}`);
        });
      }
    }
    for (const [childName, hangs] of parentsOf(this.meta)) {
      for (const { parent, child } of hangs) {
        const lineRules = async (e: HookEvent) => {
          if (this.saving.has(e.transaction)) return;
          const previous = e.previous ?? (e.action === 'delete' ? e.row : undefined);
          const values = e.action === 'delete' ? {} : (e.data ?? {});
          // a new line is the write's own values: what a rule fills in (a carrier's code) is written
          const merged = previous ? { ...previous, ...values } : values;
          const headerIds = new Set([previous?.[child.foreignKey], merged[child.foreignKey]].filter((x) => x !== null && x !== undefined).map(Number));
          const repos = boundRepos(this.host, e.ctx, e.transaction);
          for (const headerId of headerIds) {
            if (this.deleting.get(e.transaction)?.has(`${parent.name}:${headerId}`)) continue;
            // The header's row lock serialises line writes of one document: checks and totals see them all.
            const [header] = await repos(parent.name).rows({ id: headerId }, { lock: 'update' });
            if (!header) continue; // the repository's ref check answers a missing header
            this.checkEditable(parent, child, header);
            if (e.action !== 'delete' && headerId === Number(merged[child.foreignKey]))
              await this.checkUniqueLine(parent, child, repos(childName), header, merged, previous ? Number(previous.id) : null);
            // snapshots and exclusive keys over what this write sets (the new line, or the changed values)
            if (e.action !== 'delete' && headerId === Number(merged[child.foreignKey]))
              await this.prepareLines(parent, child, headerId, [e.action === 'create' ? merged : values], e.ctx, e.transaction);
            const event: LinesEvent = {
              resource: parent,
              child,
              ctx: e.ctx,
              transaction: e.transaction,
              header,
              added: e.action === 'create' || (previous && headerId !== Number(previous[child.foreignKey])) ? (e.action === 'delete' ? [] : [merged]) : [],
              changed:
                e.action === 'update' && previous && headerId === Number(previous[child.foreignKey]) && headerId === Number(merged[child.foreignKey])
                  ? [{ previous, values }]
                  : [],
              removed: e.action === 'delete' || (previous && headerId !== Number(merged[child.foreignKey])) ? [previous!] : [],
              repo: repos,
            };
            await this.runLineHooks(event);
          }
        };
        const rollUp = async (e: HookEvent) => {
          if (this.saving.has(e.transaction) || this.quiet.has(e.transaction)) return;
          const ids = new Set([e.row?.[child.foreignKey], e.previous?.[child.foreignKey]].filter((x) => x !== null && x !== undefined).map(Number));
          const repos = boundRepos(this.host, e.ctx, e.transaction);
          for (const id of ids) if (!this.deleting.get(e.transaction)?.has(`${parent.name}:${id}`)) await this.rollUp(parent, child, repos, id);
        };
        for (const action of ['create', 'update', 'delete'] as const) {
          add('before', action, childName, lineRules);
          if (child.rollUps?.length) add('after', action, childName, rollUp);
        }
        // both skip lines whose header is being deleted: a cascade from it need not run them per line
        hooks.quietWhenCascaded(lineRules, parent.name);
        hooks.quietWhenCascaded(rollUp, parent.name);
      }
    }
  }

  /**
   * Imported lines, a chunk at a time (the import engine's chunk handler, registered to run
   * after plugins' own): the per-line hooks stand aside for the chunk's transaction and their
   * work is done set-based — each header locked once, frozen lines and duplicate line keys
   * refused, `onLines` hooks run once per header with all its added lines, roll-ups once per
   * header. A refusal here throws, and the engine redoes the chunk row by row through those
   * per-line hooks, which name each row's problem.
   */
  importLines(childName: string): ImportChunkHandler | null {
    const hangs = parentsOf(this.meta).get(childName);
    if (!hangs?.length) return null;
    const touched = new WeakMap<Transaction, Array<{ parent: ResourceDef; child: ChildrenDef; headerId: number }>>();
    return {
      beforeCreateMany: async (e) => {
        this.saving.add(e.transaction);
        const repos = boundRepos(this.host, e.ctx, e.transaction);
        const done: Array<{ parent: ResourceDef; child: ChildrenDef; headerId: number }> = [];
        for (const { parent, child } of hangs) {
          const byHeader = new Map<number, Array<Record<string, unknown>>>();
          for (const r of e.rows) {
            const id = r.values[child.foreignKey];
            if (id === null || id === undefined) continue;
            byHeader.set(Number(id), [...(byHeader.get(Number(id)) ?? []), r.values]);
          }
          for (const [headerId, added] of byHeader) {
            const [header] = await repos(parent.name).rows({ id: headerId }, { lock: 'update' });
            if (!header) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
            this.checkEditable(parent, child, header);
            const keys = child.uniqueKeys ?? [];
            if (keys.length === 1) {
              const values = added.map((a) => a[keys[0]]).filter((v) => v !== null && v !== undefined);
              const lines = repos(child.resource);
              if (values.length && (await lines.count({ [child.foreignKey]: headerId, [keys[0]]: { [Op.in]: values } }, 'share')))
                throw new ApiError(ErrorCode.duplicate, 'server.errors.duplicate');
            }
            await this.prepareLines(parent, child, headerId, added, e.ctx, e.transaction);
            await this.runLineHooks({ resource: parent, child, ctx: e.ctx, transaction: e.transaction, header, added, changed: [], removed: [], repo: repos });
            done.push({ parent, child, headerId });
          }
        }
        touched.set(e.transaction, done);
      },
      afterCreateMany: async (e) => {
        const repos = boundRepos(this.host, e.ctx, e.transaction);
        for (const { parent, child, headerId } of touched.get(e.transaction) ?? []) await this.rollUp(parent, child, repos, headerId);
      },
    };
  }

  /**
   * What the declarations say of lines being written (`lines`: new lines, or the values a change
   * sets), set-based: snapshot fields copied from the row their ref names (a carrier's serial
   * and code as they were when shipped), and exclusive keys — a key on at most one document in
   * the `while` statuses. The key's rows are locked first, so two writers putting one carrier on
   * two orders take turns and the second sees the first's line (SQLite: one writer anyway).
   */
  private async prepareLines(
    parent: ResourceDef,
    child: ChildrenDef,
    headerId: number,
    lines: Array<Record<string, unknown>>,
    ctx: RequestContext,
    transaction: Transaction,
  ): Promise<void> {
    if (!lines.length) return;
    const lineRes = this.meta.resources[child.resource];
    const repos = boundRepos(this.host, ctx, transaction);
    const targetOf = (field: string) => this.meta.resources[lineRes.fields.find((f) => f.name === field)?.ref?.resource ?? ''];
    const idsOf = (field: string) => [
      ...new Set(
        lines
          .map((l) => l[field])
          .filter((v) => v !== null && v !== undefined)
          .map(Number),
      ),
    ];
    const ex = child.exclusive;
    // exclusive keys first: their rows' locks order concurrent writers before anything is read
    let keyRows: Row[] = [];
    if (ex && lines.some((l) => ex.key in l)) {
      const target = targetOf(ex.key);
      const values = idsOf(ex.key);
      if (target && values.length)
        keyRows = await repos(target.name).rows({ id: { [Op.in]: values } }, { attributes: ['id', target.titleField], lock: 'update' });
    }
    // snapshots, one read per ref field
    const byRef = new Map<string, FieldDef[]>();
    for (const f of lineRes.fields)
      if (f.snapshot && lines.some((l) => f.snapshot!.of in l)) byRef.set(f.snapshot.of, [...(byRef.get(f.snapshot.of) ?? []), f]);
    for (const [of, fields] of byRef) {
      const target = targetOf(of);
      const ids = idsOf(of);
      if (!target || !ids.length) continue;
      const rows = new Map(
        (await repos(target.name).rows({ id: { [Op.in]: ids } }, { attributes: ['id', ...new Set(fields.map((f) => f.snapshot!.field))] })).map((r) => [
          Number(r.id),
          r,
        ]),
      );
      for (const l of lines) {
        if (!(of in l)) continue;
        const r = rows.get(Number(l[of]));
        for (const f of fields) l[f.name] = r ? (r[f.snapshot!.field] ?? null) : null;
      }
    }
    if (ex && keyRows.length) await this.checkExclusive(parent, child, headerId, keyRows, repos);
  }

  /** 10003 when a key is on a line of another document in the exclusive statuses (naming the key's titles and that document). */
  private async checkExclusive(
    parent: ResourceDef,
    child: ChildrenDef,
    headerId: number,
    keyRows: Row[],
    repos: (r: string) => BoundRepository,
  ): Promise<void> {
    const ex = child.exclusive!;
    const lineWhere: Record<string, unknown> = {};
    for (const [f, vs] of Object.entries(ex.lines ?? {})) lineWhere[f] = { [Op.in]: vs };
    // locking reads: the latest committed lines, not the transaction's snapshot (MariaDB)
    const others = await repos(child.resource).rows(
      { ...lineWhere, [ex.key]: { [Op.in]: keyRows.map((r) => Number(r.id)) }, [child.foreignKey]: { [Op.ne]: headerId } },
      { attributes: [ex.key, child.foreignKey], lock: 'share' },
    );
    if (!others.length) return;
    const statusField = parent.statusField ?? 'status';
    const open = await repos(parent.name).rows(
      { id: { [Op.in]: [...new Set(others.map((o) => Number(o[child.foreignKey])))] }, [statusField]: { [Op.in]: ex.while as Array<string | number> } },
      { attributes: ['id', parent.titleField], lock: 'share' },
    );
    if (!open.length) return;
    const openIds = new Map(open.map((o) => [Number(o.id), String(o[parent.titleField] ?? `#${o.id}`)]));
    const clash = others.filter((o) => openIds.has(Number(o[child.foreignKey])));
    const target = this.meta.resources[this.meta.resources[child.resource].fields.find((f) => f.name === ex.key)!.ref!.resource];
    const titleOf = new Map(keyRows.map((r) => [Number(r.id), String(r[target.titleField] ?? `#${r.id}`)]));
    const keys = [...new Set(clash.map((c) => titleOf.get(Number(c[ex.key]))!))];
    throw new ApiError(ErrorCode.duplicate, ex.message ?? 'server.documents.exclusive', {
      values: keys.length > 10 ? `${keys.slice(0, 10).join(', ')} … (+${keys.length - 10})` : keys.join(', '),
      resource: tKey(resourceLabelKey(parent)),
      title: openIds.get(Number(clash[0][child.foreignKey])),
      ...(ex.reason === undefined ? {} : { importCode: ex.reason }),
    });
  }

  /** 10004 when the header's status freezes its lines. */
  private checkEditable(parent: ResourceDef, child: ChildrenDef, header: Row): void {
    const rule = child.editableWhen;
    if (!rule || rule.values.some((v) => same(v, header[rule.field]))) return;
    const f = parent.fields.find((x) => x.name === rule.field);
    const label = (v: unknown) => {
      const e = (this.meta.enums[f?.enum ?? ''] ?? []).find((x) => same(x.value, v));
      return e ? tKey(e.label) : String(v);
    };
    const wanted = rule.values.map(label);
    throw new ApiError(ErrorCode.statusForbidden, rule.message ?? 'server.documents.linesFrozen', {
      resource: tKey(resourceLabelKey(parent)),
      title: String(header[parent.titleField] ?? `#${header.id}`),
      field: f ? fieldParam(f) : rule.field,
      current: label(header[rule.field]),
      wanted: wanted.length === 1 ? wanted[0] : wanted,
    });
  }

  /** 10003 when another line of the same document holds the same unique key values. */
  private async checkUniqueLine(
    parent: ResourceDef,
    child: ChildrenDef,
    lines: BoundRepository,
    header: Row,
    line: Record<string, unknown>,
    selfId: number | null,
  ): Promise<void> {
    const keys = child.uniqueKeys ?? [];
    if (!keys.length || keys.some((k) => line[k] === null || line[k] === undefined)) return;
    const where: WhereOptions[] = [{ [child.foreignKey]: header.id }, ...keys.map((k) => ({ [k]: line[k] }))];
    if (selfId !== null) where.push({ id: { [Op.ne]: selfId } });
    if (await lines.count({ [Op.and]: where }, 'share')) throw await this.duplicateLine(parent, child, lines, header, line);
  }

  private async duplicateLine(
    parent: ResourceDef,
    child: ChildrenDef,
    lines: BoundRepository,
    header: Row,
    line: Record<string, unknown>,
    lineNo?: number,
  ): Promise<ApiError> {
    const childRes = this.meta.resources[child.resource];
    const keys = child.uniqueKeys ?? [];
    const fields = keys.map((k) => childRes.fields.find((f) => f.name === k) ?? ({ name: k } as FieldDef));
    // Show what a person typed: the ref's label (a carrier's sn), not its id.
    const [labelled] = await new ScopedRepository(this.host, childRes, lines.ctx).serialize([{ ...line, id: line.id ?? 0 } as Row], lines.transaction);
    const value = fields.map((f) => String((f.type === 'ref' ? labelled[`${f.name}Label`] : undefined) ?? line[f.name])).join(' / ');
    return new ApiError(ErrorCode.duplicate, lineNo === undefined ? 'server.documents.duplicateLine' : 'server.documents.duplicateLineAt', {
      field: fields.length === 1 ? fieldParam(fields[0]) : fields.map((f) => tKey(fieldLabelKey(f))),
      value,
      resource: tKey(resourceLabelKey(parent)),
      title: String(header[parent.titleField] ?? `#${header.id}`),
      line: lineNo,
    });
  }

  /** Recomputes the header's roll-ups from its lines: one aggregate query, one UPDATE. */
  async rollUp(parent: ResourceDef, child: ChildrenDef, repos: (r: string) => BoundRepository, headerId: number): Promise<void> {
    if (!child.rollUps?.length) return;
    const lines = repos(child.resource);
    const values: Record<string, unknown> = {};
    const model = this.host.db.models[child.resource];
    const sql = model.sequelize!;
    const column = (name: string) => sql.getQueryInterface().quoteIdentifier(model.getAttributes()[name].field!);
    // a roll-up with `where` counts (sums) only its lines: SUM(CASE WHEN … THEN 1|x ELSE 0 END)
    const filtered = (r: RollUpDef) => {
      const cond = Object.entries(r.where ?? {})
        .map(([f, vs]) => `${column(f)} IN (${vs.map((v) => sql.escape(v)).join(', ')})`)
        .join(' AND ');
      return sql.fn('SUM', sql.literal(`CASE WHEN ${cond} THEN ${r.kind === 'count' ? '1' : column(r.of!)} ELSE 0 END`));
    };
    const attrs = child.rollUps.map(
      (r, i) =>
        [
          r.where && Object.keys(r.where).length
            ? filtered(r)
            : r.kind === 'count'
              ? sql.fn('COUNT', sql.col('id'))
              : sql.fn('SUM', sql.col(model.getAttributes()[r.of!].field!)),
          `r${i}`,
        ] as [unknown, string],
    );
    const [agg] = (await model.findAll({
      attributes: attrs as never,
      where: lines.where({ [child.foreignKey]: headerId }),
      transaction: lines.transaction,
      raw: true,
      lock: lines.lockOf('share'),
    })) as unknown as Array<Record<string, unknown>>;
    child.rollUps.forEach((r, i) => (values[r.field] = Number(agg?.[`r${i}`] ?? 0) || 0));
    await this.host.db.models[parent.name].update(values, {
      where: { [Op.and]: [scopeWhere(parent, lines.ctx), { id: headerId }] },
      transaction: lines.transaction,
      silent: true,
    });
  }

  /**
   * Runs fn (a step over lines) with the per-line roll-ups held, then rolls up each header of
   * the lines once: a 5,000-line step costs one aggregate per document, not one per line.
   */
  async linesMoving<T>(
    lineResource: string,
    ctx: RequestContext,
    transaction: Transaction,
    headerIdsOf: () => Promise<number[]>,
    fn: () => Promise<T>,
  ): Promise<T> {
    const hangs = parentsOf(this.meta).get(lineResource) ?? [];
    if (!hangs.some((h) => h.child.rollUps?.length)) return fn();
    // a line step run by another one (a receipt's line receiving its order's line) rolls up its own headers too
    const outer = this.quiet.has(transaction);
    if (!outer) this.quiet.add(transaction);
    let out: T;
    try {
      out = await fn();
    } finally {
      if (!outer) this.quiet.delete(transaction);
    }
    await this.rollUpHeaders(lineResource, await headerIdsOf(), ctx, transaction);
    return out;
  }

  /** Roll-ups of these headers of a line resource, recomputed once each. */
  async rollUpHeaders(lineResource: string, headerIds: number[], ctx: RequestContext, transaction: Transaction): Promise<void> {
    const repos = boundRepos(this.host, ctx, transaction);
    for (const { parent, child } of parentsOf(this.meta).get(lineResource) ?? []) {
      if (!child.rollUps?.length) continue;
      for (const id of new Set(headerIds)) await this.rollUp(parent, child, repos, id);
    }
  }

  /**
   * The document's line rules (`onLines`, unique keys, references) over one new line, answered
   * instead of thrown: a scan or an import names each refused line and keeps the others.
   * Frozen lines do not apply — a step adds the line. The rules may fill in the values (snapshots).
   */
  async checkLine(
    parent: ResourceDef,
    child: ChildrenDef,
    header: Row,
    values: Record<string, unknown>,
    ctx: RequestContext,
    transaction: Transaction,
  ): Promise<ApiError | null> {
    const repos = boundRepos(this.host, ctx, transaction);
    try {
      await this.checkLineRefs(this.meta.resources[child.resource], [values], ctx, transaction);
      await this.checkUniqueLine(parent, child, repos(child.resource), header, values, null);
      await this.prepareLines(parent, child, Number(header.id), [values], ctx, transaction);
      await this.runLineHooks({ resource: parent, child, ctx, transaction, header, added: [values], changed: [], removed: [], repo: repos });
      return null;
    } catch (err) {
      if (err instanceof ApiError) return err;
      throw err;
    }
  }

  /** Refuses roll-up fields a client sent (they are computed from the lines). */
  refuseRollUps(res: ResourceDef, body: Record<string, unknown>): void {
    for (const name of rollUpFields(res)) {
      if (body[name] === undefined || body[name] === null) continue;
      const f = res.fields.find((x) => x.name === name) ?? { name };
      throw fieldError(f, 'rollUp', {}, 200);
    }
  }

  /**
   * `<prefix>/save`: `{ id?, …header fields, lines: { "<line resource>": [ { id?, …line } ] } }`
   * (or `lines: [ … ]` when the document has one kind of line). A line list replaces the
   * document's lines: lines with an id change, without one are added, missing ones go; a
   * kind of line left out of `lines` stays as it is.
   */
  async save(res: ResourceDef, body: Record<string, unknown>, ctx: RequestContext): Promise<Row> {
    this.refuseRollUps(res, body);
    const children = inlineChildren(res);
    const given = this.linesOf(res, children, body.lines);
    const { lines: _lines, ...headerBody } = body;
    const scoped = new ScopedRepository(this.host, res, ctx);
    const isUpdate = headerBody.id !== undefined && headerBody.id !== null;
    // Every line is validated before the transaction opens: a bad line costs no lock.
    const validated = new Map<ChildrenDef, Array<{ id: number | null; values: Record<string, unknown> }>>();
    for (const [child, rows] of given) validated.set(child, this.validateLines(res, child, rows));
    try {
      return await retryingTransaction(this.host.db.sequelize, async (transaction) => {
        this.saving.add(transaction);
        const header = isUpdate ? await scoped.update(headerBody, { transaction }) : await scoped.create(headerBody, { transaction });
        const headerId = Number(header.id);
        const repos = boundRepos(this.host, ctx, transaction);
        const out: Record<string, { total: number; ids: number[] }> = {};
        for (const child of children) {
          const lines = validated.get(child);
          // a new document's empty list leaves the lines its source gave it (a receipt's shipped carriers)
          const fromSource = !isUpdate && lines?.length === 0 && res.source?.lines?.child === child.resource;
          if (lines && !fromSource) await this.writeLines(res, child, header, lines, repos, transaction);
          if (child.rollUps?.length) await this.rollUp(res, child, repos, headerId);
        }
        const [final] = await scoped.serialize([await scoped.find(headerId, transaction)], transaction);
        // The lines' ids in document order, not the rows: a 5,000-line save need not echo them
        // (the client has them; `<line>/list` with the foreign key pages through them).
        for (const child of children) {
          const ids = (await repos(child.resource).rows({ [child.foreignKey]: headerId }, { attributes: ['id'], order: [['id', 'ASC']] })).map((r) =>
            Number(r.id),
          );
          out[child.resource] = { total: ids.length, ids };
        }
        return { ...final, lines: out };
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw new ApiError(ErrorCode.duplicate, 'server.errors.duplicate');
      throw err;
    }
  }

  private linesOf(res: ResourceDef, children: ChildrenDef[], raw: unknown): Map<ChildrenDef, Array<Record<string, unknown>>> {
    const out = new Map<ChildrenDef, Array<Record<string, unknown>>>();
    if (raw === undefined || raw === null) return out;
    const linesField = { name: 'lines', label: resourceLabelKey(this.meta.resources[children[0].resource]) };
    let byName: Record<string, unknown>;
    if (Array.isArray(raw)) {
      if (children.length !== 1) throw typeError({ name: 'lines' }, 'object');
      byName = { [children[0].resource]: raw };
    } else if (typeof raw === 'object') byName = raw as Record<string, unknown>;
    else throw typeError(linesField, 'list');
    for (const [name, rows] of Object.entries(byName)) {
      const child = children.find((c) => c.resource === name);
      if (!child) throw new ApiError(ErrorCode.validation, 'server.documents.unknownLines', { name, resource: tKey(resourceLabelKey(res)) }, 400);
      const field = { name, label: resourceLabelKey(this.meta.resources[name]) };
      if (!Array.isArray(rows)) throw typeError(field, 'list');
      if (rows.length > MAX_LINES) throw new ApiError(ErrorCode.validation, 'server.documents.tooManyLines', { max: MAX_LINES }, 400);
      for (const r of rows) if (r === null || typeof r !== 'object' || Array.isArray(r)) throw typeError(field, 'object');
      out.set(child, rows as Array<Record<string, unknown>>);
    }
    return out;
  }

  /** Field rules per line; a refusal names the line (1-based) and then the field's own message. */
  private validateLines(
    res: ResourceDef,
    child: ChildrenDef,
    rows: Array<Record<string, unknown>>,
  ): Array<{ id: number | null; values: Record<string, unknown> }> {
    const childRes = this.meta.resources[child.resource];
    const orgField = orgFieldOf(childRes);
    const skip = new Set([child.foreignKey, ...(orgField ? [orgField] : [])]);
    const keys = child.uniqueKeys ?? [];
    const seen = new Map<string, number>();
    return rows.map((row, i) => {
      try {
        const id = row.id === undefined || row.id === null ? null : row.id;
        if (id !== null && (typeof id !== 'number' || !Number.isInteger(id) || id < 1)) throw typeError({ name: 'id' }, 'id');
        const values = validateWrite(childRes, this.meta.enums, row, { mode: 'create', skip });
        checkCompareRules(childRes, values);
        if (keys.length && keys.every((k) => values[k] !== null && values[k] !== undefined)) {
          const key = JSON.stringify(keys.map((k) => values[k]));
          if (seen.has(key))
            throw Object.assign(
              new ApiError(ErrorCode.duplicate, 'server.documents.duplicateInSave', {
                line: i + 1,
                first: seen.get(key)! + 1,
                field: keys.map((k) => tKey(fieldLabelKey(childRes.fields.find((f) => f.name === k) ?? { name: k }))),
              }),
              { lineNumbered: true },
            );
          seen.set(key, i);
        }
        return { id: id as number | null, values };
      } catch (err) {
        throw lineError(err, i + 1, childRes);
      }
    });
  }

  private async writeLines(
    res: ResourceDef,
    child: ChildrenDef,
    header: Row,
    lines: Array<{ id: number | null; values: Record<string, unknown> }>,
    repos: (r: string) => BoundRepository,
    transaction: Transaction,
  ): Promise<void> {
    const childRes = this.meta.resources[child.resource];
    const repo = repos(child.resource);
    const headerId = Number(header.id);
    // The header row is locked by its own write above; the lines are read as committed.
    const stored = await repo.rows({ [child.foreignKey]: headerId }, { lock: 'update' });
    const byId = new Map(stored.map((r) => [Number(r.id), r]));
    const added: Array<Record<string, unknown>> = [];
    const changed: Array<{ previous: Row; values: Record<string, unknown>; line: number }> = [];
    const kept = new Set<number>();
    lines.forEach(({ id, values }, i) => {
      if (id === null) return void added.push({ ...values, [child.foreignKey]: headerId });
      const previous = byId.get(id);
      // A line id of another document (or none) is not this document's line.
      if (!previous) throw lineError(new ApiError(ErrorCode.notFound, 'server.errors.10002'), i + 1, childRes);
      kept.add(id);
      // Only what the client sent and differs is written (defaults of absent fields are not).
      const diff = Object.fromEntries(Object.entries(values).filter(([k, v]) => k in lines[i].values && !sameJson(previous[k], v)));
      if (Object.keys(diff).length) changed.push({ previous, values: diff, line: i + 1 });
    });
    const removed = stored.filter((r) => !kept.has(Number(r.id)));
    if (!added.length && !changed.length && !removed.length) return;
    this.checkEditable(res, child, header);
    await this.checkLineRefs(childRes, [...added, ...changed.map((c) => c.values)], repo.ctx, transaction);
    await this.checkLineUniques(childRes, child, headerId, added, changed, repo);
    await this.prepareLines(res, child, headerId, [...added, ...changed.map((c) => c.values)], repo.ctx, transaction);
    await this.runLineHooks({
      resource: res,
      child,
      ctx: repo.ctx,
      transaction,
      header,
      added,
      changed: changed.map(({ previous, values }) => ({ previous, values })),
      removed,
      repo: repos,
    });

    const slow = this.host.hooks.hasOther(['before', 'after'], child.resource, this.own);
    const scoped = new ScopedRepository(this.host, childRes, repo.ctx);
    if (slow) {
      // Other code listens to single line writes: give it each line through the repository.
      const model = this.host.db.models[childRes.name];
      for (const row of await scoped.serialize(removed, transaction)) {
        await this.host.hooks.run('before', { action: 'delete', resource: childRes, ctx: repo.ctx, transaction, row });
        await model.destroy({ where: repo.where({ id: row.id }), transaction });
        await this.host.hooks.run('after', { action: 'delete', resource: childRes, ctx: repo.ctx, transaction, row });
      }
      for (const c of changed) await scoped.update({ ...c.values, id: Number(c.previous.id) }, { transaction });
      for (const a of added) await scoped.create(a, { transaction });
      return;
    }
    if (removed.length) await repo.deleteWhere({ id: { [Op.in]: removed.map((r) => Number(r.id)) } });
    for (const c of changed) await repo.updateWhere(c.values, { id: Number(c.previous.id) });
    await repo.insertMany(added);
  }

  /** Every referenced id in the caller's scope: one query per ref field for all lines. */
  private async checkLineRefs(childRes: ResourceDef, rows: Array<Record<string, unknown>>, ctx: RequestContext, transaction: Transaction): Promise<void> {
    for (const f of childRes.fields) {
      if ((f.type !== 'ref' && f.type !== 'refs') || !f.ref) continue;
      const target = this.meta.resources[f.ref.resource];
      if (!target) continue;
      const ids = new Set<number>();
      for (const r of rows) {
        const v = r[f.name];
        if (v === null || v === undefined) continue;
        for (const id of Array.isArray(v) ? v : [v]) ids.add(Number(id));
      }
      if (!ids.size) continue;
      const found = await this.host.db.models[target.name].count({
        where: { [Op.and]: [{ id: { [Op.in]: [...ids] } }, refScopeWhere(childRes, f.name, target, ctx)] },
        transaction,
      });
      if (found !== ids.size) throw fieldError(f, 'refMissing');
    }
    for (const r of rows) {
      const refused = warehouseRefusal(childRes, ctx, r);
      if (refused) throw fieldError(childRes.fields.find((f) => f.name === refused) ?? { name: refused }, 'warehouse');
    }
  }

  /** Unique line fields (`unique: "org"`) against other documents' lines: one query per field. */
  private async checkLineUniques(
    childRes: ResourceDef,
    child: ChildrenDef,
    headerId: number,
    added: Array<Record<string, unknown>>,
    changed: Array<{ values: Record<string, unknown> }>,
    repo: BoundRepository,
  ): Promise<void> {
    for (const f of childRes.fields) {
      if (!f.unique) continue;
      const values = [...added, ...changed.map((c) => c.values)].map((r) => r[f.name]).filter((v) => v !== null && v !== undefined);
      if (!values.length) continue;
      const where = { [Op.and]: [{ [f.name]: { [Op.in]: values } }, { [child.foreignKey]: { [Op.ne]: headerId } }] };
      const clash =
        f.unique === 'org'
          ? await repo.rows(where, { attributes: [f.name], limit: 1 })
          : ((await this.host.db.models[childRes.name].findAll({
              where,
              attributes: [f.name],
              limit: 1,
              raw: true,
              transaction: repo.transaction,
            })) as unknown as Row[]);
      if (clash.length) throw new ApiError(ErrorCode.duplicate, 'server.errors.10003', { field: fieldParam(f), value: clash[0][f.name] });
    }
  }

  /** The save call of each document resource. */
  calls(): CallDef[] {
    return Object.values(this.meta.resources)
      .filter((r) => inlineChildren(r).length > 0 && r.calls?.create !== false)
      .map((res) => ({ path: documentSavePath(res), resource: res.name, handler: ({ body, ctx }) => this.save(res, body, ctx) }));
  }
}

/** A line's refusal: the same code, the message prefixed with the line number. */
function lineError(err: unknown, line: number, childRes: ResourceDef): unknown {
  if (!(err instanceof ApiError) || (err as ApiError & { lineNumbered?: boolean }).lineNumbered) return err;
  return Object.assign(
    new ApiError(
      err.code,
      'server.documents.lineError',
      { resource: tKey(resourceLabelKey(childRes)), line, message: { $t: err.messageKey, params: err.params } },
      err.httpStatus,
    ),
    { lineNumbered: true },
  );
}
