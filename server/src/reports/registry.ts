/**
 * The reports of one server: each definition becomes a list call (paged) and an xlsx export
 * streamed through the one writer (resources/export.ts), both plugin calls with their own
 * permission codes derived from their paths; `/report/definition` describes a report to the
 * console in the caller's language; a report's `schedule` becomes a task type the scheduler
 * runs, mailing the same workbook.
 */
import { resourceApiPrefix, type Metadata } from '@rti/metadata';
import type { Response } from 'express';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallRegistry } from '../http/registry';
import { STREAMED, type CallDef, type Language, type RequestContext } from '../http/types';
import { tKey, type TFunction } from '../i18n/translator';
import { fieldError } from '../resources/errors';
import { xlsxBuffer, xlsxResponse, xlsxWriter, type CellValue, type XlsxWriter } from '../resources/export';
import { parseParameters, searchFields } from './parameters';
import { formatTime, isZone, type Zone } from './time';
import type { ReportAction, ReportColumn, ReportDef, ReportQuery, ReportSheet, RowPage, ScheduledRun, TaskOutcome, TaskType } from './types';

const DEFAULT_PAGE_SIZE = 200;
const DEFAULT_MAX_ROWS = 100_000;
const MAX_LIMIT = 100;
const MAX_PAGE = 1_000_000;

export interface ReportWorkbook {
  content: Buffer;
  /** rows of the first sheet */
  rows: number;
  params: Record<string, unknown>;
  fileName: string;
  title: string;
}

/** What the console needs to draw a report's page, texts already in the caller's language. */
export interface ReportDescription {
  name: string;
  title: string;
  calls: { list: string | null; export: string | null };
  parameters: ReturnType<typeof searchFields>;
  columns: Array<Pick<ReportColumn, 'key' | 'label' | 'help' | 'unit' | 'type' | 'enum' | 'width' | 'link'>>;
  sheets: string[];
  rowKey?: string;
  chart?: ReportDef['chart'];
  actions: ReportAction[];
  /** translations of every key above, for the console's i18n */
  texts: Record<string, string>;
}

const pick = (row: unknown, path: string): unknown => {
  if (row === null || typeof row !== 'object') return undefined;
  if (!path.includes('.')) return (row as Record<string, unknown>)[path];
  let v: unknown = row;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
};

const round2 = (n: number) => Math.round(n * 100) / 100;

function paging(v: unknown, fallback: number, key: 'page' | 'limit', max: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) throw new ApiError(ErrorCode.validation, `server.validation.${key}`, { max }, 400);
  return n;
}

const unitKey = (unit: string) => (unit.includes('.') ? unit : `units.${unit}`);

export interface ReportHost {
  calls: CallRegistry;
  metadata: Metadata;
  t: TFunction;
  /** the caller's organisation's time zone (access/org-zones.ts): where a report without its own cuts its days */
  zoneOf?: (orgId: number | null) => Promise<Zone>;
}

export class ReportRegistry {
  private readonly reports = new Map<string, { def: ReportDef; plugin?: string }>();
  private readonly tasks = new Map<string, TaskType & { plugin?: string }>();

  constructor(private readonly host: ReportHost) {
    host.calls.add({
      path: '/report/definition',
      // like /metadata: a description, no rows; the report's own calls carry its codes
      permission: null,
      handler: ({ body, ctx }) => this.describe(String(body.name ?? ''), ctx.language),
    });
  }

  get(name: string): ReportDef | undefined {
    return this.reports.get(name)?.def;
  }

  list(): ReportDef[] {
    return [...this.reports.values()].map((r) => r.def);
  }

  private required(name: string): ReportDef {
    const def = this.get(name);
    if (!def) throw new ApiError(ErrorCode.notFound, 'server.report.unknown', { name });
    return def;
  }

  /** The calls a definition gets (list, exports), as paths. */
  static paths(def: ReportDef): { list: string | null; exports: string[] } {
    const c = def.calls ?? {};
    const list = c.list === false ? null : (c.list ?? (def.path ? `${def.path}/list` : null));
    const exp =
      c.export === false ? [] : c.export === undefined ? (def.path ? [`${def.path}/export`] : []) : typeof c.export === 'string' ? [c.export] : [...c.export];
    return { list, exports: exp };
  }

  define(def: ReportDef, plugin?: string): void {
    if (!/^[a-z0-9][\w.-]*$/i.test(def.name)) throw new Error(`report "${def.name}": the name must be letters, digits, dots and dashes`);
    const existing = this.reports.get(def.name);
    if (existing) throw new Error(`report "${def.name}" is already defined${existing.plugin ? ` by plugin "${existing.plugin}"` : ''}`);
    const names = new Set<string>();
    for (const p of def.parameters) {
      if (names.has(p.name)) throw new Error(`report "${def.name}": parameter "${p.name}" is declared twice`);
      names.add(p.name);
    }
    for (const s of this.sheetsOf(def)) if (!s.columns.length) throw new Error(`report "${def.name}": sheet "${s.name}" has no column`);
    const actionNames = new Set<string>();
    for (const a of def.actions ?? []) {
      if (actionNames.has(a.name)) throw new Error(`report "${def.name}": action "${a.name}" is declared twice`);
      if (!a.call.startsWith('/')) throw new Error(`report "${def.name}": action "${a.name}" calls "${a.call}", not a call path`);
      actionNames.add(a.name);
    }
    const own = def.sheets?.filter((s) => s.scan).length ?? 0;
    if (own && own !== def.sheets!.length) throw new Error(`report "${def.name}": either every sheet has its own scan() or none has`);
    const { list, exports } = ReportRegistry.paths(def);
    if (!def.rows && (list || !(def.scan || this.ownSources(def))))
      throw new Error(`report "${def.name}": ${list ? 'a list call needs rows()' : 'rows(), scan() or a scan() per sheet is needed'}`);
    if (!list && !exports.length && !def.schedule) throw new Error(`report "${def.name}": no path, no calls and no schedule — nothing would use it`);
    // calls first: a clash (path taken) stops the start before anything is half-registered
    const calls: CallDef[] = [];
    // the page's search form loads a ref parameter's choices from its resource's list
    const uses = def.parameters.flatMap((p) => {
      const res = 'ref' in p && p.ref ? this.host.metadata.resources[p.ref.resource] : undefined;
      return res ? [`${resourceApiPrefix(res)}/list`, `${resourceApiPrefix(res)}/all`] : [];
    });
    if (list) calls.push({ path: list, plugin, uses, handler: ({ body, ctx }) => this.page(def, body, ctx) });
    for (const path of exports) {
      calls.push({
        path,
        plugin,
        uses,
        handler: async ({ body, ctx, res }) => {
          await this.stream(def, body, ctx, res);
          return STREAMED;
        },
      });
    }
    for (const c of calls) if (this.host.calls.has(c.path)) throw new Error(`report "${def.name}": call ${c.path} is already registered`);
    for (const c of calls) this.host.calls.add(c);
    this.reports.set(def.name, { def, plugin });
    if (def.schedule) {
      const ids = typeof def.schedule.taskName === 'string' ? [def.schedule.taskName] : def.schedule.taskName;
      for (const id of ids) this.defineTask({ id, report: def.name, run: (run) => this.scheduled(def, run) }, plugin);
    }
  }

  defineTask(task: TaskType, plugin?: string): void {
    const existing = this.tasks.get(task.id);
    if (existing) throw new Error(`task type "${task.id}" is already contributed${existing.plugin ? ` by plugin "${existing.plugin}"` : ''}`);
    this.tasks.set(task.id, { ...task, plugin });
  }

  task(id: string): TaskType | undefined {
    return this.tasks.get(id);
  }

  taskTypes(): TaskType[] {
    return [...this.tasks.values()];
  }

  private sheetsOf(def: ReportDef): readonly ReportSheet[] {
    return def.sheets?.length ? def.sheets : [{ name: def.title, columns: def.columns as ReportColumn[] }];
  }

  /**
   * Validated parameters and the query a source is asked with; throws before any work. The zone:
   * the definition's own (a parameter), else the one given (a scheduled run's), else the
   * organisation's — so a page, its export and its mail cut the same days.
   */
  async query(def: ReportDef, body: Record<string, unknown>, ctx: RequestContext, fallbackZone?: Zone): Promise<ReportQuery> {
    const params = parseParameters(def.parameters, body, this.host.metadata.enums);
    const z = def.zone?.(params as never);
    if (z !== undefined && z !== null && !isZone(z)) throw fieldError({ name: 'zone' }, 'format');
    const zone = z ?? fallbackZone ?? (await this.host.zoneOf?.(ctx.orgId)) ?? 0;
    const language = ctx.language;
    return { params, ctx, zone, language, t: (key, p) => this.host.t(language, key, p) };
  }

  async page(def: ReportDef, body: Record<string, unknown>, ctx: RequestContext): Promise<{ list: unknown[]; total: number }> {
    const page = paging(body.page, 1, 'page', MAX_PAGE);
    const limit = paging(body.limit, 10, 'limit', MAX_LIMIT);
    const q = await this.query(def, body, ctx);
    const offset = (page - 1) * limit;
    const got: RowPage<unknown> = await def.rows!(q as never, { offset, limit });
    if (!Array.isArray(got)) return got;
    const total = def.count ? await def.count(q as never) : offset + got.length + (got.length === limit ? 1 : 0);
    return { list: got, total };
  }

  /** Every row of a source in batches, at most maxRows. */
  async *scan(def: ReportDef, q: ReportQuery, source?: AsyncIterable<unknown[]>): AsyncGenerator<unknown[]> {
    const max = def.maxRows ?? DEFAULT_MAX_ROWS;
    let seen = 0;
    for await (const batch of source ?? (def.scan ? def.scan(q as never) : this.windows(def, q))) {
      const take = batch.length > max - seen ? batch.slice(0, max - seen) : batch;
      seen += take.length;
      if (take.length) yield take;
      if (seen >= max) return;
    }
  }

  /** Sheets with their own rows (every sheet has `scan`) are written one after another. */
  private ownSources(def: ReportDef): boolean {
    return Boolean(def.sheets?.length && def.sheets.every((s) => s.scan));
  }

  /** The first pass's source: the report's rows, or the first sheet's own. */
  private firstSource(def: ReportDef, q: ReportQuery): AsyncIterable<unknown[]> {
    return this.scan(def, q, this.ownSources(def) ? def.sheets![0].scan!(q) : undefined);
  }

  private async *windows(def: ReportDef, q: ReportQuery): AsyncGenerator<unknown[]> {
    const size = def.pageSize ?? DEFAULT_PAGE_SIZE;
    for (let offset = 0; ; offset += size) {
      const got = await def.rows!(q as never, { offset, limit: size });
      const rows = Array.isArray(got) ? got : got.list;
      if (rows.length) yield rows;
      if (rows.length < size) return;
    }
  }

  private header(c: ReportColumn, q: ReportQuery): string {
    const { t } = this.host;
    const unit = c.unitText?.(q) ?? (c.unit ? tKey(unitKey(c.unit)) : undefined);
    return unit ? t(q.language, 'server.report.header', { label: tKey(c.label), unit }) : t(q.language, c.label);
  }

  private cell(c: ReportColumn, row: unknown, q: ReportQuery): CellValue {
    const v = c.value ? c.value(row, q) : pick(row, c.key);
    if (v === undefined || v === null || v === '') return null;
    if (c.value) return v as CellValue;
    switch (c.type) {
      case 'datetime':
        return formatTime(v, q.zone) || null;
      case 'duration':
        return typeof v === 'number' ? round2(v / 3_600_000) : null;
      case 'enum': {
        const e = (this.host.metadata.enums[c.enum ?? ''] ?? []).find((x) => String(x.value) === String(v));
        return e ? q.t(e.label) : String(v);
      }
      case 'bool':
        return q.t(v ? 'server.values.yes' : 'server.values.no');
      case 'int':
      case 'decimal':
        return typeof v === 'number' ? v : Number.isFinite(Number(v)) ? Number(v) : null;
      default:
        return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : v instanceof Date ? formatTime(v, q.zone) : JSON.stringify(v);
    }
  }

  /** Writes the workbook of a query: every sheet, rows batch by batch with back-pressure. */
  /**
   * Writes the workbook: one pass over the report's rows feeding every sheet (a sheet may expand
   * a row into its own rows), or, when each sheet has its own rows, one pass per sheet, each
   * sheet ended before the next starts so only the active one is held in the zip. Back-pressure
   * after every batch; a closed target stops the work.
   */
  private async write(def: ReportDef, q: ReportQuery, w: XlsxWriter, first: AsyncIterable<unknown[]>, onRow?: (row: unknown) => void): Promise<number> {
    const sheets = this.sheetsOf(def);
    const outs = sheets.map((s) =>
      w.sheet(
        q.t(s.name),
        s.columns.map((c) => ({ header: this.header(c, q), width: c.width })),
      ),
    );
    const passes = this.ownSources(def)
      ? sheets.map((sh, i) => ({ idx: [i], source: () => (i === 0 ? first : this.scan(def, q, sh.scan!(q))) }))
      : [{ idx: sheets.map((_, i) => i), source: () => first }];
    let firstRows = 0;
    for (const [p, pass] of passes.entries()) {
      for await (const batch of pass.source()) {
        for (const row of batch) {
          if (p === 0) onRow?.(row);
          for (const i of pass.idx) {
            const sh = sheets[i];
            for (const r of sh.rows ? sh.rows(row) : [row]) {
              outs[i].add(sh.columns.map((c) => this.cell(c, r, q)));
              if (i === 0) firstRows++;
            }
          }
        }
        await w.taken();
        if (w.closed) return firstRows;
      }
      for (const i of pass.idx) outs[i].commit();
    }
    return firstRows;
  }

  private fileName(def: ReportDef, q: ReportQuery): string {
    const name = def.fileName?.(q as never) ?? `${def.name.replace(/^[^.]*\./, '')}-${new Date().toISOString().slice(0, 10)}.xlsx`;
    return name.endsWith('.xlsx') ? name : `${name}.xlsx`;
  }

  /**
   * Every batch, the first one read before anything is written: a source that refuses its
   * input (a subject not found, another organisation's id) still answers with an envelope.
   */
  private async started(def: ReportDef, q: ReportQuery): Promise<AsyncIterable<unknown[]>> {
    const it = this.firstSource(def, q)[Symbol.asyncIterator]();
    const first = await it.next();
    return {
      async *[Symbol.asyncIterator]() {
        if (first.done) return;
        yield first.value;
        for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
      },
    };
  }

  /** The export call: parameters and the first rows before the first byte, then the workbook streamed. */
  async stream(def: ReportDef, body: Record<string, unknown>, ctx: RequestContext, res: Response): Promise<void> {
    const q = await this.query(def, body, ctx);
    const batches = await this.started(def, q);
    xlsxResponse(res, this.fileName(def, q), q.t(def.title));
    const w = xlsxWriter(res);
    await this.write(def, q, w, batches);
    if (!w.closed) await w.commit();
  }

  /** The same workbook in memory (mail attachments). */
  async workbook(name: string | ReportDef, body: Record<string, unknown>, ctx: RequestContext, opts: { zone?: Zone } = {}): Promise<ReportWorkbook> {
    const def = typeof name === 'string' ? this.required(name) : name;
    return this.build(def, await this.query(def, body, ctx, opts.zone));
  }

  private async build(def: ReportDef, q: ReportQuery, fileName?: string, onRow?: (row: unknown) => void): Promise<ReportWorkbook> {
    let rows = 0;
    const batches = await this.started(def, q);
    const content = await xlsxBuffer(async (w) => {
      rows = await this.write(def, q, w, batches, onRow);
    });
    const file = fileName ? (fileName.endsWith('.xlsx') ? fileName : `${fileName}.xlsx`) : this.fileName(def, q);
    return { content, rows, params: q.params, fileName: file, title: q.t(def.title) };
  }

  private async scheduled(def: ReportDef, run: ScheduledRun): Promise<TaskOutcome> {
    const s = def.schedule!;
    const skip = s.skip?.(run);
    if (skip) return { kind: 'skipped', reason: skip };
    const q = await this.query(def, s.parameters(run), run.ctx, run.timezone);
    const counts: Record<string, number> = {};
    const tally = s.tally;
    const wb = await this.build(
      def,
      q,
      s.fileName?.(run, q.params as never),
      tally &&
        ((row) => {
          const k = tally(row);
          if (k !== undefined) counts[k] = (counts[k] ?? 0) + 1;
        }),
    );
    if (!wb.rows) return { kind: 'empty', reason: s.empty?.(run, wb.params as never) ?? run.t('server.report.empty', { title: wb.title }) };
    const extras = s.extras ? await s.extras(run, wb.params as never) : { files: [], notes: [] };
    const summary = s.summary?.(run, { rows: wb.rows, params: wb.params as never, counts }) ?? '';
    return {
      kind: 'report',
      report: {
        title: wb.title,
        text: [summary, ...extras.notes].filter(Boolean).join('\n'),
        attachment: { filename: wb.fileName, content: wb.content },
        rows: wb.rows,
        ...(extras.files.length ? { also: extras.files } : {}),
        ...(extras.notes.length ? { notes: extras.notes } : {}),
      },
    };
  }

  describe(name: string, lang: Language): ReportDescription {
    const def = this.required(name);
    const { t } = this.host;
    const texts: Record<string, string> = {};
    const tr = (key: string | undefined) => {
      if (key) texts[key] = t(lang, key);
      return key;
    };
    const { list, exports } = ReportRegistry.paths(def);
    const parameters = searchFields(def.parameters);
    for (const p of parameters) tr(p.label ?? `fields.${p.name}`);
    const columns = def.columns
      .filter((c) => c.list !== false)
      .map((c) => {
        tr(c.label);
        tr(c.help);
        if (c.unit) tr(unitKey(c.unit));
        return {
          key: c.key,
          label: c.label,
          help: c.help,
          unit: c.unit ? unitKey(c.unit) : undefined,
          type: c.type,
          enum: c.enum,
          width: c.width,
          link: c.link,
        };
      });
    const sheets = this.sheetsOf(def).map((s) => tr(s.name)!);
    tr(def.title);
    const actions = (def.actions ?? []).map((a) => (tr(a.label), tr(a.confirm), tr(a.done), { ...a, body: { ...a.body } }));
    return {
      name: def.name,
      title: def.title,
      calls: { list, export: exports[0] ?? null },
      parameters,
      columns,
      sheets,
      rowKey: def.rowKey,
      chart: def.chart,
      actions,
      texts,
    };
  }
}
