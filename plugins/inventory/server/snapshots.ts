/**
 * Daily closing snapshots (resource inventory-snapshot): per organisation, warehouse and carrier
 * code, the figures at the close of a day plus that day's inbound and outbound rows. Written by
 * a job once per cluster (the previous day, when it has none yet) and by the closing call
 * (`/inventory/snapshot/close`: today, as it stands now — provisional: a re-close or the night's
 * job replaces it); history reads them instead of replaying movements. An adjustment corrects
 * the snapshots of its day and later (a back-dated one reaches into closed days). Days are the
 * organisation's (its time zone: a day closes at its midnight).
 */
import { Enums } from '@rti/metadata';
import { DAY_MS, dayOf, dayStart, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op, col, fn, type Transaction } from 'sequelize';
import type { FiguresReader } from './figures';

type Row = Record<string, any>;
/** the closing job looks for an unclosed previous day this often */
const CLOSING_EVERY_MS = 15 * 60_000;

export const dayString = (t: number): string => new Date(t).toISOString().slice(0, 10);
/** the calendar day after a "YYYY-MM-DD" */
export const nextDay = (day: string): string => dayString(Date.parse(`${day}T00:00:00Z`) + DAY_MS);

export function snapshots(ctx: PluginServerContext, figures: FiguresReader) {
  /** writes the day's snapshot of the organisation (replacing one written before); answers the rows written */
  async function close(call: RequestContext, day: string, now = new Date()): Promise<number> {
    const sys = ctx.systemContext(call.orgId!, call.language);
    const { rows } = await figures.byCode(sys, {}, (k) => k, now);
    const zone = await ctx.zoneOf(call.orgId);
    const from = new Date(dayStart(day, zone));
    const to = new Date(dayStart(nextDay(day), zone));
    const moves = await ctx
      .repo('carrier-inout', sys)
      .rows(
        { confirmTime: { [Op.gte]: from, [Op.lt]: to } },
        { attributes: ['warehouseId', 'carrierCodeId', 'direction', [fn('COUNT', col('id')), 'n']], group: ['warehouseId', 'carrierCodeId', 'direction'] },
      );
    const byKey = new Map<string, Row>();
    for (const r of rows) {
      byKey.set(r.key, {
        day,
        warehouseId: r.warehouseId,
        carrierCodeId: r.carrierCodeId,
        inStock: r.inStock,
        maintenance: r.maintenance,
        idle: r.idle,
        empty: r.empty,
        full: r.full,
        inTransitIn: r.inTransitIn,
        inTransitOut: r.inTransitOut,
        inbound: 0,
        outbound: 0,
      });
    }
    const warehouses = new Set(rows.map((r) => r.warehouseId));
    for (const m of moves) {
      if (m.warehouseId === null || m.warehouseId === undefined) continue;
      const key = `${m.warehouseId}:${m.carrierCodeId ?? ''}`;
      let r = byKey.get(key);
      if (!r) {
        // a warehouse deleted since has no row to keep its moves on
        if (!warehouses.has(Number(m.warehouseId))) continue;
        const empty = { inStock: 0, maintenance: 0, idle: 0, empty: 0, full: 0, inTransitIn: 0, inTransitOut: 0, inbound: 0, outbound: 0 };
        byKey.set(key, (r = { day, warehouseId: Number(m.warehouseId), carrierCodeId: m.carrierCodeId ?? null, ...empty }));
      }
      if (Number(m.direction) === Enums.inoutDirection.inbound) r.inbound += Number(m.n);
      else r.outbound += Number(m.n);
    }
    const list = [...byKey.values()];
    await ctx.transaction(sys, async (repo) => {
      await repo('inventory-snapshot').deleteWhere({ day });
      await repo('inventory-snapshot').insertMany(list);
    });
    return list.length;
  }

  /**
   * A step moved carriers after the snapshots it concerns were written: every snapshot of the
   * step's day or later (closed days and today's provisional close alike were taken before the
   * step ran) gets the move — out of the source, into the target — and the step's day its in/out
   * rows. A code a warehouse had no row for on a day gets none (its total stays the warehouse's).
   */
  type Move = { warehouseId: number; carrierCodeId: number | null; delta: number; direction: number };
  async function correct(call: RequestContext, transaction: Transaction, at: Date, moves: Move[]): Promise<void> {
    if (!moves.length || call.orgId === null) return;
    const first = dayOf(at, await ctx.zoneOf(call.orgId));
    const repo = ctx.repo('inventory-snapshot', ctx.systemContext(call.orgId, call.language));
    if (!(await repo.count({ day: { [Op.gte]: first } }, transaction))) return;
    for (const m of moves) {
      const where = { warehouseId: m.warehouseId, carrierCodeId: m.carrierCodeId, day: { [Op.gte]: first } };
      await repo.increment({ inStock: m.delta }, where, { transaction });
      await repo.increment(
        m.direction === Enums.inoutDirection.inbound ? { inbound: Math.abs(m.delta) } : { outbound: Math.abs(m.delta) },
        { ...where, day: first },
        { transaction },
      );
    }
  }

  function install(): void {
    ctx.jobs.every(
      'inventory-closing',
      CLOSING_EVERY_MS,
      async () => {
        for (const orgId of await ctx.organisationsWith('warehouse')) {
          const sys = ctx.systemContext(orgId);
          // the organisation's yesterday, over at its midnight (a close by hand during the day was provisional: it is redone)
          const zone = await ctx.zoneOf(orgId);
          const today = dayOf(Date.now(), zone);
          const yesterday = dayOf(dayStart(today, zone) - 1, zone);
          const over = dayStart(today, zone);
          if (await ctx.repo('inventory-snapshot', sys).count({ day: yesterday, createdAt: { [Op.gte]: new Date(over) } })) continue;
          try {
            await close(sys, yesterday);
          } catch (err) {
            ctx.log(`[inventory] closing ${yesterday} of organisation ${orgId} failed`, err);
          }
        }
      },
      { once: true },
    );
  }

  return { close, correct, install };
}
