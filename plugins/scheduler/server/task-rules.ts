/**
 * Checks a task-config write before it is stored: a cron the scheduler can read (the
 * metadata pattern only counts fields), e-mail recipients, and what the type needs (an assign
 * date for the assign-date types, recipients for mailing tasks). Messages are the server's
 * validation messages naming the field, so they come in the caller's language.
 */
import { fieldLabelKey, namedPatterns } from '@rti/metadata';
import { ApiError, ErrorCode, tKey } from '@rti/server/plugin-api';
import { CronExpressionParser } from 'cron-parser';
import { isDated, recipientsOf, sendsMail } from './task';

const field = (name: string) => tKey(fieldLabelKey({ name }));
const refuse = (key: string, name: string) => new ApiError(ErrorCode.validation, `server.validation.${key}`, { field: field(name) });

export function isValidCron(cron: string, timezone: string): boolean {
  try {
    CronExpressionParser.parse(cron, { tz: timezone, strict: false });
    return true;
  } catch {
    return false;
  }
}

/** `row`: the values the row will have after the write. */
export function checkTask(row: Record<string, unknown>, timezone: string): void {
  const cron = typeof row.cron === 'string' ? row.cron.trim() : '';
  if (cron && !isValidCron(cron, timezone)) throw refuse('format', 'cron');
  const to = recipientsOf(row.mailTo as string | null);
  if (to.some((a) => !namedPatterns.email.test(a))) throw refuse('email', 'mailTo');
  const task = { name: Number(row.name), type: Number(row.type) };
  if (sendsMail(task) && !to.length) throw refuse('required', 'mailTo');
  if (isDated(task) && !row.assignDate) throw refuse('required', 'assignDate');
}
