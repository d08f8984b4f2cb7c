/**
 * Report history for the demo (issue 19 item 6): the daily and weekly inventory reports read
 * the inventory plugin's daily closing snapshots, which a fresh install has none of. Today is
 * closed through the server's own call (`/inventory/snapshot/close`: the live figures as they
 * stand after the ship orders), and the days before are walked back from it with a few
 * carriers in and out per day (each day's close = the next day's close − its inbound + its
 * outbound), so the pages, their charts and the mails show weeks of movement on first start.
 * Also two three-batch report records per organisation (hub ↔ first depots). Idempotent: an
 * organisation that already has a closed day before today gets nothing.
 */
import type { Sequelize } from 'sequelize';
import { Op } from 'sequelize';
import { rng } from './random';

type Row = Record<string, any>;
type CallRunner = (path: string, body: Record<string, unknown>) => Promise<any>;
const DAY_MS = 86_400_000;
/** days of history before today */
export const REPORT_HISTORY_DAYS = 28;

const dayString = (t: number) => new Date(t).toISOString().slice(0, 10);

export async function seedReports(
  sequelize: Sequelize,
  call: CallRunner,
  has: (path: string) => boolean,
  orgId: number,
  whIds: number[],
  now: number,
): Promise<number> {
  const snapshots = sequelize.models['inventory-snapshot'];
  if (!snapshots || !has('/inventory/snapshot/close')) return 0;
  const today = dayString(now);
  let created = 0;
  if (!(await snapshots.count({ where: { orgId, day: { [Op.lt]: today } } }))) {
    await call('/inventory/snapshot/close', {});
    const closes = (await snapshots.findAll({ where: { orgId, day: today }, raw: true })) as unknown as Row[];
    const r = rng(orgId * 7919);
    const rows: Row[] = [];
    for (const c of closes) {
      let stock = Number(c.inStock);
      // walking back: the day before closed with what this day started from
      for (let d = 1; d <= REPORT_HISTORY_DAYS; d++) {
        const weekend = new Date(now - d * DAY_MS).getUTCDay() % 6 === 0;
        const flow = stock > 0 ? Math.max(1, Math.round(stock * (weekend ? 0.03 : 0.12))) : 2;
        // today's own moves first (its close holds them), then a few a day
        const inbound = d === 1 ? Number(c.inbound) : r.int(0, flow);
        const outbound = d === 1 ? Number(c.outbound) : Math.min(stock + inbound, r.int(0, flow));
        stock = Math.max(0, stock - inbound + outbound);
        const prevDay = dayString(now - d * DAY_MS);
        rows.push({
          orgId,
          day: prevDay,
          warehouseId: c.warehouseId,
          carrierCodeId: c.carrierCodeId,
          inStock: stock,
          maintenance: Math.min(stock, Number(c.maintenance)),
          idle: Math.min(stock, Math.max(0, Number(c.idle) - r.int(0, 2) * Math.floor(d / 7))),
          empty: Math.min(stock, Number(c.empty)),
          full: Math.min(stock, Number(c.full)),
          inTransitIn: r.int(0, 1) ? Number(c.inTransitIn) : 0,
          inTransitOut: r.int(0, 1) ? Number(c.inTransitOut) : 0,
          // the snapshot of day d holds its own moves: those just walked back over belong to the day after
          inbound: 0,
          outbound: 0,
          _in: inbound,
          _out: outbound,
        });
      }
    }
    // a day's inbound/outbound are the moves that led from its close to the next one
    const byKey = new Map(rows.map((x) => [`${x.day}:${x.warehouseId}:${x.carrierCodeId}`, x]));
    for (const x of rows) {
      const next = byKey.get(`${dayString(Date.parse(`${x.day}T00:00:00Z`) + DAY_MS)}:${x.warehouseId}:${x.carrierCodeId}`);
      if (next) {
        next.inbound = x._in;
        next.outbound = x._out;
      }
    }
    for (const x of rows) {
      delete x._in;
      delete x._out;
    }
    for (let i = 0; i < rows.length; i += 2000) await snapshots.bulkCreate(rows.slice(i, i + 2000));
    created += rows.length + closes.length;
  }

  // three-batch records: the hub and its first depots, for the code most in stock at the hub
  if (has('/report-three-batch/create') && whIds.length >= 3 && sequelize.models['report-three-batch']) {
    if (!(await sequelize.models['report-three-batch'].count({ where: { orgId } }))) {
      const [top] = (await snapshots.findAll({
        where: { orgId, day: today, warehouseId: whIds[0], carrierCodeId: { [Op.ne]: null } },
        order: [['inStock', 'DESC']],
        limit: 1,
        raw: true,
      })) as unknown as Row[];
      if (top) {
        for (const [i, secondary] of [whIds[1], whIds[2]].entries()) {
          await call('/report-three-batch/create', {
            name: `Hub shuttle ${i + 1}`,
            primaryWarehouseId: whIds[0],
            secondaryWarehouseId: secondary,
            carrierCodeId: top.carrierCodeId,
            remark: 'Demo',
          });
          created++;
        }
      }
    }
  }
  return created;
}
