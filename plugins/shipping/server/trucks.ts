/**
 * Trucks (SPEC report "/truck" and "/truck/detail", calls /truck/list, /truck, /truck/export):
 * one row per truck shipment, derived from the ship orders that travel by land — nothing is
 * typed twice. The truck is the order's conveyance number (plate / vehicle serial); the truck
 * status is the order's status seen from the road (new = loading, released = in transit,
 * delivered = receiving, received/closed = finished, cancelled = deleted); quantities are the
 * order's shipped, received and missing/extra roll-ups; transport days run from departure to
 * receipt (or to now while on the road). The truck's position is its vehicle's: the carrier
 * whose serial is the conveyance number, placed by its bound GPS device (telemetry's derived
 * state, when the telemetry plugin runs).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, repositoryPage, repositoryScan, type PluginServerContext, type ReportColumn, type ReportQuery } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';

const Order = Enums.shipOrderStatus;
const Truck = Enums.truckStatus;
const DAY = 86_400_000;

/** ship-order statuses behind each truck status */
export const TRUCK_OF_ORDER: Record<number, number> = {
  [Order.new]: Truck.loading,
  [Order.released]: Truck.inTransit,
  [Order.delivered]: Truck.receiving,
  [Order.received]: Truck.finished,
  [Order.closed]: Truck.finished,
  [Order.cancelled]: Truck.deleted,
};
const ORDERS_OF_TRUCK = (truck: number) =>
  Object.entries(TRUCK_OF_ORDER)
    .filter(([, t]) => t === truck)
    .map(([o]) => Number(o));

/** A ship order travels by truck when it goes by land. */
export const TRUCK_TRANSPORT = Enums.transportType.land;

type Row = Record<string, any>;

export interface TruckRow {
  id: number;
  orderNo: string;
  sn: string | null;
  status: number;
  orderStatus: number;
  fromWarehouse: string | null;
  toWarehouse: string | null;
  quantity: number;
  arrivalQuantity: number;
  difference: number;
  missing: number;
  extra: number;
  departure: string | null;
  arrival: string | null;
  transportDays: number | null;
  /** the truck's last GPS fix: "lng, lat" and when */
  position: string | null;
  positionTime: string | null;
}

interface Params {
  sn?: string;
  orderNo?: string;
  status?: number;
  fromWarehouseId?: number;
  toWarehouseId?: number;
  time?: { from?: number | null; to?: number | null };
}

const days = (from: unknown, to: unknown, now: number): number | null => {
  if (!from) return null;
  const end = to ? new Date(to as string).getTime() : now;
  return Math.max(0, Math.round(((end - new Date(from as string).getTime()) / DAY) * 10) / 10);
};

/** Anything arrived, or the receipt done: a difference to show (none while loading or on the road). */
const arrived = (o: Row, arrivalQuantity: number): boolean => arrivalQuantity > 0 || !!o.tor;

/** One truck row of a serialized ship order. */
export function truckRow(o: Row, now = Date.now()): TruckRow {
  // counted as the detail's rows are: loaded = the order's lines but the extra ones, arrived =
  // received plus extra (an extra carrier came off the truck too)
  const extra = Number(o.extraAmount ?? 0);
  const quantity = Math.max(0, Number(o.totalAmount ?? 0) - extra);
  const arrivalQuantity = Number(o.receivedAmount ?? 0) + extra;
  return {
    id: Number(o.id),
    orderNo: String(o.orderNo),
    sn: o.conveyanceNo ?? null,
    status: TRUCK_OF_ORDER[Number(o.status)] ?? Truck.loading,
    orderStatus: Number(o.status),
    fromWarehouse: o.shipperWarehouseIdLabel ?? null,
    toWarehouse: o.receiverWarehouseIdLabel ?? null,
    quantity,
    arrivalQuantity,
    difference: arrived(o, arrivalQuantity) ? arrivalQuantity - quantity : 0,
    missing: Number(o.missingAmount ?? 0),
    extra: Number(o.extraAmount ?? 0),
    departure: o.atd ?? null,
    arrival: o.tor ?? o.ata ?? null,
    transportDays: days(o.atd, o.tor, now),
    position: null,
    positionTime: null,
  };
}

const K = 'shipping.truck';

export function registerTrucks(ctx: PluginServerContext): void {
  const where = (p: Params): WhereOptions => {
    const w: Row = { transportType: TRUCK_TRANSPORT };
    if (p.sn) w.conveyanceNo = { [Op.like]: `%${p.sn}%` };
    if (p.orderNo) w.orderNo = { [Op.like]: `%${p.orderNo}%` };
    if (p.status !== undefined && p.status !== null) w.status = { [Op.in]: ORDERS_OF_TRUCK(Number(p.status)) };
    if (p.fromWarehouseId) w.shipperWarehouseId = p.fromWarehouseId;
    if (p.toWarehouseId) w.receiverWarehouseId = p.toWarehouseId;
    // an open range: either end may be missing
    const range: Record<symbol, Date> = {};
    if (p.time?.from !== undefined && p.time.from !== null) range[Op.gte] = new Date(p.time.from);
    if (p.time?.to !== undefined && p.time.to !== null) range[Op.lte] = new Date(p.time.to);
    if (Object.getOwnPropertySymbols(range).length) w.createdAt = range;
    return w;
  };
  const order: Array<[string, 'ASC' | 'DESC']> = [['id', 'DESC']];

  /** Fills each row's truck position from the vehicle carrier with that serial and its GPS. */
  async function withPositions(q: { ctx: ReportQuery['ctx'] }, rows: TruckRow[]): Promise<TruckRow[]> {
    const positions = ctx.tryUse('telemetry')?.positions;
    const sns = [...new Set(rows.map((r) => r.sn).filter((x): x is string => !!x))];
    if (!positions || !sns.length) return rows;
    const vehicles = await ctx.repo('carrier', q.ctx).rows({ sn: { [Op.in]: sns } }, { attributes: ['id', 'sn', 'gpsId'] });
    const bySn = new Map(vehicles.map((v) => [String(v.sn), v]));
    for (const r of rows) {
      const v = r.sn ? bySn.get(r.sn) : undefined;
      if (!v) continue;
      const state = positions.carrier(Number(v.id));
      const gps = v.gpsId ? positions.device('gps', Number(v.gpsId)) : undefined;
      const lng = gps?.longitude ?? state?.longitude ?? null;
      const lat = gps?.latitude ?? state?.latitude ?? null;
      if (lng === null || lat === null) continue;
      r.position = `${lng.toFixed(5)}, ${lat.toFixed(5)}`;
      r.positionTime = gps?.lastSeen ? new Date(gps.lastSeen).toISOString() : null;
    }
    return rows;
  }

  const columns: ReportColumn<TruckRow>[] = [
    // each row opens its shipment's detail page
    { key: 'orderNo', label: 'fields.orderNo', width: 20, link: '/report/truck/detail?id={id}' },
    { key: 'sn', label: `${K}.sn`, width: 16 },
    { key: 'status', label: 'fields.status', type: 'enum', enum: 'truckStatus', width: 12 },
    { key: 'fromWarehouse', label: `${K}.from`, width: 20 },
    { key: 'toWarehouse', label: `${K}.to`, width: 20 },
    { key: 'quantity', label: `${K}.quantity`, type: 'int', width: 10 },
    { key: 'arrivalQuantity', label: `${K}.arrivalQuantity`, type: 'int', width: 12 },
    { key: 'difference', label: `${K}.difference`, type: 'int', width: 10 },
    { key: 'transportDays', label: `${K}.transportDays`, type: 'decimal', width: 12 },
    { key: 'departure', label: `${K}.departure`, type: 'datetime', width: 18 },
    { key: 'arrival', label: `${K}.arrival`, type: 'datetime', width: 18 },
    { key: 'position', label: `${K}.position`, width: 22 },
    { key: 'positionTime', label: `${K}.positionTime`, type: 'datetime', width: 18 },
  ];

  ctx.reports.define<Params, TruckRow>({
    name: 'shipping.trucks',
    title: `${K}.title`,
    calls: { list: '/truck/list', export: '/truck/export' },
    parameters: [
      { name: 'sn', type: 'string', label: `${K}.sn`, maxLength: 50 },
      { name: 'orderNo', type: 'string', label: 'fields.orderNo', maxLength: 50 },
      { name: 'status', type: 'enum', enum: 'truckStatus', label: 'fields.status' },
      { name: 'fromWarehouseId', type: 'ref', label: `${K}.from`, ref: { resource: 'warehouse', label: 'name' } },
      { name: 'toWarehouseId', type: 'ref', label: `${K}.to`, ref: { resource: 'warehouse', label: 'name' } },
      { name: 'time', type: 'timeRange', label: 'fields.createdAt', open: true, maxDays: 366 },
    ],
    columns,
    rowKey: 'id',
    async rows(q: ReportQuery<Params>, w) {
      const page = await repositoryPage(ctx.repo('ship-order', q.ctx), { where: where(q.params), order, serialize: true }, w);
      const now = Date.now();
      return {
        list: await withPositions(
          q,
          page.list.map((o) => truckRow(o, now)),
        ),
        total: page.total,
      };
    },
    async *scan(q: ReportQuery<Params>) {
      const now = Date.now();
      for await (const batch of repositoryScan(ctx.repo('ship-order', q.ctx), { where: where(q.params), order, serialize: true }))
        yield await withPositions(
          q,
          batch.map((o) => truckRow(o, now)),
        );
    },
    fileName: () => `trucks-${new Date().toISOString().slice(0, 10)}`,
  });

  /**
   * /truck { id }: one truck shipment — its row, and per carrier code and container what was
   * loaded and what arrived (the detail page's tables); the lines themselves stay on the order.
   */
  ctx.addCall({
    path: '/truck',
    input: { id: { type: 'ref', required: true } },
    async handler({ input, ctx: call }) {
      const { id } = input;
      const orders = ctx.repo('ship-order', call);
      // not a truck shipment, another organisation's or out of scope: the same "not found"
      const found = await orders.findOne({ id, transportType: TRUCK_TRANSPORT });
      if (!found) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      const [o] = await orders.serialize([found!]);
      const lines = ctx.repo('ship-order-detail', call);
      const byCode = new Map<string, { carrierCode: string | null; quantity: number; arrivalQuantity: number }>();
      const byContainer = new Map<string, { containerNo: string | null; quantity: number; arrivalQuantity: number }>();
      const Line = Enums.shipOrderLineStatus;
      for await (const chunk of lines.chunks({ shipOrderId: id }, 1000)) {
        for (const l of chunk) {
          const arrived = Number(l.status) === Line.received || Number(l.status) === Line.extra ? 1 : 0;
          const loaded = Number(l.status) === Line.extra ? 0 : 1;
          const code = String(l.carrierCodeIdLabel ?? l.carrierCodeId ?? '');
          const c = byCode.get(code) ?? { carrierCode: (l.carrierCodeIdLabel as string | null) ?? null, quantity: 0, arrivalQuantity: 0 };
          c.quantity += loaded;
          c.arrivalQuantity += arrived;
          byCode.set(code, c);
          const box = String(l.containerNo ?? '');
          const b = byContainer.get(box) ?? { containerNo: (l.containerNo as string | null) ?? null, quantity: 0, arrivalQuantity: 0 };
          b.quantity += loaded;
          b.arrivalQuantity += arrived;
          byContainer.set(box, b);
        }
      }
      const [row] = await withPositions({ ctx: call }, [truckRow(o)]);
      // the header is the sum of its rows (the same counting), with the same "nothing arrived yet" rule
      const codes = [...byCode.values()];
      row.quantity = codes.reduce((n, c) => n + c.quantity, 0);
      row.arrivalQuantity = codes.reduce((n, c) => n + c.arrivalQuantity, 0);
      const show = arrived(o, row.arrivalQuantity);
      row.difference = show ? row.arrivalQuantity - row.quantity : 0;
      const withDiff = <T extends { quantity: number; arrivalQuantity: number }>(r: T) => ({ ...r, difference: show ? r.arrivalQuantity - r.quantity : 0 });
      return { ...row, carrierCodes: codes.map(withDiff), containers: [...byContainer.values()].map(withDiff) };
    },
  });
}
