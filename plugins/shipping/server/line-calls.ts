/**
 * SPEC §7's ship-order calls that work on chosen lines of an order:
 *
 * - `/ship-order/fetch/order/id` `{ orderNo }` → `{ id, orderNo, status }`: the order behind a
 *   scanned or typed number, in the caller's scope (another organisation's is "not found");
 * - `/ship-order-detail/batch/delivery` `{ shipOrderId, ids }`: ships the chosen pending lines
 *   now (a partial departure); the first one releases a new order, stamped like the release step;
 * - `/ship-order-detail/batch/receipt` `{ shipOrderId, ids }`: receives the chosen shipped lines
 *   at the receiver (a partial arrival); the order stays open until received or closed;
 * - `/ship-order-detail/batch/adddelivery` `{ deliveryId, ids }`: puts chosen pending lines of
 *   the delivery's order on a new delivery document (its line rules apply).
 *
 * Each runs in one transaction with the order locked: a refusal anywhere moves nothing. The
 * first two run the shipping list's declared line steps (ship, receive).
 */
import { ApiError, ErrorCode, invalid, readId, readIds, readText, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { shipInput } from './movement';

const MAX_LINES = 5000;

export function registerLineCalls(ctx: PluginServerContext): void {
  ctx.addCall({
    path: '/ship-order/fetch/order/id',
    resource: 'ship-order',
    async handler({ body, ctx: call }) {
      const orderNo = readText(body, 'orderNo', { required: true, max: 50 })!;
      const [row] = await ctx.repo('ship-order', call).rows({ orderNo }, { attributes: ['id', 'orderNo', 'status'], limit: 1 });
      if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      return { id: Number(row.id), orderNo: row.orderNo, status: Number(row.status) };
    },
  });

  // Chosen lines through the line steps (ship-order-detail metadata): the order's status
  // (`while`), the lines' own (naming their serials), a line of another order (not found),
  // the first departure releasing a new order (`header`), the carriers moving (movement.ts).
  const runOn =
    (step: 'ship' | 'receive') =>
    async ({ body, ctx: call }: { body: Record<string, unknown>; ctx: RequestContext }) => {
      const shipOrderId = readId(body, 'shipOrderId', { required: true })!;
      const ids = readIds(body, 'ids', { required: true, max: MAX_LINES })!;
      const input = step === 'ship' ? { shipOrderId, ...shipInput(new Date()) } : { shipOrderId };
      const moved = await ctx.transaction(call, async (_repo, _transaction, run) => (await run('ship-order-detail', step, ids, input)).length);
      return {
        [step === 'ship' ? 'shipped' : 'received']: moved,
        ...(step === 'receive' ? { extra: 0 } : {}),
        order: await ctx.repo('ship-order', call).get({ id: shipOrderId }),
      };
    };
  ctx.addCall({ path: '/ship-order-detail/batch/delivery', resource: 'ship-order-detail', handler: runOn('ship') });
  ctx.addCall({ path: '/ship-order-detail/batch/receipt', resource: 'ship-order-detail', handler: runOn('receive') });

  ctx.addCall({
    path: '/ship-order-detail/batch/adddelivery',
    resource: 'ship-order-detail',
    async handler({ body, ctx: call }) {
      const deliveryId = readId(body, 'deliveryId', { required: true })!;
      const ids = readIds(body, 'ids', { required: true, max: MAX_LINES })!;
      const delivery = await ctx.repo('delivery', call).find(deliveryId);
      const lines = await ctx
        .repo('ship-order-detail', call)
        .rows({ id: { [Op.in]: ids }, shipOrderId: delivery.get('shipOrderId') }, { attributes: ['id', 'carrierId'] });
      if (lines.length !== ids.length) throw invalid('refMissing', 'ids');
      const details = ctx.repo('delivery-detail', call);
      let added = 0;
      // one transaction: the delivery's line rules (pending on its order, frozen once loading) per line
      await ctx.transaction(call, async (_repo, transaction) => {
        for (const l of lines) {
          await details.create({ deliveryId, carrierId: Number(l.carrierId) }, { transaction });
          added++;
        }
      });
      return { added, delivery: await ctx.repo('delivery', call).get({ id: deliveryId }) };
    },
  });
}
