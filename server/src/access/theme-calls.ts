/**
 * The public theme images of an organisation's login page (docs/ACCESS.md "Theme images"):
 * `GET /api/organization/theme?entryCode=<code>&slot=<largeLogo|smallLogo|loginBackground>`
 * answers that one image without a session — only the three theme slots, only the file the
 * organisation of that entry code names in the slot, read from that organisation's folder.
 * `/organization/basic` hands these URLs out (with `v=<stored name>`, so a new upload is a new
 * URL and the old one may be cached for a day).
 */
import { ApiError, ErrorCode } from '../http/api-error';
import { STREAMED, type CallDef } from '../http/types';
import { openStoredFile, STORED_FILE_NAME } from '../files/theme-files';
import type { ObjectStorage } from '../files/storage';
import type { AccessService } from './service';
import { msg } from './messages';
import { THEME_IMAGE_FIELDS } from './onboarding';

export const THEME_CALL = '/organization/theme';

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };
const CACHE_VERSIONED = 'public, max-age=86400';
const CACHE_UNVERSIONED = 'public, max-age=60';

const slotOf = (v: unknown): (typeof THEME_IMAGE_FIELDS)[number] | null =>
  typeof v === 'string' && (THEME_IMAGE_FIELDS as readonly string[]).includes(v) ? (v as (typeof THEME_IMAGE_FIELDS)[number]) : null;

/** The public URL of a stored theme image; URLs (data:, http:, /…) stay as they are. */
export function publicThemeUrl(entryCode: string, slot: string, value: unknown): unknown {
  if (typeof value !== 'string' || !STORED_FILE_NAME.test(value)) return value;
  return `/api${THEME_CALL}?entryCode=${encodeURIComponent(entryCode)}&slot=${encodeURIComponent(slot)}&v=${encodeURIComponent(value)}`;
}

/** The theme of /organization/basic with stored image names turned into their public URLs. */
export function publicTheme(entryCode: string, theme: Record<string, unknown>): Record<string, unknown> {
  const out = { ...theme };
  for (const slot of THEME_IMAGE_FIELDS) if (slot in out) out[slot] = publicThemeUrl(entryCode, slot, out[slot]);
  return out;
}

export function themeCalls(access: AccessService, storage: () => ObjectStorage): CallDef[] {
  const themeFile: CallDef = {
    path: THEME_CALL,
    public: true,
    get: true,
    async handler({ body, ctx, req, res }) {
      const notFound = () => new ApiError(ErrorCode.notFound, msg(ctx.language, 'org.themeImageNotFound'), {}, 404);
      const entryCode = typeof body.entryCode === 'string' ? body.entryCode.trim() : '';
      const slot = slotOf(body.slot);
      if (!entryCode || entryCode.length > 64 || !slot) throw notFound();
      const org = await access.directory.orgByEntryCode(entryCode);
      const name = org?.theme[slot];
      if (!org || typeof name !== 'string' || !STORED_FILE_NAME.test(name)) throw notFound();
      const file = await openStoredFile(storage(), org.id, name);
      if (!file) throw notFound();
      const etag = `"${name}-${file.size}"`;
      res.setHeader('Cache-Control', body.v === name ? CACHE_VERSIONED : CACHE_UNVERSIONED);
      res.setHeader('ETag', etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Type', CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
      if (req.get('If-None-Match') === etag || req.method === 'HEAD') {
        file.body.destroy();
        if (req.method === 'HEAD') res.status(200).setHeader('Content-Length', String(file.size));
        else res.status(304);
        res.end();
        return STREAMED;
      }
      res.status(200);
      res.setHeader('Content-Length', String(file.size));
      await new Promise<void>((resolve, reject) => {
        file.body.on('error', reject);
        res.on('close', resolve);
        file.body.pipe(res);
      });
      return STREAMED;
    },
  };
  return [themeFile];
}
