/**
 * The generated calls of docs/API.md for every metadata resource, honouring `calls` and
 * `rules.statusUpdate`. Handlers only pick the repository method: paging, tenancy,
 * validation and hooks live in the repository.
 */
import { resourceApiPath, type Metadata, type ResourceDef } from '@rti/metadata';
import { STREAMED, type CallDef } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { streamExport } from './export';
import type { ScopedRepository } from './repository';
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
}

export function resourceCalls(res: ResourceDef, deps: GeneratedCallDeps): CallDef[] {
  const repo = (ctx: RequestContext) => deps.repo(res.name, ctx);
  const handlers: Record<GeneratedCall, CallDef['handler']> = {
    list: ({ body, ctx }) => repo(ctx).list(body),
    base: ({ body, ctx }) => repo(ctx).get(body),
    create: ({ body, ctx }) => repo(ctx).create(body),
    update: ({ body, ctx }) => repo(ctx).update(body),
    delete: ({ body, ctx }) => repo(ctx).delete(body),
    all: ({ body, ctx }) => repo(ctx).all(body),
    export: async ({ body, ctx, res: response }) => {
      await streamExport(repo(ctx), body, response, deps.metadata, deps.t, ctx.language);
      return STREAMED;
    },
    'status/update': ({ body, ctx }) => repo(ctx).setStatus(body),
  };
  return enabledCalls(res).map((call) => ({ path: resourceApiPath(res, call), resource: res.name, handler: handlers[call] }));
}
