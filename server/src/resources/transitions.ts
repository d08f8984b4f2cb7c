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
  fieldLabelKey,
  resourceLabelKey,
  resourceTransitions,
  statusCalls,
  transitionInputs,
  transitionLabelKey,
  type FieldDef,
  type ResolvedTransition,
  type ResourceDef,
} from '@rti/metadata';
import { Op, UniqueConstraintError, type Model, type Transaction } from 'sequelize';
import { retryingTransaction } from '../db/retry';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, RequestContext } from '../http/types';
import { tKey } from '../i18n/translator';
import { BoundRepository } from './bound-repository';
import { fieldError, fieldParam, notFound, typeError } from './errors';
import { MAX_LIMIT } from './query';
import { ScopedRepository, type ResourceHost } from './repository';
import { scopeWhere } from './scope';
import type { Row } from './serialize';
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

function parseIds(body: Record<string, unknown>): { ids: number[]; many: boolean } {
  const many = body.ids !== undefined;
  const raw = many ? body.ids : body.id;
  if (raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && !raw.length)) throw requiredError(ID_FIELD);
  const list = many ? raw : [raw];
  if (!Array.isArray(list)) throw typeError(ID_FIELD, 'list');
  // an id an INTEGER column can hold: 1e30 would otherwise reach the driver
  for (const v of list) if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID) throw typeError(ID_FIELD, 'id');
  const ids = [...new Set(list as number[])];
  if (ids.length > MAX_LIMIT) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_LIMIT }, 400);
  return { ids, many };
}

export interface TransitionDeps {
  host: ResourceHost;
  registry: TransitionRegistry;
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

/** Runs one step for the caller. Answers the row (`id`) or the rows (`ids`). */
export async function runTransition(deps: TransitionDeps, res: ResourceDef, step: ResolvedTransition, body: Record<string, unknown>, ctx: RequestContext): Promise<Row | Row[]> {
  const { host } = deps;
  const enums = host.metadata.enums;
  const statusField = res.fields.find((f) => f.name === step.field);
  if (!statusField) throw new Error(`${res.name}: step ${step.name} moves unknown field ${step.field}`);
  const { ids, many } = parseIds(body);

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
  const target = to;
  // Statuses the rows may be in for this target; undefined = any.
  const fromAllowed = startStatuses(step, target);

  const model = host.db.models[res.name];
  const scoped = new ScopedRepository(host, res, ctx);
  const byId = (rows: Model[]) => new Map(rows.map((r) => [Number(r.get('id')), r]));
  // `latest` reads the committed rows (MySQL's plain reads see the transaction's snapshot)
  const inScope = (transaction: Transaction, latest = false) =>
    model.findAll({ where: { [Op.and]: [scopeWhere(res, ctx), { id: { [Op.in]: ids } }] }, transaction, ...(latest && host.db.dialect === 'mysql' ? { lock: transaction.LOCK.SHARE } : {}) });

  const run = async (transaction: Transaction): Promise<Row[]> => {
    const found = byId(await inScope(transaction));
    // All or nothing: one id out of scope refuses the whole call, without saying which exist.
    if (found.size !== ids.length) throw notFound();
    const ordered = ids.map((id) => found.get(id)!);
    for (const row of ordered) if (fromAllowed && !fromAllowed.some((v) => same(v, row.get(step.field)))) throw wrongStatus(res, enums, step, statusField, row, target, fromAllowed);
    const previous = await scoped.serialize(ordered, transaction);

    const at = given ?? new Date();
    const values: Record<string, unknown> = { ...written, [step.field]: target, updatedBy: ctx.user?.id ?? null };
    if (step.stamp?.time) values[step.stamp.time] = at;
    if (step.stamp?.user) values[step.stamp.user] = userStamp(res, step.stamp.user, ctx);
    const conditions = [scopeWhere(res, ctx), { id: { [Op.in]: ids } }, ...(fromAllowed ? [{ [step.field]: { [Op.in]: fromAllowed } }] : [])];
    const [moved] = await model.update(values, { where: { [Op.and]: conditions }, transaction });
    if (moved !== ids.length) {
      // A concurrent step moved a row between our read and our update: name its status now.
      const latest = byId(await inScope(transaction, true));
      const row = ordered.map((r) => latest.get(Number(r.get('id')))).find((r) => r && fromAllowed && !fromAllowed.some((v) => same(v, r.get(step.field))));
      if (row) throw wrongStatus(res, enums, step, statusField, row, target, fromAllowed!);
      throw new ApiError(ErrorCode.statusForbidden, 'server.errors.10004');
    }

    const reread = async () => {
      const after = byId(await inScope(transaction));
      return scoped.serialize(ids.map((id) => after.get(id)!), transaction);
    };
    const rows = await reread();
    const afterCommit = (fn: () => unknown) =>
      transaction.afterCommit(() => {
        Promise.resolve()
          .then(fn)
          .catch(() => undefined);
      });
    await deps.registry.run({ resource: res, step, ctx, transaction, ids, previous, rows, to: target, input, at, repo: boundRepos(host, ctx, transaction), afterCommit });
    // What the hooks wrote to the documents themselves shows in the answer.
    const final = await reread();
    for (let i = 0; i < final.length; i++) {
      await host.hooks.run('after', { action: 'update', resource: res, ctx, transaction, row: final[i], previous: previous[i] });
    }
    return final;
  };

  try {
    const rows = await retryingTransaction(host.db.sequelize, run);
    return many ? rows : rows[0];
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw new ApiError(ErrorCode.duplicate, 'server.errors.duplicate');
    throw err;
  }
}

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
function wrongStatus(res: ResourceDef, enums: Enums, step: ResolvedTransition, f: FieldDef, row: Model, to: string | number, wanted: Array<string | number>): ApiError {
  const current = row.get(step.field);
  if (step.name === STATUS_UPDATE_STEP) {
    return new ApiError(ErrorCode.statusForbidden, 'server.validation.transition', { field: fieldParam(f), from: enumLabel(f, current, enums), to: enumLabel(f, to, enums) });
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
export function runStatusCall(deps: TransitionDeps, res: ResourceDef, steps: ResolvedTransition[], body: Record<string, unknown>, ctx: RequestContext): Promise<Row | Row[]> {
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
  const own: CallDef[] = resourceTransitions(res).map((step) => ({
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
