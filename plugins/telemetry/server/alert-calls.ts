/**
 * Alerts beyond the generated calls. Processing (`<prefix>/process`, SPEC §7) is the step
 * `process` each alert resource declares in metadata (unhandled → handled, remark, who and
 * when stamped), run by the core's transition engine with its scope, permission code and
 * concurrency guard; what stays here is the side effect: the live `alert-processed` event,
 * published once the step has committed. Plus the notification menu's feed
 * `/device-alert/unsolved` (SPEC §9: at most 15 unsolved alerts per category, five categories),
 * read through the scoped repository.
 */
import type { PluginServerContext } from '@rti/server/plugin-api';
import { ALERT_RESOURCES, ALERT_STATUS, UNSOLVED_PER_CATEGORY } from './alert-kinds';
import type { EventBus } from './event-bus';

export function installAlertCalls(ctx: PluginServerContext, bus: EventBus): void {
  for (const a of ALERT_RESOURCES) {
    ctx.transitions.on(a.resource, 'process', (e) => {
      const orgId = e.ctx.orgId!;
      e.afterCommit(() => {
        for (const r of e.rows)
          bus.publish({
            type: 'alert-processed',
            orgId,
            warehouseId: (r.warehouseId as number | null) ?? null,
            data: { category: a.category, id: r.id, processedBy: r.processedBy, processedAt: r.processedAt },
          });
      });
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
