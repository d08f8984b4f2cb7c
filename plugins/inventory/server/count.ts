/**
 * Count tasks (issue 18 item 3): a document listing carriers of one warehouse to look for —
 * made from book versus seen (`/inventory/count/from-silent`), or by hand with batch/add — whose
 * lines each get a result: confirmed here, moved (to where it was heard last, or the warehouse
 * the counter types), lost. Closing the task (declared step `close`) acts on the results in its
 * transaction, through the adjustment order's own writes and steps:
 *
 *   moved     → an out-and-in adjustment per destination, adjusted at once;
 *   lost      → the carriers' status lost (their own status step), then an "out" adjustment
 *               writing them off the warehouse's books;
 *   confirmed → nothing (the books were right).
 *
 * A line without a result refuses the close, naming its serials; nothing is half-done.
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, type PluginServerContext, type TransitionEvent } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { snList } from './adjustment';
import type { SilentRows } from './silent';

type Row = Record<string, any>;
const Result = Enums.inventoryCountResult;
const AdjustType = Enums.inventoryAdjustType;

export function installCounts(ctx: PluginServerContext, silentRows: SilentRows): void {
  ctx.addCall({
    path: '/inventory/count/from-silent',
    input: {
      warehouseId: { type: 'ref', required: true, label: 'fields.warehouse' },
      minutes: { type: 'int', min: 1, max: 525_600, label: 'inventory.col.tolerance' },
    },
    async handler({ input, ctx: call }) {
      const rows = await silentRows({ ctx: call, params: { warehouseId: input.warehouseId, minutes: input.minutes } });
      if (!rows.length) throw new ApiError(ErrorCode.statusForbidden, 'inventory.nothingSilent');
      return ctx.transaction(call, async (repo) => {
        const count = await repo('inventory-count').create({ warehouseId: input.warehouseId });
        const lines = repo('inventory-count-detail');
        for (const r of rows) await lines.create({ inventoryCountId: count.id, carrierId: r.id, lastSeenWarehouseId: r.lastSeenWarehouseId ?? null });
        // the sighting as it was when the task was made (engine-written, read-only for the counter)
        for (const r of rows.filter((x) => x.lastSeenAt))
          await lines.updateWhere({ lastSeenAt: new Date(r.lastSeenAt) }, { inventoryCountId: count.id, carrierId: r.id });
        return repo('inventory-count').get(count.id);
      });
    },
  });

  ctx.transitions.on('inventory-count', 'close', async (e: TransitionEvent) => {
    for (const task of e.rows) await closeTask(e, task);
  });

  async function closeTask(e: TransitionEvent, task: Row): Promise<void> {
    const title = String(task.countNo);
    const warehouseId = Number(task.warehouseId);
    const lines = await e
      .repo('inventory-count-detail')
      .rows({ inventoryCountId: task.id }, { attributes: ['id', 'carrierId', 'carrierSn', 'result', 'lastSeenWarehouseId'] });
    const pending = lines.filter((l) => Number(l.result) === Result.pending);
    if (pending.length)
      throw new ApiError(ErrorCode.statusForbidden, 'inventory.countPending', { title, sns: snList(pending.map((l) => String(l.carrierSn))) });
    const moved = lines.filter((l) => Number(l.result) === Result.moved);
    const nowhere = moved.filter((l) => !l.lastSeenWarehouseId || Number(l.lastSeenWarehouseId) === warehouseId);
    if (nowhere.length)
      throw new ApiError(ErrorCode.statusForbidden, 'inventory.countMovedNowhere', { title, sns: snList(nowhere.map((l) => String(l.carrierSn))) });
    const adjust = async (type: number, target: number | null, carrierIds: number[]) => {
      const doc = await e
        .repo('inventory-adjustment')
        .create({ type, sourceWarehouseId: warehouseId, ...(target !== null ? { targetWarehouseId: target } : {}), remark: title });
      for (const carrierId of carrierIds) await e.repo('inventory-adjust-detail').create({ inventoryAdjustId: doc.id, carrierId });
      await e.run('inventory-adjustment', 'adjust', [Number(doc.id)], { adjustedTime: e.at.toISOString() });
    };
    const byTarget = new Map<number, number[]>();
    for (const l of moved) byTarget.set(Number(l.lastSeenWarehouseId), [...(byTarget.get(Number(l.lastSeenWarehouseId)) ?? []), Number(l.carrierId)]);
    for (const [target, ids] of byTarget) await adjust(AdjustType.outAndIn, target, ids);
    const lost = lines.filter((l) => Number(l.result) === Result.lost).map((l) => Number(l.carrierId));
    if (lost.length) {
      // the status first: once off the books the carrier is outside a warehouse-restricted counter's view
      const current = await e.repo('carrier').rows({ id: { [Op.in]: lost } }, { attributes: ['id', 'status'] });
      const toMark = current.filter((c) => Number(c.status) !== Enums.carrierStatus.lost).map((c) => Number(c.id));
      if (toMark.length) await e.run('carrier', 'statusUpdate', toMark, { status: Enums.carrierStatus.lost });
      await adjust(AdjustType.out, null, lost);
    }
  }
}
