/**
 * Telemetry and documents agree (issue 12 item 3): the in/out passes the telemetry rules record
 * (a gate gateway hearing a carrier's beacon, a GPS tracker crossing a warehouse fence) confirm
 * the shipping list of the carrier's open ship order — a pass at the shipper warehouse confirms
 * its departure, one at the receiver its arrival — and a carrier arriving at any other
 * warehouse raises the misuse alert (carrier alert reason 10, "misuse / invalid route").
 *
 * Passes come from the telemetry service's `onInOut` once per state flush, every organisation
 * at once and by the thousand: they are grouped per organisation and handled with a few
 * set-based statements inside it (system context, scoped repositories), never per pass.
 *
 * A line's confirmation: the release stamps "by hand" (the clerk's word) and the receipt
 * likewise when nothing saw the carrier; the first telemetry pass replaces "by hand" with
 * beacon or GPS and the pass's time. Direction is not trusted for this: a carrier released
 * before the engine ever placed it is read as "inbound" at the shipper gate, yet the pass at
 * the shipper is its departure.
 */
import { Enums } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import type { InOutPass } from '@rti/plugin-telemetry/api';
import { Op } from 'sequelize';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
const Order = Enums.shipOrderStatus;
const Line = Enums.shipOrderLineStatus;
const Confirm = Enums.confirmSource;
/** orders whose carriers are on their way (a pass confirms); received too — the gate may report after the receipt */
/** ids per IN (…) list */
const CHUNK = 1000;

export interface AgreementResult {
  departures: number;
  arrivals: number;
  misuse: number;
}

/**
 * After a document step has committed: the telemetry engine re-reads master data and follows
 * the carriers the step moved — shipped lines still confirmed "by hand" leave the shipper,
 * received ones arrive at the receiver — so a later gate pass confirms the move instead of
 * undoing it. Errors are logged: the step has committed already.
 */
export async function followInTelemetry(ctx: PluginServerContext, call: RequestContext, orderIds: number[], direction: 'out' | 'in'): Promise<void> {
  const telemetry = ctx.tryUse('telemetry');
  if (!telemetry) return;
  try {
    await telemetry.refresh();
    const ids = [...new Set(orderIds)].filter((id) => Number.isFinite(id));
    const orgId = call.orgId;
    if (!ids.length || orgId === null) return;
    const sys = ctx.systemContext(orgId);
    const out = direction === 'out';
    const orders = new Map(
      (await ctx.repo('ship-order', sys).rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'shipperWarehouseId', 'receiverWarehouseId'] })).map((o) => [
        Number(o.id),
        o,
      ]),
    );
    const lines = await ctx
      .repo('ship-order-detail', sys)
      .rows(
        out
          ? { shipOrderId: { [Op.in]: ids }, status: Line.shipped, departureConfirmedBy: Confirm.hand }
          : { shipOrderId: { [Op.in]: ids }, status: { [Op.in]: [Line.received, Line.extra] }, arrivalConfirmedBy: Confirm.hand },
        { attributes: ['shipOrderId', 'carrierId', 'deliveryTime', 'receiptTime'] },
      );
    const now = Date.now();
    telemetry.placeCarriers(
      lines.map((l) => {
        const o = orders.get(Number(l.shipOrderId))!;
        // the step's own time: the carrier's outbound/inbound time stays the document's
        const stamped = Date.parse(String(out ? l.deliveryTime : l.receiptTime));
        const time = Number.isFinite(stamped) ? stamped : now;
        return {
          id: Number(l.carrierId),
          orgId,
          direction: out ? Enums.inoutDirection.outbound : Enums.inoutDirection.inbound,
          warehouseId: Number(out ? o.shipperWarehouseId : o.receiverWarehouseId),
          transportStatus: out ? Enums.transportStatus.inTransit : Enums.transportStatus.inWarehouse,
          time,
        };
      }),
    );
  } catch (err) {
    ctx.log('[shipping] telemetry could not follow a document step', err);
  }
}

export function installTelemetryAgreement(ctx: PluginServerContext): void {
  const telemetry = ctx.tryUse('telemetry');
  if (!telemetry) return;
  telemetry.onInOut(async (passes) => {
    await confirmPasses(ctx, passes);
  });
}

/** Applies a flush's passes to the shipping lists; returns what it changed (tests, logs). */
export async function confirmPasses(ctx: PluginServerContext, passes: readonly InOutPass[]): Promise<AgreementResult> {
  const total: AgreementResult = { departures: 0, arrivals: 0, misuse: 0 };
  const byOrg = new Map<number, InOutPass[]>();
  for (const p of passes) {
    if (!p.via) continue; // only what a device saw confirms anything
    let list = byOrg.get(p.orgId);
    if (!list) byOrg.set(p.orgId, (list = []));
    list.push(p);
  }
  for (const [orgId, list] of byOrg) {
    try {
      const r = await confirmInOrg(ctx, orgId, list);
      total.departures += r.departures;
      total.arrivals += r.arrivals;
      total.misuse += r.misuse;
    } catch (err) {
      // one organisation's failure must not keep the others' confirmations back
      ctx.log(`[shipping] telemetry confirmation failed for organisation ${orgId}`, err);
    }
  }
  return total;
}

async function confirmInOrg(ctx: PluginServerContext, orgId: number, passes: InOutPass[]): Promise<AgreementResult> {
  const sys = ctx.systemContext(orgId);
  const repo = (resource: string) => ctx.repo(resource, sys);
  const carrierIds = [...new Set(passes.map((p) => p.carrierId))];
  const lines: Row[] = [];
  for (let i = 0; i < carrierIds.length; i += CHUNK) {
    lines.push(
      ...(await repo('ship-order-detail').rows(
        { carrierId: { [Op.in]: carrierIds.slice(i, i + CHUNK) }, status: { [Op.in]: [Line.shipped, Line.received] } },
        { attributes: ['id', 'shipOrderId', 'carrierId', 'carrierSn', 'status', 'departureConfirmedBy', 'arrivalConfirmedBy'] },
      )),
    );
  }
  if (!lines.length) return { departures: 0, arrivals: 0, misuse: 0 };
  const orderIds = [...new Set(lines.map((l) => Number(l.shipOrderId)))];
  const orders = new Map<number, Row>();
  for (let i = 0; i < orderIds.length; i += CHUNK) {
    const rows = await repo('ship-order').rows(
      { id: { [Op.in]: orderIds.slice(i, i + CHUNK) }, status: { [Op.in]: orderGroup('arrived') } },
      { attributes: ['id', 'orderNo', 'status', 'shipperWarehouseId', 'receiverWarehouseId'] },
    );
    for (const o of rows) orders.set(Number(o.id), o);
  }
  // a carrier sits on one open order; a received line of a closed trip may linger: the open one wins
  const lineOf = new Map<number, Row>();
  for (const l of lines) {
    const o = orders.get(Number(l.shipOrderId));
    if (!o) continue;
    const prev = lineOf.get(Number(l.carrierId));
    if (!prev || (l.status === Line.shipped && prev.status !== Line.shipped)) lineOf.set(Number(l.carrierId), l);
  }

  // first pass per line and side wins; grouped by (side, via, second) → one UPDATE per group
  const groups = new Map<string, { field: 'departure' | 'arrival'; via: number; time: number; ids: number[] }>();
  const seen = new Set<string>();
  const misuse: Array<{ pass: InOutPass; line: Row; order: Row }> = [];
  for (const p of [...passes].sort((a, b) => a.time - b.time)) {
    const line = lineOf.get(p.carrierId);
    if (!line) continue;
    const order = orders.get(Number(line.shipOrderId))!;
    let field: 'departure' | 'arrival' | undefined;
    if (p.warehouseId === Number(order.shipperWarehouseId)) field = 'departure';
    else if (p.warehouseId === Number(order.receiverWarehouseId)) field = 'arrival';
    else {
      if (p.direction === Enums.inoutDirection.inbound && line.status === Line.shipped && orderGroup('inTransit').includes(Number(order.status)))
        misuse.push({ pass: p, line, order });
      continue;
    }
    const current = line[`${field}ConfirmedBy`];
    if (current !== null && current !== undefined && current !== Confirm.hand) continue;
    const key = `${field}/${line.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const via = p.via === 'gps' ? Confirm.gps : Confirm.beacon;
    const second = Math.floor(p.time / 1000) * 1000;
    const g = `${field}/${via}/${second}`;
    let group = groups.get(g);
    if (!group) groups.set(g, (group = { field, via, time: second, ids: [] }));
    group.ids.push(Number(line.id));
  }
  const result: AgreementResult = { departures: 0, arrivals: 0, misuse: 0 };
  for (const g of groups.values()) {
    const by = `${g.field}ConfirmedBy`;
    for (let i = 0; i < g.ids.length; i += CHUNK) {
      const n = await repo('ship-order-detail').updateWhere(
        { [by]: g.via, [`${g.field}ConfirmedTime`]: new Date(g.time) },
        { id: { [Op.in]: g.ids.slice(i, i + CHUNK) }, [Op.or]: [{ [by]: null }, { [by]: Confirm.hand }] },
      );
      if (g.field === 'departure') result.departures += n;
      else result.arrivals += n;
    }
  }
  if (misuse.length) result.misuse = await raiseMisuse(ctx, orgId, misuse);
  return result;
}

/**
 * One misuse alert per carrier and warehouse while one is open there (unhandled, not cleared):
 * a carrier lingering at the wrong gate, or the engine's own invalid-route alert for the same
 * arrival, does not pile up rows.
 */
async function raiseMisuse(ctx: PluginServerContext, orgId: number, found: Array<{ pass: InOutPass; line: Row; order: Row }>): Promise<number> {
  const sys = ctx.systemContext(orgId);
  const alerts = ctx.repo('carrier-alert', sys);
  const carrierIds = [...new Set(found.map((f) => f.pass.carrierId))];
  const open = await alerts.rows(
    { carrierId: { [Op.in]: carrierIds }, reason: Enums.carrierAlertReason.invalidRoute, status: Enums.alertStatus.unsolved, clearedAt: null },
    { attributes: ['carrierId', 'warehouseId'] },
  );
  const has = new Set(open.map((a) => `${a.carrierId}/${a.warehouseId}`));
  const whIds = [...new Set(found.flatMap((f) => [f.pass.warehouseId, Number(f.order.receiverWarehouseId)]))];
  const names = new Map(
    (await ctx.repo('warehouse', sys).rows({ id: { [Op.in]: whIds } }, { attributes: ['id', 'name'] })).map((w) => [Number(w.id), String(w.name)]),
  );
  const rows: Row[] = [];
  for (const { pass, line, order } of found) {
    const key = `${pass.carrierId}/${pass.warehouseId}`;
    if (has.has(key)) continue;
    has.add(key);
    const params = {
      order: String(order.orderNo),
      warehouse: names.get(pass.warehouseId) ?? String(pass.warehouseId),
      receiver: names.get(Number(order.receiverWarehouseId)) ?? String(order.receiverWarehouseId),
    };
    rows.push({
      carrierId: pass.carrierId,
      carrierSn: line.carrierSn ?? pass.sn,
      reason: Enums.carrierAlertReason.invalidRoute,
      createdTime: new Date(pass.time),
      warehouseId: pass.warehouseId,
      // English for readers without the catalogue; messageKey renders it in the reader's language
      message: `arrived at ${params.warehouse}, but ship order ${params.order} goes to ${params.receiver}`.slice(0, 500),
      messageKey: { key: 'shipping.alerts.wrongWarehouse', params },
      status: Enums.alertStatus.unsolved,
      rawData: { shipOrderId: Number(order.id), orderNo: order.orderNo },
    });
  }
  if (!rows.length) return 0;
  await alerts.insertMany(rows);
  await publishAlerts(ctx, orgId, {
    carrierId: { [Op.in]: rows.map((r) => r.carrierId) },
    reason: Enums.carrierAlertReason.invalidRoute,
    createdTime: { [Op.in]: [...new Set(rows.map((r) => (r.createdTime as Date).getTime()))].map((t) => new Date(t)) },
  });
  return rows.length;
}

/**
 * Carrier alerts shipping raised (committed), found by `where`, pushed to the live streams as
 * the rules' alerts are (the notification banner shows them at once).
 */
export async function publishAlerts(ctx: PluginServerContext, orgId: number, where: Row): Promise<void> {
  const telemetry = ctx.tryUse('telemetry');
  if (!telemetry) return;
  const rows = await ctx.repo('carrier-alert', ctx.systemContext(orgId)).rows(where);
  for (const row of rows)
    telemetry.publish({
      type: 'alert',
      orgId,
      warehouseId: row.warehouseId === null || row.warehouseId === undefined ? null : Number(row.warehouseId),
      data: { category: 'carrier', resource: 'carrier-alert', ...row },
    });
}
