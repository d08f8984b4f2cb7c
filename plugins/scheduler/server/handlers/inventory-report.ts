/**
 * Tasks 2/3 (daily inventory report, and its mail) and 5 (weekly): carriers now in each
 * warehouse against the warehouse's minimum, maximum and theoretical inventory; the weekly
 * report adds the inbound and outbound movements of the last seven days.
 */
import { Op } from 'sequelize';
import type { Outcome, RunContext } from '../task';
import { formatTime, workbook } from '../xlsx';

const DAY = 86_400_000;
/** inoutDirection: inbound 10, outbound 20 */
const INBOUND = 10;
const OUTBOUND = 20;

type Raw = Record<string, any>;

export type InventoryLevel = 'below' | 'above' | 'normal';

export function levelOf(count: number, min: number | null, max: number | null): InventoryLevel {
  if (min !== null && count < min) return 'below';
  if (max !== null && count > max) return 'above';
  return 'normal';
}

const n = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

export function inventoryReport(weekly: boolean) {
  return async (rc: RunContext): Promise<Outcome> => {
    const warehouses = (await rc.plugin.repo('warehouse', rc.call).findAll({ order: [['code', 'ASC']], raw: true })) as unknown as Raw[];
    const date = formatTime(rc.now, rc.timezone).slice(0, 10);
    if (!warehouses.length) return { kind: 'empty', reason: rc.t('scheduler.empty.warehouses') };
    const carriers = rc.plugin.repo('carrier', rc.call);
    const moves = rc.plugin.repo('carrier-inout', rc.call);
    const since = new Date(rc.now.getTime() - 7 * DAY);
    const rows: Raw[] = [];
    for (const w of warehouses) {
      const count = await carriers.count({ warehouseId: w.id });
      const min = n(w.minInventory);
      const max = n(w.maxInventory);
      const theory = n(w.theoryInventory);
      const row: Raw = {
        code: w.code,
        name: w.name,
        count,
        min,
        max,
        theory,
        gap: theory === null ? null : count - theory,
        level: rc.t(`scheduler.level.${levelOf(count, min, max)}`),
      };
      if (weekly) {
        const window = { warehouseId: w.id, confirmTime: { [Op.gte]: since, [Op.lte]: rc.now } };
        row.inbound = await moves.count({ ...window, direction: INBOUND });
        row.outbound = await moves.count({ ...window, direction: OUTBOUND });
      }
      rows.push(row);
    }
    const columns = [
      { header: rc.t('scheduler.col.warehouseCode'), key: 'code', width: 14 },
      { header: rc.t('scheduler.col.warehouse'), key: 'name', width: 22 },
      { header: rc.t('scheduler.col.carriers'), key: 'count', width: 12 },
      { header: rc.t('scheduler.col.minInventory'), key: 'min', width: 12 },
      { header: rc.t('scheduler.col.maxInventory'), key: 'max', width: 12 },
      { header: rc.t('scheduler.col.theoryInventory'), key: 'theory', width: 12 },
      { header: rc.t('scheduler.col.gap'), key: 'gap', width: 12 },
      { header: rc.t('scheduler.col.level'), key: 'level', width: 14 },
      ...(weekly
        ? [
            { header: rc.t('scheduler.col.inbound'), key: 'inbound', width: 12 },
            { header: rc.t('scheduler.col.outbound'), key: 'outbound', width: 12 },
          ]
        : []),
    ];
    const content = await workbook(rc.t(weekly ? 'scheduler.sheet.weekly' : 'scheduler.sheet.inventory'), columns, rows);
    const below = rows.filter((r) => r.level === rc.t('scheduler.level.below')).length;
    const above = rows.filter((r) => r.level === rc.t('scheduler.level.above')).length;
    return {
      kind: 'report',
      report: {
        title: rc.t(weekly ? 'enums.taskName.weeklyInventoryReport' : 'enums.taskName.dailyInventoryReport'),
        text: rc.t('scheduler.text.inventory', { count: rows.length, date, below, above }),
        attachment: { filename: `${weekly ? 'weekly' : 'daily'}-inventory-${date}.xlsx`, content },
        rows: rows.length,
      },
    };
  };
}
