/**
 * The REST API (docs/API.md "REST API"): `/rest/v1/<resource>` for every metadata resource,
 * generated from the metadata and answered by the resource's own calls through the
 * dispatcher's invoker — the same guard, permission codes, scoped repository, validation and
 * audit as the console's calls; this file only translates HTTP conventions (json-server /
 * `@refinedev/simple-rest`: `_start`, `_end`, `_sort`, `_order`, `field=value`, `field_like`,
 * `field_gte`, `field_lte`, `X-Total-Count`) into call bodies and envelopes into statuses.
 */
import { resourceApiPath, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Request, RequestHandler, Response } from 'express';
import { ApiError, ErrorCode, resolveLanguage, type Language, type PluginServerContext } from '@rti/server/plugin-api';

export const REST_PREFIX = '/rest/v1';
/** rows of one REST page at most (the list call's own bound) */
export const REST_MAX_PAGE = 1000;
const DEFAULT_PAGE = 10;

/** the json-server / simple-rest suffixes and the list kinds (search) each applies to */
const SUFFIX_KINDS: Record<string, ReadonlyArray<string>> = {
  _like: ['like', 'prefix'],
  _gte: ['range'],
  _lte: ['range'],
};
const RESERVED = new Set(['_start', '_end', '_sort', '_order', '_page', '_limit']);
/** keys of a row that are the system's, accepted back in a write body and ignored (a client sends the row it read) */
const SYSTEM_KEYS = new Set(['id', 'orgId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/** Accept-Language (q-values honoured), else the Language header, else en-US. */
export function restLanguage(req: Request): Language {
  const accept = req.get('Accept-Language');
  if (accept) {
    const ranked = accept
      .split(',')
      .map((part, i) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
      })
      .filter((x) => x.tag && x.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i);
    for (const { tag } of ranked) if (/^(en|zh|ja)\b/.test(tag)) return resolveLanguage(tag);
  }
  return resolveLanguage(req.get('Language'));
}

/** HTTP status of a refusal: the envelope's own when it has one, else by code (REST has no "200 with an error inside"). */
export function restStatus(err: unknown): number {
  if (!(err instanceof ApiError)) return 500;
  if (err.httpStatus === 405) return 405;
  switch (err.code) {
    case ErrorCode.notFound:
    case ErrorCode.unknownCall:
      return 404;
    case ErrorCode.duplicate:
    case ErrorCode.statusForbidden:
    case ErrorCode.licenceLimit:
      return 409;
    case ErrorCode.tooManyAttempts:
      return 429;
    case ErrorCode.validation:
      return err.httpStatus === 200 ? 422 : err.httpStatus;
  }
  return err.httpStatus === 200 ? 400 : err.httpStatus;
}

const isSortable = (f: FieldDef): boolean => Boolean(f.search || (typeof f.list === 'object' && f.list?.sortable));
const filterable = (f: FieldDef): boolean => Boolean(f.search) && !f.writeOnly && f.type !== 'password';
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const refuse = (status: number, key: string, params: Record<string, unknown> = {}): never => {
  throw new ApiError(status === 404 ? ErrorCode.notFound : ErrorCode.validation, key, params, status);
};

/** A query value as the strings it holds (a repeated key gives several). */
function values(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

function nonNegativeInt(v: unknown, name: string): number | undefined {
  const [s, ...more] = values(v);
  if (s === undefined) return undefined;
  if (more.length || !/^\d{1,9}$/.test(s)) refuse(400, 'open-api.rest.badParam', { param: name });
  return Number(s);
}

/** A page holding [start, end) of the list: size ≥ end − start that divides start (simple-rest asks for whole pages). */
export function pageFor(start: number, end: number): { page: number; limit: number; skip: number } | null {
  const want = end - start;
  for (let limit = want; limit <= REST_MAX_PAGE; limit++) {
    if (start % limit === 0) return { page: start / limit + 1, limit, skip: 0 };
  }
  return null;
}

export interface RestListQuery {
  body: Record<string, unknown>;
  /** rows of the answered page to drop / keep */
  take: number;
  ids?: string[];
}

/** A query string's text as the JSON value the field's filter takes (numbers, booleans, numeric enum values); anything else as sent, for the call to refuse. */
export function queryValue(f: FieldDef, s: string, enums: Metadata['enums']): unknown {
  const numeric = /^-?\d+(\.\d+)?$/.test(s.trim());
  switch (f.type) {
    case 'int':
    case 'ref':
    case 'refs':
    case 'decimal':
      return numeric ? Number(s) : s;
    case 'bool':
      return /^(true|1)$/i.test(s) ? true : /^(false|0)$/i.test(s) ? false : s;
    case 'enum':
    case 'enums': {
      const values = f.enum ? enums[f.enum] : undefined;
      return numeric && values?.some((v) => typeof v.value === 'number') ? Number(s) : s;
    }
    default:
      return s;
  }
}

/** The list call's body for a REST query string, refusing what the resource cannot filter or sort by. */
export function listBody(res: ResourceDef, query: Record<string, unknown>, label: (f: FieldDef) => unknown, enums: Metadata['enums'] = {}): RestListQuery {
  const start = nonNegativeInt(query._start, '_start') ?? 0;
  const endRaw = nonNegativeInt(query._end, '_end');
  const end = endRaw ?? start + DEFAULT_PAGE;
  if (end <= start || end - start > REST_MAX_PAGE) refuse(400, 'open-api.rest.badRange', { max: REST_MAX_PAGE });
  const page = pageFor(start, end);
  if (!page) refuse(400, 'open-api.rest.badRange', { max: REST_MAX_PAGE });
  const body: Record<string, unknown> = { page: page!.page, limit: page!.limit };

  const fields = new Map(res.fields.map((f) => [f.name, f]));
  const sorts = values(query._sort).flatMap((s) => s.split(','));
  const orders = values(query._order).flatMap((s) => s.split(','));
  if (orders.length > sorts.length) refuse(400, 'open-api.rest.badParam', { param: '_order' });
  sorts.forEach((name, i) => {
    const f = name === 'id' ? ({ name: 'id', type: 'int' } as FieldDef) : fields.get(name.trim());
    if (!f || (f.name !== 'id' && (!isSortable(f) || f.writeOnly || f.type === 'password')))
      refuse(400, 'open-api.rest.notSortable', { field: f ? label(f) : name });
    const order = (orders[i] ?? 'asc').toLowerCase();
    if (order !== 'asc' && order !== 'desc') refuse(400, 'open-api.rest.badParam', { param: '_order' });
    body[`sortBy${capitalize(f!.name)}`] = order === 'asc';
  });

  const ranges = new Map<string, [unknown, unknown]>();
  let ids: string[] | undefined;
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    if (key === 'id') {
      ids = values(raw);
      continue;
    }
    const suffix = /(_like|_gte|_lte|_ne)$/.exec(key)?.[1];
    const name = suffix ? key.slice(0, -suffix.length) : key;
    const f = fields.get(name);
    if (!f) refuse(400, 'open-api.rest.unknownFilter', { field: key });
    if (!filterable(f!)) refuse(400, 'open-api.rest.notFilterable', { field: label(f!) });
    const kind = f!.search!;
    const texts = values(raw);
    if (!texts.length) continue;
    const given = texts.map((x) => queryValue(f!, x, enums));
    if (suffix && !SUFFIX_KINDS[suffix]?.includes(kind)) refuse(400, 'open-api.rest.badOperator', { field: label(f!), operator: suffix });
    if (suffix === '_gte' || suffix === '_lte') {
      if (given.length > 1) refuse(400, 'open-api.rest.oneValue', { field: label(f!) });
      const r = ranges.get(f!.name) ?? [null, null];
      r[suffix === '_gte' ? 0 : 1] = given[0];
      ranges.set(f!.name, r);
      continue;
    }
    if (kind === 'in') body[f!.name] = given;
    else if (given.length > 1) refuse(400, 'open-api.rest.oneValue', { field: label(f!) });
    else if (kind === 'range') body[f!.name] = [given[0], given[0]];
    else body[f!.name] = given[0];
  }
  for (const [name, r] of ranges) body[name] = r;
  return { body, take: end - start, ids };
}

/** Keys a write body may carry: the resource's fields, the row's system keys and its ref labels (ignored). */
export function unknownKeys(res: ResourceDef, body: Record<string, unknown>): string[] {
  const known = new Set<string>(SYSTEM_KEYS);
  for (const f of res.fields) {
    known.add(f.name);
    if (f.type === 'ref') known.add(`${f.name}Label`);
    if (f.type === 'refs') known.add(`${f.name}Labels`);
  }
  return Object.keys(body).filter((k) => !known.has(k));
}

export interface RestOptions {
  ctx: PluginServerContext;
  /** extra routes under the prefix answered before the resources (openapi.json, docs) */
  extra?: Record<string, (req: Request, res: Response) => void | Promise<void>>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Token, Accept-Language, Language',
  'Access-Control-Expose-Headers': 'X-Total-Count, X-Total-Count-Capped, Location, Retry-After',
  'Access-Control-Max-Age': '600',
};

/** The REST handler mounted at REST_PREFIX. */
export function restHandler(opts: RestOptions): RequestHandler {
  const { ctx } = opts;
  const metadata: Metadata = ctx.metadata;
  let registered: Set<string> | null = null;
  const has = (path: string) => (registered ??= new Set(ctx.http.calls().map((c) => c.path))).has(path);

  return async (req, res) => {
    for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
    res.setHeader('Cache-Control', 'no-store');
    const lang = restLanguage(req);
    const t = (key: string, params?: Record<string, unknown>) => ctx.t(lang, key, params);
    const label = (f: FieldDef) => t(f.label ?? `fields.${f.name}`);
    const fail = (err: unknown) => {
      const status = restStatus(err);
      if (status >= 500) ctx.log(`REST ${req.method} ${req.originalUrl} failed`, err);
      const e = err instanceof ApiError ? err : null;
      const seconds = e && typeof e.params?.seconds === 'number' ? e.params.seconds : undefined;
      if (status === 429 && seconds !== undefined) res.setHeader('Retry-After', String(seconds));
      if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
      if (res.headersSent) return void res.destroy();
      res.status(status).json({ code: e?.code ?? ErrorCode.internal, message: e ? t(e.messageKey, e.params) : t('server.errors.10000'), data: null });
    };
    try {
      if (req.method === 'OPTIONS') return void res.status(204).end();
      const parts = req.path.split('/').filter(Boolean);
      const extra = parts.length === 1 ? opts.extra?.[parts[0]] : undefined;
      if (extra && (req.method === 'GET' || req.method === 'HEAD')) return void (await extra(req, res));
      const resource = parts.length >= 1 && parts.length <= 2 ? metadata.resources[decodeURIComponent(parts[0])] : undefined;
      if (!resource) refuse(404, 'open-api.rest.unknownResource', { path: `${REST_PREFIX}${req.path}` });
      const r = resource!;
      const id = parts[1];
      if (id !== undefined && !/^\d{1,10}$/.test(id)) refuse(404, 'server.errors.10002');
      // the token: `Authorization: Bearer …` (or the API's own Token header)
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '')?.[1];
      if (bearer && !req.get('Token')) req.headers.token = bearer;

      const call = (kind: string) => {
        const path = resourceApiPath(r, kind);
        if (!has(path)) throw new ApiError(ErrorCode.unknownCall, 'open-api.rest.notAllowed', { method: req.method }, 405);
        return path;
      };
      const invoke = (kind: string, body: Record<string, unknown>, check?: () => void) =>
        ctx.http.invoke(call(kind), body, { req, res, language: lang, check });
      // keys that are no field of the resource: refused (422) once the caller is known to hold the call
      const strict = (body: Record<string, unknown>) => () => {
        const unknown = unknownKeys(r, body);
        if (unknown.length) refuse(422, 'open-api.rest.unknownField', { field: unknown.join(', ') });
      };

      if (id === undefined && (req.method === 'GET' || req.method === 'HEAD')) {
        const q = listBody(r, req.query as Record<string, unknown>, label, metadata.enums);
        if (q.ids) {
          // simple-rest's getMany: ?id=1&id=2 — the rows of these ids in scope (others are left out)
          if (q.ids.length > REST_MAX_PAGE || q.ids.some((x) => !/^\d{1,10}$/.test(x))) refuse(400, 'open-api.rest.badParam', { param: 'id' });
          const rows: unknown[] = [];
          for (const one of [...new Set(q.ids)]) {
            try {
              rows.push(await invoke('base', { id: Number(one) }));
            } catch (err) {
              if (!(err instanceof ApiError && err.code === ErrorCode.notFound)) throw err;
            }
          }
          res.setHeader('X-Total-Count', String(rows.length));
          return void res.status(200).json(rows);
        }
        const data = (await invoke('list', q.body)) as { list: unknown[]; total: number; totalCapped?: boolean };
        res.setHeader('X-Total-Count', String(data.total));
        if (data.totalCapped) res.setHeader('X-Total-Count-Capped', 'true');
        return void res.status(200).json(data.list.slice(0, q.take));
      }
      if (id === undefined && req.method === 'POST') {
        call('create');
        const body = await ctx.http.readJson(req, res);
        const row = (await invoke('create', body, strict(body))) as { id?: number };
        if (row?.id !== undefined) res.setHeader('Location', `${REST_PREFIX}/${r.name}/${row.id}`);
        return void res.status(201).json(row);
      }
      if (id !== undefined && (req.method === 'GET' || req.method === 'HEAD')) return void res.status(200).json(await invoke('base', { id: Number(id) }));
      if (id !== undefined && (req.method === 'PATCH' || req.method === 'PUT')) {
        call('update');
        const body = await ctx.http.readJson(req, res);
        return void res.status(200).json(await invoke('update', { ...body, id: Number(id) }, strict(body)));
      }
      if (id !== undefined && req.method === 'DELETE') {
        await invoke('delete', { id: Number(id) });
        return void res.status(200).json({ id: Number(id) });
      }
      res.setHeader('Allow', id === undefined ? 'GET, POST' : 'GET, PATCH, PUT, DELETE');
      refuse(405, 'open-api.rest.notAllowed', { method: req.method });
    } catch (err) {
      fail(err);
    }
  };
}
