/**
 * Receives the one file of a multipart upload into a temporary file next to its destination.
 * Extension and size are enforced while streaming (busboy limits): an oversized or wrongly
 * named upload is refused without ever being held in memory or kept on disk; the signature
 * is checked on the first bytes once the file is complete.
 *
 * Hostile input never escapes as an unhandled 'error' event: busboy, its file stream, the
 * temporary file and the request each have an error listener for their whole life, and the
 * first thing that goes wrong (a truncated or malformed body, a bad file name, a stall, a
 * client that goes away) settles the upload once: the partial file is removed and the caller
 * gets a refusal in its language (the dispatcher writes nothing if the client is gone).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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
  /** refusal for a wrong extension alone (SPEC §5 has a format message and a size message) */
  formatMessage?: (lang: Language) => string;
  /** refusal for a file too large alone */
  sizeMessage?: (lang: Language) => string;
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

export interface UploadTimeouts {
  /** refused when no byte arrives for this long */
  idleMs: number;
  /** refused when the body has not fully arrived after this long */
  totalMs: number;
}

/** config.uploadIdleMs / config.requestTimeoutMs defaults (docs/SERVER.md "Upload and import limits"). */
export const DEFAULT_UPLOAD_TIMEOUTS: UploadTimeouts = { idleMs: 20_000, totalMs: 60_000 };

/** Temporary files start with this; the start-up sweep removes what a crash left. */
export const TEMP_PREFIX = '.upload-';

/**
 * A temporary file's name: `.upload-<instance>~<random>`, so that an instance sweeps only its
 * own leftovers even in a folder several instances share (issue 22); without an instance, the
 * name of earlier versions.
 */
export const tempName = (instanceId?: string) => `${TEMP_PREFIX}${instanceId ? `${instanceId}~` : ''}${randomBytes(8).toString('hex')}`;

/** This instance's leftover (or one from before temporary names carried the instance); never another live instance's. */
export const isOwnTemp = (name: string, instanceId: string) => name.startsWith(`${TEMP_PREFIX}${instanceId}~`) || /^\.upload-[0-9a-f]{16}$/.test(name);

/** Longest accepted file name, in UTF-8 bytes (common file system limit). */
export const MAX_NAME_BYTES = 255;

/**
 * C0 and C1 controls, DEL, bidi overrides/isolates (a name shown as "photo.png" that is not)
 * and U+FFFD (bytes that were not UTF-8).
 */
const BAD_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]/;

export const fileNameProblem = (name: string): boolean => name.trim() === '' || BAD_NAME_CHARS.test(name) || Buffer.byteLength(name) > MAX_NAME_BYTES;

const refuse = (text: string, httpStatus = 200) => new ApiError(ErrorCode.validation, text, {}, httpStatus);

export async function receiveFile(
  req: Request,
  dir: string,
  rule: UploadRule,
  lang: Language,
  timeouts: UploadTimeouts = DEFAULT_UPLOAD_TIMEOUTS,
  instanceId?: string,
): Promise<ReceivedFile> {
  const formats = rule.extensions.join(', ');
  const formatError = () => refuse((rule.formatMessage ?? rule.limitMessage)?.(lang) ?? msg(lang, 'format', { formats }));
  const sizeError = () => refuse((rule.sizeMessage ?? rule.limitMessage)?.(lang) ?? msg(lang, 'size', { size: Math.round(rule.maxBytes / 1024) }), 413);
  const malformed = () => refuse(msg(lang, 'malformed'), 400);
  if (!/^multipart\/form-data/i.test(req.get('content-type') ?? '')) {
    req.resume();
    throw refuse(msg(lang, 'multipart'), 400);
  }
  await mkdir(dir, { recursive: true });
  const path = join(dir, tempName(instanceId));

  return new Promise<ReceivedFile>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let settled = false;
    let out: WriteStream | null = null;
    let outClosed: Promise<void> = Promise.resolve();
    let part: Readable | null = null;
    let info: { originalName: string; extension: string } | null = null;
    let size = 0;
    let head = Buffer.alloc(0);
    let bb: busboy.Busboy | null = null;
    const timers: NodeJS.Timeout[] = [];

    const settle = (err: unknown, file?: ReceivedFile) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      req.off('data', onData);
      if (!err) return resolve(file!);
      if (bb) req.unpipe(bb);
      // Not from inside busboy's own callbacks (a 'limit' or 'file' event): it keeps using its
      // file stream after emitting, and would throw on one destroyed under it.
      const parser = bb;
      setImmediate(() => {
        parser?.destroy();
        part?.destroy();
        out?.destroy();
      });
      if (!req.complete && !req.destroyed) {
        // Answer now; what is still arriving is read and dropped, and the connection is
        // not reused (Node's request time-out still bounds a sender that never stops).
        req.res?.setHeader('Connection', 'close');
        req.resume();
      }
      // The temporary file may still be opening: remove it once its stream has closed.
      void outClosed.then(() => unlink(path).catch(() => undefined)).then(() => reject(err));
    };

    const idle = () => settle(refuse(msg(lang, 'timeout', { seconds: Math.round(timeouts.idleMs / 1000) }), 408));
    const idleTimer = setTimeout(idle, timeouts.idleMs);
    timers.push(
      idleTimer,
      setTimeout(() => settle(refuse(msg(lang, 'tooSlow', { seconds: Math.round(timeouts.totalMs / 1000) }), 408)), timeouts.totalMs),
    );
    function onData() {
      idleTimer.refresh();
    }
    req.on('data', onData);
    req.on('error', () => settle(refuse(msg(lang, 'aborted'), 400)));
    req.on('close', () => {
      if (!req.complete) settle(refuse(msg(lang, 'aborted'), 400));
    });

    try {
      // Names as UTF-8 (what browsers send); filename*= carries its own charset.
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, parts: 30, fields: 20, fieldSize: 4096, headerPairs: 20, fileSize: rule.maxBytes + 1 },
      });
    } catch {
      return settle(malformed());
    }
    bb.on('error', () => settle(malformed()));
    bb.on('field', (name, value) => {
      if (!settled) fields[name] = value;
    });
    bb.on('file', (_name, stream, fileInfo) => {
      // For the stream's whole life: a truncated body destroys it with an error.
      stream.on('error', () => settle(malformed()));
      if (settled || part) return void stream.resume();
      const originalName = fileInfo.filename ?? '';
      if (fileNameProblem(originalName)) {
        stream.resume();
        return settle(refuse(msg(lang, 'badName', { bytes: MAX_NAME_BYTES }), 400));
      }
      const extension = extensionOf(originalName);
      if (!rule.extensions.includes(extension)) {
        stream.resume();
        return settle(formatError());
      }
      part = stream;
      info = { originalName, extension };
      const file = createWriteStream(path);
      out = file;
      outClosed = new Promise((done) => file.on('close', () => done()));
      file.on('error', (err) => settle(err));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (head.length < SIGNATURE_BYTES) head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
      });
      // busboy stops at maxBytes + 1 (it signals on reaching its limit): one byte over is too large.
      stream.on('limit', () => settle(sizeError()));
      stream.pipe(file);
    });
    bb.on('close', () => {
      if (settled) return;
      if (!info || !out) return settle(refuse(msg(lang, 'noFile')));
      const { originalName, extension } = info;
      // Every byte busboy handed over is on disk once the file stream has closed.
      outClosed.then(
        () => {
          if (settled) return;
          if (size > rule.maxBytes) return settle(sizeError());
          if (!(extension in EXTENSION_SIGNATURE) || sniff(head) !== EXTENSION_SIGNATURE[extension])
            return settle(refuse(msg(lang, 'signature', { ext: extension })));
          settle(null, { path, originalName, extension, size, fields });
        },
        // outClosed never rejects today; should it ever, the upload fails, not the process
        (err: unknown) => settle(err),
      );
    });
    req.pipe(bb);
  });
}
