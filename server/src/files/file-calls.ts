/**
 * SPEC §7 file calls: /file/image/upload, /file/file/upload (multipart, one file) and
 * /file/download. Files are stored through the storage interface (storage.ts: the data folder
 * or S3) under `uploads/<orgId>/<random id>.<ext>`, so a download only ever looks in the
 * caller's organisation and a name can never leave it. Every instance reads what any instance
 * stored (docs/SERVER.md "Running on several machines").
 */
import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ErrorCode } from '../http/api-error';
import { STREAMED, type CallDef, type RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { IMAGE_LIMITS } from './image-header';
import { msg } from './messages';
import { EXTENSION_SIGNATURE } from './signatures';
import { DEFAULT_UPLOAD_TIMEOUTS, isOwnTemp, receiveFile, tempName, type UploadRule, type UploadTimeouts } from './multipart';
import { LocalStorage, objectKey, StorageUnavailable, type ObjectStorage } from './storage';
import { writeThumbnail } from './thumbnail';
import { checkZip, ZIP_LIMITS } from './zip';

/** SPEC §5/§9 limits. */
export const IMAGE_RULE: UploadRule = { extensions: ['jpg', 'jpeg', 'png'], maxBytes: 5120 * 1024 };
export const FILE_RULE: UploadRule = { extensions: ['doc', 'ppt', 'xls', 'docx', 'pptx', 'xlsx', 'pdf'], maxBytes: 10240 * 1024 };

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** Stored names only: 32 hex digits, optional ".thumb", an extension. Nothing else is looked up. */
const STORED_NAME = /^[0-9a-f]{32}(\.thumb)?\.[a-z]{3,4}$/;

export interface UploadedFile {
  fileName: string;
  orgFileName: string;
  url: string;
  thumbUrl: string | null;
}

export interface FileStoreOptions {
  dataDir: string;
  t: TFunction;
  timeouts?: UploadTimeouts;
  /** where files are stored (default: the data folder) */
  storage?: ObjectStorage;
  /** this instance (config.instanceId): its temporary files carry it */
  instanceId?: string;
}

/** The store is down or refused: 503 in the caller's language (nothing was kept). */
export const storageRefusal = (lang: RequestContext['language']) => new ApiError(ErrorCode.internal, msg(lang, 'storageDown'), {}, 503);

export const downloadUrl = (fileName: string) => `/api/file/download?fileName=${encodeURIComponent(fileName)}`;

export function fileCalls(opts: FileStoreOptions): CallDef[] {
  const storage = opts.storage ?? new LocalStorage(opts.dataDir);
  const org = (ctx: RequestContext) => ctx.orgId ?? 0;

  const upload =
    (rule: UploadRule, image: boolean): CallDef['handler'] =>
    async ({ req, ctx }) => {
      const dir = storage.tempDir('uploads', org(ctx));
      const lang = ctx.language;
      const kind = image ? 'image' : 'file';
      const params = { formats: rule.extensions.join(', '), size: rule.maxBytes / 1024 };
      // a wrong format and a file too large each say their own (SPEC §5)
      const messages = {
        formatMessage: (l: typeof lang) => opts.t(l, `validation.${kind}Format`, params),
        sizeMessage: (l: typeof lang) => opts.t(l, `validation.${kind}Size`, params),
      };
      const received = await receiveFile(req, dir, { ...rule, ...messages }, lang, opts.timeouts ?? DEFAULT_UPLOAD_TIMEOUTS, opts.instanceId);
      const id = randomBytes(16).toString('hex');
      const fileName = `${id}.${received.extension}`;
      const key = (name: string) => objectKey('uploads', org(ctx), name);
      let thumbName: string | null = null;
      const thumbTemp = join(dir, tempName(opts.instanceId));
      const stored: string[] = [];
      try {
        if (image) {
          thumbName = `${id}.thumb.jpg`;
          const thumb = await writeThumbnail(received.path, thumbTemp, IMAGE_LIMITS);
          if (!thumb.ok) {
            if (thumb.reason === 'busy') throw new ApiError(ErrorCode.validation, msg(lang, 'imageBusy'), {}, 429);
            if (thumb.reason === 'dimensions')
              throw new ApiError(
                ErrorCode.validation,
                msg(lang, 'imageDimensions', {
                  side: IMAGE_LIMITS.maxSide,
                  megapixels: IMAGE_LIMITS.maxPixels / 1e6,
                  width: thumb.header!.width,
                  height: thumb.header!.height,
                }),
                {},
                413,
              );
            throw new ApiError(ErrorCode.validation, msg(lang, 'signature', { ext: received.extension }));
          }
        } else if (EXTENSION_SIGNATURE[received.extension] === 'zip') {
          // Office Open XML: the archive's own directory must be sound and expand to a bounded size.
          const problem = await checkZip(received.path, ZIP_LIMITS);
          if (problem === 'limits')
            throw new ApiError(
              ErrorCode.validation,
              msg(lang, 'zipLimits', { ext: received.extension, size: ZIP_LIMITS.maxTotalBytes / 2 ** 20, entries: ZIP_LIMITS.maxEntries }),
              {},
              413,
            );
          if (problem) throw new ApiError(ErrorCode.validation, msg(lang, 'zipUnreadable', { ext: received.extension }));
        }
        // The thumbnail and the sidecar first, the file itself last: a download finds the file
        // only once everything it needs is stored (an S3 PUT is whole or absent).
        if (thumbName) {
          stored.push(key(thumbName));
          await storage.putFile(key(thumbName), thumbTemp, CONTENT_TYPES.jpg);
        }
        stored.push(key(`${fileName}.json`));
        await storage.putBuffer(
          key(`${fileName}.json`),
          Buffer.from(JSON.stringify({ orgFileName: received.originalName, size: received.size, userId: ctx.user?.id ?? null, at: new Date().toISOString() })),
          'application/json',
        );
        stored.push(key(fileName));
        await storage.putFile(key(fileName), received.path, CONTENT_TYPES[received.extension]);
      } catch (err) {
        await unlink(received.path).catch(() => undefined);
        await unlink(thumbTemp).catch(() => undefined);
        // nothing half-written stays: what was stored before the failure is removed (best effort)
        for (const k of stored) await storage.delete(k).catch(() => undefined);
        if (err instanceof StorageUnavailable) throw storageRefusal(lang);
        throw err;
      }
      const answer: UploadedFile = {
        fileName,
        orgFileName: received.originalName,
        url: downloadUrl(fileName),
        thumbUrl: thumbName ? downloadUrl(thumbName) : null,
      };
      return answer;
    };

  const download: CallDef['handler'] = async ({ body, req, res, ctx }) => {
    const requested = body.fileName ?? req.query.fileName;
    const name = typeof requested === 'string' ? requested.replace(/^.*\/api\/file\/download\?fileName=/, '') : '';
    if (!STORED_NAME.test(name)) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'notFound'));
    // the caller's organisation is part of the key: no name reaches another organisation's objects
    const key = objectKey('uploads', org(ctx), name);
    let object: Awaited<ReturnType<ObjectStorage['get']>>;
    let original = name;
    try {
      object = await storage.get(key);
      if (object && !name.includes('.thumb.')) {
        const sidecar = await storage.getBuffer(`${key}.json`).catch(() => null);
        try {
          if (sidecar) original = String(JSON.parse(sidecar.toString('utf8')).orgFileName || name);
        } catch {
          // an unreadable sidecar: the stored name
        }
      }
    } catch (err) {
      if (err instanceof StorageUnavailable) throw storageRefusal(ctx.language);
      throw err;
    }
    if (!object) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'notFound'));
    const { body: stream, size } = object;
    const ext = name.slice(name.lastIndexOf('.') + 1);
    res.status(200);
    res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(size));
    res.setHeader('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(original)}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    await new Promise<void>((resolve) => {
      // a store that fails mid-stream ends the response (its length tells the client it is short)
      stream.on('error', () => {
        res.destroy();
        resolve();
      });
      res.on('close', () => {
        stream.destroy();
        resolve();
      });
      stream.pipe(res);
    });
    return STREAMED;
  };

  // Any signed-in caller may upload and download within the current organisation: every
  // form with an image or file field needs them, whatever the screen's permission.
  return [
    { path: '/file/image/upload', raw: true, permission: null, handler: upload(IMAGE_RULE, true) },
    { path: '/file/file/upload', raw: true, permission: null, handler: upload(FILE_RULE, false) },
    { path: '/file/download', permission: null, handler: download },
  ];
}

/**
 * Start-up: temporary files of uploads this instance never finished (a crash, a kill) are
 * removed from its upload folders — only its own (their names carry the instance id, and
 * names from before instance ids), never another instance's in-flight file in a shared folder.
 * `roots`: the data folder's `uploads` and, on S3, the instance's `tmp/uploads`.
 */
export async function sweepUploads(dataDir: string, instanceId = ''): Promise<number> {
  let removed = 0;
  const sweep = async (dir: string) => {
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!isOwnTemp(f, instanceId)) continue;
      await unlink(join(dir, f)).then(
        () => removed++,
        () => undefined,
      );
    }
  };
  const root = join(dataDir, 'uploads');
  for (const org of await readdir(root).catch(() => [] as string[])) await sweep(join(root, org));
  await sweep(join(dataDir, 'tmp', 'uploads'));
  return removed;
}
