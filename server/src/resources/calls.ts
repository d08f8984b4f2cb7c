/**
 * The generated calls of docs/API.md for every metadata resource, honouring `calls`, plus
 * one call per workflow step (`transitions`, `rules.statusUpdate`) and the atomic save of a
 * document (`children` marked inline). Handlers only pick the repository method: paging,
 * tenancy, validation and hooks live in the repository, the step engine and the documents.
 */
import { findTransition, isDocument, resourceApiPath, STATUS_UPDATE_STEP, type Metadata, type ResourceDef } from '@rti/metadata';
import { STREAMED, type CallDef } from '../http/types';
import type { TFunction } from '../i18n/translator';
import type { DocumentEngine } from './documents';
import { streamExport } from './export';
import type { ScopedRepository } from './repository';
import { timelineCalls } from './timeline';
import { runTransition, transitionCalls, type TransitionDeps } from './transitions';
import type { RequestContext } from '../http/types';

export type GeneratedCall = 'list' | 'base' | 'create' | 'update' | 'delete' | 'all' | 'export' | 'status/update';

export function enabledCalls(res: ResourceDef): GeneratedCall[] {
  const c = res.calls ?? {};
  const out: GeneratedCall[] = [];
  for (const name of ['list', 'base', 'create', 'update', 'delete', 'all', 'export'] as const) if (c[name] !== false) out.push(name);
  if (res.rules?.statusUpdate) out.push('status/update');
  return out;
}

export interface GeneratedCallDeps {
  metadata: Metadata;
  repo: (resource: string, ctx: RequestContext) => ScopedRepository;
  t: TFunction;
  transitions: TransitionDeps;
  documents: DocumentEngine;
  /** the organisation's time zone: exports write wall-clock times in it (imports read them so) */
  zoneOf?: (orgId: number | null) => Promise<string>;
}

export function resourceCalls(res: ResourceDef, deps: GeneratedCallDeps): CallDef[] {
  const repo = (ctx: RequestContext) => deps.repo(res.name, ctx);
  // A document's roll-ups are computed from its lines: a client's own total is refused.
  const document = isDocument(res) || Boolean(res.children?.some((c) => c.rollUps?.length));
  const handlers: Record<GeneratedCall, CallDef['handler']> = {
    list: ({ body, ctx }) => repo(ctx).list(body),
    base: ({ body, ctx }) => repo(ctx).get(body),
    create: ({ body, ctx }) => {
      if (document) deps.documents.refuseRollUps(res, body);
      return repo(ctx).create(body);
    },
    update: ({ body, ctx }) => {
      if (document) deps.documents.refuseRollUps(res, body);
      return repo(ctx).update(body);
    },
    delete: ({ body, ctx }) => repo(ctx).delete(body),
    all: ({ body, ctx }) => repo(ctx).all(body),
    export: async ({ body, ctx, res: response }) => {
      await streamExport(repo(ctx), body, response, deps.metadata, deps.t, ctx.language, (await deps.zoneOf?.(ctx.orgId)) ?? 'UTC');
      return STREAMED;
    },
    // the status call is the step `statusUpdate` of the transition engine
    'status/update': ({ body, ctx }) => runTransition(deps.transitions, res, findTransition(res, STATUS_UPDATE_STEP)!, body, ctx),
  };
  const generated = enabledCalls(res).map((call) => ({ path: resourceApiPath(res, call), resource: res.name, handler: handlers[call] }));
  const steps = transitionCalls(res, deps.transitions).filter((c) => c.path !== resourceApiPath(res, 'status/update'));
  const save = deps.documents.calls().filter((c) => c.resource === res.name);
  // who ran which step when, from the operation log (a resource with steps)
  const timeline = timelineCalls(res, { db: deps.transitions.host.db, metadata: deps.metadata, t: deps.t, repo: deps.repo });
  return [...generated, ...steps, ...save, ...timeline];
}
