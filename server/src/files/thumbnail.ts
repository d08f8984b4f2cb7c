/**
 * Thumbnails in pure JavaScript (jimp): the sharp binary cannot be fetched in every install.
 * Decoding also proves the upload is a real image, not just the right first bytes.
 *
 * The declared dimensions are checked from the header first (image-header.ts), and decoding
 * runs in one worker thread, one image at a time: the request path's event loop never
 * decodes, and memory holds at most one decoded image. The worker ends after a short idle
 * spell so its memory goes back to the system; a job that runs too long or a worker that dies
 * fails only that upload.
 */
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { IMAGE_LIMITS, readImageHeader, withinLimits, type ImageHeader, type ImageLimits } from './image-header';

export const THUMB_SIZE = 200;
/** Images waiting for the worker beyond this are refused as "busy" at once. */
export const MAX_WAITING = 16;
const JOB_TIMEOUT_MS = 30_000;
const IDLE_MS = 10_000;

export type ThumbnailOutcome = { ok: true; header: ImageHeader } | { ok: false; reason: 'unreadable' | 'dimensions' | 'busy'; header?: ImageHeader };

interface Job {
  id: number;
  source: string;
  target: string;
  /** the worker it was sent to */
  worker?: Worker;
  done(error: string | null): void;
}

let worker: Worker | null = null;
let running: Job | null = null;
let jobTimer: NodeJS.Timeout | null = null;
let idleTimer: NodeJS.Timeout | null = null;
const waiting: Job[] = [];
let nextId = 1;

function finish(job: Job, error: string | null) {
  if (running !== job) return;
  running = null;
  if (jobTimer) clearTimeout(jobTimer);
  job.done(error);
  pump();
}

function spawn(): Worker {
  const w = new Worker(new URL('./thumbnail-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  w.unref();
  w.on('message', (m: { id: number; error?: string }) => {
    if (running?.id === m.id) finish(running, m.error ?? null);
  });
  const gone = (why: string) => {
    if (worker === w) worker = null;
    if (running?.worker === w) finish(running, why);
  };
  w.on('error', (err) => gone(String(err?.message ?? err)));
  w.on('exit', () => gone('thumbnail worker exited'));
  return w;
}

function pump() {
  if (running) return;
  const job = waiting.shift();
  if (!job) {
    if (worker && !idleTimer) {
      idleTimer = setTimeout(() => {
        idleTimer = null;
        if (!running && worker) void worker.terminate();
      }, IDLE_MS);
      idleTimer.unref();
    }
    return;
  }
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  worker ??= spawn();
  running = job;
  job.worker = worker;
  jobTimer = setTimeout(() => {
    // A decode that runs away costs a fresh worker, not the server.
    const w = worker;
    worker = null;
    finish(job, 'thumbnail timed out');
    void w?.terminate();
  }, JOB_TIMEOUT_MS);
  jobTimer.unref();
  worker.postMessage({ id: job.id, source: job.source, target: job.target, size: THUMB_SIZE });
}

function decode(source: string, target: string): Promise<string | null> {
  return new Promise((resolve) => {
    waiting.push({ id: nextId++, source, target, done: resolve });
    pump();
  });
}

/**
 * Writes a JPEG thumbnail (at most THUMB_SIZE on each side) of the image at `source` when its
 * header declares dimensions within `limits`.
 */
export async function writeThumbnail(source: string, target: string, limits: ImageLimits = IMAGE_LIMITS): Promise<ThumbnailOutcome> {
  const header = readImageHeader(await readFile(source));
  if (!header) return { ok: false, reason: 'unreadable' };
  if (!withinLimits(header, limits)) return { ok: false, reason: 'dimensions', header };
  if (waiting.length >= MAX_WAITING) return { ok: false, reason: 'busy', header };
  const error = await decode(source, target);
  return error === null ? { ok: true, header } : { ok: false, reason: 'unreadable', header };
}
