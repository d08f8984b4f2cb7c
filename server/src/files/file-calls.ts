/**
 * SPEC §7 file calls: /file/image/upload, /file/file/upload (multipart, one file) and
 * /file/download. Files live under <dataDir>/uploads/<orgId>/ named by a random id, so a
 * download only ever looks in the caller's organisation folder and a name can never leave it.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ErrorCode } from '../http/api-error';
import { STREAMED, type CallDef, type RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { IMAGE_LIMITS } from './image-header';
import { msg } from './messages';
import { EXTENSION_SIGNATURE } from './signatures';
import { DEFAULT_UPLOAD_TIMEOUTS, receiveFile, TEMP_PREFIX, type UploadRule, type UploadTimeouts } from './multipart';
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
}

export const downloadUrl = (fileName: string) => `/api/file/download?fileName=${encodeURIComponent(fileName)}`;

export function fileCalls(opts: FileStoreOptions): CallDef[] {
  const orgDir = (ctx: RequestContext) => join(opts.dataDir, 'uploads', String(ctx.orgId ?? 0));

  const upload = (rule: UploadRule, image: boolean): CallDef['handler'] => async ({ req, ctx }) => {
    const dir = orgDir(ctx);
    const lang = ctx.language;
    const limitKey = image ? 'validation.imageLimit' : 'validation.fileLimit';
    const received = await receiveFile(req, dir, { ...rule, limitMessage: (l) => opts.t(l, limitKey, { formats: rule.extensions.join(', '), size: rule.maxBytes / 1024 }) }, lang, opts.timeouts ?? DEFAULT_UPLOAD_TIMEOUTS);
    const id = randomBytes(16).toString('hex');
    const fileName = `${id}.${received.extension}`;
    let thumbName: string | null = null;
    try {
      if (image) {
        thumbName = `${id}.thumb.jpg`;
        const thumb = await writeThumbnail(received.path, join(dir, thumbName), IMAGE_LIMITS);
        if (!thumb.ok) {
          await unlink(join(dir, thumbName)).catch(() => undefined);
          if (thumb.reason === 'busy') throw new ApiError(ErrorCode.validation, msg(lang, 'imageBusy'), {}, 429);
          if (thumb.reason === 'dimensions')
            throw new ApiError(ErrorCode.validation, msg(lang, 'imageDimensions', { side: IMAGE_LIMITS.maxSide, megapixels: IMAGE_LIMITS.maxPixels / 1e6, width: thumb.header!.width, height: thumb.header!.height }), {}, 413);
          throw new ApiError(ErrorCode.validation, msg(lang, 'signature', { ext: received.extension }));
        }
      } else if (EXTENSION_SIGNATURE[received.extension] === 'zip') {
        // Office Open XML: the archive's own directory must be sound and expand to a bounded size.
        const problem = await checkZip(received.path, ZIP_LIMITS);
        if (problem === 'limits') throw new ApiError(ErrorCode.validation, msg(lang, 'zipLimits', { ext: received.extension, size: ZIP_LIMITS.maxTotalBytes / 2 ** 20, entries: ZIP_LIMITS.maxEntries }), {}, 413);
        if (problem) throw new ApiError(ErrorCode.validation, msg(lang, 'zipUnreadable', { ext: received.extension }));
      }
      await rename(received.path, join(dir, fileName));
    } catch (err) {
      await unlink(received.path).catch(() => undefined);
      throw err;
    }
    await writeFile(join(dir, `${fileName}.json`), JSON.stringify({ orgFileName: received.originalName, size: received.size, userId: ctx.user?.id ?? null, at: new Date().toISOString() }));
    const answer: UploadedFile = { fileName, orgFileName: received.originalName, url: downloadUrl(fileName), thumbUrl: thumbName ? downloadUrl(thumbName) : null };
    return answer;
  };

  const download: CallDef['handler'] = async ({ body, req, res, ctx }) => {
    const requested = body.fileName ?? req.query.fileName;
    const name = typeof requested === 'string' ? requested.replace(/^.*\/api\/file\/download\?fileName=/, '') : '';
    if (!STORED_NAME.test(name)) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'notFound'));
    const dir = orgDir(ctx);
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'notFound'));
    const original = name.includes('.thumb.') ? name : await readFile(join(dir, `${name}.json`), 'utf8').then((s) => String(JSON.parse(s).orgFileName || name), () => name);
    const ext = name.slice(name.lastIndexOf('.') + 1);
    res.status(200);
    res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(info.size));
    res.setHeader('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(original)}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    await new Promise<void>((resolve, reject) => {
      const stream = createReadStream(path);
      stream.on('error', reject);
      res.on('close', resolve);
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
 * Start-up: temporary files of uploads a previous process never finished (a crash, a kill)
 * are removed from every organisation's upload folder. Only this process writes there, and
 * it is not listening yet.
 */
export async function sweepUploads(dataDir: string): Promise<number> {
  const root = join(dataDir, 'uploads');
  let removed = 0;
  for (const org of await readdir(root).catch(() => [] as string[])) {
    const dir = join(root, org);
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.startsWith(TEMP_PREFIX)) continue;
      await unlink(join(dir, f)).then(() => removed++, () => undefined);
    }
  }
  return removed;
}
