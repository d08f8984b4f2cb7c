/**
 * `GET|POST /api/metadata/labels?lng=<language>`: the metadata's labels in one language —
 * metadata/locales merged with every plugin's `metadata/locales` — read by the console at run
 * time, so a new field's label or a changed wording needs a server restart, not a console
 * build. Public (the login page shows validation texts before a session exists; labels are
 * not secret); `no-cache` with an ETag, so a browser revalidates and mostly gets a 304.
 */
import { createHash } from 'node:crypto';
import { loadLocales } from '@rti/metadata';
import { STREAMED, type CallDef, type Language } from '../http/types';
import { LANGUAGES } from './translator';

export const LABELS_CALL = '/metadata/labels';

export function labelsCall(locales: Record<Language, Record<string, unknown>> = loadLocales()): CallDef {
  // the labels are fixed for the process's life: one tag per language
  const tags = Object.fromEntries(LANGUAGES.map((l) => [l, `"${createHash('sha1').update(JSON.stringify(locales[l])).digest('base64url')}"`])) as Record<
    Language,
    string
  >;
  return {
    path: LABELS_CALL,
    public: true,
    get: true,
    handler({ body, req, res }) {
      const lng = LANGUAGES.find((l) => l === body.lng) ?? 'en-US';
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('ETag', tags[lng]);
      if (req.method === 'GET' && (req.get('If-None-Match') ?? '').split(/\s*,\s*/).some((t) => t.replace(/^W\//, '') === tags[lng])) {
        res.status(304).end();
        return STREAMED;
      }
      return locales[lng];
    },
  };
}
