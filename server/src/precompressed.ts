/**
 * Serves `<asset>.gz` written at build time (console/vite.config.ts) to clients that accept
 * gzip, so hashed console assets cost the server a file read, not a compression per request.
 */
import { existsSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export function precompressedAssets(dist: string) {
  const root = normalize(join(dist, 'assets'));
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith('/assets/')) return next();
    const type = TYPES[extname(req.path)];
    if (!type || !/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) return next();
    let file: string;
    try {
      file = normalize(join(dist, decodeURIComponent(req.path)));
    } catch {
      return next(); // malformed escape: let the static handler answer
    }
    if (!file.startsWith(root + sep)) return next(); // never outside the assets folder
    const gz = `${file}.gz`;
    if (!existsSync(gz)) return next();
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.sendFile(gz, (err) => err && next(err));
  };
}
