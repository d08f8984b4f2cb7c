/**
 * Hooks around writes, registered by plugins (and access/) for one resource or '*'.
 * They run inside the write's transaction: a throw (ApiError for a clear message) rolls
 * the whole write back.
 */
import type { ResourceDef } from '@rti/metadata';
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../http/types';
import type { Row } from './serialize';

export type HookAction = 'create' | 'update' | 'delete';
export type HookPhase = 'before' | 'after';

export interface HookEvent {
  action: HookAction;
  resource: ResourceDef;
  ctx: RequestContext;
  transaction: Transaction;
  /** before create/update: the validated values about to be written (may be changed) */
  data?: Record<string, unknown>;
  /** after create/update: the row as written; before/after delete: the row being deleted */
  row?: Row;
  /** update: the row before the change */
  previous?: Row;
  /**
   * update made by a workflow step (transitions.ts): its name, and what ran it from code
   * (`event.run`, a line step moving its header); the operation log records both
   */
  step?: { name: string; cause?: { resource: string; step: string; ids: number[] } };
}

export type HookFn = (event: HookEvent) => Promise<void> | void;
/** answers the create's body with values filled in (a new object; the caller's is not changed) */
export type FillFn = (body: Record<string, unknown>, ctx: RequestContext) => Promise<Record<string, unknown>>;

export class HookRegistry {
  private readonly hooks: Array<{ phase: HookPhase; action: HookAction; resource: string; fn: HookFn }> = [];
  /** the hooks of one phase, action and resource, in registration order (a 5,000-line step runs them per line) */
  private readonly matching = new Map<string, HookFn[]>();

  on(phase: HookPhase, action: HookAction, resource: string, fn: HookFn): () => void {
    const entry = { phase, action, resource, fn };
    this.hooks.push(entry);
    this.matching.clear();
    return () => {
      const i = this.hooks.indexOf(entry);
      if (i >= 0) this.hooks.splice(i, 1);
      this.matching.clear();
    };
  }

  before(action: HookAction, resource: string, fn: HookFn): () => void {
    return this.on('before', action, resource, fn);
  }

  after(action: HookAction, resource: string, fn: HookFn): () => void {
    return this.on('after', action, resource, fn);
  }

  /** Whether a hook is registered for exactly this resource (not '*'): bulk writers pick their path by it. */
  has(phase: HookPhase, action: HookAction, resource: string): boolean {
    return this.hooks.some((h) => h.phase === phase && h.action === action && h.resource === resource);
  }

  /**
   * Whether a hook other than `except` listens to writes of exactly this resource in one of
   * the phases: set-based writers (document saves) fall back to row-by-row writes when one does.
   */
  hasOther(phases: HookPhase[], resource: string, except: ReadonlySet<HookFn>): boolean {
    return this.hooks.some((h) => phases.includes(h.phase) && h.resource === resource && !except.has(h.fn));
  }

  /** Hooks that do nothing for a row leaving with its header (the documents engine's line rules): fn -> header resource. */
  private readonly quietOnCascade = new WeakMap<HookFn, string>();

  /** Marks `fn` as doing nothing for rows deleted by a cascade from rows of `from` (their header). */
  quietWhenCascaded(fn: HookFn, from: string): void {
    this.quietOnCascade.set(fn, from);
  }

  /**
   * Whether a delete hook registered for exactly this resource would act on a row deleted by a
   * cascade from `from`: when none would, the cascade deletes set-based (no statement per line).
   */
  hearsCascadedDelete(resource: string, from: string): boolean {
    return this.hooks.some((h) => h.action === 'delete' && h.resource === resource && this.quietOnCascade.get(h.fn) !== from);
  }

  private readonly fillers: Array<{ resource: string; fn: FillFn }> = [];

  /**
   * Fills values a create leaves empty before it is validated (a document's header from its
   * source): the create then validates, scopes and writes them like typed values.
   */
  fill(resource: string, fn: FillFn): void {
    this.fillers.push({ resource, fn });
  }

  async runFill(resource: ResourceDef, body: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, unknown>> {
    let out = body;
    for (const f of this.fillers) if (f.resource === resource.name) out = await f.fn(out, ctx);
    return out;
  }

  /** Runs matching hooks in registration order. */
  async run(phase: HookPhase, event: HookEvent): Promise<void> {
    const key = `${phase} ${event.action} ${event.resource.name}`;
    let fns = this.matching.get(key);
    if (!fns) {
      fns = this.hooks
        .filter((h) => h.phase === phase && h.action === event.action && (h.resource === '*' || h.resource === event.resource.name))
        .map((h) => h.fn);
      this.matching.set(key, fns);
    }
    for (const fn of fns) await fn(event);
  }
}
