/**
 * Shipping-list import (`/ship-order-detail/import`, the core import engine): the rules of
 * index.ts's `onLines` judged per row, a chunk at a time, so each refused row gets its SPEC §8
 * reason instead of the chunk failing as a whole: 80 not in the order's shipper warehouse,
 * 10 unusable or already on another open order (earlier rows of the file included). Column
 * reasons (50 empty serial, 20 not found, 60 repeated in the file, 94 already on the order,
 * 70 remark over 200) come from the declaration's `import.codes`. The document engine then
 * checks the chunk per order (frozen lines) and rolls the totals up once.
 */
import { Enums } from '@rti/metadata';
import type { ImportChunkHandler, PluginServerContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { IN_STOCK } from './movement';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
const Reason = Enums.sharedImportError;
const Order = Enums.shipOrderStatus;
const Line = Enums.shipOrderLineStatus;
const USABLE: number[] = [Enums.carrierStatus.new, Enums.carrierStatus.inUse, Enums.carrierStatus.standby];

export function shippingListImport(ctx: PluginServerContext): ImportChunkHandler {
  return {
    async beforeCreateMany({ ctx: call, transaction, rows }) {
      const orderIds = [...new Set(rows.map((r) => Number(r.values.shipOrderId)))];
      const carrierIds = [...new Set(rows.map((r) => Number(r.values.carrierId)))];
      const orders = new Map(
        (await ctx.repo('ship-order', call).rows({ id: { [Op.in]: orderIds } }, { attributes: ['id', 'shipperWarehouseId'], transaction })).map((o) => [
          Number(o.id),
          o,
        ]),
      );
      const carriers = new Map(
        (
          await ctx
            .repo('carrier', call)
            .rows({ id: { [Op.in]: carrierIds } }, { attributes: ['id', 'sn', 'carrierCodeId', 'warehouseId', 'transportStatus', 'status'], transaction })
        ).map((c) => [Number(c.id), c]),
      );
      // Carriers already on an open order: that order's id (a carrier sits on at most one).
      const lines = await ctx
        .repo('ship-order-detail', call)
        .rows(
          { carrierId: { [Op.in]: carrierIds }, status: { [Op.in]: [Line.pending, Line.shipped] } },
          { attributes: ['carrierId', 'shipOrderId'], transaction },
        );
      const open = new Set(
        (
          await ctx
            .repo('ship-order', call)
            .rows(
              { id: { [Op.in]: [...new Set(lines.map((l) => Number(l.shipOrderId)))] }, status: { [Op.in]: orderGroup('open') } },
              { attributes: ['id'], transaction },
            )
        ).map((o) => Number(o.id)),
      );
      const onOrder = new Map<number, number>();
      for (const l of lines) if (open.has(Number(l.shipOrderId))) onOrder.set(Number(l.carrierId), Number(l.shipOrderId));

      return rows.map(({ values }) => {
        const order = orders.get(Number(values.shipOrderId));
        const c: Row | undefined = carriers.get(Number(values.carrierId));
        if (!order || !c) return Reason.carrierSnNotFound;
        if (Number(c.warehouseId) !== Number(order.shipperWarehouseId) || !IN_STOCK.includes(Number(c.transportStatus))) return Reason.carrierNotInWarehouse;
        if (c.status !== null && c.status !== undefined && !USABLE.includes(Number(c.status))) return Reason.carrierUnavailable;
        const other = onOrder.get(Number(c.id));
        // the same order is the engine's "already exists" (94); another open one is unavailable
        if (other !== undefined && other !== Number(values.shipOrderId)) return Reason.carrierUnavailable;
        onOrder.set(Number(c.id), Number(values.shipOrderId));
        // the shipping list shows serial and carrier code as they were when shipped
        Object.assign(values, { carrierSn: c.sn, carrierCodeId: c.carrierCodeId ?? null });
        return null;
      });
    },
  };
}
