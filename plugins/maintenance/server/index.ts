/**
 * Maintenance and assets (issue 20): carrier assets, repair records with apply → start →
 * complete → audit/reject, asset transfers. The documents, their numbers, statuses and steps
 * are metadata (plugins/maintenance/metadata); this plugin adds what a step does to carriers and
 * assets (records.ts, assets.ts, transfers.ts) and SPEC's extra calls (calls.ts).
 */
import { definePlugin } from '@rti/server/plugin-api';
import { registerAssets } from './assets';
import { registerCalls } from './calls';
import { registerInfo } from './info';
import { registerRecords } from './records';
import { registerReminders } from './reminders';
import { registerReports } from './reports';
import { registerTransfers } from './transfers';

export default definePlugin({
  id: 'maintenance',
  // the platform's mail service for the reminders (file outbox or SMTP)
  optionalDependsOn: ['scheduler'],
  server(ctx) {
    registerRecords(ctx);
    registerAssets(ctx);
    registerTransfers(ctx);
    registerCalls(ctx);
    registerReports(ctx);
    registerReminders(ctx);
    registerInfo(ctx);
  },
});
