/**
 * One departure and one arrival row per carrier per trip (issue 17 item 4). Gate passes and
 * documents meet in the carrier's in/out rows from either side:
 *
 * - the document first (release, or a receipt booked before the gate reported): the gate pass
 *   confirms the document's row — the telemetry state sink marks it confirmed by beacon or GPS
 *   and adds no row (plugins/telemetry/server/state-sink.ts);
 * - the gate first (a carrier heard arriving at the receiver before the receipt): the receipt
 *   takes the gate's row over — it names the order and container and keeps the device's
 *   confirmation — instead of writing a second arrival.
 *
 * (A gate cannot see a departure before its release: a carrier that left through the gate is no
 * longer in the shipper warehouse and the release refuses it.)
 */
import { Enums } from '@rti/metadata';
import { Op } from 'sequelize';
import type { BoundRepository } from '@rti/server/plugin-api';

type Repo = (resource: string) => BoundRepository;
type Row = Record<string, any>;
const CHUNK = 1000;
/** confirmSource values of a device (beacon, GPS) */
const DEVICE = [Enums.confirmSource.beacon, Enums.confirmSource.gps];

export interface TripRows {
  repo: Repo;
  order: Row;
  now: Date;
  direction: number;
  warehouseId: number;
  /** container number per carrier id */
  container: Map<number, string | null>;
}

/**
 * The gate's arrival rows of this trip that the receipt takes over; returns the carrier ids whose
 * row it took. Which row is the trip's is read from the order's line, not from clocks: the
 * line's arrival confirmed by a device (telemetry-agreement.ts) at the second of that pass.
 */
export async function adoptDeviceRows(t: TripRows, carrierIds: number[]): Promise<Set<number>> {
  const { repo, order, now, direction, warehouseId, container } = t;
  const adopted = new Set<number>();
  const seenAt = new Map<number, number>();
  for (let i = 0; i < carrierIds.length; i += CHUNK) {
    const lines = await repo('ship-order-detail').rows(
      { shipOrderId: order.id, carrierId: { [Op.in]: carrierIds.slice(i, i + CHUNK) }, arrivalConfirmedBy: { [Op.in]: DEVICE } },
      { attributes: ['carrierId', 'arrivalConfirmedTime'] },
    );
    for (const l of lines) {
      const time = new Date(l.arrivalConfirmedTime as string).getTime();
      if (Number.isFinite(time)) seenAt.set(Number(l.carrierId), time);
    }
  }
  if (!seenAt.size) return adopted;
  const ids = [...seenAt.keys()];
  const since = new Date(Math.min(...seenAt.values()));
  const rowOf = new Map<number, Row>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await repo('carrier-inout').rows(
      {
        carrierId: { [Op.in]: ids.slice(i, i + CHUNK) },
        direction,
        warehouseId,
        shipOrderNo: null,
        confirmedBy: { [Op.in]: DEVICE },
        confirmTime: { [Op.gte]: since },
      },
      { attributes: ['id', 'carrierId', 'confirmTime'], order: [['id', 'ASC']] },
    );
    for (const r of rows) {
      // the pass that confirmed the line (confirmation times are whole seconds)
      const t0 = seenAt.get(Number(r.carrierId))!;
      const at = new Date(r.confirmTime as string).getTime();
      if (at >= t0 && at < t0 + 1000) rowOf.set(Number(r.carrierId), r);
    }
  }
  // one UPDATE per container (most trips have a handful)
  const byContainer = new Map<string | null, number[]>();
  for (const [carrierId, row] of rowOf) {
    const no = container.get(carrierId) ?? null;
    let list = byContainer.get(no);
    if (!list) byContainer.set(no, (list = []));
    list.push(Number(row.id));
    adopted.add(carrierId);
  }
  for (const [containerNo, list] of byContainer) {
    for (let i = 0; i < list.length; i += CHUNK) {
      await repo('carrier-inout').updateWhere(
        { shipOrderNo: order.orderNo, containerNo, confirmTime: now },
        { id: { [Op.in]: list.slice(i, i + CHUNK) }, shipOrderNo: null },
      );
    }
  }
  return adopted;
}
