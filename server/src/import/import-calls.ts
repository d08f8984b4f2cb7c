/**
 * The import calls of every resource with an `import` definition: `/<name>/import`
 * (multipart upload, answers at once with the job id), `/<name>/import/status` and
 * `/<name>/import/template`. Jobs run one after another in the background.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { apiCode, resourceApiPath, type Metadata } from '@rti/metadata';
import type { Model, ModelStatic } from 'sequelize';
import { msg } from '../files/messages';
import { DEFAULT_UPLOAD_TIMEOUTS, receiveFile, type UploadTimeouts } from '../files/multipart';
import { ApiError, ErrorCode } from '../http/api-error';
import { readId } from '../http/params';
import { STREAMED, type CallDef } from '../http/types';
import type { TFunction } from '../i18n/translator';
import { IMPORT_PROCESSING, toStatus } from './import-jobs';
import { writeTemplate } from './template';
import { checkWorkbook, WORKBOOK_LIMITS, type WorkbookProblem } from './workbook';

/** SPEC §9: import files at most 5120 KB. */
export const IMPORT_MAX_BYTES = 5_242_880;

export interface ImportCallDeps {
  metadata: Metadata;
  t: TFunction;
  jobs: ModelStatic<Model>;
  dataDir: string;
  timeouts?: UploadTimeouts;
  /** queues a stored upload; resolves when queued */
  enqueue(jobId: number, resource: string, ctx: Parameters<CallDef['handler']>[0]['ctx'], path: string): void;
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

export function importCalls(deps: ImportCallDeps): CallDef[] {
  const out: CallDef[] = [];
  for (const res of Object.values(deps.metadata.resources)) {
    if (!res.import) continue;
    const importPath = resourceApiPath(res, 'import');
    out.push({
      path: importPath,
      resource: res.name,
      raw: true,
      handler: async ({ req, ctx }) => {
        const upload = await receiveFile(
          req,
          join(deps.dataDir, 'imports'),
          { extensions: ['xls', 'xlsx'], maxBytes: IMPORT_MAX_BYTES, limitMessage: (lang) => deps.t(lang, 'validation.importLimit', { size: IMPORT_MAX_BYTES / 1024 }) },
          ctx.language,
          deps.timeouts ?? DEFAULT_UPLOAD_TIMEOUTS,
        );
        if (upload.extension === 'xls') {
          await unlink(upload.path).catch(() => undefined);
          throw new ApiError(ErrorCode.validation, msg(ctx.language, 'xlsUnsupported'));
        }
        // Bombs and workbooks beyond the limits are refused here, before a job exists.
        const problem = await checkWorkbook(upload.path).catch(async (err) => {
          await unlink(upload.path).catch(() => undefined);
          throw err;
        });
        if (problem) {
          await unlink(upload.path).catch(() => undefined);
          throw workbookRefusal(problem, ctx.language);
        }
        const values = { orgId: ctx.orgId, userId: ctx.user?.id ?? null, resource: res.name, fileName: upload.originalName.slice(0, 255), language: ctx.language, status: IMPORT_PROCESSING };
        const job = await deps.jobs.sequelize!.transaction((transaction) => deps.jobs.create(values, { transaction }));
        const importId = Number(job.get('id'));
        deps.enqueue(importId, res.name, ctx, upload.path);
        return { importId, status: IMPORT_PROCESSING };
      },
    });
    out.push({
      path: resourceApiPath(res, 'import/status'),
      resource: res.name,
      handler: async ({ body, ctx }) => {
        // an id no column holds (1e30, -1, "x") is refused naming the parameter, not looked up
        const id = body.importId !== undefined ? readId(body, 'importId', { required: true }) : readId(body, 'id', { required: true });
        const job = await deps.jobs.findOne({ where: { id, resource: res.name, orgId: ctx.orgId } });
        if (!job) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'importNotFound'));
        return toStatus(job);
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
  }
  return out;
}
