/**
 * The import engine, installed once by createServer: migration, calls, a one-at-a-time
 * background queue, validators for plugins, and recovery of jobs a previous process left
 * in processing.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metadata } from '@rti/metadata';
import type { Database } from '../db';
import { msg } from '../files/messages';
import { isOwnTemp, type UploadTimeouts } from '../files/multipart';
import type { CallRegistry } from '../http/registry';
import type { Language, RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import type { HookRegistry } from '../resources/hooks';
import type { ScopedRepository } from '../resources/repository';
import { importCalls } from './import-calls';
import { beatHeart, closeInterrupted, defineImportJob, IMPORT_FINISHED, importJobsMigration, importOwnerMigration, importProgressMigration, INTERRUPTED } from './import-jobs';
import { runImport, type ImportCounts, type RunnerDeps } from './runner';
import { ImportValidators } from './validators';

export { ImportValidators, type ImportValidator, type ImportRowEvent, type ImportRowValidator, type ImportChunkHandler, type ImportChunkEvent } from './validators';
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
  /** IANA zone for workbooks of organisations that name none (config.timeZone) */
  timeZone?: string;
  timeouts?: UploadTimeouts;
  /** config.instanceId: the owner written on the jobs this instance takes */
  instanceId: string;
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
  /** after migrations: closes dead instances' jobs (this one's from before its start), removes this instance's temporary files, starts the heartbeat */
  recover(): Promise<void>;
  /** one heartbeat: this instance's jobs are alive, dead instances' are closed (tests) */
  heartbeat(): Promise<void>;
  /** stops after the current chunk; the running job ends as interrupted */
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
  const heartbeatMs = host.heartbeatMs ?? IMPORT_HEARTBEAT_MS;
  const staleMs = host.staleMs ?? IMPORT_STALE_MS;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();
  let stopping = false;
  const interrupted = (language: string) => msg(language as Language, 'interrupted');

  const fallbackZone = host.timeZone ?? 'UTC';
  /**
   * The organisation's own zone when the metadata gives organisations a `timeZone` field (none
   * does today), else the configured one (docs/SERVER.md "Upload and import limits").
   */
  const orgZoneField = host.metadata.resources.organization?.fields.find((f) => f.name === 'timeZone');
  const timeZone = async (orgId: number | null): Promise<string> => {
    if (!orgZoneField || orgId === null) return fallbackZone;
    const org = await host.db.models.organization?.findByPk(orgId, { attributes: ['timeZone'], raw: true });
    const zone = (org as { timeZone?: unknown } | null)?.timeZone;
    if (typeof zone !== 'string' || !zone) return fallbackZone;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return zone;
    } catch {
      return fallbackZone;
    }
  };

  const deps: RunnerDeps = { db: host.db, metadata: host.metadata, t: host.t, repo: host.repo, validators, hooks: host.hooks, jobs, log: host.log, shouldStop: () => stopping, timeZone };

  const enqueue = (jobId: number, resource: string, ctx: RequestContext, path: string) => {
    queue = queue.then(async () => {
      try {
        if (stopping) return;
        await runImport(deps, { jobId, resource: host.metadata.resources[resource], ctx, path });
      } catch (err) {
        host.log(`[import] job ${jobId} failed`, err);
        await host.db.sequelize
          .transaction((transaction) =>
            jobs.update(
              { status: IMPORT_FINISHED, message: interrupted(ctx.language), messageText: JSON.stringify(INTERRUPTED) },
              { where: { id: jobId }, transaction },
            ),
          )
          .catch(() => undefined);
      } finally {
        await unlink(path).catch(() => undefined);
      }
    });
  };

  for (const def of importCalls({ metadata: host.metadata, t: host.t, jobs, dataDir: host.dataDir, enqueue, timeouts: host.timeouts, instanceId: host.instanceId })) host.calls.add(def);

  /** This instance's jobs are alive; other instances' whose heartbeat stopped are closed. */
  const heartbeat = async () => {
    await beatHeart(jobs, host.instanceId);
    const n = await closeInterrupted(jobs, interrupted, { instanceId: null, staleBefore: new Date(Date.now() - staleMs) });
    if (n) host.log(`[import] ${n} import(s) of a stopped instance closed`);
  };

  return {
    validators,
    async recover() {
      // this instance's jobs are a previous life's (nothing runs yet); others' only when their owner is silent
      const n = await closeInterrupted(jobs, interrupted, { instanceId: host.instanceId, staleBefore: new Date(Date.now() - staleMs), unowned: true });
      if (n) host.log(`[import] ${n} interrupted import(s) closed`);
      // only this instance's leftovers: its job files are its own, even in a folder instances share
      const dir = join(host.dataDir, 'imports');
      for (const f of await readdir(dir).catch(() => [] as string[])) if (isOwnTemp(f, host.instanceId)) await unlink(join(dir, f)).catch(() => undefined);
      heartbeatTimer = setInterval(() => void heartbeat().catch((err) => host.log('[import] heartbeat failed', err)), heartbeatMs);
      heartbeatTimer.unref();
    },
    heartbeat,
    async stop() {
      stopping = true;
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      await queue;
      // jobs still queued here will not run: closed now rather than after the stale bound
      await closeInterrupted(jobs, interrupted, { instanceId: host.instanceId, staleBefore: new Date(0) }).catch((err) => host.log('[import] closing queued jobs failed', err));
    },
    idle: () => queue,
    dryRun: (resource, ctx, path) => runImport(deps, { jobId: 0, resource: host.metadata.resources[resource], ctx, path, dryRun: true }),
  };
}
