/**
 * What a task-config row means to the scheduler: which rows mail, which run once on their
 * assign date, and the row as the scheduler reads it. Codes are SPEC §9's. What a row's task
 * name produces is not decided here: plugins contribute task types (ctx.reports).
 */
import type { TaskOutcome } from '@rti/server/plugin-api';

/** taskType: e-mail 20, assign-date e-mail 50, GPS alert e-mail 60 */
export const MAIL_TYPES = [20, 50, 60];
/** taskType: assign-date normal 40, assign-date e-mail 50 */
export const DATED_TYPES = [40, 50];
/** taskName: daily inventory report e-mail 3, maintenance expiry mail 50, GPS report mail 60, GPS alert mail 70 */
export const MAIL_NAMES = [3, 50, 60, 70];

export interface TaskRow {
  id: number;
  orgId: number;
  projectId: number | null;
  name: number;
  type: number;
  cron: string;
  reportUrl: string | null;
  available: boolean;
  assignDate: string | null;
  mailTo: string | null;
  subject: string | null;
  text: string | null;
  validityPeriod: number | null;
  battery: number | null;
  envTemperature: number | null;
  envHumidity: number | null;
  accSpeed: number | null;
}

export const sendsMail = (t: Pick<TaskRow, 'name' | 'type'>) => MAIL_TYPES.includes(Number(t.type)) || MAIL_NAMES.includes(Number(t.name));
export const isDated = (t: Pick<TaskRow, 'type'>) => DATED_TYPES.includes(Number(t.type));

/** "a@x.com, b@y.org; c@z.net" → the addresses (commas, semicolons or white space between). */
export const recipientsOf = (mailTo: string | null | undefined): string[] =>
  String(mailTo ?? '')
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

export function taskOf(row: Record<string, unknown>): TaskRow {
  return {
    id: Number(row.id),
    orgId: Number(row.orgId),
    projectId: num(row.projectId),
    name: Number(row.name),
    type: Number(row.type),
    cron: String(row.cron ?? ''),
    reportUrl: (row.reportUrl as string | null) ?? null,
    available: row.available === true || row.available === 1 || row.available === '1',
    assignDate: row.assignDate ? String(row.assignDate).slice(0, 10) : null,
    mailTo: (row.mailTo as string | null) ?? null,
    subject: (row.subject as string | null) ?? null,
    text: (row.text as string | null) ?? null,
    validityPeriod: num(row.validityPeriod),
    battery: num(row.battery),
    envTemperature: num(row.envTemperature),
    envHumidity: num(row.envHumidity),
    accSpeed: num(row.accSpeed),
  };
}

/**
 * What a run produced (the core's task outcome): a report to mail or keep, "empty" (the source
 * answered nothing for the period: no mail), or "skipped" (no data source here).
 */
export type Outcome = TaskOutcome;
