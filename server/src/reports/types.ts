/**
 * Report definitions (docs/PLUGINS.md "Reports"): a plugin declares a report once —
 * parameters, columns, a row source — and the core derives its list call, its streamed xlsx
 * export through the one xlsx writer, the console page's description and, when it says so,
 * a scheduler task type mailing the same workbook.
 */
import type { FieldDef } from '@rti/metadata';
import type { Language, RequestContext } from '../http/types';
import type { TParams } from '../i18n/translator';
import type { CellValue } from '../resources/export';
import type { TimeRange, Zone } from './time';

/** The shared time-range parameter: `time: [from, to]` (or startTime/endTime), ISO or epoch ms. */
export interface TimeRangeParameter {
  name: string;
  type: 'timeRange';
  /** i18n key of the label (default fields.<name>) */
  label?: string;
  /** closed range: missing ends default to now and now − defaultDays (default 7) */
  defaultDays?: number;
  /** longest range in days */
  maxDays?: number;
  /** either end may stay open (no default) */
  open?: boolean;
}

/**
 * A report parameter: the time range, or a field declared like a metadata field (type,
 * label, enum, ref, min/max, maxLength, required, default) and validated the same way with
 * the same translated refusals; `search` picks the console's search widget, `hidden` keeps it
 * out of the search form (callers and the scheduler still send it).
 */
export type ReportParameter = FieldDef | TimeRangeParameter;

export type ColumnType = 'string' | 'int' | 'decimal' | 'datetime' | 'date' | 'enum' | 'bool' | 'duration';

export interface ReportColumn<R = any> {
  /** dot path of the value in a row ("total.distanceKm") */
  key: string;
  /** i18n key of the header */
  label: string;
  /** i18n key of a sentence saying what the column counts: shown beside the page's header (not in the workbook) */
  help?: string;
  /**
   * unit: a `units.*` key ("km", "celsius", "hours") or a full i18n key; the header reads
   * "<label> (<unit>)" in the caller's language
   */
  unit?: string;
  /** a unit that depends on the query (e.g. "UTC+08:00" for times printed in the caller's zone) */
  unitText?(q: ReportQuery): string;
  /**
   * how the value is shown: datetime in the query's zone, enum labels (`enum` names the
   * enumeration), bool as yes/no, duration (milliseconds) as hours with two decimals
   */
  type?: ColumnType;
  enum?: string;
  /** xlsx width in characters (default 16); the page uses about 8 px per character */
  width?: number;
  /** false: in the workbook only, not a column of the console page */
  list?: boolean;
  /**
   * the page's cell links to this console path, `{key}` replaced by the row's value at that
   * dot path ("/report/truck/detail?id={id}"); a row without the value gets no link
   */
  link?: string;
  /** the cell when it is not the value at `key` as it is (export and mail only) */
  value?(row: R, q: ReportQuery): CellValue;
}

export interface ReportSheet<R = any> {
  /** i18n key of the sheet name */
  name: string;
  columns: ReportColumn[];
  /** this sheet's rows for one source row (default: the row itself); [] skips it */
  rows?(row: R): Iterable<unknown>;
  /**
   * the sheet's own rows in batches, instead of the report's: then every sheet has one and
   * the sheets are written one after another (the report's `scan`/`rows` serve the list call)
   */
  scan?(q: ReportQuery<any>): AsyncIterable<R[]>;
}

/** What a row source is asked with. */
export interface ReportQuery<P = Record<string, any>> {
  /** the validated parameters (a time range as { from, to }) */
  params: P;
  /** the caller (or, for a scheduled run, the task's organisation without a user) */
  ctx: RequestContext;
  /** zone for day boundaries and printed times */
  zone: Zone;
  language: Language;
  t(key: string, params?: TParams): string;
}

export interface RowWindow {
  offset: number;
  limit: number;
}

/** A page of rows, with the total when the source knows it (else `count` is asked). */
export type RowPage<R> = R[] | { list: R[]; total: number };

/** What a task type gets for one run of a task-config row (scheduler). */
export interface ScheduledRun {
  /** the task's organisation, without a user */
  ctx: RequestContext;
  /** the task-config row as stored (id, name, type, cron, validityPeriod, battery …) */
  task: Readonly<Record<string, unknown>>;
  now: Date;
  /** the scheduler's IANA zone (days, printed times) */
  timezone: string;
  language: Language;
  t(key: string, params?: TParams): string;
}

/**
 * report: something to mail or keep; empty: the source answered nothing for the period (no
 * mail is sent); skipped: no data source here (reason says why).
 */
export type TaskOutcome =
  | {
      kind: 'report';
      report: {
        title?: string;
        text: string;
        attachment: { filename: string; content: Buffer };
        rows: number;
        /** files mailed beside the workbook (ReportSchedule.extras) */
        also?: MailFile[];
        /** what the mail could not carry, one line each: in its text and on the run's record */
        notes?: string[];
      };
    }
  | { kind: 'empty'; reason: string }
  | { kind: 'skipped'; reason: string };

/**
 * A scheduler task type: what a task-config row whose task name carries this id does. The
 * id is the key of the task name's enum value ("gpsReportMail" for enums.taskName.gpsReportMail),
 * so rows saved before task types existed keep their numbers and meaning.
 */
export interface TaskType {
  id: string;
  /** the report it mails, when it comes from a report's `schedule` */
  report?: string;
  run(run: ScheduledRun): Promise<TaskOutcome>;
}

/** a file mailed beside a report's workbook */
export interface MailFile {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface ReportSchedule<P> {
  /** task type id(s): keys of task-name enum values ("gpsReportMail") */
  taskName: string | readonly string[];
  /** the report's parameters (a call body) for one run of a row */
  parameters(run: ScheduledRun): Record<string, unknown>;
  /** the mail's line about the attachment; `counts`: source rows per `tally` key */
  summary?(run: ScheduledRun, result: { rows: number; params: P; counts: Record<string, number> }): string;
  /** a key per source row (e.g. its level), counted for the summary */
  tally?(row: any): string | undefined;
  /** why nothing was mailed when the report has no row (default: a generic sentence) */
  empty?(run: ScheduledRun, params: P): string;
  /** a reason to skip the run (no data source here), checked first */
  skip?(run: ScheduledRun): string | undefined;
  /** attachment name (default: the export's) */
  fileName?(run: ScheduledRun, params: P): string;
  /**
   * Files mailed beside the workbook (e.g. pictures of console pages, ctx.render), made once the
   * workbook has rows; `notes`: what could not be made, one line each (the mail still goes).
   */
  extras?(run: ScheduledRun, params: P): Promise<{ files: MailFile[]; notes: string[] }>;
}

/**
 * A button on each row of the report's page (an extension point of the generated page, not a page
 * of its own): it makes a registered call with values of the row and may open a page with the
 * answer. Shown to those whose codes allow the call (and the page it opens).
 */
export interface ReportAction {
  /** unique within the report (test hook `report-action-<name>`) */
  name: string;
  /** i18n key of the button */
  label: string;
  /** the call it makes */
  call: string;
  /** the call's body: each value a row key in braces ("{fromWarehouseId}", the row's value as it is) or a literal */
  body: Readonly<Record<string, string | number | boolean>>;
  /** i18n key of a confirmation asked first; the row's values are its parameters */
  confirm?: string;
  /** i18n key of the message after success; the answer's values are its parameters */
  done?: string;
  /** a console path opened with the answer, `{key}` from the answer ("/shipping/ship-order/show/{id}") */
  open?: string;
}

export interface ReportDef<P = Record<string, any>, R = any> {
  /** unique across plugins, "<plugin>.<report>" by convention */
  name: string;
  /** i18n key of the title (page, first sheet, mail subject default) */
  title: string;
  /** call prefix: `<path>/list` and `<path>/export` unless `calls` says otherwise */
  path?: string;
  /** explicit call paths (SPEC's names); false switches a call off */
  calls?: { list?: string | false; export?: string | readonly string[] | false };
  parameters: readonly ReportParameter[];
  /** the console page's table (and the export's only sheet without `sheets`) */
  columns: readonly ReportColumn<R>[];
  /** the workbook's sheets (default: one sheet of `columns` named by the title) */
  sheets?: readonly ReportSheet<R>[];
  /** a page of rows: the list call's page, the export's batches (offset 0, pageSize, …); needed by a list call */
  rows?(q: ReportQuery<P>, window: RowWindow): Promise<RowPage<R>>;
  /** the list's total when `rows` answers a bare array */
  count?(q: ReportQuery<P>): Promise<number>;
  /** every row in batches (export, mail); default: `rows` window after window; one of the two is needed */
  scan?(q: ReportQuery<P>): AsyncIterable<R[]>;
  /** rows per batch when scanning (default 200) */
  pageSize?: number;
  /** rows exported at most (default 100,000) */
  maxRows?: number;
  /** the zone of the query (day cuts, printed times); default UTC */
  zone?(params: P): Zone | undefined;
  /** export file name (ASCII) */
  fileName?(q: ReportQuery<P>): string;
  /** key of a row for the page's table (default the row's index) */
  rowKey?: string;
  /** a chart the page draws above the table: x column key, y column keys */
  chart?: { type: 'line' | 'bar'; x: string; y: readonly string[] };
  /** a scheduler task type mailing this report's workbook */
  schedule?: ReportSchedule<P>;
  /** buttons on each row of the page */
  actions?: readonly ReportAction[];
}

export type ParamsOf<D> = D extends ReportDef<infer P, any> ? P : never;
export type { TimeRange };
