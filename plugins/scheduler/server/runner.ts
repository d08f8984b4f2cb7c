/**
 * One run of a task-config row, scheduled or manual: inside the row's organisation (a system
 * context, so every read goes through the scoped repository), the task type a plugin
 * contributes for the row's task name (ctx.reports; the name's enum key, e.g. 60 →
 * "gpsReportMail"), then the mail (or, for a non-mail report task, the workbook in the
 * server's storage under reports/<org>/ — the data folder or S3, so any instance serves it
 * through /task-config/run/file), and a run record from start to finish. A task name no plugin
 * provides ends "skipped" with the reason, never a pretended success.
 */
import { namedPatterns } from '@rti/metadata';
import { ApiError, objectKey, type Language, type PluginServerContext } from '@rti/server/plugin-api';
import type { Model } from 'sequelize';
import type { Mailer } from './mailer';
import { recipientsOf, sendsMail, taskOf, type Outcome, type TaskRow } from './task';
import type { JobModel } from './tables';

export type RunStatus = 'running' | 'succeeded' | 'empty' | 'skipped' | 'failed';
export type RunVia = 'schedule' | 'manual';

export interface RunRecord {
  id: number;
  taskId: number;
  taskName: number | null;
  orgId: number;
  via: RunVia;
  instance: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  /** failed: the error; empty/skipped: why nothing was sent; succeeded: what the mail could not carry (else null) */
  error: string | null;
  /** the mail's Message-ID (SMTP or file outbox) */
  messageId: string | null;
  /** the .eml (file outbox) or the kept report file */
  outboxFile: string | null;
  recipients: string[];
  attachment: string | null;
  rowCount: number | null;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());

export function runRecordOf(m: Model | Record<string, unknown>): RunRecord {
  const r = (typeof (m as Model).get === 'function' ? (m as Model).get({ plain: true }) : m) as Record<string, unknown>;
  return {
    id: Number(r.id),
    taskId: Number(r.taskId),
    taskName: r.taskName === null || r.taskName === undefined ? null : Number(r.taskName),
    orgId: Number(r.orgId),
    via: r.via as RunVia,
    instance: (r.instance as string | null) ?? null,
    startedAt: iso(r.startedAt)!,
    finishedAt: iso(r.finishedAt),
    status: r.status as RunStatus,
    error: (r.error as string | null) ?? null,
    messageId: (r.messageId as string | null) ?? null,
    outboxFile: (r.outboxFile as string | null) ?? null,
    recipients: recipientsOf(r.recipients as string | null),
    attachment: (r.attachment as string | null) ?? null,
    rowCount: r.rowCount === null || r.rowCount === undefined ? null : Number(r.rowCount),
  };
}

export interface RunnerDeps {
  plugin: PluginServerContext;
  runs: JobModel;
  mailer: () => Mailer;
  t: (lang: Language, key: string, params?: Record<string, unknown>) => string;
  /** the organisation's time zone: a run's "today" and "yesterday" are its days */
  zoneOf: (orgId: number) => Promise<string>;
  instance: string;
  /** a scheduled run found its row gone (deleted outside the API): drop the job */
  onMissingTask(taskId: number): Promise<void>;
}

/** A failed run that Agenda should retry (the record is already written). */
export class RunFailed extends Error {}

const LABEL_PREFIX = 'enums.taskName.';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A kept workbook's storage key: the organisation's, a plain name (other characters become "_"). */
export const reportKey = (orgId: number, name: string) =>
  objectKey(
    'reports',
    orgId,
    name
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/\.\.+/g, '.')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(-200) || 'report.xlsx',
  );

export function createRunner(deps: RunnerDeps) {
  const { plugin, runs } = deps;

  /** The task type id of a task name: its enum value's key (60 → "gpsReportMail"). */
  const taskKeyOf = (name: number): string | undefined => {
    const label = plugin.metadata.enums.taskName?.find((e) => Number(e.value) === name)?.label;
    return label?.startsWith(LABEL_PREFIX) ? label.slice(LABEL_PREFIX.length) : undefined;
  };

  /** Why a task name has nothing to run here: its own text when the catalogue has one. */
  function missing(key: string | undefined, t: (k: string, p?: Record<string, unknown>) => string): Outcome {
    const own = key && t(`scheduler.skip.why.${key}`, { name: t(LABEL_PREFIX + key) });
    if (key && own !== `scheduler.skip.why.${key}`) return { kind: 'skipped', reason: own as string };
    return { kind: 'skipped', reason: t('scheduler.skip.unknown', { name: key ? t(LABEL_PREFIX + key) : '' }) };
  }

  async function deliver(
    task: TaskRow,
    title: string,
    t: (k: string, p?: Record<string, unknown>) => string,
    outcome: Outcome,
  ): Promise<Record<string, unknown>> {
    if (outcome.kind !== 'report') return { status: outcome.kind, error: outcome.reason };
    const { report } = outcome;
    const attachment = report.attachment.filename;
    if (!sendsMail(task)) {
      // kept where every instance reads it (run/file serves it), under the organisation's key
      const key = reportKey(task.orgId, `${Date.now()}-${attachment}`);
      await plugin.storage.putBuffer(key, report.attachment.content, XLSX_TYPE);
      return { status: 'succeeded', outboxFile: plugin.storage.locate(key), attachment, rowCount: report.rows };
    }
    const to = recipientsOf(task.mailTo).filter((a) => namedPatterns.email.test(a));
    if (!to.length) return { status: 'skipped', error: t('scheduler.skip.noRecipients'), attachment, rowCount: report.rows };
    const sent = await deps.mailer().send({
      to,
      // no subject on the row: the task name (else the report's title)
      subject: task.subject?.trim() || title || report.title || '',
      text: [task.text?.trim(), report.text, t('scheduler.text.footer', { id: task.id })].filter(Boolean).join('\n\n'),
      attachments: [{ filename: attachment, content: report.attachment.content, contentType: XLSX_TYPE }, ...(report.also ?? [])],
    });
    // sent without something it should carry (a picture not drawn): the reason stays on the run's record
    const left = report.notes?.length ? { error: report.notes.join('\n') } : {};
    return { status: 'succeeded', messageId: sent.messageId, outboxFile: sent.file, recipients: to.join(','), attachment, rowCount: report.rows, ...left };
  }

  /**
   * Runs the task now and answers its finished run record. A scheduled run that throws is
   * recorded as failed and rethrown (RunFailed) so Agenda retries it with backoff.
   */
  async function run(taskId: number, orgId: number, via: RunVia, language: Language): Promise<RunRecord> {
    const started = Date.now();
    const record = await runs.create({ orgId, taskId, via, instance: deps.instance, startedAt: started, status: 'running' });
    const call = plugin.systemContext(orgId, language);
    const t = (key: string, params?: Record<string, unknown>) => deps.t(language, key, params);
    let result: Record<string, unknown>;
    let failure: Error | null = null;
    try {
      const found = await plugin.repo('task-config', call).findAll({ where: { id: taskId } });
      if (!found.length) {
        await deps.onMissingTask(taskId);
        await record.update({ status: 'skipped', error: t('server.errors.10002'), finishedAt: Date.now() });
        return runRecordOf(record);
      }
      const row = found[0].get({ plain: true }) as Record<string, unknown>;
      const task = taskOf(row);
      await record.update({ taskName: task.name });
      const key = taskKeyOf(task.name);
      const type = key ? plugin.reports.task(key) : undefined;
      const outcome = type
        ? await type.run({ ctx: call, task: row, now: new Date(started), timezone: await deps.zoneOf(orgId), language, t })
        : missing(key, t);
      result = await deliver(task, key ? t(LABEL_PREFIX + key) : '', t, outcome);
    } catch (err) {
      failure = err as Error;
      // an ApiError carries a message key (e.g. 10002 for a task deleted meanwhile)
      result = { status: 'failed', error: err instanceof ApiError ? t(err.messageKey, err.params) : failure.message || String(err) };
    }
    await record.update({ ...result, finishedAt: Date.now() });
    const out = runRecordOf(record);
    if (failure && via === 'schedule') throw new RunFailed(out.error ?? failure.message, { cause: failure });
    return out;
  }

  return { run };
}
