/**
 * Named workflow steps (metadata `transitions`, and `rules.statusUpdate` as the step
 * `statusUpdate`). One call per step, plus any shared status call (`statusCall`) that picks
 * the step by the target the caller sends. Its body is `{ id }` or `{ ids }` plus the step's inputs.
 * It runs in one transaction:
 *
 *   1. the inputs are validated like fields, and the rows must be in the caller's scope (10002);
 *   2. every row must be in a status the step starts from (10004 names current and wanted);
 *   3. one conditional UPDATE … WHERE id IN (…) AND status IN (from) moves them all. If it
 *      matches fewer rows, a concurrent step got there first: 10004, and nothing is written;
 *   4. the step's hooks (`ctx.transitions.on(resource, step, fn)`) run with a transaction-bound
 *      scoped repository. A throw rolls back the status change and everything they wrote;
 *   5. the generic after-update hooks see each row (operation log, caches, device logs).
 *
 * Like Medusa's workflows, a business step is a named sequence of small steps. Here the
 * database transaction is the compensation, so a hook never has to undo its siblings.
 */
import {
  STATUS_UPDATE_STEP,
  parentOf,
  fieldLabelKey,
  guardStopsUser,
  resourceLabelKey,
  resourceTransitions,
  statusCalls,
  transitionInputs,
  transitionLabelKey,
  type FieldDef,
  type ResolvedTransition,
  type ResourceDef,
} from '@rti/metadata';
import { Op, UniqueConstraintError, type Model, type ModelStatic, type Transaction, type UpdateOptions } from 'sequelize';
import { retryingTransaction } from '../db/retry';
import { findRowViews, type RowView } from '../db/row-views';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, RequestContext } from '../http/types';
import { tKey } from '../i18n/translator';
import { BoundRepository } from './bound-repository';
import { fieldError, fieldParam, notFound, typeError } from './errors';
import { readId } from '../http/params';
import { MAX_LIMIT } from './query';
import { ScopedRepository, type ResourceHost } from './repository';
import { linesGranting, scopeWhere } from './scope';
import { plainRow, renderTexts, type Row } from './serialize';
import { requiredError, validateValue } from './validate';

export interface TransitionEvent {
  resource: ResourceDef;
  step: ResolvedTransition;
  ctx: RequestContext;
  transaction: Transaction;
  /** the documents moved, in the order the caller sent them */
  ids: number[];
  /** the rows before the step (API shape) */
  previous: Row[];
  /** the rows after the status change (API shape) */
  rows: Row[];
  /** the status they moved to */
  to: string | number;
  /** the validated inputs (own inputs and written fields) */
  input: Record<string, unknown>;
  /**
   * When the step happened: now, or the time the caller gave for the step's stamp (a step
   * recorded after the fact, when its stamp time field is one of its inputs). Side effects
   * date what they write with it.
   */
  at: Date;
  /** the caller's scoped repository of any resource, bound to this transaction */
  repo(resource: string): BoundRepository;
  /** runs after the commit (live events, mails); never when the step rolls back */
  afterCommit(fn: () => unknown): void;
  /**
   * Runs another step (of this or another resource) in this transaction, as its call would:
   * inputs validated, wrong status refused (10004), its hooks, stamps and operation log.
   */
  run(resource: string, step: string, ids: number[], input?: Record<string, unknown>): Promise<Row[]>;
  /** the step that ran this one from code (`run`), or a line step moving its header; undefined for a call */
  cause?: StepCause;
}

/** Which step ran a step from code. */
export interface StepCause {
  resource: string;
  step: string;
  ids: number[];
}

export type TransitionFn = (event: TransitionEvent) => Promise<void> | void;

const ID_FIELD: FieldDef = { name: 'id', type: 'ref' };
/** a step's time given by the caller may run ahead of the server's clock by this much, never more */
const CLOCK_SKEW_MS = 5 * 60_000;
const MAX_ID = 2 ** 31 - 1;
const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);

/** Hooks per resource and step, in registration order. */
export class TransitionRegistry {
  private readonly hooks: Array<{ resource: string; step: string; fn: TransitionFn }> = [];

  constructor(private readonly resources: () => Record<string, ResourceDef>) {}

  /** Registers a side effect of a step; an unknown resource or step fails at start, not at run time. */
  on(resource: string, step: string, fn: TransitionFn): () => void {
    const res = this.resources()[resource];
    if (!res) throw new Error(`transitions.on: unknown resource "${resource}"`);
    if (!resourceTransitions(res).some((t) => t.name === step)) {
      const known = resourceTransitions(res).map((t) => t.name);
      throw new Error(`transitions.on: resource "${resource}" has no step "${step}" (${known.length ? known.join(', ') : 'it declares none'})`);
    }
    const entry = { resource, step, fn };
    this.hooks.push(entry);
    return () => {
      const i = this.hooks.indexOf(entry);
      if (i >= 0) this.hooks.splice(i, 1);
    };
  }

  async run(event: TransitionEvent): Promise<void> {
    for (const h of this.hooks) if (h.resource === event.resource.name && h.step === event.step.name) await h.fn(event);
  }
}

function parseIds(body: Record<string, unknown>, bounded = true): { ids: number[]; many: boolean } {
  const many = body.ids !== undefined;
  const raw = many ? body.ids : body.id;
  if (raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && !raw.length)) throw requiredError(ID_FIELD);
  const list = many ? raw : [raw];
  if (!Array.isArray(list)) throw typeError(ID_FIELD, 'list');
  // an id an INTEGER column can hold: 1e30 would otherwise reach the driver
  for (const v of list) if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID) throw typeError(ID_FIELD, 'id');
  const ids = [...new Set(list as number[])];
  // a caller's list is bounded; code running a step over a 5,000-line document passes its own ids
  if (bounded && ids.length > MAX_LIMIT) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_LIMIT }, 400);
  return { ids, many };
}

export interface TransitionDeps {
  host: ResourceHost;
  registry: TransitionRegistry;
  /** roll-ups of documents whose lines a step moves (the document engine) */
  documents?: {
    linesMoving<T>(lineResource: string, ctx: RequestContext, transaction: Transaction, headerIdsOf: () => Promise<number[]>, fn: () => Promise<T>): Promise<T>;
    rollUpHeaders(lineResource: string, headerIds: number[], ctx: RequestContext, transaction: Transaction): Promise<void>;
  };
  /** whether the caller holds a permission code (a step's `guard.permission`); absent = refused */
  can?: (ctx: RequestContext, code: string) => Promise<boolean>;
}

/** The transaction-bound repository factory a hook's event hands out. */
export function boundRepos(host: ResourceHost, ctx: RequestContext, transaction: Transaction): (resource: string) => BoundRepository {
  const cache = new Map<string, BoundRepository>();
  return (name) => {
    let r = cache.get(name);
    if (!r) {
      const res = host.metadata.resources[name];
      if (!res) throw new Error(`unknown resource "${name}"`);
      cache.set(name, (r = new BoundRepository(host, res, ctx, transaction, new ScopedRepository(host, res, ctx))));
    }
    return r;
  };
}

/** A step's call body, validated: the rows, the inputs, the target, the time it happened. */
interface PreparedStep {
  ids: number[];
  many: boolean;
  input: Record<string, unknown>;
  written: Record<string, unknown>;
  given: Date | null;
  target: string | number;
  fromAllowed: Array<string | number> | undefined;
  /** a line step's call naming the document (`{ <foreign key>, ids }`): only its lines are found */
  within?: Record<string, number>;
}

/** Validates a step's body before anything is read (ids, inputs, stamp time, target). */
function prepareStep(deps: TransitionDeps, res: ResourceDef, step: ResolvedTransition, body: Record<string, unknown>, fromCode = false): PreparedStep {
  const enums = deps.host.metadata.enums;
  const statusField = res.fields.find((f) => f.name === step.field);
  if (!statusField) throw new Error(`${res.name}: step ${step.name} moves unknown field ${step.field}`);
  const { ids, many } = parseIds(body, !fromCode);
  const fk = parentOf(deps.host.metadata, res.name)?.child.foreignKey;
  const fkField = fk ? res.fields.find((f) => f.name === fk) : undefined;
  const headerId = fkField ? readId(body, fkField.name, { label: fieldLabelKey(fkField) }) : undefined;

  // Inputs: validated like fields before anything is read.
  const input: Record<string, unknown> = {};
  const written: Record<string, unknown> = {};
  for (const { field, writes } of transitionInputs(res, step)) {
    const raw = body[field.name];
    if (raw === undefined || raw === null || raw === '') {
      if (field.required) throw requiredError(field);
      continue;
    }
    const v = validateValue(field, raw, enums);
    input[field.name] = v;
    if (writes) written[field.name] = v;
  }

  // A step recorded after the fact: its stamp time as given (never in the future), else now.
  const stampField = step.stamp?.time ? res.fields.find((f) => f.name === step.stamp!.time) : undefined;
  const given = stampField && written[stampField.name] !== undefined ? new Date(written[stampField.name] as string | Date) : null;
  if (given && given.getTime() > Date.now() + CLOCK_SKEW_MS) throw fieldError(stampField!, 'notFuture');

  // The target: fixed, or chosen by the caller among the declared ones (status/update).
  let to = step.to;
  if (step.choose) {
    const raw = body[step.field];
    if (raw === undefined || raw === null || raw === '') throw requiredError(statusField);
    to = validateValue(statusField, raw, enums) as string | number;
  }
  if (to === undefined) throw new Error(`${res.name}: step ${step.name} has no target status`);
  // Statuses the rows may be in for this target; undefined = any.
  return {
    ids,
    many,
    input,
    written,
    given,
    target: to,
    fromAllowed: startStatuses(step, to),
    ...(headerId === undefined ? {} : { within: { [fk!]: headerId } }),
  };
}

/** Runs one step for the caller. Answers the row (`id`) or the rows (`ids`). */
export async function runTransition(
  deps: TransitionDeps,
  res: ResourceDef,
  step: ResolvedTransition,
  body: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Row | Row[]> {
  const prepared = prepareStep(deps, res, step, body);
  try {
    const rows = await retryingTransaction(deps.host.db.sequelize, (transaction) => runStepIn(deps, res, step, prepared, ctx, transaction));
    return prepared.many ? rows : rows[0];
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw new ApiError(ErrorCode.duplicate, 'server.errors.duplicate');
    throw err;
  }
}

/**
 * A step run from code (`event.run`): the same validation, conditional UPDATE, hooks, stamps
 * and operation log as its call, inside the caller's transaction. A document's step moving
 * another document goes through here, never through a raw write of its status.
 */
export function runStepFromCode(
  deps: TransitionDeps,
  ctx: RequestContext,
  transaction: Transaction,
  resource: string,
  stepName: string,
  ids: number[],
  body: Record<string, unknown> = {},
  cause?: StepCause,
): Promise<Row[]> {
  const res = deps.host.metadata.resources[resource];
  if (!res) throw new Error(`run: unknown resource "${resource}"`);
  const step = resourceTransitions(res).find((t) => t.name === stepName);
  if (!step) throw new Error(`run: resource "${resource}" has no step "${stepName}"`);
  if (!ids.length) return Promise.resolve([]);
  return runStepIn(deps, res, step, prepareStep(deps, res, step, { ...body, ids }, true), ctx, transaction, cause);
}

/** The step inside an open transaction; a step over document lines rolls each header up once. */
function runStepIn(
  deps: TransitionDeps,
  res: ResourceDef,
  step: ResolvedTransition,
  p: PreparedStep,
  ctx: RequestContext,
  transaction: Transaction,
  cause?: StepCause,
): Promise<Row[]> {
  const parent = parentOf(deps.host.metadata, res.name);
  if (!deps.documents || !parent) return runStepRows(deps, res, step, p, ctx, transaction, cause);
  const fk = parent.child.foreignKey;
  const headerIdsOf = async () =>
    (
      await deps.host.db.models[res.name].findAll({
        where: { [Op.and]: [scopeWhere(res, ctx), { id: { [Op.in]: p.ids } }, ...(p.within ? [p.within] : [])] },
        attributes: [fk],
        transaction,
        raw: true,
      })
    ).map((r) => Number((r as unknown as Row)[fk]));
  return deps.documents.linesMoving(res.name, ctx, transaction, headerIdsOf, () => runStepRows(deps, res, step, p, ctx, transaction, cause));
}

/** The step inside an open transaction: read, check, move, hooks, after-update hooks. */
async function runStepRows(
  deps: TransitionDeps,
  res: ResourceDef,
  step: ResolvedTransition,
  p: PreparedStep,
  ctx: RequestContext,
  transaction: Transaction,
  cause?: StepCause,
): Promise<Row[]> {
  const { host } = deps;
  const enums = host.metadata.enums;
  const statusField = res.fields.find((f) => f.name === step.field)!;
  const { ids, written, given, target, fromAllowed, within } = p;
  const model = host.db.models[res.name];
  const scoped = new ScopedRepository(host, res, ctx);
  const byId = (rows: RowView[]) => new Map(rows.map((r) => [Number(r.get('id')), r]));
  // `latest` reads the committed rows (MySQL's plain reads see the transaction's snapshot)
  const inScope = (latest = false) =>
    findRowViews(model, {
      where: { [Op.and]: [scopeWhere(res, ctx), { id: { [Op.in]: ids } }, ...(within ? [within] : [])] },
      transaction,
      ...(latest && host.db.dialect === 'mysql' ? { lock: transaction.LOCK.SHARE } : {}),
    });

  const found = byId(await inScope());
  // All or nothing: one id out of scope refuses the whole call, without saying which exist.
  if (found.size !== ids.length) throw notFound();
  const ordered = ids.map((id) => found.get(id)!);
  for (const row of ordered)
    if (fromAllowed && !fromAllowed.some((v) => same(v, row.get(step.field)))) throw wrongStatus(res, enums, step, statusField, row, target, fromAllowed);
  if (step.while) await checkHeaders(deps, res, step, ordered, ctx, transaction);
  await checkGuard(deps, res, step, ordered, ctx);
  const plain = (rows: RowView[]) => rows.map((r) => r.get({ plain: true }));
  const previous = await scoped.serialize(plain(ordered), transaction);
  // a copy: get({ plain }) may hand out the instance's own values, which the step's values overwrite below
  const before = ordered.map((r) => ({ ...(r.get({ plain: true }) as Row) }));

  const at = given ?? new Date();
  const values: Record<string, unknown> = { ...written, [step.field]: target, updatedBy: ctx.user?.id ?? null };
  if (step.stamp?.time) values[step.stamp.time] = at;
  if (step.stamp?.user) values[step.stamp.user] = userStamp(res, step.stamp.user, ctx);
  const conditions = [scopeWhere(res, ctx), { id: { [Op.in]: ids } }, ...(fromAllowed ? [{ [step.field]: { [Op.in]: fromAllowed } }] : [])];
  const [moved] = await model.update(values, { where: { [Op.and]: conditions }, transaction });
  if (moved !== ids.length) {
    // A concurrent step moved a row between our read and our update: name its status now.
    const latest = byId(await inScope(true));
    const row = ordered.map((r) => latest.get(Number(r.get('id')))).find((r) => r && fromAllowed && !fromAllowed.some((v) => same(v, r.get(step.field))));
    if (row) throw wrongStatus(res, enums, step, statusField, row, target, fromAllowed!);
    throw new ApiError(ErrorCode.statusForbidden, 'server.errors.10004');
  }
  // writes to these rows from here on (the lines' roll-ups, the hooks) are read back for the answer
  const writesBefore = writesTo(model, transaction);
  // A header step moving its lines (`lines`: a receipt's expected lines become missing on close).
  if (step.lines) {
    const child = (res.children ?? []).find((c) => c.resource === step.lines!.child)!;
    const lineRes = host.metadata.resources[child.resource];
    const field = step.lines.field ?? lineRes.statusField ?? 'status';
    await host.db.models[lineRes.name].update(
      { [field]: step.lines.to, updatedBy: ctx.user?.id ?? null },
      { where: { [Op.and]: [scopeWhere(lineRes, ctx), { [child.foreignKey]: { [Op.in]: ids } }, { [field]: { [Op.in]: step.lines.from } }] }, transaction },
    );
    await deps.documents?.rollUpHeaders(lineRes.name, ids, ctx, transaction);
  }

  // The rows as moved, without reading them again: only `values` changed. A reference the step
  // did not write keeps the label it had (not read again); a step writing a reference reads the
  // labels anew. A 5,000-line step reads its lines twice (before and after), labels them once.
  const refFields = res.fields.filter((f) => f.type === 'ref' || f.type === 'refs');
  const labelOf = (f: FieldDef) => (f.type === 'ref' ? `${f.name}Label` : `${f.name}Labels`);
  const refsWritten = refFields.some((f) => f.name in values);
  const labelled = async (models: RowView[]): Promise<Row[]> => {
    if (refsWritten) return scoped.serialize(plain(models), transaction);
    const out = models.map((r, i) => {
      const row = plainRow(res, r.get({ plain: true }));
      for (const f of refFields) if (labelOf(f) in previous[i]) row[labelOf(f)] = previous[i][labelOf(f)];
      return row;
    });
    if (host.t) renderTexts(res, out, ctx.language, host.t);
    return out;
  };
  for (const r of ordered) r.set(values);
  const rows = await labelled(ordered);
  const answer = rows.map((r) => ({ ...r }));
  const afterCommit = (fn: () => unknown) =>
    transaction.afterCommit(() => {
      Promise.resolve()
        .then(fn)
        .catch(() => undefined);
    });
  const self: StepCause = { resource: res.name, step: step.name, ids };
  // the hooks still see what the moved lines granted before the step (scope through an open document)
  const hookCtx = linesGranting(host.metadata, res, before, ctx);
  const run = (resource: string, stepName: string, runIds: number[], body?: Record<string, unknown>) =>
    runStepFromCode(deps, hookCtx, transaction, resource, stepName, runIds, body, self);
  const repo = boundRepos(host, hookCtx, transaction);
  await deps.registry.run({
    resource: res,
    step,
    ctx: hookCtx,
    transaction,
    ids,
    previous,
    rows,
    to: target,
    input: p.input,
    at,
    repo,
    afterCommit,
    run,
    cause,
  });
  // A line step moving its header: the header's step runs for headers still in its `from`.
  if (step.header) await moveHeaders(deps, res, step, rows, ctx, transaction, at);
  // What the hooks wrote to the rows themselves shows in the answer (read once more; labels read
  // again only when a reference changed). Rows nobody wrote to since the step's UPDATE are
  // answered as moved, with the time the UPDATE stamped (a 5,000-line step reads its lines twice).
  let final: Row[];
  const rewritten = fieldsWrittenSince(model, transaction, writesBefore);
  const refRewritten = rewritten === null || refFields.some((f) => rewritten.has(f.name));
  if (!refRewritten) {
    // Only bulk UPDATEs of known columns since (a hook stamping its lines): read those columns
    // back, not whole rows (a 5,000-line step's lines were read whole once already).
    const columns = ['id', 'updatedAt', ...[...rewritten].filter((f) => f !== 'updatedAt' && res.fields.some((d) => d.name === f))];
    const stamped = byId(await findRowViews(model, { where: { id: { [Op.in]: ids } }, attributes: columns, transaction }));
    final = answer.map((r) => {
      const fresh = stamped.get(Number(r.id));
      if (!fresh) return r;
      const moved = plainRow(res, fresh.get({ plain: true }));
      const out: Row = { ...r, updatedAt: moved.updatedAt ?? r.updatedAt };
      for (const c of columns) if (c !== 'id' && c !== 'updatedAt') out[c] = moved[c];
      return out;
    });
    if (host.t && rewritten.size) renderTexts(res, final, ctx.language, host.t);
  } else {
    const after = byId(await inScope());
    const finalRows = ids.map((id) => after.get(id)!);
    const refMoved = finalRows.some((r, i) => refFields.some((f) => JSON.stringify(r.get(f.name) ?? null) !== JSON.stringify(ordered[i].get(f.name) ?? null)));
    final = refMoved ? await scoped.serialize(plain(finalRows), transaction) : await labelled(finalRows);
  }
  for (let i = 0; i < final.length; i++) {
    await host.hooks.run('after', {
      action: 'update',
      resource: res,
      ctx,
      transaction,
      row: final[i],
      previous: previous[i],
      step: { name: step.name, cause },
    });
  }
  return final;
}

/**
 * The UPDATEs and DELETEs of a transaction (and each savepoint's parents) per model, counted by
 * model hooks: each entry the columns a bulk UPDATE wrote, or null (a row's own update, a delete).
 */
const writes = new WeakMap<Transaction, Map<ModelStatic<Model>, Array<Set<string> | null>>>();
const counting = new WeakSet<ModelStatic<Model>>();

/** How many writes this transaction made to the model's rows so far (the counting starts on first use). */
function writesTo(model: ModelStatic<Model>, transaction: Transaction): number {
  if (!counting.has(model)) {
    counting.add(model);
    const note = (opts: { transaction?: Transaction | null } | undefined, fields: Set<string> | null) => {
      for (let t = opts?.transaction ?? undefined; t; t = (t as Transaction & { parent?: Transaction }).parent) {
        const m = writes.get(t) ?? new Map<ModelStatic<Model>, Array<Set<string> | null>>();
        writes.set(t, m);
        const log = m.get(model) ?? [];
        m.set(model, log);
        log.push(fields);
      }
    };
    model.addHook('afterBulkUpdate', (opts: UpdateOptions) => note(opts, opts.fields ? new Set(opts.fields.map(String)) : null));
    model.addHook('afterBulkDestroy', (opts: never) => note(opts, null));
    model.addHook('afterUpdate', (_row: Model, opts: never) => note(opts, null));
    model.addHook('afterDestroy', (_row: Model, opts: never) => note(opts, null));
  }
  return writes.get(transaction)?.get(model)?.length ?? 0;
}

/** The columns written to the model's rows since writesTo answered `since`; null when unknown. */
function fieldsWrittenSince(model: ModelStatic<Model>, transaction: Transaction, since: number): Set<string> | null {
  const out = new Set<string>();
  for (const fields of writes.get(transaction)?.get(model)?.slice(since) ?? []) {
    if (!fields) return null;
    for (const f of fields) out.add(f);
  }
  return out;
}

/** Runs the header step `stepName` for the headers of these lines that are in its `from` statuses. */
async function moveHeaders(
  deps: TransitionDeps,
  lineRes: ResourceDef,
  lineStep: ResolvedTransition,
  lines: Row[],
  ctx: RequestContext,
  transaction: Transaction,
  at: Date,
): Promise<void> {
  const stepName = lineStep.header!;
  const found = parentOf(deps.host.metadata, lineRes.name);
  const step = found ? resourceTransitions(found.header).find((t) => t.name === stepName) : undefined;
  if (!found || !step) return;
  const { header: parent, child } = found;
  const headerIds = [...new Set(lines.map((l) => Number(l[child.foreignKey])))];
  const headers = await deps.host.db.models[parent.name].findAll({
    where: { [Op.and]: [scopeWhere(parent, ctx), { id: { [Op.in]: headerIds } }] },
    attributes: ['id', step.field],
    transaction,
  });
  const due = headers.filter((h) => !step.from || step.from.some((v) => same(v, h.get(step.field)))).map((h) => Number(h.get('id')));
  if (!due.length) return;
  // the header's stamp time, when the step takes one as input, is the line step's
  const stampInput =
    step.stamp?.time && transitionInputs(parent, step).some((i) => i.field.name === step.stamp!.time) ? { [step.stamp.time]: at.toISOString() } : {};
  await runStepIn(deps, parent, step, prepareStep(deps, parent, step, { ids: due, ...stampInput }), ctx, transaction, {
    resource: lineRes.name,
    step: lineStep.name,
    ids: lines.map((l) => Number(l.id)),
  });
}

/**
 * A line step's `while`: the headers of its lines, locked (a release and a line step of one
 * document take turns), must be in the declared statuses; else 10004 naming the header.
 */
async function checkHeaders(
  deps: TransitionDeps,
  lineRes: ResourceDef,
  step: ResolvedTransition,
  lines: RowView[],
  ctx: RequestContext,
  transaction: Transaction,
): Promise<void> {
  const found = parentOf(deps.host.metadata, lineRes.name);
  if (!found) return;
  const { header, child } = found;
  const field = header.statusField ?? 'status';
  const wanted = step.while as Array<string | number>;
  const ids = [...new Set(lines.map((l) => Number(l.get(child.foreignKey))))];
  const lock = deps.host.db.dialect === 'mysql' ? { lock: transaction.LOCK.UPDATE } : {};
  const headers = await deps.host.db.models[header.name].findAll({
    where: { [Op.and]: [scopeWhere(header, ctx), { id: { [Op.in]: ids } }] },
    transaction,
    ...lock,
  });
  const row = headers.find((h) => !wanted.some((v) => same(v, h.get(field))));
  if (!row) return;
  const f = header.fields.find((x) => x.name === field)!;
  const enums = deps.host.metadata.enums;
  throw new ApiError(ErrorCode.statusForbidden, 'server.transitions.headerStatus', {
    step: tKey(transitionLabelKey(step)),
    lines: tKey(resourceLabelKey(lineRes)),
    resource: tKey(resourceLabelKey(header)),
    title: rowTitle(header, row),
    field: tKey(fieldLabelKey(f)),
    current: enumLabel(f, row.get(field), enums),
    wanted: wanted.length === 1 ? enumLabel(f, wanted[0], enums) : wanted.map((w) => enumLabel(f, w, enums)),
  });
}

/**
 * A step's guard (M17): `notUser` — the caller is not the user its field records (the auditor is
 * not the applicant), 10004; `permission` — an extra code, 10005. Both name the step and the
 * row. A system job (no user) is not stopped by them.
 */
async function checkGuard(deps: TransitionDeps, res: ResourceDef, step: ResolvedTransition, rows: RowView[], ctx: RequestContext): Promise<void> {
  const guard = step.guard;
  if (!guard || !ctx.user) return;
  const named = (row: RowView) => ({ step: tKey(transitionLabelKey(step)), resource: tKey(resourceLabelKey(res)), title: rowTitle(res, row) });
  if (guard.permission && !(await deps.can?.(ctx, guard.permission))) {
    throw new ApiError(ErrorCode.noPermission, 'server.transitions.guardPermission', { ...named(rows[0]), code: guard.permission });
  }
  if (guard.notUser) {
    const f = res.fields.find((x) => x.name === guard.notUser);
    const row = rows.find((r) => guardStopsUser(res, step, r.get({ plain: true }) as Row, ctx.user));
    if (row)
      throw new ApiError(ErrorCode.statusForbidden, 'server.transitions.guardNotUser', {
        ...named(row),
        field: f ? tKey(fieldLabelKey(f)) : guard.notUser,
        user: String(row.get(guard.notUser)),
      });
  }
}

const rowTitle = (res: ResourceDef, row: RowView | Model) => {
  const title = row.get(res.titleField);
  return title === null || title === undefined ? `#${row.get('id')}` : String(title);
};

/** The statuses a row may be in for the step to reach `to` (undefined = any). */
function startStatuses(step: ResolvedTransition, to: string | number): Array<string | number> | undefined {
  if (!step.choose) return step.from;
  const targets = step.choose.targets;
  if (!targets) return undefined;
  // Staying put is always allowed (the call answers the row unchanged but stamped).
  const from = Object.entries(targets)
    .filter(([, tos]) => tos.some((v) => same(v, to)))
    .map(([k]) => k);
  return [...new Set([...from, String(to)])].map((v) => (/^-?\d+$/.test(v) ? Number(v) : v));
}

function userStamp(res: ResourceDef, field: string, ctx: RequestContext): unknown {
  const f = res.fields.find((x) => x.name === field);
  if (f && (f.type === 'int' || f.type === 'ref')) return ctx.user?.id ?? null;
  const name = ctx.user?.realName || ctx.user?.username || 'system';
  return f?.maxLength ? name.slice(0, f.maxLength) : name;
}

type Enums = ResourceHost['metadata']['enums'];

const enumLabel = (f: FieldDef, v: unknown, enums: Enums) => {
  const e = (enums[f.enum ?? ''] ?? []).find((x) => same(x.value, v));
  return e ? tKey(e.label) : String(v);
};

/** 10004 naming the row, the step, its current status and the status(es) the step needs. */
function wrongStatus(
  res: ResourceDef,
  enums: Enums,
  step: ResolvedTransition,
  f: FieldDef,
  row: RowView | Model,
  to: string | number,
  wanted: Array<string | number>,
): ApiError {
  const current = row.get(step.field);
  if (step.name === STATUS_UPDATE_STEP) {
    return new ApiError(ErrorCode.statusForbidden, 'server.validation.transition', {
      field: fieldParam(f),
      from: enumLabel(f, current, enums),
      to: enumLabel(f, to, enums),
    });
  }
  const title = row.get(res.titleField);
  return new ApiError(ErrorCode.statusForbidden, 'server.transitions.wrongStatus', {
    step: tKey(transitionLabelKey(step)),
    resource: tKey(resourceLabelKey(res)),
    title: title === null || title === undefined ? `#${row.get('id')}` : String(title),
    field: tKey(fieldLabelKey(f)),
    current: enumLabel(f, current, enums),
    wanted: wanted.length === 1 ? enumLabel(f, wanted[0], enums) : wanted.map((w) => enumLabel(f, w, enums)),
  });
}

/**
 * A shared status call (`statusCall`): the caller names the target in the step field, the step
 * reaching it runs as its own call would (inputs, wrong-status refusal, hooks). A target no
 * step of the call reaches is refused like a value outside the field's enumeration.
 */
export function runStatusCall(
  deps: TransitionDeps,
  res: ResourceDef,
  steps: ResolvedTransition[],
  body: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Row | Row[]> {
  const field = res.fields.find((f) => f.name === steps[0].field);
  if (!field) throw new Error(`${res.name}: step ${steps[0].name} moves unknown field ${steps[0].field}`);
  const raw = body[field.name];
  if (raw === undefined || raw === null || raw === '') throw requiredError(field);
  const target = validateValue(field, raw, deps.host.metadata.enums);
  const step = steps.find((s) => same(s.to, target));
  if (!step) throw fieldError(field, 'enum', { value: enumLabel(field, target, deps.host.metadata.enums) });
  return runTransition(deps, res, step, body, ctx);
}

/** One call per step of a resource (the status call included), and each shared status call. */
export function transitionCalls(res: ResourceDef, deps: TransitionDeps): CallDef[] {
  // a step declared `call: false` is run by code only (`event.run`)
  const own: CallDef[] = resourceTransitions(res)
    .filter((step) => step.call !== false)
    .map((step) => ({
      path: step.path,
      resource: res.name,
      handler: ({ body, ctx }) => runTransition(deps, res, step, body, ctx),
    }));
  const shared: CallDef[] = [...statusCalls(res)].map(([path, steps]) => ({
    path,
    resource: res.name,
    handler: ({ body, ctx }) => runStatusCall(deps, res, steps, body, ctx),
  }));
  return [...own, ...shared];
}
