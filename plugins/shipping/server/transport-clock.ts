/**
 * The route's transport-time clock from the document (issue 12 item 3): a released ship order
 * is due `dueAt` (departure + the route's transport time, set by the release). A job finds the
 * orders past it in every organisation and raises ONE transport-timeout alert per order
 * (carrier alert reason 20, naming the order; one of its carriers is the alert's subject). The
 * order keeps the alert's id (`timeoutAlertId`), so the next runs never raise it again;
 * receiving the order clears it. The job runs once per cluster per period (`{ once: true }`:
 * the server's job lease), and the orders it reads are locked, so a second server instance
 * neither runs it at the same time nor raises an alert twice.
 */
import { Enums } from '@rti/metadata';
import type { BoundRepository, PluginServerContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { publishAlerts } from './telemetry-agreement';
import { orderGroup } from './statuses';

type Row = Record<string, any>;
const Order = Enums.shipOrderStatus;
/** an overdue order with nothing in transit: nothing to time out, and no later run reads it again */
const NOTHING_IN_TRANSIT = -1;
/** orders per organisation per run (the rest come next run) */
const BATCH = 500;

export function installTransportClock(ctx: PluginServerContext): void {
  const ms = Number(process.env.SHIP_ORDER_CLOCK_MS) || 60_000;
  ctx.jobs.every(
    'transport-clock',
    ms,
    async () => {
      await raiseOverdue(ctx, new Date());
    },
    { once: true },
  );
}

/** Raises the timeout alert of every order overdue at `now`; returns how many were raised. */
export async function raiseOverdue(ctx: PluginServerContext, now: Date): Promise<number> {
  const due = { status: { [Op.in]: orderGroup('inTransit') }, dueAt: { [Op.lt]: now }, timeoutAlertId: null };
  let raised = 0;
  for (const orgId of await ctx.organisationsWith('ship-order', due)) {
    try {
      const n = await raiseInOrg(ctx, orgId, due, now);
      // committed: the streams hear of them as of the rules' alerts
      if (n) await publishAlerts(ctx, orgId, { reason: Enums.carrierAlertReason.transportTimeout, createdTime: now });
      raised += n;
    } catch (err) {
      ctx.log(`[shipping] transport clock failed for organisation ${orgId}`, err);
    }
  }
  return raised;
}

async function raiseInOrg(ctx: PluginServerContext, orgId: number, due: Row, now: Date): Promise<number> {
  const sys = ctx.systemContext(orgId);
  return ctx.transaction(sys, async (repo, transaction) => {
    const orders = await repo('ship-order').rows(due, {
      attributes: ['id', 'orderNo', 'shipperWarehouseId', 'receiverWarehouseId', 'atd', 'dueAt', 'totalAmount'],
      order: [['dueAt', 'ASC']],
      limit: BATCH,
      lock: 'update',
    });
    if (!orders.length) return 0;
    const names = new Map(
      (
        await repo('warehouse').rows(
          { id: { [Op.in]: [...new Set(orders.flatMap((o) => [Number(o.shipperWarehouseId), Number(o.receiverWarehouseId)]))] } },
          { attributes: ['id', 'name'] },
        )
      ).map((w) => [Number(w.id), String(w.name)]),
    );
    const alerts: Row[] = [];
    const subjectOf = new Map<number, number>();
    for (const o of orders) {
      // the alert's subject: the order's first carrier still on its way
      const [line] = await repo('ship-order-detail').rows(
        { shipOrderId: o.id, status: Enums.shipOrderLineStatus.shipped },
        { attributes: ['carrierId', 'carrierSn'], order: [['id', 'ASC']], limit: 1 },
      );
      if (!line) continue;
      const minutes = o.atd && o.dueAt ? Math.round((new Date(o.dueAt as string).getTime() - new Date(o.atd as string).getTime()) / 60_000) : 0;
      const count = await repo('ship-order-detail').count({ shipOrderId: o.id, status: Enums.shipOrderLineStatus.shipped });
      const params = {
        order: String(o.orderNo),
        from: names.get(Number(o.shipperWarehouseId)) ?? '',
        to: names.get(Number(o.receiverWarehouseId)) ?? '',
        count,
        minutes,
      };
      subjectOf.set(Number(o.id), Number(line.carrierId));
      alerts.push({
        carrierId: line.carrierId,
        carrierSn: line.carrierSn,
        reason: Enums.carrierAlertReason.transportTimeout,
        createdTime: now,
        warehouseId: o.shipperWarehouseId,
        message: `ship order ${params.order} from ${params.from} to ${params.to}: ${params.count} carrier(s) in transit for more than ${minutes} min`.slice(
          0,
          500,
        ),
        messageKey: { key: 'shipping.alerts.orderOverdue', params },
        status: Enums.alertStatus.unsolved,
        rawData: { shipOrderId: Number(o.id), orderNo: o.orderNo, dueAt: o.dueAt },
      });
    }
    // the scoped repository's insertMany writes json columns (messageKey, rawData) as the model does
    if (alerts.length) await ctx.repo('carrier-alert', sys).insertMany(alerts, { transaction });
    // insertMany answers a count: the new rows are found again by their subject and time
    const written = alerts.length
      ? await repo('carrier-alert').rows(
          { carrierId: { [Op.in]: [...subjectOf.values()] }, reason: Enums.carrierAlertReason.transportTimeout, createdTime: now },
          { attributes: ['id', 'carrierId'] },
        )
      : [];
    const alertOf = new Map(written.map((a) => [Number(a.carrierId), Number(a.id)]));
    for (const o of orders) {
      const alertId = alertOf.get(subjectOf.get(Number(o.id)) ?? -1);
      await repo('ship-order').updateWhere({ timeoutAlertId: alertId ?? NOTHING_IN_TRANSIT }, { id: o.id, timeoutAlertId: null });
    }
    return alertOf.size;
  });
}

/** Receiving ends the trip: the order's timeout alert is cleared (it stays for a person to process). */
export async function clearTimeoutAlerts(repo: (resource: string) => BoundRepository, orderIds: number[], now = new Date()): Promise<number> {
  if (!orderIds.length) return 0;
  const orders = await repo('ship-order').rows({ id: { [Op.in]: orderIds }, timeoutAlertId: { [Op.gt]: 0 } }, { attributes: ['timeoutAlertId'] });
  if (!orders.length) return 0;
  return repo('carrier-alert').updateWhere({ clearedAt: now }, { id: { [Op.in]: orders.map((o) => Number(o.timeoutAlertId)) }, clearedAt: null });
}
