/**
 * The one entry point for every call under /api: language → call lookup → body → guard
 * (authenticate, authorize) → handler → envelope. Errors become envelopes here and only here,
 * so no path under /api can answer with a stack trace or an HTML page.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Translator } from '../i18n/translator';
import { resolveLanguage, tKey } from '../i18n/translator';
import { ApiError, ErrorCode } from './api-error';
import { createBodyParser } from './body';
import { checkInput, type InputProblem } from './input';
import { callPermission, type CallRegistry } from './registry';
import { STREAMED, type CallDef, type CallGuard, type Language, type RequestContext } from './types';

export interface DispatcherDeps {
  calls: CallRegistry;
  /** resolved per request so the guard can be swapped after start (tests) */
  guard: () => CallGuard;
  translator: Translator;
  bodyLimit: string;
  /** where unexpected errors go, with their stack (never to the client) */
  logError?: (message: string, err: unknown) => void;
  /** i18n key of a body key's label for a call (its resource's field), so refusals name the field */
  fieldLabel?: (call: CallDef, key: string) => string | undefined;
}

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** Unique violations not caught by a repository (plugin SQL, races): still a 10003. */
const isUniqueViolation = (err: unknown): boolean => (err as { name?: string })?.name === 'SequelizeUniqueConstraintError';

export function errorEnvelope(err: unknown, lang: Language, translator: Translator): { status: number; body: Envelope<null> } {
  if (err instanceof ApiError) {
    return { status: err.httpStatus, body: { code: err.code, message: translator.t(lang, err.messageKey, err.params), data: null } };
  }
  if (isUniqueViolation(err)) {
    return { status: 200, body: { code: ErrorCode.duplicate, message: translator.t(lang, 'server.errors.duplicate'), data: null } };
  }
  return { status: 500, body: { code: ErrorCode.internal, message: translator.t(lang, 'server.errors.10000'), data: null } };
}

export function createDispatcher(deps: DispatcherDeps): RequestHandler {
  const parseBody = createBodyParser(deps.bodyLimit);
  const logError = deps.logError ?? ((message, err) => console.error(message, err));
  const { t } = deps.translator;

  const inputError = inputErrorFor(deps.fieldLabel);

  return async (req: Request, res: Response, _next: NextFunction) => {
    const headerLanguage = req.get('Language');
    let lang = resolveLanguage(headerLanguage);
    const path = req.path;
    const started = Date.now();
    let call: CallDef | undefined;
    let ctx: RequestContext | undefined;
    let body: Record<string, unknown> = {};
    let outcome: { httpStatus: number; code: number; message: string; data?: unknown } = { httpStatus: 200, code: 0, message: '' };
    try {
      const found = deps.calls.get(path);
      // GET only for public calls that ask for it (an image a public page shows by URL)
      const viaGet = (req.method === 'GET' || req.method === 'HEAD') && Boolean(found?.get && found.public);
      call = req.method === 'POST' || viaGet ? found : undefined;
      if (!call) {
        // Drain the body so keep-alive connections stay usable.
        req.resume();
        throw new ApiError(ErrorCode.unknownCall, 'server.errors.10013', { path: `/api${path}` }, 404);
      }
      const parsed = viaGet ? queryBody(req.query) : call.raw ? {} : await parseBody(req, res);
      // a body with a problem reaches nobody, the audit included (recorded as {})
      const problem = checkInput(parsed);
      if (!problem) body = parsed;
      const guard = deps.guard();
      ctx = await guard.authenticate(req, call);
      // The header wins; without it the guard may know the user's stored language.
      if (headerLanguage || !ctx.language) ctx.language = lang;
      lang = ctx.language;
      const code = callPermission(call);
      if (code) await guard.authorize(ctx, code);
      // refused after the permission check: a caller without the call learns nothing more
      if (problem) throw inputError(problem, call);
      const data = await call.handler({ body, ctx, req, res });
      if (data === STREAMED) return;
      const envelope: Envelope = { code: 0, message: t(lang, 'server.success'), data: data === undefined ? null : data };
      outcome = { ...outcome, message: envelope.message, data: envelope.data };
      res.status(200).json(envelope);
    } catch (err) {
      const { status, body: answer } = errorEnvelope(err, lang, deps.translator);
      outcome = { httpStatus: status, code: answer.code, message: answer.message };
      if (res.headersSent) {
        // A stream (export) broke after its first byte: cutting the connection makes the client
        // see a failed download, never a file that looks whole (nor a stack).
        logError(`[api] ${req.method} /api${path} failed after the answer had started; connection closed:`, err);
        res.destroy();
        return;
      }
      if (status >= 500) logError(`[api] ${req.method} /api${path} failed:`, err);
      // A raw-body call refused before its body was read (no session, no permission, a handler's
      // own check before it reads, too large): let the client finish sending first, or it may still
      // be writing when the socket closes and lose the answer to a reset (EPIPE) — bounded; a
      // stalled body (408) is not waited for.
      if (call?.raw && !req.complete && status !== 408) await drained(req);
      // an export that failed before its first byte must not answer its envelope as an attachment
      res.removeHeader('Content-Disposition');
      res.status(status).json(answer);
    } finally {
      deps.calls.emitCallEnd({ req, call, ctx, body, ...outcome, ms: Date.now() - started });
    }
  };
}

/** Options of a call run from outside the /api dispatcher (CallInvoker). */
export interface InvokeOptions {
  req: Request;
  res: Response;
  /** the caller's language when the request says it otherwise than the Language header (Accept-Language) */
  language?: Language;
  /** the surface's own refusal of the body (unknown keys), run where input problems are: after the permission check */
  check?: () => void;
}

/**
 * Runs a registered call for a request that did not come through /api (the REST layer): the same
 * guard (authenticate, the call's permission code), input checks, handler and audit record as the
 * dispatcher, with the body given. Resolves with the envelope's data; throws the ApiError the
 * dispatcher would have answered with (or anything unexpected, for the caller's 500).
 */
export type CallInvoker = (path: string, body: Record<string, unknown>, opts: InvokeOptions) => Promise<unknown>;

export function createInvoker(deps: Pick<DispatcherDeps, 'calls' | 'guard' | 'fieldLabel'>): CallInvoker {
  const inputError = inputErrorFor(deps.fieldLabel);
  return async (path, body, { req, res, language, check }) => {
    const started = Date.now();
    const call = deps.calls.get(path);
    let ctx: RequestContext | undefined;
    let outcome: { httpStatus: number; code: number; message: string; data?: unknown } = { httpStatus: 200, code: 0, message: '' };
    try {
      if (!call || call.raw) throw new ApiError(ErrorCode.unknownCall, 'server.errors.10013', { path }, 404);
      const problem = checkInput(body);
      const guard = deps.guard();
      ctx = await guard.authenticate(req, call);
      if (language) ctx.language = language;
      const code = callPermission(call);
      if (code) await guard.authorize(ctx, code);
      if (problem) throw inputError(problem, call);
      check?.();
      const data = await call.handler({ body, ctx, req, res });
      outcome = { ...outcome, data };
      return data;
    } catch (err) {
      const e = err instanceof ApiError ? err : null;
      outcome = { httpStatus: e?.httpStatus ?? 500, code: e?.code ?? ErrorCode.internal, message: e?.messageKey ?? '' };
      throw err;
    } finally {
      deps.calls.emitCallEnd({ req, call, ctx, body, ...outcome, ms: Date.now() - started });
    }
  };
}

/** A refused body names the field: its label when the key is a declared field (or has a common label), else the key path. */
function inputErrorFor(fieldLabel: DispatcherDeps['fieldLabel']) {
  return (problem: InputProblem, call: CallDef): ApiError => {
    const top = /^[^.[]*$/.test(problem.path) ? problem.path : null;
    const label = top ? fieldLabel?.(call, top) : undefined;
    const field = label ? tKey(label) : top ? tKey(`fields.${top}`, top) : problem.path || '-';
    return new ApiError(ErrorCode.validation, `server.validation.input.${problem.kind}`, { field, max: 'max' in problem ? problem.max : undefined }, 400);
  };
}

/** how long a refused raw call's body is read and discarded before the answer goes anyway */
const DRAIN_MS = 5_000;

/** Reads and discards what is left of a request body: resolves at its end, on close, or after DRAIN_MS. */
function drained(req: Request): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_MS);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}

/** Last-resort handler for anything thrown outside the dispatcher under /api (never HTML). */
export function apiFallbackErrorHandler(translator: Translator, logError = console.error) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const lang = resolveLanguage(req.get('Language'));
    const { status, body } = errorEnvelope(err, lang, translator);
    if (status >= 500) logError(`[api] ${req.method} ${req.originalUrl} failed:`, err);
    if (res.headersSent) return void res.destroy();
    res.status(status).json(body);
  };
}

/** A GET call's query string as its body: single string values only (a repeated key keeps its first). */
function queryBody(query: Request['query']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query ?? {})) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}
