/**
 * Receives the one file of a multipart upload into a temporary file next to its destination.
 * Extension and size are enforced while streaming (busboy limits): an oversized or wrongly
 * named upload is refused without ever being held in memory or kept on disk; the signature
 * is checked on the first bytes once the file is complete.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import busboy from 'busboy';
import type { Request } from 'express';
import { ApiError, ErrorCode } from '../http/api-error';
import type { Language } from '../http/types';
import { msg } from './messages';
import { EXTENSION_SIGNATURE, extensionOf, SIGNATURE_BYTES, sniff } from './signatures';

export interface UploadRule {
  extensions: string[];
  maxBytes: number;
  /** refusal for a wrong extension or size (defaults to the generic format/size messages) */
  limitMessage?: (lang: Language) => string;
}

export interface ReceivedFile {
  /** temporary path; the caller moves or deletes it */
  path: string;
  originalName: string;
  extension: string;
  size: number;
  /** other form fields sent with the file */
  fields: Record<string, string>;
}

const refuse = (text: string, httpStatus = 200) => new ApiError(ErrorCode.validation, text, {}, httpStatus);

export async function receiveFile(req: Request, dir: string, rule: UploadRule, lang: Language): Promise<ReceivedFile> {
  const formats = rule.extensions.join(', ');
  const formatError = () => refuse(rule.limitMessage?.(lang) ?? msg(lang, 'format', { formats }));
  const sizeError = () => refuse(rule.limitMessage?.(lang) ?? msg(lang, 'size', { size: Math.round(rule.maxBytes / 1024) }), 413);
  if (!/^multipart\/form-data/i.test(req.get('content-type') ?? '')) {
    req.resume();
    throw refuse(msg(lang, 'multipart'), 400);
  }
  await mkdir(dir, { recursive: true });
  const path = join(dir, `.upload-${randomBytes(8).toString('hex')}`);

  return new Promise<ReceivedFile>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Promise<Omit<ReceivedFile, 'fields'>> | null = null;
    let failed: ApiError | null = null;
    const fail = (err: ApiError) => {
      failed ??= err;
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: rule.maxBytes + 1, fields: 20, fieldSize: 4096 } });
    } catch {
      req.resume();
      return reject(refuse(msg(lang, 'multipart'), 400));
    }
    bb.on('field', (name, value) => void (fields[name] = value));
    bb.on('file', (_name, stream, info) => {
      const originalName = Buffer.from(info.filename ?? '', 'latin1').toString('utf8');
      const extension = extensionOf(originalName);
      if (file || !rule.extensions.includes(extension)) {
        if (!file) fail(formatError());
        stream.resume();
        return;
      }
      file = new Promise((ok, ko) => {
        let size = 0;
        let head = Buffer.alloc(0);
        const out = createWriteStream(path);
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (head.length < SIGNATURE_BYTES) head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
        });
        // busboy stops at maxBytes + 1 (it signals on reaching its limit): one byte over is too large.
        stream.on('limit', () => fail(sizeError()));
        out.on('error', ko);
        out.on('close', () => ok({ path, originalName, extension, size, head } as Omit<ReceivedFile, 'fields'> & { head: Buffer }));
        stream.pipe(out);
      });
    });
    bb.on('error', () => fail(refuse(msg(lang, 'multipart'), 400)));
    bb.on('close', async () => {
      try {
        const got = file ? ((await file) as Omit<ReceivedFile, 'fields'> & { head: Buffer }) : null;
        if (!failed && !got) fail(refuse(msg(lang, 'noFile')));
        if (!failed && got && sniff(got.head) !== EXTENSION_SIGNATURE[got.extension]) fail(refuse(msg(lang, 'signature', { ext: got.extension })));
        if (failed) {
          if (got) await unlink(path).catch(() => undefined);
          return reject(failed);
        }
        const { head: _head, ...rest } = got!;
        resolve({ ...rest, fields });
      } catch (err) {
        await unlink(path).catch(() => undefined);
        reject(err);
      }
    });
    req.pipe(bb);
  });
}
