/**
 * SPEC §7's extra ship-order, delivery and receipt calls. Every read and write goes through
 * the caller's scoped repository, so a serial of another organisation is "not found" exactly
 * like a serial nobody has (no existence leak), and line writes pass the documents' rules
 * (frozen lines, unique carrier per document, the shipping rules of index.ts).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, declaredFilter, invalid, readId, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import { orderGroup } from './statuses';

type Body = Record<string, unknown>;
type Row = Record<string, any>;

/** Serials / rows one batch call takes (a 5,000-carrier order fits in one). */
const MAX_BATCH = 5000;
const Order = Enums.shipOrderStatus;
const Line = Enums.shipOrderLineStatus;
const Reason = Enums.sharedImportError;
/** SPEC §8 reasons of a scan's refusals (a line rule's own reason travels as its code) */
const SCAN_REASON: Record<string, number> = {
  unknown: Reason.carrierSnNotFound,
  notOnDocument: Reason.carrierSnNotFound,
  twice: Reason.duplicated,
  done: Reason.duplicated,
  noContainer: Reason.containerImportFailed,
  containerDone: Reason.containerImportFailed,
};

/** a list of texts (container numbers), bounded like a batch */
function strings(body: Body, key: string): string[] {
  const v = body[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' && typeof x !== 'number')) throw invalid('type', key, { expected: 'list' });
  if (v.length > MAX_BATCH) throw invalid('lengthMax', key, { max: MAX_BATCH });
  return v.map((x) => String(x).trim());
}

/** the order a call is about, required */
const ORDER = { shipOrderId: { type: 'ref', required: true, label: 'fields.shipOrder' } } as const;

export function registerCalls(ctx: PluginServerContext): void {
  // carriers standing in a warehouse, counted and offered as inventory and the dashboard count them
  const stock = () => declaredFilter(ctx.metadata, 'carrier', 'inStock');
  // batch/add and batch/update of the shipping list are the document's (metadata children `batch`).

  /** Containers of an order with their carrier count. */
  ctx.addCall({
    path: '/ship-order-detail/getcontainers',
    resource: 'ship-order-detail',
    input: ORDER,
    async handler({ input: { shipOrderId }, ctx: call }) {
      await ctx.repo('ship-order', call).find(shipOrderId);
      const rows = (await ctx
        .repo('ship-order-detail', call)
        .findAll({ where: { shipOrderId }, attributes: ['containerNo', 'status'], raw: true })) as unknown as Row[];
      const by = new Map<string, { containerNo: string | null; total: number; received: number }>();
      for (const r of rows) {
        const k = r.containerNo ?? '';
        const e = by.get(k) ?? { containerNo: r.containerNo ?? null, total: 0, received: 0 };
        e.total++;
        if (r.status === Line.received) e.received++;
        by.set(k, e);
      }
      return [...by.values()].sort((a, b) => String(a.containerNo ?? '').localeCompare(String(b.containerNo ?? '')));
    },
  });

  /** Lines of an order, optionally of some containers: `{ shipOrderId, containerNos? }`. */
  ctx.addCall({
    path: '/ship-order-detail/getcarriers',
    resource: 'ship-order-detail',
    input: ORDER,
    async handler({ body, input: { shipOrderId }, ctx: call }) {
      await ctx.repo('ship-order', call).find(shipOrderId);
      const containers = strings(body, 'containerNos');
      const where: WhereOptions = containers.length ? { shipOrderId, containerNo: { [Op.in]: containers } } : { shipOrderId };
      const repo = ctx.repo('ship-order-detail', call);
      return repo.serialize(await repo.findAll({ where, order: [['id', 'ASC']], limit: MAX_BATCH }));
    },
  });

  /** Warehouses for the order form (SPEC's spelling `wareshouse` kept). */
  ctx.addCall({
    path: '/ship-order/all/wareshouse',
    resource: 'ship-order',
    async handler({ ctx: call }) {
      return ctx.repo('warehouse', call).all({});
    },
  });

  /**
   * `/ship-order/setup` `{ shipperWarehouseId?, receiverWarehouseId?, etd? }`: what a new order
   * form needs before the clerk types anything (README "New order form"):
   * - `shipperWarehouses`: the warehouses the caller may ship from (a warehouse-restricted
   *   user: theirs), with carriers standing there (`inStock`) and those already on new orders
   *   (`reserved`), so the clerk sees what can still go;
   * - `receiverWarehouses`: every warehouse of the organisation (an order may go to any);
   * - `routes` with transport type and time; `vessels` (`/shipper`) for sea shipments;
   * - `defaults`: type, the shipper when there is only one, the receiver when the shipper's
   *   routes lead to one place, the route the release will time the order by (the same choice
   *   as the release's clock), its transport type, etd (given or now) and eta = etd + the
   *   route's transport time. The order number is assigned on save (no number is held).
   */
  ctx.addCall({
    path: '/ship-order/setup',
    resource: 'ship-order',
    input: { shipperWarehouseId: { type: 'ref' }, receiverWarehouseId: { type: 'ref' }, etd: { type: 'datetime' } },
    async handler({ input, ctx: call }) {
      const { shipperWarehouseId: shipperId, receiverWarehouseId: receiverId } = input;
      const etd = input.etd ?? new Date();

      const whAttrs = ['id', 'code', 'name', 'available'];
      const mine = await ctx.repo('warehouse', call).rows({}, { attributes: whAttrs, order: [['code', 'ASC']], limit: 5000 });
      // receivers: the organisation's warehouses, whatever the caller's own are (names only)
      const all =
        call.warehouseIds === null || call.orgId === null
          ? mine
          : await ctx.repo('warehouse', ctx.systemContext(call.orgId, call.language)).rows({}, { attributes: whAttrs, order: [['code', 'ASC']], limit: 5000 });
      const mineIds = mine.map((w) => Number(w.id));
      if (shipperId !== undefined && !mineIds.includes(shipperId)) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      if (receiverId !== undefined && !all.some((w) => Number(w.id) === receiverId)) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');

      const inStock = mineIds.length
        ? await ctx.repo('carrier', call).countBy('warehouseId', { [Op.and]: [stock(), { warehouseId: { [Op.in]: mineIds } }] })
        : new Map();
      const newOrders = mineIds.length
        ? await ctx
            .repo('ship-order', call)
            .rows({ status: Order.new, shipperWarehouseId: { [Op.in]: mineIds } }, { attributes: ['id', 'shipperWarehouseId'], limit: 10000 })
        : [];
      const reservedBy = newOrders.length
        ? await ctx
            .repo('ship-order-detail', call)
            .countBy('shipOrderId', { shipOrderId: { [Op.in]: newOrders.map((o) => Number(o.id)) }, status: Line.pending })
        : new Map();
      const reserved = new Map<number, number>();
      for (const o of newOrders)
        reserved.set(Number(o.shipperWarehouseId), (reserved.get(Number(o.shipperWarehouseId)) ?? 0) + (reservedBy.get(Number(o.id)) ?? 0));

      const routes = await ctx.repo('route', call).rows(
        {},
        {
          attributes: ['id', 'routeName', 'fromWarehouseId', 'toWarehouseId', 'transportType', 'transportTime', 'distance'],
          order: [['id', 'ASC']],
          limit: 5000,
        },
      );
      const vessels = await ctx.repo('shipper', call).rows({}, { attributes: ['id', 'name', 'mmsi', 'imo'], order: [['name', 'ASC']], limit: 1000 });

      const usable = mine.filter((w) => w.available !== false && w.available !== 0);
      const shipper = shipperId ?? (usable.length === 1 ? Number(usable[0].id) : null);
      const fromShipper = shipper === null ? [] : routes.filter((r) => Number(r.fromWarehouseId) === shipper);
      const places = [...new Set(fromShipper.map((r) => Number(r.toWarehouseId)))];
      const receiver = receiverId ?? (places.length === 1 ? places[0] : null);
      // the release times the order by the first route shipper → receiver (movement.ts routeMinutes)
      const route = shipper !== null && receiver !== null ? (fromShipper.find((r) => Number(r.toWarehouseId) === receiver) ?? null) : null;
      const minutes = Number(route?.transportTime ?? 0) || 0;
      const typeField = ctx.metadata.resources['ship-order'].fields.find((f) => f.name === 'type');
      return {
        defaults: {
          type: typeField?.default ?? null,
          shipperWarehouseId: shipper,
          receiverWarehouseId: receiver,
          routeId: route ? Number(route.id) : null,
          transportType: route?.transportType ?? null,
          transportTime: route ? minutes : null,
          etd: etd.toISOString(),
          eta: minutes ? new Date(etd.getTime() + minutes * 60_000).toISOString() : null,
        },
        shipperWarehouses: mine.map((w) => ({
          id: Number(w.id),
          code: w.code,
          name: w.name,
          available: w.available !== false && w.available !== 0,
          inStock: inStock.get(Number(w.id)) ?? 0,
          reserved: reserved.get(Number(w.id)) ?? 0,
        })),
        receiverWarehouses: all.map((w) => ({ id: Number(w.id), code: w.code, name: w.name, available: w.available !== false && w.available !== 0 })),
        routes: routes.map((r) => ({
          id: Number(r.id),
          routeName: r.routeName,
          fromWarehouseId: Number(r.fromWarehouseId),
          toWarehouseId: Number(r.toWarehouseId),
          transportType: r.transportType ?? null,
          transportTime: r.transportTime ?? null,
          distance: r.distance ?? null,
        })),
        vessels: vessels.map((v) => ({ id: Number(v.id), name: v.name, mmsi: v.mmsi ?? null, imo: v.imo ?? null })),
      };
    },
  });

  /** Warehouses with how many carriers stand in each (the picker's warehouse list). */
  ctx.addCall({
    path: '/warehouse/listwithcarrier',
    resource: 'ship-order',
    async handler({ ctx: call }) {
      const whs = await ctx.repo('warehouse', call).all({});
      const count = await ctx.repo('carrier', call).countBy('warehouseId', { [Op.and]: [stock(), { warehouseId: { [Op.in]: whs.map((w) => Number(w.id)) } }] });
      return whs.map((w) => ({ ...w, carrierCount: count.get(Number(w.id)) ?? 0 }));
    },
  });

  /** SPEC's name of an order's carrier picker: the lines' declared candidates (children `batch.candidates`), `{ shipOrderId, sn?, carrierCodeId?, page, limit }`. */
  ctx.addCall({
    path: '/ship-order/all/carrier',
    resource: 'ship-order',
    input: { ...ORDER, sn: { type: 'string', maxLength: 64 }, carrierCodeId: { type: 'ref' } },
    paging: true,
    handler: ({ input: { shipOrderId, sn, carrierCodeId, offset, limit }, ctx: call }) =>
      ctx.documents.candidates('ship-order-detail', { headerId: shipOrderId, search: sn, narrow: { carrierCodeId }, offset, limit }, call),
  });

  /** Orders a receipt can be made for: released or delivered. */
  ctx.addCall({
    path: '/ship-order/allshiporder4receipt',
    resource: 'ship-order',
    input: { receiverWarehouseId: { type: 'ref' } },
    async handler({ input: { receiverWarehouseId }, ctx: call }) {
      const repo = ctx.repo('ship-order', call);
      const where: Row = { status: { [Op.in]: orderGroup('inTransit') }, ...(receiverWarehouseId === undefined ? {} : { receiverWarehouseId }) };
      return repo.serialize(await repo.findAll({ where, order: [['id', 'DESC']], limit: 5000 }));
    },
  });

  /** Carriers a delivery of an order can still ship: the order's pending lines. */
  ctx.addCall({
    path: '/delivery/all/carrier',
    resource: 'delivery',
    input: ORDER,
    async handler({ input: { shipOrderId }, ctx: call }) {
      await ctx.repo('ship-order', call).find(shipOrderId);
      const repo = ctx.repo('ship-order-detail', call);
      return repo.serialize(await repo.findAll({ where: { shipOrderId, status: Line.pending }, order: [['id', 'ASC']], limit: MAX_BATCH }));
    },
  });

  // SPEC's names for receiving by container and by serial: the receipt's scan (children `scan`),
  // answered in SPEC's batch shape (added, failed rows with their reason).
  const scanned = async (call: RequestContext, body: Record<string, unknown>) => {
    const r = await ctx.documents.scan('receipt-detail', body, call);
    return {
      added: r.accepted.length,
      accepted: r.accepted,
      failed: r.refused.map((x, i) => ({ row: i + 1, sn: x.key, reason: SCAN_REASON[x.reason] ?? x.code ?? Reason.carrierUnavailable, message: x.message })),
      receipt: r.header,
    };
  };
  // the scan validates the receipt and the lists (required, bounded, each key's length)
  const RECEIPT = { receiptId: { type: 'ref', required: true, label: 'fields.receipt' } } as const;
  ctx.addCall({
    path: '/receipt-detail/batchcreatebycontainer',
    resource: 'receipt-detail',
    input: RECEIPT,
    handler: ({ body, input: { receiptId }, ctx: call }) => scanned(call, { receiptId, containers: body.containerNos }),
  });
  ctx.addCall({
    path: '/receipt-detail/batchcreatebycarrier',
    resource: 'receipt-detail',
    input: RECEIPT,
    handler: ({ body, input: { receiptId }, ctx: call }) => scanned(call, { receiptId, keys: body.sns }),
  });
}
