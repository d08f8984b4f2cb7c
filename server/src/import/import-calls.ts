/**
 * The import calls of every resource with an `import` definition: `/<name>/import`
 * (multipart upload, answers at once with the job id), `/<name>/import/status` (counts of
 * the total while running, reasons once finished, in the reader's language),
 * `/<name>/import/template` and `/<name>/import/result` (the refused rows as a workbook with
 * a reason column), `/<name>/import/preview` (the mapping step: the file's header, first rows
 * and the suggested mapping). CSV as well as xlsx (./tabular); the upload may carry `mapping`
 * (file column → field, JSON) and `updateExisting` (rows whose key exists update that row).
 * Jobs run one after another in the background.
 */
import { randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { apiCode, fieldLabelKey, resourceApiPath, resourceLabelKey, type Metadata, type ResourceDef } from '@rti/metadata';
import type { Model, ModelStatic } from 'sequelize';
import type { Response } from 'express';
import { msg } from '../files/messages';
import { storageRefusal } from '../files/file-calls';
import { DEFAULT_UPLOAD_TIMEOUTS, receiveFile, type UploadTimeouts } from '../files/multipart';
import { objectKey, StorageUnavailable, type ObjectStorage } from '../files/storage';
import { ApiError, ErrorCode } from '../http/api-error';
import { readId } from '../http/params';
import { STREAMED, type CallDef, type Language } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { xlsxResponse, xlsxWriter } from '../resources/export';
import { importPlan } from './columns';
import { IMPORT_PROCESSING, savedErrors, storedErrors, toStatus } from './import-jobs';
import type { QueuedImport } from './index';
import { renderError, renderReason } from './reasons';
import { templateHeader, writeTemplate } from './template';
import { checkWorkbook, WORKBOOK_LIMITS, type WorkbookProblem } from './workbook';
import { checkRequiredColumns, csvToWorkbook, readCsv, readMapping, suggestMapping, workbookHead, type CsvTable } from './tabular';
import type { ImportOptions } from './runner';

/** SPEC §9: import files at most 5120 KB. */
export const IMPORT_MAX_BYTES = 5_242_880;

export interface ImportCallDeps {
  metadata: Metadata;
  t: TFunction;
  jobs: ModelStatic<Model>;
  /** refused rows of running jobs */
  errors: ModelStatic<Model>;
  dataDir: string;
  /** the object store the job's file is kept in while it runs */
  storage(): ObjectStorage;
  timeouts?: UploadTimeouts;
  /** the instance that owns the jobs it takes (config.instanceId) */
  instanceId: string;
  /** the uploader's context as the job keeps it */
  storedContext(ctx: Parameters<CallDef['handler']>[0]['ctx']): unknown;
  /** queues a stored upload */
  enqueue(job: QueuedImport): void;
}

/** A workbook's problem as the caller's refusal (docs/SERVER.md "Upload and import limits"). */
export function workbookRefusal(problem: WorkbookProblem, lang: Parameters<typeof msg>[0]): ApiError {
  const l = WORKBOOK_LIMITS;
  switch (problem.kind) {
    case 'limits':
      return new ApiError(ErrorCode.validation, msg(lang, 'zipLimits', { ext: 'xlsx', size: l.maxTotalBytes / 2 ** 20, entries: l.maxEntries }), {}, 413);
    case 'strings':
      return new ApiError(ErrorCode.validation, msg(lang, 'xlsxStrings', { size: l.maxSharedStringsBytes / 2 ** 20, count: l.maxSharedStrings }), {}, 413);
    case 'dimension':
      return new ApiError(ErrorCode.validation, msg(lang, 'xlsxDimension', { rows: l.maxRows, columns: l.maxColumns, range: problem.range }), {}, 413);
    case 'rows':
      return new ApiError(ErrorCode.validation, msg(lang, 'xlsxRows', { rows: l.maxRows, columns: l.maxColumns }), {}, 413);
    default:
      return new ApiError(ErrorCode.validation, msg(lang, 'unreadable'));
  }
}

/** rows the mapping step previews */
const PREVIEW_ROWS = 5;

/** The header (first filled record) and first rows of a CSV, as the preview shows them. */
function csvHead(csv: CsvTable, limit: number) {
  const filled = csv.rows.filter((r) => r.some((c) => c.trim() !== ''));
  const text = (r: string[]) => r.map((c) => (c.trim() === '' ? null : c));
  return { header: text(filled[0] ?? []), rows: filled.slice(1, 1 + limit).map(text), total: Math.max(0, filled.length - 1) };
}

export function importCalls(deps: ImportCallDeps): CallDef[] {
  const out: CallDef[] = [];

  /** An import upload: xlsx or csv, refused for its format or its size, each with its own message (SPEC §5). */
  const receiveImport = async (req: Parameters<CallDef['handler']>[0]['req'], lang: Language) => {
    const upload = await receiveFile(
      req,
      join(deps.dataDir, 'imports'),
      {
        extensions: ['xls', 'xlsx', 'csv'],
        maxBytes: IMPORT_MAX_BYTES,
        formatMessage: (l) => deps.t(l, 'validation.importFormat', { formats: 'xlsx, csv' }),
        sizeMessage: (l) => deps.t(l, 'validation.importSize', { size: IMPORT_MAX_BYTES / 1024 }),
      },
      lang,
      deps.timeouts ?? DEFAULT_UPLOAD_TIMEOUTS,
      deps.instanceId,
    );
    if (upload.extension === 'xls') {
      await unlink(upload.path).catch(() => undefined);
      throw new ApiError(ErrorCode.validation, msg(lang, 'xlsUnsupported'));
    }
    return upload;
  };

  /**
   * The upload as a workbook the runner reads: a CSV is decoded and written as one (its
   * records keep their numbers); a workbook beyond the limits (a bomb) is refused. The
   * upload's temporary file is replaced by the workbook's.
   */
  const readableWorkbook = async (path: string, extension: string, lang: Language): Promise<{ path: string; totalVolume: number; csv: CsvTable | null }> => {
    let csv: CsvTable | null = null;
    let at = path;
    try {
      if (extension === 'csv') {
        csv = await readCsv(path, lang, deps.t);
        at = `${path}.xlsx`;
        await csvToWorkbook(csv, at);
        await unlink(path).catch(() => undefined);
      }
      const seen = { rows: 0 };
      const problem = await checkWorkbook(at, WORKBOOK_LIMITS, seen);
      if (problem) throw workbookRefusal(problem, lang);
      return { path: at, totalVolume: Math.max(0, seen.rows - 1), csv };
    } catch (err) {
      await unlink(path).catch(() => undefined);
      if (at !== path) await unlink(at).catch(() => undefined);
      throw err;
    }
  };

  for (const res of Object.values(deps.metadata.resources)) {
    if (!res.import) continue;
    const importPath = resourceApiPath(res, 'import');
    const plan = () => importPlan(res, deps.metadata);
    out.push({
      path: importPath,
      resource: res.name,
      raw: true,
      handler: async ({ req, ctx }) => {
        const lang = ctx.language;
        const upload = await receiveImport(req, ctx.language);
        const fields = plan().fields;
        // Bombs and workbooks beyond the limits are refused here, before a job exists.
        const { path, totalVolume: rows, csv } = await readableWorkbook(upload.path, upload.extension, lang);
        upload.path = path;
        let options: ImportOptions = {};
        try {
          const mapping = readMapping(upload.fields.mapping, fields, lang, deps.t);
          // a mapping (or a CSV, new to imports) must give every required column a file column
          if (mapping || csv) {
            const header = csv ? (csv.rows.find((r) => r.some((c) => c.trim() !== '')) ?? []) : (await workbookHead(path, 0)).header;
            const effective = mapping ?? suggestMapping(header, fields, deps.t);
            checkRequiredColumns(header, effective, fields, lang, deps.t);
            if (mapping) options.mapping = mapping;
          }
          // by the import's one key: an existing row is updated instead of refused as existing
          if (/^(1|true|on|yes)$/i.test(upload.fields.updateExisting ?? '') && plan().key.length === 1) options = { ...options, updateExisting: true };
        } catch (err) {
          await unlink(path).catch(() => undefined);
          throw err;
        }
        // the rows counted in the sheet, less its header: what the progress counts towards
        const totalVolume = rows;
        // Kept in the object store while the job runs, so any instance can resume it; this
        // instance runs it from its own copy. A store that is down: 503, no job, nothing kept.
        const fileKey = objectKey('imports', ctx.orgId, `${randomBytes(16).toString('hex')}.xlsx`);
        try {
          await deps.storage().putBuffer(fileKey, await readFile(upload.path), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        } catch (err) {
          await unlink(upload.path).catch(() => undefined);
          if (err instanceof StorageUnavailable) throw storageRefusal(ctx.language);
          throw err;
        }
        const claim = randomBytes(16).toString('hex');
        const values = {
          orgId: ctx.orgId,
          userId: ctx.user?.id ?? null,
          resource: res.name,
          fileName: upload.originalName.slice(0, 255),
          language: ctx.language,
          status: IMPORT_PROCESSING,
          totalVolume,
          instanceId: deps.instanceId,
          heartbeatAt: new Date(),
          fileKey,
          claim,
          context: JSON.stringify({ ...(deps.storedContext(ctx) as object), options }),
        };
        let job: Model;
        try {
          job = await deps.jobs.sequelize!.transaction((transaction) => deps.jobs.create(values, { transaction }));
        } catch (err) {
          await unlink(upload.path).catch(() => undefined);
          await deps
            .storage()
            .delete(fileKey)
            .catch(() => undefined);
          throw err;
        }
        const importId = Number(job.get('id'));
        deps.enqueue({ jobId: importId, resource: res.name, ctx, fileKey, claim, path: upload.path, options });
        return { importId, status: IMPORT_PROCESSING, totalVolume, instanceId: deps.instanceId, heartbeatAt: new Date() };
      },
    });
    out.push({
      path: resourceApiPath(res, 'import/preview'),
      resource: res.name,
      raw: true,
      // the mapping step of an import: whoever may import may look at the file first
      permission: apiCode(importPath),
      handler: async ({ req, ctx }) => {
        const lang = ctx.language;
        const upload = await receiveImport(req, lang);
        const { path, csv } = await readableWorkbook(upload.path, upload.extension, lang);
        try {
          const head = csv ? csvHead(csv, PREVIEW_ROWS) : await workbookHead(path, PREVIEW_ROWS);
          const p = plan();
          const fields = p.fields.map((f) => ({
            name: f.name,
            label: deps.t(lang, fieldLabelKey(f)),
            required: Boolean(f.required && f.default === undefined),
          }));
          const keyField = p.key.length === 1 ? fields.find((f) => f.name === p.key[0]) : undefined;
          return {
            format: csv ? 'csv' : 'xlsx',
            separator: csv?.separator ?? null,
            encoding: csv ? csv.encoding : null,
            bom: csv?.bom ?? false,
            header: head.header,
            rows: head.rows,
            total: head.total,
            fields,
            key: keyField ? { name: keyField.name, label: keyField.label } : null,
            mapping: suggestMapping(head.header, p.fields, deps.t),
          };
        } finally {
          await unlink(path).catch(() => undefined);
        }
      },
    });
    out.push({
      path: resourceApiPath(res, 'import/status'),
      resource: res.name,
      handler: async ({ body, ctx }) => {
        // an id no column holds (1e30, -1, "x") is refused naming the parameter, not looked up
        const id = jobIdOf(body);
        // polled every second while running: the errors column is read only once it is finished
        let job = await deps.jobs.findOne({ attributes: { exclude: ['importErrors'] }, where: { id, resource: res.name, orgId: ctx.orgId } });
        if (!job) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'importNotFound'));
        if (Number(job.get('status')) !== IMPORT_PROCESSING) job = (await deps.jobs.findOne({ where: { id, resource: res.name, orgId: ctx.orgId } })) ?? job;
        const lang = ctx.language;
        const fields = importPlan(res, deps.metadata).fields;
        return toStatus(job, { error: (e) => renderError(res, fields, e, lang, deps.t), message: (m) => deps.t(lang, m.key, m.params) });
      },
    });
    out.push({
      path: resourceApiPath(res, 'import/template'),
      resource: res.name,
      // Whoever may import may fetch the template.
      permission: apiCode(importPath),
      handler: async ({ ctx, res: response }) => {
        await writeTemplate(res, deps.metadata, ctx.language, deps.t, response);
        return STREAMED;
      },
    });
    out.push({
      path: resourceApiPath(res, 'import/result'),
      resource: res.name,
      // whoever may see the job's status may download its refused rows
      permission: apiCode(resourceApiPath(res, 'import/status')),
      handler: async ({ body, ctx, res: response }) => {
        const id = jobIdOf(body);
        const job = await deps.jobs.findOne({ where: { id, resource: res.name, orgId: ctx.orgId } });
        if (!job) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'importNotFound'));
        await writeResult(res, deps, job, ctx.language, response);
        return STREAMED;
      },
    });
  }
  return out;
}

/** an id no column holds (1e30, -1, "x") is refused naming the parameter, not looked up */
const jobIdOf = (body: Record<string, unknown>): number =>
  (body.importId !== undefined ? readId(body, 'importId', { required: true }) : readId(body, 'id', { required: true }))!;

/**
 * The refused rows of a job as a workbook, through the server's one xlsx writer: the file's
 * row number, the import's columns under the template's headers (the sheet imports again once
 * fixed: unknown columns are ignored), the column at fault, its value and the reason, all in
 * the reader's language.
 */
async function writeResult(res: ResourceDef, deps: ImportCallDeps, job: Model, lang: Language, out: Response): Promise<void> {
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, key, params);
  const fields = importPlan(res, deps.metadata).fields;
  const title = t('server.import.resultTitle', { resource: t(resourceLabelKey(res)) });
  xlsxResponse(out, `${res.name}-import-${Number(job.get('id'))}.xlsx`, title);
  const workbook = xlsxWriter(out);
  const sheet = workbook.sheet(title, [
    { header: t('server.import.row'), width: 8 },
    ...fields.map((f) => ({ header: templateHeader(res, f, lang, deps.t), width: 20 })),
    { header: t('server.import.column'), width: 18 },
    { header: t('server.import.value'), width: 24 },
    { header: t('server.import.reason'), width: 60 },
  ]);
  // a job still running: the refused rows saved so far
  const errors = Number(job.get('status')) === IMPORT_PROCESSING ? await savedErrors(deps.errors, Number(job.get('id'))) : storedErrors(job);
  for (const e of errors) {
    const f = e.column ? (fields.find((x) => x.name === e.column) ?? res.fields.find((x) => x.name === e.column)) : undefined;
    const column = e.column ? (f ? t(fieldLabelKey(f)) : e.column) : null;
    sheet.add([e.row, ...fields.map((x) => e.cells?.[x.name] ?? null), column, e.value ?? null, renderReason(e, lang, deps.t)]);
  }
  await workbook.commit();
}
