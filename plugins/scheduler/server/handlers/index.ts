/**
 * Task name (SPEC §9 taskName) → what a run does. Names without a data source in this
 * product end their runs "skipped" with the reason, never a pretended success.
 */
import type { Outcome, RunContext, TaskHandler } from '../task';
import { gpsAlertMail } from './gps-alert-mail';
import { gpsReportMail } from './gps-report-mail';
import { inventoryReport } from './inventory-report';

const skip =
  (reasonKey: string): TaskHandler =>
  async (rc: RunContext): Promise<Outcome> => ({ kind: 'skipped', reason: rc.t(reasonKey, { name: rc.t(`enums.taskName.${NAME_KEYS[rc.task.name] ?? 'customerTask'}`) }) });

/** enum value → label key suffix (metadata/enums.json taskName) */
export const NAME_KEYS: Record<number, string> = {
  1: 'customerTask',
  2: 'dailyInventoryReport',
  3: 'dailyInventoryReportMail',
  5: 'weeklyInventoryReport',
  11: 'customerDailyReportA',
  12: 'customerDailyReportB',
  31: 'customerDailyReportAMail',
  32: 'customerDailyReportBMail',
  40: 'threeBatchReport',
  41: 'threeBatchReportMail',
  50: 'maintenanceExpiryMail',
  60: 'gpsReportMail',
  70: 'gpsAlertMail',
};

export const HANDLERS: Record<number, TaskHandler> = {
  2: inventoryReport(false),
  3: inventoryReport(false),
  5: inventoryReport(true),
  60: gpsReportMail,
  70: gpsAlertMail,
  // customer-specific reports: their definitions are the customer's, not in this product
  1: skip('scheduler.skip.customerReport'),
  11: skip('scheduler.skip.customerReport'),
  12: skip('scheduler.skip.customerReport'),
  31: skip('scheduler.skip.customerReport'),
  32: skip('scheduler.skip.customerReport'),
  40: skip('scheduler.skip.customerReport'),
  41: skip('scheduler.skip.customerReport'),
  // no maintenance records exist in this product (SPEC's /task-mail-maintenance is not built)
  50: skip('scheduler.skip.noMaintenance'),
};

export const handlerFor = (name: number): TaskHandler => HANDLERS[name] ?? skip('scheduler.skip.unknown');
