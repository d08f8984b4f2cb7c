/**
 * The Express app: every /api call through the one dispatcher, plugins' routes (ctx.http.route:
 * surfaces that run registered calls through the same guard, e.g. the REST API), the built
 * console with SPA fallback for other GETs. Nothing else is mounted, so nothing else can answer.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { apiFallbackErrorHandler, createDispatcher, type DispatcherDeps } from './http/dispatcher';
import { precompressedAssets } from './precompressed';

export interface AppOptions extends DispatcherDeps {
  /** built console folder; served when it exists */
  consoleDist?: string;
  /** proxies trusted for X-Forwarded-For (config.trustProxy); none by default */
  trustProxy?: string[];
  /** plugins' own HTTP surfaces outside /api (ctx.http.route, e.g. /rest/v1), before the console */
  routes?: ReadonlyArray<{ prefix: string; handler: RequestHandler }>;
}

export function createApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // req.ip (sessions, audit, the login throttle) is the socket's peer unless that is a configured proxy.
  app.set('trust proxy', opts.trustProxy?.length ? opts.trustProxy : false);
  app.use(compression());
  app.use('/api', createDispatcher(opts));
  app.use('/api', apiFallbackErrorHandler(opts.translator, opts.logError));
  for (const r of opts.routes ?? []) app.use(r.prefix, r.handler);

  const dist = opts.consoleDist;
  if (dist && existsSync(join(dist, 'index.html'))) {
    // Hashed assets cache for a year; index.html never, so a deploy shows at once.
    app.use(precompressedAssets(dist));
    app.use(
      express.static(dist, {
        index: false,
        setHeaders: (res, path) => res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
      }),
    );
    app.get('/{*splat}', (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(join(dist, 'index.html'));
    });
  }
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('Not found');
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    (opts.logError ?? console.error)('[http] request failed:', err);
    if (!res.headersSent) res.status(500).type('text/plain').send('Server error');
  });
  return app;
}
