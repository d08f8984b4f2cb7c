/**
 * Scheduler: task-config rows run as Agenda 6 jobs stored in the server's own SQL database
 * (SqlBackend), their reports mailed through nodemailer (file outbox by default, SMTP when
 * SMTP_URL is set), each run recorded. Calls: /task-config/run (run now),
 * /task-config/run/list (run history) and /task-config/run/file (the workbook a run kept in
 * the server's storage), all inside the caller's organisation. It provides the platform's mail
 * service (`mail`: SMTP or the file outbox), which account mails use too.
 * plugins/scheduler/README.md documents it.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Agenda, exponential } from 'agenda';
import { definePlugin, type HookEvent, type Language, type PluginServerContext } from '@rti/server/plugin-api';
import { Op, type Transaction } from 'sequelize';
import { createMailer, type Mailer } from './mailer';
import { installRunCalls } from './run-calls';
import { createRunner } from './runner';
import { loadSettings } from './settings';
import { SqlBackend } from './sql-backend';
import { defineTables, tablesMigration } from './tables';
import { JOB_NAME, taskJobs, type TaskJobData, type TaskJobs } from './task-jobs';
import { checkTask } from './task-rules';
import { taskOf } from './task';

const RESOURCE = 'task-config';
/** how long closing waits for runs in progress */
const DRAIN_MS = 10_000;

/** After the outermost transaction commits (a savepoint's commit is not the real one). */
function afterCommit(t: Transaction, fn: () => Promise<void>, log: (m: string, e?: unknown) => void): void {
  let root = t as Transaction & { parent?: Transaction };
  while (root.parent) root = root.parent as Transaction & { parent?: Transaction };
  root.afterCommit(() => void fn().catch((err) => log('rescheduling a task failed', err)));
}

export interface SchedulerHandle {
  agenda: Agenda;
  jobs: TaskJobs;
  runner: ReturnType<typeof createRunner>;
  instance: string;
}

const handles = new WeakMap<object, SchedulerHandle>();
/** The scheduler of a server (tests, other plugins), keyed by its database. */
export const schedulerOf = (database: object): SchedulerHandle | undefined => handles.get(database);

function install(ctx: PluginServerContext): void {
  const settings = loadSettings();
  // the scheduler's texts (server/messages) are in the server's translator, under "scheduler."
  const t = ctx.t;
  const { runs } = defineTables(ctx.db);
  ctx.addMigration(tablesMigration);
  const instance = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  let mailer: Mailer | undefined;
  const getMailer = () => (mailer ??= createMailer({ smtpUrl: settings.smtpUrl, from: settings.mailFrom, outboxDir: join(ctx.config.dataDir, 'outbox') }));
  // the platform's one mail path: account mails (reset codes) and other plugins' mails use it too
  ctx.provide('mail', {
    get kind() {
      return getMailer().kind;
    },
    send: (mail) => getMailer().send(mail),
  });
  let handle: SchedulerHandle | undefined;
  const runner = createRunner({
    plugin: ctx,
    runs,
    mailer: getMailer,
    t,
    zoneOf: (orgId) => ctx.zoneOf(orgId),
    instance,
    onMissingTask: async (id) => handle?.jobs.unschedule(id),
  });
  const inflight = new Set<Promise<unknown>>();

  // Refuse what the scheduler could not run, in the caller's language.
  ctx.hooks.before('create', RESOURCE, (e: HookEvent) => checkTask(e.data ?? {}, settings.timezone));
  ctx.hooks.before('update', RESOURCE, (e: HookEvent) => checkTask({ ...e.previous, ...e.data }, settings.timezone));
  // Reschedule once the write is committed (a rolled-back write schedules nothing).
  for (const action of ['create', 'update'] as const) {
    ctx.hooks.after(action, RESOURCE, (e: HookEvent) => {
      const row = e.row;
      if (!row) return;
      afterCommit(e.transaction, async () => handle?.jobs.schedule(taskOf(row), e.ctx.language), ctx.log);
    });
  }
  // A new zone of an organisation moves its tasks' next runs now (the core forgets the old zone
  // after the commit, before this runs).
  ctx.hooks.after('update', 'organization', (e: HookEvent) => {
    const orgId = Number(e.row?.id);
    if (!handle || !Number.isFinite(orgId) || (e.previous?.timeZone ?? null) === (e.row?.timeZone ?? null)) return;
    afterCommit(
      e.transaction,
      async () => {
        const rows = (await ctx.repo(RESOURCE, ctx.systemContext(orgId)).findAll({ raw: true })) as unknown as Array<Record<string, unknown>>;
        for (const r of rows) {
          const task = taskOf(r);
          const language = ((await handle?.jobs.jobOf(task.id))?.data as TaskJobData | undefined)?.language ?? settings.language;
          await handle?.jobs.schedule(task, language);
        }
      },
      ctx.log,
    );
  });
  ctx.hooks.after('delete', RESOURCE, (e: HookEvent) => {
    const id = Number(e.row?.id);
    afterCommit(e.transaction, async () => handle?.jobs.unschedule(id), ctx.log);
  });

  ctx.onReady(async () => {
    const agenda = new Agenda({
      backend: new SqlBackend(ctx.db),
      name: instance,
      processEvery: settings.processEveryMs,
      defaultLockLifetime: settings.lockLifetimeMs,
    });
    agenda.on('error', (err) => ctx.log('agenda error', err));
    agenda.define<TaskJobData>(
      JOB_NAME,
      async (job) => {
        const d = job.attrs.data;
        const p = runner.run(d.taskId, d.orgId, 'schedule', d.language ?? settings.language);
        inflight.add(p);
        try {
          await p;
        } finally {
          inflight.delete(p);
        }
      },
      { concurrency: 4, lockLifetime: settings.lockLifetimeMs, backoff: exponential({ delay: settings.retryDelayMs, maxRetries: settings.retries }) },
    );
    const jobs = taskJobs(agenda, (orgId) => ctx.zoneOf(orgId));
    handle = { agenda, jobs, runner, instance };
    handles.set(ctx.database, handle);
    // every row of every organisation, read inside its organisation
    const orgs = await ctx.organisationsWith(RESOURCE);
    const tasks: Array<{ task: ReturnType<typeof taskOf>; language: Language }> = [];
    const current = await agenda.queryJobs({ name: JOB_NAME });
    // a row keeps the language of whoever saved it last
    const langOf = (id: number) => (current.jobs.find((j) => (j.data as TaskJobData)?.taskId === id)?.data as TaskJobData | undefined)?.language;
    for (const org of orgs) {
      const rows = await ctx.repo(RESOURCE, ctx.systemContext(org)).findAll({ raw: true });
      for (const r of rows as unknown as Array<Record<string, unknown>>) {
        const task = taskOf(r);
        tasks.push({ task, language: langOf(task.id) ?? settings.language });
      }
    }
    await jobs.sync(tasks);
  });

  // Agenda polls only once every plugin is ready, and stops before the database closes.
  ctx.onReady(async () => {
    await handle?.agenda.start();
  });
  ctx.onClose(async () => {
    if (!handle) return;
    // unlocks the jobs this instance holds but has not started, so another instance (or the
    // next start) takes them at once; runs in progress finish first
    await handle.agenda.stop();
    await Promise.race([Promise.allSettled([...inflight]), new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
    mailer?.close();
  });

  // the run history is a log: old records go, so an every-minute task does not grow it forever
  ctx.jobs.every('prune-runs', 6 * 3600_000, async () => {
    await runs.destroy({ where: { startedAt: { [Op.lt]: Date.now() - settings.runRetentionDays * 86_400_000 } } });
  });

  installRunCalls(ctx, runs, runner);
}

export default definePlugin({
  id: 'scheduler',
  provides: ['mail'],
  ownTables: 'its scheduled runs, their leases and the mail outbox',
  server: install,
});
