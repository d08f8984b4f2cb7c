/**
 * /task-config/run {id}: runs a row now and answers the run record.
 * /task-config/run/list {taskId?, status?, page, limit}: run history, newest first.
 * Both stay inside the caller's organisation: the row is looked up through the scoped
 * repository (another organisation's id answers 10002) and run records are filtered by org.
 */
import { ApiError, ErrorCode, readPaging, tKey, type PluginServerContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import type { createRunner, RunStatus } from './runner';
import { runRecordOf } from './runner';
import type { JobModel } from './tables';

const MAX_LIMIT = 100;
const STATUSES: RunStatus[] = ['running', 'succeeded', 'empty', 'skipped', 'failed'];

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
    async handler({ body, ctx: call }) {
      const { limit, offset } = readPaging(body, { maxLimit: MAX_LIMIT });
      const where: WhereOptions[] = [{ orgId: call.orgId }];
      if (body.taskId !== undefined && body.taskId !== null && body.taskId !== '') {
        const row = await ctx.repo('task-config', call).find(body.taskId);
        where.push({ taskId: Number(row.get('id')) });
      }
      if (body.status !== undefined && body.status !== null && body.status !== '') {
        const wanted = Array.isArray(body.status) ? body.status : [body.status];
        const bad = wanted.find((s) => !STATUSES.includes(s as RunStatus));
        if (bad !== undefined) throw new ApiError(ErrorCode.validation, 'server.validation.enum', { field: tKey('fields.status'), value: String(bad) });
        where.push({ status: { [Op.in]: wanted as string[] } });
      }
      const { rows, count } = await runs.findAndCountAll({ where: { [Op.and]: where }, order: [['startedAt', 'DESC'], ['id', 'DESC']], limit, offset });
      return { list: rows.map(runRecordOf), total: count };
    },
  });
}
