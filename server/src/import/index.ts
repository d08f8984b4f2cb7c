/**
 * The import engine, installed once by createServer: migration, calls, a one-at-a-time
 * background queue, validators for plugins, and the jobs' ownership across instances: the
 * owner beats their heartbeat; a live instance takes over a dead instance's job (or, at start,
 * its own previous life's) and resumes it after its last saved part, the file read back from
 * the object store (docs/SERVER.md "Running on several machines").
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Metadata } from '@rti/metadata';
import type { Database } from '../db';
import { msg } from '../files/messages';
import { isOwnTemp, tempName, type UploadTimeouts } from '../files/multipart';
import { StorageUnavailable, type ObjectStorage } from '../files/storage';
import type { CallRegistry } from '../http/registry';
import type { Language, RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import type { HookRegistry } from '../resources/hooks';
import type { ScopedRepository } from '../resources/repository';
import { importCalls } from './import-calls';
import {
  beatHeart,
  claimJob,
  closeJob,
  deadJobs,
  defineImportError,
  defineImportJob,
  IMPORT_FINISHED,
  IMPORT_PROCESSING,
  importJobsMigration,
  importOwnerMigration,
  importProgressMigration,
  importResumeMigration,
  INTERRUPTED,
  releaseJobs,
  savedErrors,
  type DeadJobs,
  type StoredContext,
} from './import-jobs';
import { ImportStopped, ImportTakenOver, runImport, type ImportCounts, type ImportOptions, type RunnerDeps } from './runner';
import { ImportValidators } from './validators';

export {
  ImportValidators,
  type ImportValidator,
  type ImportRowEvent,
  type ImportRowValidator,
  type ImportChunkHandler,
  type ImportChunkEvent,
} from './validators';
export { IMPORT_MAX_BYTES } from './import-calls';

export interface ImportHost {
  db: Database;
  metadata: Metadata;
  t: TFunction;
  calls: CallRegistry;
  hooks: HookRegistry;
  dataDir: string;
  repo(resource: string, ctx: RequestContext): ScopedRepository;
  log(message: string, err?: unknown): void;
  /** IANA zone for workbooks when no organisation zones are given (config.timeZone) */
  timeZone?: string;
  /** the organisation's time zone (access/org-zones.ts) */
  zoneOf?: (orgId: number | null) => Promise<string>;
  timeouts?: UploadTimeouts;
  /** config.instanceId: the owner written on the jobs this instance takes */
  instanceId: string;
  /** where import files are kept while their job runs (every instance reads them: a resume); read when a job runs */
  storage(): ObjectStorage;
  /** how often this instance beats the heartbeat of its jobs and looks for dead instances' (ms) */
  heartbeatMs?: number;
  /** a job whose heartbeat is older than this is a dead instance's (ms) */
  staleMs?: number;
}

/** Heartbeat every 5 s; an owner silent for 60 s is dead (far above any pause or clock skew). */
export const IMPORT_HEARTBEAT_MS = 5_000;
export const IMPORT_STALE_MS = 60_000;

export interface ImportEngine {
  validators: ImportValidators;
  /** after migrations: resumes this instance's jobs from before its start and dead instances', removes this instance's temporary files, starts the heartbeat */
  recover(): Promise<void>;
  /** one heartbeat: this instance's jobs are alive; when idle, it takes over one dead instance's job (tests) */
  heartbeat(): Promise<void>;
  /** stops after the part being written; this instance's jobs are given up for another instance (or its next start) to resume */
  stop(): Promise<void>;
  /** resolves when every queued job has finished (tests, benchmarks) */
  idle(): Promise<void>;
  /** reads and checks a file like an import, writing nothing (benchmarks' parse floor) */
  dryRun(resource: string, ctx: RequestContext, path: string): Promise<ImportCounts & { message: string | null }>;
}

export function installImports(host: ImportHost): ImportEngine {
  const validators = new ImportValidators();
  const jobs = defineImportJob(host.db.sequelize);
  host.db.addMigration(importJobsMigration);
  host.db.addMigration(importProgressMigration);
  host.db.addMigration(importOwnerMigration);
  host.db.addMigration(importResumeMigration);
  const heartbeatMs = host.heartbeatMs ?? IMPORT_HEARTBEAT_MS;
  const staleMs = host.staleMs ?? IMPORT_STALE_MS;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  /** the heartbeat under way (one at a time: a slow database does not pile them up) */
  let beating: Promise<void> | null = null;
  let queue: Promise<void> = Promise.resolve();
  let stopping = false;
  const interrupted = (language: string) => msg(language as Language, 'interrupted');

  // wall-clock cells are read in the organisation's zone (access/org-zones.ts)
  const fallbackZone = host.timeZone ?? 'UTC';
  const timeZone = async (orgId: number | null): Promise<string> => (host.zoneOf ? host.zoneOf(orgId) : fallbackZone);

  const errors = defineImportError(host.db.sequelize);
  const deps: RunnerDeps = {
    db: host.db,
    metadata: host.metadata,
    t: host.t,
    repo: host.repo,
    hooks: host.hooks,
    log: host.log,
    validators,
    jobs,
    errors,
    shouldStop: () => stopping,
    timeZone,
  };
  const importsDir = join(host.dataDir, 'imports');
  /** jobs queued or running on this instance */
  let pending = 0;

  /** Ends a job this instance holds as interrupted (its claim still current). */
  const interrupt = (job: QueuedImport) =>
    host.db.sequelize
      .transaction((transaction) =>
        jobs.update(
          { status: IMPORT_FINISHED, message: interrupted(job.ctx.language), messageText: JSON.stringify(INTERRUPTED) },
          { where: { id: job.jobId, claim: job.claim, status: IMPORT_PROCESSING }, transaction },
        ),
      )
      .catch((err) => host.log(`[import] job ${job.jobId}: closing failed`, err));

  /** Whether the store holds the file (on local storage: whether it is on this instance's disk). */
  const stored = async (fileKey: string): Promise<boolean> => {
    const got = await host
      .storage()
      .get(fileKey)
      .catch(() => null);
    got?.body.destroy();
    return Boolean(got);
  };

  /** The job's file on this instance's disk: the upload's own temporary file, or read back from the store. */
  const localFile = async (job: QueuedImport): Promise<string | null> => {
    if (job.path) return job.path;
    const got = await host.storage().get(job.fileKey);
    if (!got) return null;
    await mkdir(importsDir, { recursive: true });
    const path = join(importsDir, tempName(host.instanceId));
    try {
      await pipeline(got.body, createWriteStream(path));
    } catch (err) {
      await unlink(path).catch(() => undefined);
      throw err;
    }
    return path;
  };

  const runJob = async (job: QueuedImport) => {
    let path: string | null = null;
    try {
      if (stopping) return;
      path = await localFile(job);
      if (!path) {
        // kept on a disk this instance cannot read (local storage on another machine), or gone
        host.log(`[import] job ${job.jobId}: its file ${job.fileKey} is not in the store; closed`);
        await interrupt(job);
        return;
      }
      const resume = job.resume ? { ...job.resume, errors: await savedErrors(errors, job.jobId) } : undefined;
      await runImport(deps, {
        jobId: job.jobId,
        resource: host.metadata.resources[job.resource],
        ctx: job.ctx,
        path,
        claim: job.claim,
        resume,
        options: job.options,
      });
      await host
        .storage()
        .delete(job.fileKey)
        .catch((err) => host.log(`[import] job ${job.jobId}: its file was not removed from the store`, err));
    } catch (err) {
      if (err instanceof ImportStopped) return;
      if (err instanceof ImportTakenOver) return void host.log(`[import] ${err.message}`);
      if (err instanceof StorageUnavailable) {
        // the store is down: given up for the next heartbeat (of any instance) to try again
        host.log(`[import] job ${job.jobId}: import file not readable yet`, err);
        await jobs.update({ heartbeatAt: new Date(0) }, { where: { id: job.jobId, claim: job.claim }, silent: true }).catch(() => undefined);
        return;
      }
      host.log(`[import] job ${job.jobId} failed`, err);
      await interrupt(job);
    } finally {
      if (path) await unlink(path).catch(() => undefined);
    }
  };

  const enqueue = (job: QueuedImport) => {
    pending++;
    queue = queue
      .then(() => runJob(job))
      .catch((err) => host.log(`[import] job ${job.jobId} failed`, err))
      .finally(() => void pending--);
  };

  const callDeps = {
    metadata: host.metadata,
    t: host.t,
    jobs,
    errors,
    dataDir: host.dataDir,
    storage: host.storage,
    storedContext,
    enqueue,
    timeouts: host.timeouts,
    instanceId: host.instanceId,
  };
  for (const def of importCalls(callDeps)) host.calls.add(def);

  /**
   * Dead instances' jobs (and, at start, this instance's own from before): each with a file is
   * claimed — one conditional UPDATE, so one instance wins — and resumed after its cursor; one
   * without (from before jobs kept their file) is closed as interrupted. `limit`: how many to take.
   */
  const takeOver = async (dead: DeadJobs, limit: number) => {
    let closed = 0;
    let taken = 0;
    for (const job of await deadJobs(jobs, dead)) {
      const fileKey = job.get('fileKey') as string | null;
      const context = parseContext(job.get('context'));
      if (!fileKey || !context || !host.metadata.resources[String(job.get('resource'))]) {
        if (await closeJob(jobs, job, interrupted)) closed++;
        continue;
      }
      if (taken >= limit) continue;
      const own = job.get('instanceId') === host.instanceId && dead.instanceId === host.instanceId;
      // local storage: another instance's file is on its own disk; the job waits for that instance's restart
      if (!own && host.storage().kind === 'local' && !(await stored(fileKey))) continue;
      const claim = await claimJob(jobs, job, host.instanceId, own ? null : dead.staleBefore);
      if (!claim) continue;
      taken++;
      const counts = { processed: Number(job.get('processedVolume')), success: Number(job.get('successVolume')), failed: Number(job.get('failedVolume')) };
      host.log(`[import] job ${Number(job.get('id'))} resumed after row ${Number(job.get('cursorRow'))} (from ${String(job.get('instanceId'))})`);
      // the mapping step's choices were kept with the uploader's context
      const options = parseOptions(job.get('context'));
      enqueue({
        jobId: Number(job.get('id')),
        resource: String(job.get('resource')),
        ctx: context,
        fileKey,
        claim,
        resume: { cursor: Number(job.get('cursorRow') ?? 0), counts },
        options,
      });
    }
    if (closed) host.log(`[import] ${closed} interrupted import(s) closed`);
  };

  /** This instance's jobs are alive; when it has nothing to do, it takes over one dead instance's job. */
  const heartbeat = async () => {
    await beatHeart(jobs, host.instanceId);
    if (!stopping) await takeOver({ instanceId: null, staleBefore: new Date(Date.now() - staleMs) }, pending === 0 ? 1 : 0);
  };

  return {
    validators,
    async recover() {
      // only this instance's leftovers: its job files are its own, even in a folder instances share
      for (const f of await readdir(importsDir).catch(() => [] as string[]))
        if (isOwnTemp(f, host.instanceId)) await unlink(join(importsDir, f)).catch(() => undefined);
      // this instance's jobs are a previous life's (nothing runs yet), all resumed; others' only when their owner is silent
      await takeOver({ instanceId: host.instanceId, staleBefore: new Date(Date.now() - staleMs), unowned: true }, Number.MAX_SAFE_INTEGER);
      heartbeatTimer = setInterval(() => {
        if (beating) return;
        beating = heartbeat()
          .catch((err) => host.log('[import] heartbeat failed', err))
          .finally(() => {
            beating = null;
          });
      }, heartbeatMs);
      heartbeatTimer.unref();
    },
    heartbeat,
    async stop() {
      stopping = true;
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      // a beat under way may be claiming a job: it is queued before the queue is awaited
      await beating;
      await queue;
      // the running job stopped after its last saved part, the queued ones never started: all are
      // given up now (heartbeat at the epoch) for a live instance's next heartbeat, not after the stale bound
      await releaseJobs(jobs, host.instanceId).catch((err) => host.log('[import] giving jobs up failed', err));
      await takeOver({ instanceId: host.instanceId, staleBefore: new Date(0) }, 0).catch((err) => host.log('[import] closing jobs failed', err));
    },
    idle: () => queue,
    dryRun: (resource, ctx, path) => runImport(deps, { jobId: 0, resource: host.metadata.resources[resource], ctx, path, dryRun: true }),
  };
}

/** A job queued on this instance: a fresh upload (its file still on this disk) or a resume. */
export interface QueuedImport {
  jobId: number;
  resource: string;
  ctx: RequestContext;
  /** the file in the object store */
  fileKey: string;
  /** this instance's claim on the job */
  claim: string;
  /** the upload's temporary file on this instance, when it took the upload */
  path?: string;
  /** where an earlier run stopped */
  resume?: { cursor: number; counts: ImportCounts };
  /** the mapping step's choices */
  options?: ImportOptions;
}

/** The mapping step's choices a job keeps beside its uploader's context (none for older jobs). */
function parseOptions(value: unknown): ImportOptions | undefined {
  try {
    const o = (JSON.parse(String(value ?? 'null')) as { options?: ImportOptions } | null)?.options;
    return o && typeof o === 'object' ? o : undefined;
  } catch {
    return undefined;
  }
}

/** The uploader's context as the job stored it, or null when it holds none. */
function parseContext(value: unknown): RequestContext | null {
  try {
    const c = JSON.parse(String(value ?? 'null')) as StoredContext | null;
    if (!c || typeof c.language !== 'string' || !Array.isArray(c.orgIds)) return null;
    return { language: c.language as Language, user: c.user, orgId: c.orgId, orgIds: c.orgIds, warehouseIds: c.warehouseIds, via: 'session' };
  } catch {
    return null;
  }
}

/** What a job stores of its uploader's context, to be written in on any instance. */
export function storedContext(ctx: RequestContext): StoredContext {
  const user = ctx.user ? { id: ctx.user.id, username: ctx.user.username, realName: ctx.user.realName ?? null, sysOrgUser: ctx.user.sysOrgUser } : null;
  return { language: ctx.language, user, orgId: ctx.orgId, orgIds: ctx.orgIds, warehouseIds: ctx.warehouseIds };
}
