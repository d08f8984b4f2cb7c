/**
 * The scheduler's environment. Defaults are embedded (file outbox, server time zone), so a
 * fresh `npm start` needs nothing; production sets SMTP_URL and MAIL_FROM.
 */
import { CronExpressionParser } from 'cron-parser';
import type { Language } from '@rti/server/plugin-api';

export interface SchedulerSettings {
  /** how often Agenda looks for due jobs (ms) */
  processEveryMs: number;
  /** a run holding its lock longer than this is considered dead and may be taken over (ms) */
  lockLifetimeMs: number;
  /** IANA zone the cron expressions are read in */
  timezone: string;
  /** smtp(s)://user:pass@host:port; empty = file outbox under <dataDir>/outbox */
  smtpUrl: string;
  mailFrom: string;
  /** mails of tasks saved without a user (start-up sync) */
  language: Language;
  /** retries of a failed scheduled run (backoff 1, 2, 4 … minutes) */
  retries: number;
  retryDelayMs: number;
  /** run records older than this many days are deleted */
  runRetentionDays: number;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number): number {
  const v = env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${v}"`);
  return n;
}

const LANGUAGES: Language[] = ['en-US', 'zh-CN', 'ja-JP'];

export function loadSettings(env: NodeJS.ProcessEnv = process.env): SchedulerSettings {
  const timezone = env.SCHEDULER_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  try {
    CronExpressionParser.parse('0 0 * * *', { tz: timezone });
  } catch {
    throw new Error(`SCHEDULER_TIMEZONE must be an IANA time zone such as Asia/Shanghai, got "${timezone}"`);
  }
  const language = (env.MAIL_LANGUAGE || 'en-US') as Language;
  if (!LANGUAGES.includes(language)) throw new Error(`MAIL_LANGUAGE must be one of ${LANGUAGES.join(', ')}, got "${env.MAIL_LANGUAGE}"`);
  const smtpUrl = env.SMTP_URL || '';
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return {
    processEveryMs: int(env, 'SCHEDULER_PROCESS_EVERY_MS', 5000, 100),
    lockLifetimeMs: int(env, 'SCHEDULER_LOCK_LIFETIME_MS', 10 * 60_000, 1000),
    timezone,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'RTI Console <no-reply@localhost>',
    language,
    retries: int(env, 'SCHEDULER_RETRIES', 3, 0),
    retryDelayMs: int(env, 'SCHEDULER_RETRY_DELAY_MS', 60_000, 100),
    runRetentionDays: int(env, 'SCHEDULER_RUN_RETENTION_DAYS', 180, 1),
  };
}
