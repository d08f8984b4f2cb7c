/**
 * task-config rows as Agenda jobs: one job per available row (unique on data.taskId), repeating
 * on its cron, or once on its assign date for the assign-date types. Saving a row reschedules
 * it; disabling or deleting it removes the job; the start-up sync keeps jobs that still match
 * their row (so a persisted next run survives a restart) and drops orphans.
 */
import type { Agenda, JobParameters } from 'agenda';
import { CronExpressionParser } from 'cron-parser';
import type { Language } from '@rti/server/plugin-api';
import { isDated, type TaskRow } from './task';
import { dayOf } from '@rti/server/plugin-api';

export const JOB_NAME = 'task-config';

export interface TaskJobData {
  taskId: number;
  orgId: number;
  /** language of the mail and report (of whoever saved the row) */
  language: Language;
  cron: string;
  assignDate: string | null;
}

/** The first run on an assign date: the cron's first time that day, else the day's start. */
export function firstRunOn(date: string, cron: string, timezone: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const midnights = CronExpressionParser.parse('0 0 0 * * *', { tz: timezone, currentDate: new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000) });
  let start = midnights.prev().toDate();
  while (dayOf(start, timezone) > date) start = midnights.prev().toDate();
  if (dayOf(start, timezone) !== date) return null;
  const next = CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date(start.getTime() - 1) })
    .next()
    .toDate();
  return dayOf(next, timezone) === date ? next : start;
}

export interface TaskJobs {
  /** (re)schedules a row; `keepEquivalent` keeps a job already scheduled the same way */
  schedule(task: TaskRow, language: Language, keepEquivalent?: boolean): Promise<void>;
  unschedule(taskId: number): Promise<void>;
  /** the job of a row, if scheduled */
  jobOf(taskId: number): Promise<JobParameters<TaskJobData> | undefined>;
  /** start-up: every available row scheduled, jobs of other rows removed */
  sync(tasks: Array<{ task: TaskRow; language: Language }>): Promise<void>;
}

/** Crons are read in the task's organisation's zone (a change of zone reschedules at the next start or save). */
export function taskJobs(agenda: Agenda, zoneOf: (orgId: number) => Promise<string>): TaskJobs {
  const jobOf = async (taskId: number) => {
    const { jobs } = await agenda.queryJobs({ name: JOB_NAME, data: { taskId } });
    return jobs[0] as JobParameters<TaskJobData> | undefined;
  };
  const unschedule = async (taskId: number) => {
    await agenda.cancel({ name: JOB_NAME, data: { taskId } });
  };

  async function schedule(task: TaskRow, language: Language, keepEquivalent = false): Promise<void> {
    if (!task.available) return unschedule(task.id);
    const timezone = await zoneOf(task.orgId);
    const data: TaskJobData = { taskId: task.id, orgId: task.orgId, language, cron: task.cron, assignDate: isDated(task) ? task.assignDate : null };
    if (keepEquivalent) {
      const current = await jobOf(task.id);
      const d = current?.data;
      const same =
        d &&
        d.orgId === data.orgId &&
        d.cron === data.cron &&
        d.assignDate === data.assignDate &&
        current.repeatTimezone === (isDated(task) ? undefined : timezone);
      if (same && !current.disabled) return;
    }
    const job = agenda.create<TaskJobData>(JOB_NAME, data).unique({ 'data.taskId': task.id });
    if (isDated(task)) {
      const at = task.assignDate ? firstRunOn(task.assignDate, task.cron, timezone) : null;
      // an assign date already past runs no more
      if (!at || at.getTime() < Date.now()) return unschedule(task.id);
      job.schedule(at);
      // a row switched from a cron type keeps no interval
      job.attrs.repeatInterval = undefined;
      job.attrs.repeatTimezone = undefined;
    } else job.repeatEvery(task.cron, { timezone });
    await job.save();
  }

  async function sync(tasks: Array<{ task: TaskRow; language: Language }>): Promise<void> {
    const wanted = new Set<number>();
    for (const { task, language } of tasks) {
      if (!task.available) continue;
      wanted.add(task.id);
      await schedule(task, language, true);
    }
    const { jobs } = await agenda.queryJobs({ name: JOB_NAME });
    for (const j of jobs) {
      const id = (j.data as TaskJobData | undefined)?.taskId;
      if (id === undefined || !wanted.has(id)) await agenda.cancel({ id: String(j._id) });
    }
  }

  return { schedule, unschedule, jobOf, sync };
}
