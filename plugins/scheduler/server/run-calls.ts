/**
 * /task-config/run {id}: runs a row now and answers the run record.
 * /task-config/run/list {taskId?, status?, page, limit}: run history, newest first.
 * /task-config/run/file {id}: the workbook a run kept (a report task without mail), streamed
 * from the server's storage by whichever instance answers.
 * Both stay inside the caller's organisation: the row is looked up through the scoped
 * repository (another organisation's id answers 10002) and run records are filtered by org.
 */
import { apiCode } from '@rti/metadata';
import { ApiError, ErrorCode, readId, STREAMED, StorageUnavailable, storageRefusal, type PluginServerContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import type { createRunner, RunStatus } from './runner';
import { reportKey, runRecordOf, XLSX_TYPE } from './runner';
import type { JobModel } from './tables';

const MAX_LIMIT = 100;
const STATUSES = ['running', 'succeeded', 'empty', 'skipped', 'failed'] as const satisfies readonly RunStatus[];

export function installRunCalls(ctx: PluginServerContext, runs: JobModel, runner: ReturnType<typeof createRunner>): void {
  ctx.addCall({
    path: '/task-config/run',
    resource: 'task-config',
    async handler({ body, ctx: call }) {
      const row = await ctx.repo('task-config', call).find(body.id);
      return runner.run(Number(row.get('id')), call.orgId!, 'manual', call.language);
    },
  });

  ctx.addCall({
    path: '/task-config/run/list',
    resource: 'task-config',
    input: { taskId: { type: 'ref', label: 'resources.task-config' }, status: { type: 'enums', values: STATUSES } },
    paging: { maxLimit: MAX_LIMIT },
    async handler({ input, ctx: call }) {
      const { limit, offset } = input;
      const where: WhereOptions[] = [{ orgId: call.orgId }];
      if (input.taskId !== undefined) {
        const row = await ctx.repo('task-config', call).find(input.taskId);
        where.push({ taskId: Number(row.get('id')) });
      }
      if (input.status) where.push({ status: { [Op.in]: input.status } });
      const { rows, count } = await runs.findAndCountAll({
        where: { [Op.and]: where },
        order: [
          ['startedAt', 'DESC'],
          ['id', 'DESC'],
        ],
        limit,
        offset,
      });
      return { list: rows.map(runRecordOf), total: count };
    },
  });

  ctx.addCall({
    path: '/task-config/run/file',
    resource: 'task-config',
    // whoever may see the run history may download what a run kept
    permission: apiCode('/task-config/run/list'),
    async handler({ body, ctx: call, res }) {
      const id = readId(body, 'id', { required: true })!;
      const run = await runs.findOne({ where: { id, orgId: call.orgId } });
      const file = run?.get('outboxFile') as string | null | undefined;
      const attachment = run?.get('attachment') as string | null | undefined;
      if (!run || !file || !attachment || file.endsWith('.eml')) throw new ApiError(ErrorCode.notFound, 'server.files.notFound');
      // the caller's organisation is part of the key, whatever the record says
      const key = reportKey(call.orgId!, file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1));
      let object;
      try {
        object = await ctx.storage.get(key);
      } catch (err) {
        if (err instanceof StorageUnavailable) throw storageRefusal(call.language);
        throw err;
      }
      if (!object) throw new ApiError(ErrorCode.notFound, 'server.files.notFound');
      res.status(200);
      res.setHeader('Content-Type', XLSX_TYPE);
      res.setHeader('Content-Length', String(object.size));
      res.setHeader('Content-Disposition', `attachment; filename="report.xlsx"; filename*=UTF-8''${encodeURIComponent(attachment)}`);
      const stream = object.body;
      await new Promise<void>((resolve) => {
        stream.on('error', () => (res.destroy(), resolve()));
        res.on('close', () => (stream.destroy(), resolve()));
        stream.pipe(res);
      });
      return STREAMED;
    },
  });
}
