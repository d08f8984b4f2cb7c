/**
 * Console pages drawn to PNG on the server (plugins: ctx.render.consolePng), for mails that carry
 * a picture of a page beside their workbook.
 *
 * Headless chromium (playwright-core, loaded only when a picture is asked for) opens the console
 * at RENDER_URL, by default this instance's own listener (it serves console/dist and the API, so
 * no proxy or public address is involved). It is signed in with a render session the server mints
 * for itself: a session row of the user the picture is drawn for (what that user may see is what
 * the picture shows), confined to one organisation, living the render's time-out plus 30 s and
 * revoked as soon as the pictures are taken — one render, then dead. It is a row in the session
 * table like any other, so whichever instance answers the page's calls knows it; nothing is held
 * in this process's memory, and no password exists for it.
 *
 * A page tells it is drawn by setting `window.__screenshotReady = true`; the wait is bounded
 * (RENDER_TIMEOUT_MS, 60 s per page). A failure is an answer, not an exception:
 * `{ ok: false, reason, detail }` — no browser installed (RENDER_BROWSER or CHROMIUM_PATH, else
 * the usual chromium paths), no console build to open, no such user, the page not drawn in time,
 * or the browser failed. The caller words the reason for its reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '../http/types';

/** the flags headless Debian chromium needs on a server (no sandbox user namespace, no GPU, offline) */
// (headless itself is playwright's default launch; the browser tests launch with this same list)
export const RENDER_BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const BROWSER_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
const DEFAULT_TIMEOUT_MS = 60_000;
/** the render session outlives the render's own bound by this much, then it is dead even if never revoked */
const SESSION_MARGIN_MS = 30_000;
/** what the page sets once it is drawn */
const READY = '__screenshotReady';

export interface RenderConfig {
  /** the console's origin the browser opens (RENDER_URL); empty = this instance's own listener */
  url: string;
  /** the chromium executable (RENDER_BROWSER, else CHROMIUM_PATH); empty = the first of the usual paths that exists */
  browser: string;
  /** the longest wait for one page to be drawn (RENDER_TIMEOUT_MS) */
  timeoutMs: number;
}

export function renderConfigFromEnv(env: NodeJS.ProcessEnv): RenderConfig {
  const url = env.RENDER_URL ?? '';
  if (url) {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`RENDER_URL must be an http(s) address, got "${url}"`);
  }
  const timeoutMs = env.RENDER_TIMEOUT_MS ? Number(env.RENDER_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new Error(`RENDER_TIMEOUT_MS must be a positive number of milliseconds, got "${env.RENDER_TIMEOUT_MS}"`);
  return { url: url.replace(/\/+$/, ''), browser: env.RENDER_BROWSER || env.CHROMIUM_PATH || '', timeoutMs };
}

export type RenderFailure = 'noBrowser' | 'noConsole' | 'noUser' | 'timeout' | 'failed';
export type RenderAnswer = { ok: true; png: Buffer } | { ok: false; reason: RenderFailure; detail: string };

export interface RenderPage {
  /** the console path ("/some/page") */
  path: string;
  /** its query string's values */
  query?: Record<string, string | number | undefined>;
}

export interface RenderRequest {
  orgId: number;
  /** the user the pictures are drawn for: the render session is theirs, so are the page's rights and scope */
  userId: number;
  /** the console's language for the pages */
  language?: Language;
  pages: readonly RenderPage[];
  viewport?: { width: number; height: number };
}

export interface ConsoleRenderer {
  /** one answer per page, in order; never throws for a page that could not be drawn */
  consolePng(req: RenderRequest): Promise<RenderAnswer[]>;
}

export interface RendererDeps {
  config: RenderConfig;
  /** console/dist: without its index.html there is nothing to open (unless RENDER_URL points elsewhere) */
  consoleDist: string;
  /** this instance's listening origin, or '' before it listens */
  ownUrl: () => string;
  /** the user, or null when unknown or locked */
  user(userId: number): Promise<{ id: number } | null>;
  /** the organisation's entry code (a session with it is confined to that organisation) */
  entryCode(orgId: number): Promise<string | null>;
  createSession(s: {
    userId: number;
    loginOrgId: number;
    loginEntryCode: string | null;
    ttlMs: number;
    userAgent: string;
  }): Promise<{ token: string; id: string }>;
  revokeSession(id: string): Promise<void>;
}

/** the chromium to launch, or undefined when none is installed */
export function findBrowser(configured: string): string | undefined {
  if (configured) return fs.existsSync(configured) ? configured : undefined;
  return BROWSER_PATHS.find((p) => fs.existsSync(p));
}

export function createConsoleRenderer(deps: RendererDeps): ConsoleRenderer {
  const fail = (n: number, reason: RenderFailure, detail: string): RenderAnswer[] => Array.from({ length: n }, () => ({ ok: false, reason, detail }));

  return {
    async consolePng(req) {
      const n = req.pages.length;
      if (!n) return [];
      const executablePath = findBrowser(deps.config.browser);
      if (!executablePath) return fail(n, 'noBrowser', deps.config.browser || BROWSER_PATHS.join(', '));
      const base = deps.config.url || deps.ownUrl();
      if (!base) return fail(n, 'noConsole', 'the server is not listening');
      if (!deps.config.url && !fs.existsSync(path.join(deps.consoleDist, 'index.html'))) return fail(n, 'noConsole', `${deps.consoleDist}/index.html`);
      if (!(await deps.user(req.userId))) return fail(n, 'noUser', `user ${req.userId}`);
      let chromium: typeof import('playwright-core').chromium;
      try {
        ({ chromium } = await import('playwright-core'));
      } catch (err) {
        return fail(n, 'noBrowser', `playwright-core: ${(err as Error).message}`);
      }
      const timeoutMs = deps.config.timeoutMs;
      const session = await deps.createSession({
        userId: req.userId,
        loginOrgId: req.orgId,
        loginEntryCode: await deps.entryCode(req.orgId),
        ttlMs: timeoutMs * n + SESSION_MARGIN_MS,
        userAgent: 'console-render',
      });
      let browser: import('playwright-core').Browser | undefined;
      try {
        browser = await chromium.launch({ executablePath, args: RENDER_BROWSER_ARGS, timeout: timeoutMs });
        const context = await browser.newContext({ viewport: req.viewport ?? { width: 1280, height: 800 }, deviceScaleFactor: 1 });
        const { hostname } = new URL(base);
        await context.addCookies(
          [
            ['admin-token', session.token],
            ['admin-user-id', String(req.userId)],
            ['admin-org-id', String(req.orgId)],
          ].map(([name, value]) => ({ name, value, domain: hostname, path: '/' })),
        );
        if (req.language) await context.addInitScript((lng: string) => localStorage.setItem('admin-locale', lng), req.language);
        const out: RenderAnswer[] = [];
        for (const p of req.pages) out.push(await shoot(context, base, p, timeoutMs));
        return out;
      } catch (err) {
        return fail(n, 'failed', (err as Error).message.split('\n')[0]);
      } finally {
        await browser?.close().catch(() => undefined);
        await deps.revokeSession(session.id).catch(() => undefined);
      }
    },
  };
}

async function shoot(context: import('playwright-core').BrowserContext, base: string, p: RenderPage, timeoutMs: number): Promise<RenderAnswer> {
  const page = await context.newPage();
  try {
    const qs = new URLSearchParams(Object.entries(p.query ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
    const started = Date.now();
    await page.goto(`${base}${p.path}${qs ? `?${qs}` : ''}`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    try {
      await page.waitForFunction((key) => (window as unknown as Record<string, unknown>)[key] === true, READY, {
        timeout: Math.max(1, timeoutMs - (Date.now() - started)),
        polling: 100,
      });
    } catch {
      return { ok: false, reason: 'timeout', detail: `${p.path}: not drawn within ${Math.round(timeoutMs / 1000)} s (at ${new URL(page.url()).pathname})` };
    }
    return { ok: true, png: await page.screenshot({ type: 'png', timeout: timeoutMs }) };
  } catch (err) {
    return { ok: false, reason: 'failed', detail: `${p.path}: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    await page.close().catch(() => undefined);
  }
}
