/**
 * SPEC §7's extra ship-order, delivery and receipt calls. Every read and write goes through
 * the caller's scoped repository, so a serial of another organisation is "not found" exactly
 * like a serial nobody has (no existence leak), and line writes pass the documents' rules
 * (frozen lines, unique carrier per document, the shipping rules of index.ts).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, invalid, readId, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import { IN_STOCK } from './movement';
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

function id(body: Body, key: string): number {
  const v = body[key];
  if (v === undefined || v === null || v === '') throw invalid('required', key);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2 ** 31 - 1) throw invalid('type', key, { expected: 'id' });
  return v;
}

function strings(body: Body, key: string, opts: { required?: boolean } = {}): string[] {
  const v = body[key];
  if (v === undefined || v === null) {
    if (opts.required) throw invalid('required', key);
    return [];
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' && typeof x !== 'number')) throw invalid('type', key, { expected: 'list' });
  if (v.length > MAX_BATCH) throw invalid('lengthMax', key, { max: MAX_BATCH });
  return v.map((x) => String(x).trim());
}

function paging(body: Body): { page: number; limit: number } {
  const page = body.page === undefined ? 1 : Number(body.page);
  const limit = body.limit === undefined ? 20 : Number(body.limit);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw invalid('valueBetween', 'page', { min: 1, max: 1_000_000 });
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('valueBetween', 'limit', { min: 1, max: 1000 });
  return { page, limit };
}

/** A failure of one row of a batch: SPEC §8 reason code and the message in the caller's language. */
function failure(ctx: PluginServerContext, call: RequestContext, err: unknown): { code: number; message: string } {
  if (err instanceof ApiError) return { code: err.code, message: ctx.t(call.language, err.messageKey, err.params) };
  throw err;
}

const reasonText = (ctx: PluginServerContext, call: RequestContext, reason: number) => {
  const key = Object.entries(Reason).find(([, v]) => v === reason)?.[0];
  return ctx.t(call.language, `enums.sharedImportError.${key}`);
};

export function registerCalls(ctx: PluginServerContext): void {
  // batch/add and batch/update of the shipping list are the document's (metadata children `batch`).

  /** Containers of an order with their carrier count. */
  ctx.addCall({
    path: '/ship-order-detail/getcontainers',
    resource: 'ship-order-detail',
    async handler({ body, ctx: call }) {
      const shipOrderId = id(body, 'shipOrderId');
      await ctx.repo('ship-order', call).find(shipOrderId);
      const rows = (await ctx.repo('ship-order-detail', call).findAll({ where: { shipOrderId }, attributes: ['containerNo', 'status'], raw: true })) as unknown as Row[];
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
    async handler({ body, ctx: call }) {
      const shipOrderId = id(body, 'shipOrderId');
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
    async handler({ body, ctx: call }) {
      const shipperId = readId(body, 'shipperWarehouseId');
      const receiverId = readId(body, 'receiverWarehouseId');
      const etdRaw = body.etd;
      const etd = etdRaw === undefined || etdRaw === null || etdRaw === '' ? new Date() : new Date(etdRaw as string);
      if ((typeof etdRaw !== 'string' && typeof etdRaw !== 'number' && etdRaw !== undefined && etdRaw !== null && etdRaw !== '') || !Number.isFinite(etd.getTime())) throw invalid('type', 'etd', { expected: 'datetime' });

      const whAttrs = ['id', 'code', 'name', 'available'];
      const mine = await ctx.repo('warehouse', call).rows({}, { attributes: whAttrs, order: [['code', 'ASC']], limit: 5000 });
      // receivers: the organisation's warehouses, whatever the caller's own are (names only)
      const all = call.warehouseIds === null || call.orgId === null ? mine : await ctx.repo('warehouse', ctx.systemContext(call.orgId, call.language)).rows({}, { attributes: whAttrs, order: [['code', 'ASC']], limit: 5000 });
      const mineIds = mine.map((w) => Number(w.id));
      if (shipperId !== undefined && !mineIds.includes(shipperId)) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      if (receiverId !== undefined && !all.some((w) => Number(w.id) === receiverId)) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');

      const inStock = mineIds.length ? await ctx.repo('carrier', call).countBy('warehouseId', { warehouseId: { [Op.in]: mineIds }, transportStatus: { [Op.in]: IN_STOCK } }) : new Map();
      const newOrders = mineIds.length ? await ctx.repo('ship-order', call).rows({ status: Order.new, shipperWarehouseId: { [Op.in]: mineIds } }, { attributes: ['id', 'shipperWarehouseId'], limit: 10000 }) : [];
      const reservedBy = newOrders.length ? await ctx.repo('ship-order-detail', call).countBy('shipOrderId', { shipOrderId: { [Op.in]: newOrders.map((o) => Number(o.id)) }, status: Line.pending }) : new Map();
      const reserved = new Map<number, number>();
      for (const o of newOrders) reserved.set(Number(o.shipperWarehouseId), (reserved.get(Number(o.shipperWarehouseId)) ?? 0) + (reservedBy.get(Number(o.id)) ?? 0));

      const routes = await ctx.repo('route', call).rows({}, { attributes: ['id', 'routeName', 'fromWarehouseId', 'toWarehouseId', 'transportType', 'transportTime', 'distance'], order: [['id', 'ASC']], limit: 5000 });
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
      const rows = (await ctx.repo('carrier', call).findAll({ where: { warehouseId: { [Op.in]: whs.map((w) => Number(w.id)) }, transportStatus: { [Op.in]: IN_STOCK } }, attributes: ['warehouseId'], raw: true })) as unknown as Row[];
      const count = new Map<number, number>();
      for (const r of rows) count.set(Number(r.warehouseId), (count.get(Number(r.warehouseId)) ?? 0) + 1);
      return whs.map((w) => ({ ...w, carrierCount: count.get(Number(w.id)) ?? 0 }));
    },
  });

  /**
   * The carrier picker of an order: carriers standing in its shipper warehouse that are not on
   * an open order, paged `{ shipOrderId, sn?, carrierCodeId?, page, limit }`.
   */
  ctx.addCall({
    path: '/ship-order/all/carrier',
    resource: 'ship-order',
    async handler({ body, ctx: call }) {
      const shipOrderId = id(body, 'shipOrderId');
      const { page, limit } = paging(body);
      const [order] = await ctx.repo('ship-order', call).serialize([await ctx.repo('ship-order', call).find(shipOrderId)]);
      const busyLines = (await ctx.repo('ship-order-detail', call).findAll({ where: { status: { [Op.in]: [Line.pending, Line.shipped] } }, attributes: ['carrierId', 'shipOrderId'], raw: true })) as unknown as Row[];
      const openOrders = new Set(((await ctx.repo('ship-order', call).findAll({ where: { id: { [Op.in]: [...new Set(busyLines.map((l) => Number(l.shipOrderId)))] }, status: { [Op.in]: orderGroup('open') } }, attributes: ['id'], raw: true })) as unknown as Row[]).map((o) => Number(o.id)));
      const busy = busyLines.filter((l) => openOrders.has(Number(l.shipOrderId))).map((l) => Number(l.carrierId));
      const filters: Row = { warehouseId: order.shipperWarehouseId, transportStatus: { [Op.in]: IN_STOCK }, ...(busy.length ? { id: { [Op.notIn]: busy } } : {}) };
      if (typeof body.sn === 'string' && body.sn.trim()) filters.sn = { [Op.like]: `%${body.sn.trim().replace(/[%_\\]/g, '')}%` };
      if (typeof body.carrierCodeId === 'number') filters.carrierCodeId = body.carrierCodeId;
      const repo = ctx.repo('carrier', call);
      const total = await repo.count(filters);
      const list = await repo.serialize(await repo.findAll({ where: filters, order: [['sn', 'ASC']], offset: (page - 1) * limit, limit }));
      return { list, total };
    },
  });

  /** Orders a receipt can be made for: released or delivered. */
  ctx.addCall({
    path: '/ship-order/allshiporder4receipt',
    resource: 'ship-order',
    async handler({ body, ctx: call }) {
      const repo = ctx.repo('ship-order', call);
      const where: Row = { status: { [Op.in]: orderGroup('inTransit') } };
      if (typeof body.receiverWarehouseId === 'number') where.receiverWarehouseId = body.receiverWarehouseId;
      return repo.serialize(await repo.findAll({ where, order: [['id', 'DESC']], limit: 5000 }));
    },
  });

  /** Carriers a delivery of an order can still ship: the order's pending lines. */
  ctx.addCall({
    path: '/delivery/all/carrier',
    resource: 'delivery',
    async handler({ body, ctx: call }) {
      const shipOrderId = id(body, 'shipOrderId');
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
  ctx.addCall({
    path: '/receipt-detail/batchcreatebycontainer',
    resource: 'receipt-detail',
    handler: ({ body, ctx: call }) => scanned(call, { receiptId: id(body, 'receiptId'), containers: strings(body, 'containerNos', { required: true }) }),
  });
  ctx.addCall({
    path: '/receipt-detail/batchcreatebycarrier',
    resource: 'receipt-detail',
    handler: ({ body, ctx: call }) => scanned(call, { receiptId: id(body, 'receiptId'), keys: strings(body, 'sns', { required: true }) }),
  });
}
