/**
 * The console's one date-time format (SPEC §9: YYYY-MM-DD, HH:mm:ss, YYYY-MM-DD HH:mm,
 * YYYY-MM-DD HH:mm:ss), in the browser's time zone, whatever the language: every screen,
 * banner, notification and chart label formats times through here, never with its own pattern
 * or the browser's locale format (toLocaleString differs by language and browser).
 */
import dayjs from 'dayjs';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const TIME_FORMAT = 'HH:mm:ss';
export const MINUTE_FORMAT = 'YYYY-MM-DD HH:mm';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** hours and minutes of a time axis within one day (chart ticks) */
export const CLOCK_FORMAT = 'HH:mm';

export type DateTimeKind = 'date' | 'time' | 'minute' | 'datetime' | 'clock';

const FORMATS: Record<DateTimeKind, string> = { date: DATE_FORMAT, time: TIME_FORMAT, minute: MINUTE_FORMAT, datetime: DATETIME_FORMAT, clock: CLOCK_FORMAT };

type DateInput = string | number | Date | dayjs.Dayjs | null | undefined;

/**
 * A time from the API (ISO string, epoch ms, Date or dayjs) in one of the SPEC formats;
 * `empty` for nothing, the value as given when it is no time at all.
 */
export function formatDateTime(v: DateInput, kind: DateTimeKind = 'datetime', empty = ''): string {
  if (v === null || v === undefined || v === '') return empty;
  const d = dayjs(v);
  return d.isValid() ? d.format(FORMATS[kind]) : String(v);
}

/** A compact stamp for downloaded file names (no spaces or colons): 20261124-063000. */
export const fileStamp = (v: DateInput = Date.now()): string => dayjs(v ?? Date.now()).format('YYYYMMDD-HHmmss');
