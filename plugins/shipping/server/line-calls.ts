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
 * Each runs in one transaction with the order locked: a refusal anywhere moves nothing.
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, invalid, readId, readIds, readText, tKey, type BoundRepository, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { receiveCarriers, shipLines, snList } from './movement';
import { followInTelemetry } from './telemetry-agreement';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
type Repo = (resource: string) => BoundRepository;
const Order = Enums.shipOrderStatus;
const Line = Enums.shipOrderLineStatus;
const MAX_LINES = 5000;

export function registerLineCalls(ctx: PluginServerContext): void {
  const dialect = ctx.database.dialect;

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

  /** The order locked in the transaction; its status must allow the call. */
  const lockedOrder = async (repo: Repo, id: number, allowed: number[]): Promise<Row> => {
    const [order] = await repo('ship-order').rows({ id }, { lock: 'update' });
    if (!order) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
    if (!allowed.includes(Number(order.status))) {
      const key = Object.entries(Order).find(([, n]) => n === Number(order.status))?.[0];
      throw new ApiError(ErrorCode.statusForbidden, 'shipping.orderStatusRefused', { title: String(order.orderNo), status: key ? tKey(`enums.shipOrderStatus.${key}`) : String(order.status) });
    }
    return order;
  };

  /** The chosen lines, all of the order and in the wanted line status; else 10004 naming them. */
  const chosenLines = async (repo: Repo, order: Row, ids: number[], status: number): Promise<Row[]> => {
    const lines = await repo('ship-order-detail').rows({ id: { [Op.in]: ids }, shipOrderId: order.id }, { attributes: ['id', 'carrierId', 'carrierSn', 'status'] });
    if (lines.length !== ids.length) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
    const wrong = lines.filter((l) => Number(l.status) !== status);
    if (wrong.length) throw new ApiError(ErrorCode.statusForbidden, status === Line.pending ? 'shipping.linesNotPending' : 'shipping.linesNotShipped', { title: String(order.orderNo), sns: snList(wrong.map((l) => String(l.carrierSn))) });
    return lines;
  };

  ctx.addCall({
    path: '/ship-order-detail/batch/delivery',
    resource: 'ship-order-detail',
    async handler({ body, ctx: call }) {
      const shipOrderId = readId(body, 'shipOrderId', { required: true })!;
      const ids = readIds(body, 'ids', { required: true, max: MAX_LINES })!;
      const shipped = await ctx.transaction(call, async (repo, _transaction, run) => {
        const order = await lockedOrder(repo, shipOrderId, orderGroup('shippable'));
        await chosenLines(repo, order, ids, Line.pending);
        const n = await shipLines({ repo, ctx: call, order, now: new Date(), dialect }, ids);
        // the first departure releases the order through its own step (stamps, log); these lines are shipped
        if (order.status === Order.new) await run('ship-order', 'release', [shipOrderId], {}, { resource: 'ship-order-detail', step: 'batchDelivery', ids });
        return n;
      });
      void followInTelemetry(ctx, call, [shipOrderId], 'out');
      return { shipped, order: await ctx.repo('ship-order', call).get({ id: shipOrderId }) };
    },
  });

  ctx.addCall({
    path: '/ship-order-detail/batch/receipt',
    resource: 'ship-order-detail',
    async handler({ body, ctx: call }) {
      const shipOrderId = readId(body, 'shipOrderId', { required: true })!;
      const ids = readIds(body, 'ids', { required: true, max: MAX_LINES })!;
      const result = await ctx.transaction(call, async (repo) => {
        const order = await lockedOrder(repo, shipOrderId, orderGroup('inTransit'));
        const lines = await chosenLines(repo, order, ids, Line.shipped);
        const [full] = await repo('ship-order').rows({ id: order.id });
        return receiveCarriers({ repo, ctx: call, order: full, now: new Date(), dialect }, lines.map((l) => Number(l.carrierId)));
      });
      void followInTelemetry(ctx, call, [shipOrderId], 'in');
      return { ...result, order: await ctx.repo('ship-order', call).get({ id: shipOrderId }) };
    },
  });

  ctx.addCall({
    path: '/ship-order-detail/batch/adddelivery',
    resource: 'ship-order-detail',
    async handler({ body, ctx: call }) {
      const deliveryId = readId(body, 'deliveryId', { required: true })!;
      const ids = readIds(body, 'ids', { required: true, max: MAX_LINES })!;
      const delivery = await ctx.repo('delivery', call).find(deliveryId);
      const lines = await ctx.repo('ship-order-detail', call).rows({ id: { [Op.in]: ids }, shipOrderId: delivery.get('shipOrderId') }, { attributes: ['id', 'carrierId'] });
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
