/**
 * SPEC §7 alert calls beyond the generated list/base: `<prefix>/process` for each of the five
 * alert resources, and the notification menu's feed `/device-alert/unsolved` (SPEC §9: at most
 * 15 unsolved alerts per category, five categories). Both go through the scoped repository, so
 * tenancy and warehouse restriction hold as for every call.
 */
import { ApiError, ErrorCode, tKey, type PluginServerContext } from '@rti/server/plugin-api';
import { ALERT_RESOURCES, ALERT_STATUS, UNSOLVED_PER_CATEGORY } from './alert-kinds';
import type { EventBus } from './event-bus';

function idsOf(body: Record<string, unknown>): number[] {
  const raw = body.ids ?? (body.id !== undefined ? [body.id] : undefined);
  if (!Array.isArray(raw) || raw.length === 0) throw new ApiError(ErrorCode.validation, 'validation.required', { name: tKey('fields.id') });
  const ids = raw.map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey('fields.id'), type: tKey('validation.types.integer') }, 400);
  return [...new Set(ids)];
}

export function installAlertCalls(ctx: PluginServerContext, bus: EventBus): void {
  for (const a of ALERT_RESOURCES) {
    ctx.addCall({
      path: `${a.api}/process`,
      resource: a.resource,
      async handler({ body, ctx: call }) {
        const ids = idsOf(body);
        const remark = body.remark;
        if (remark !== undefined && remark !== null && (typeof remark !== 'string' || remark.length > 200)) {
          throw new ApiError(ErrorCode.validation, 'validation.lengthMax', { name: tKey('fields.remark'), max: 200 });
        }
        const repo = ctx.repo(a.resource, call);
        // every id must be in the caller's scope (10002 otherwise, as for a missing row)
        for (const id of ids) await repo.get({ id });
        const by = call.user?.realName || call.user?.username || 'system';
        const now = new Date();
        await ctx.database.models[a.resource].update(
          { status: ALERT_STATUS.handled, processedBy: by, processedAt: now, ...(typeof remark === 'string' ? { remark } : {}) },
          { where: { id: ids, status: ALERT_STATUS.unhandled } },
        );
        const rows = [];
        for (const id of ids) rows.push(await repo.get({ id }));
        for (const r of rows) bus.publish({ type: 'alert-processed', orgId: call.orgId!, warehouseId: (r.warehouseId as number | null) ?? null, data: { category: a.category, id: r.id, processedBy: r.processedBy, processedAt: r.processedAt } });
        return body.ids ? rows : rows[0];
      },
    });
  }

  ctx.addCall({
    path: '/device-alert/unsolved',
    async handler({ ctx: call }) {
      const out: Record<string, unknown> = {};
      for (const a of ALERT_RESOURCES) {
        out[a.category] = await ctx.repo(a.resource, call).list({ status: ALERT_STATUS.unhandled, page: 1, limit: UNSOLVED_PER_CATEGORY });
      }
      return out;
    },
  });
}
