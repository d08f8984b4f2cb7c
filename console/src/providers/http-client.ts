import { API_BASE, INVALID_SESSION_CODE, REQUEST_TIMEOUT_MS, VALIDATION_CODE } from '../constants';
import { errorLog } from '../lib/error-log';
import { session } from '../lib/session';
import { takeBootCall } from '../lib/boot-calls';
import { currentLocale, i18n } from '../i18n';

/** Refine's HttpError shape plus the envelope code. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: number;
  readonly url: string;
  readonly apiLogged = true;
  constructor(message: string, opts: { statusCode: number; code: number; url: string }) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = opts.statusCode;
    this.code = opts.code;
    this.url = opts.url;
  }
}

interface Envelope<T> {
  code: number;
  message?: string;
  data: T;
}

export interface RequestOptions {
  timeoutMs?: number;
  /** answer is a file (exports): returns the Blob instead of reading an envelope */
  blob?: boolean;
  signal?: AbortSignal;
}

/**
 * Called on code 10006; the app wires it to "clear session and go to login". The session
 * calls start before the app mounts, so an expiry seen earlier waits for the handler.
 */
let onInvalidSession: (() => void) | undefined;
let invalidBeforeHandler = false;
export function setInvalidSessionHandler(handler: () => void): void {
  onInvalidSession = handler;
  if (invalidBeforeHandler) {
    invalidBeforeHandler = false;
    handler();
  }
}
function invalidSession(): void {
  if (onInvalidSession) onInvalidSession();
  else invalidBeforeHandler = true;
}

/** Every call carries Language, Token and OrgId (SPEC §7). */
export function apiHeaders(): Record<string, string> {
  const h: Record<string, string> = { Language: currentLocale() };
  const token = session.token();
  const orgId = session.orgId();
  if (token) h.Token = token;
  if (orgId) h.OrgId = orgId;
  return h;
}

const HTTP_MESSAGES = new Set([400, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505]);

/** SPEC §8 message for an HTTP failure, in the user's language. */
export function httpMessage(status: number, url: string): string {
  const key = HTTP_MESSAGES.has(status) ? `http.${status}` : 'http.other';
  return i18n.t(key, { url, status });
}

/** answer codes the user is shown and can act on: validation refusals, an expired session */
const SEEN_CODES = new Set([VALIDATION_CODE, INVALID_SESSION_CODE]);

/**
 * The page is being left (a reload, a link out): the browser cuts the calls still on their way,
 * which is no error of theirs and nothing the user sees — left out of the error log. Reset when
 * the page comes back from the back-forward cache.
 */
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}

function fail(message: string, statusCode: number, code: number, url: string, detail?: string): never {
  if (!leaving) errorLog.push('api', `${url}: ${message}`, detail, !SEEN_CODES.has(code));
  if (code === INVALID_SESSION_CODE) invalidSession();
  throw new ApiError(message, { statusCode, code, url });
}

/** POST /api<path> with a JSON body; resolves to the envelope's data or throws ApiError. */
export async function request<T = unknown>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const url = API_BASE + path;
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(new DOMException('timeout', 'TimeoutError')), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  opts.signal?.addEventListener('abort', () => ctrl.abort(opts.signal?.reason));
  let res: Response;
  try {
    const headers = { 'Content-Type': 'application/json', ...apiHeaders() };
    const json = body === undefined ? undefined : JSON.stringify(body);
    const send = () => fetch(url, { method: 'POST', headers, body: json, signal: ctrl.signal });
    // a session call index.html already sent (same headers) answers at once; if it failed, ask again
    const early = takeBootCall(path, json, headers);
    res = early ? await early.catch(send) : await send();
  } catch (e) {
    // A caller that cancels its own request (e.g. a newer search) is not an error.
    if (opts.signal?.aborted) throw new ApiError('aborted', { statusCode: 0, code: -1, url });
    const timedOut = ctrl.signal.aborted;
    fail(timedOut ? httpMessage(408, url) : i18n.t('http.network'), timedOut ? 408 : 0, -1, url, String(e));
  } finally {
    clearTimeout(timer);
  }

  const type = res.headers.get('content-type') ?? '';
  const isJson = type.includes('application/json');
  let envelope: Envelope<T> | undefined;
  if (isJson) {
    try {
      envelope = (await res.json()) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
  }
  if (envelope?.code === INVALID_SESSION_CODE) {
    fail(envelope.message || i18n.t('http.401'), 401, INVALID_SESSION_CODE, url);
  }
  if (!res.ok) {
    // The HTTP failure text of SPEC §8 leads; the server's own message says why.
    const msg = httpMessage(res.status, url);
    const detail = envelope?.message;
    fail(detail && detail !== msg ? `${msg}: ${detail}` : msg, res.status, envelope?.code ?? res.status, url, detail);
  }
  if (opts.blob && !isJson) return (await res.blob()) as T;
  if (!envelope || typeof envelope.code !== 'number') fail(i18n.t('http.badAnswer'), res.status, -1, url);
  // Business refusals arrive as HTTP 200; their envelope code is the useful status.
  if (envelope.code !== 0) fail(envelope.message || i18n.t('http.other', { status: envelope.code }), envelope.code, envelope.code, url);
  return envelope.data;
}
